"""An entry's short way (issue 40, ``referee/store/entry_write.py``): an entry worked out on this process's newest
state of the table is stored by a write whose statement checks every condition, in one round trip on PostgreSQL and
four statements of SQLite; every refusal is still the long way's own, answered as before (R-COMMON-7, R-COMMON-8),
and nothing of a refused write is stored."""
from __future__ import annotations

import pytest

from referee.errors import Conflict, Forbidden, RuleError, Unauthorized
from tests.support.corrected import buraco_signed, correct_last_hand, post, read
from tests.support.deals import DEAL_4P
from tests.support.ledgers import at_once, new
from tests.support.statements import Recorded

DEAL = {"type": "deal", "trump": "11E"}
TRICK = {"type": "trick", "cards": DEAL_4P[0][0]}


def test_an_entry_on_postgresql_is_one_round_trip(ledger):
    """BEGIN, UPDATE, INSERT and COMMIT were four round trips; the entry is now one statement in autocommit."""
    if ledger.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's round trips")
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    ledger.engine.dispose()  # new connections, traced from their first checkout
    recorded = Recorded(ledger)
    try:
        ledger.state(table_id)  # a connection opened and lent back
        status, state = recorded.during(lambda: ledger.append(table_id, TRICK, key=scorer, client_event_id="t-1"))
        assert (status, state["version"], recorded.round_trips()) == (201, 2, 1)
    finally:
        recorded.close()
    log = ledger.events(table_id)
    assert [(e["seq"], e["type"], e["by"], e.get("client_event_id")) for e in log] == \
        [(1, "deal", "scorer", None), (2, "trick", "scorer", "t-1")]
    assert ledger.state(table_id) == state


def test_an_entry_on_sqlite_is_its_four_statements(ledger):
    if ledger.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's statements")
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    recorded = Recorded(ledger)
    try:
        status, state = recorded.during(lambda: ledger.append(table_id, TRICK, key=scorer))
        assert (status, state["version"]) == (201, 2)
        assert [statement.split()[0] for statement in recorded.statements] == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
        assert recorded.statements[0] == "BEGIN IMMEDIATE"  # the write lock before the row is read
    finally:
        recorded.close()


def test_a_stale_version_is_refused_as_ever_and_nothing_is_stored(ledger):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    with pytest.raises(Conflict) as refused:
        ledger.append(table_id, TRICK, expected_version=0, key=scorer)
    assert refused.value.code == "version_conflict" and refused.value.params == {"version": 1, "revision": 1}
    with pytest.raises(Conflict):
        ledger.append(table_id, TRICK, expected_revision=0, key=scorer)
    assert ledger.state(table_id)["revision"] == 1 and len(ledger.events(table_id)) == 1


def test_a_viewer_key_and_a_wrong_key_store_nothing(ledger):
    table_id, scorer, viewer = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    with pytest.raises(Forbidden):
        ledger.append(table_id, TRICK, key=viewer)
    with pytest.raises(Unauthorized):
        ledger.append(table_id, TRICK, key="not-a-key-of-this-table")
    assert ledger.state(table_id)["revision"] == 1 and len(ledger.events(table_id)) == 1


def test_r_common_8_the_co_scorers_entry_is_kept_as_the_co_scorers(ledger):
    table_id, scorer, _ = new(ledger)
    coscorer = ledger.new_key(table_id, "coscorer")
    ledger.append(table_id, DEAL, key=scorer)
    assert ledger.append(table_id, TRICK, key=coscorer)[0] == 201
    assert [e["by"] for e in ledger.events(table_id)] == ["scorer", "coscorer"]


def test_a_retried_entry_is_answered_and_stored_once(ledger):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    first = ledger.append(table_id, TRICK, client_event_id="phone-1", key=scorer)
    again = ledger.append(table_id, TRICK, client_event_id="phone-1", key=scorer)
    assert (first[0], again[0]) == (201, 200) and again[1] == ledger.state(table_id)
    assert [e.get("client_event_id") for e in ledger.events(table_id)] == [None, "phone-1"]


def test_the_same_entry_sent_six_times_at_once_is_stored_once(ledger):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    assert at_once(6, lambda: ledger.append(table_id, TRICK, client_event_id="trick-1", key=scorer)) == \
        [200] * 5 + [201]
    assert len(ledger.events(table_id)) == 2


def test_two_phones_entering_on_the_same_revision_one_is_stored_the_other_refused(ledger):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    assert at_once(4, lambda: ledger.append(table_id, TRICK, expected_revision=1, key=scorer)) == [201, 409, 409, 409]
    assert ledger.state(table_id)["version"] == 2


def test_an_entry_after_another_process_wrote_takes_the_long_way_and_is_right(ledger):
    """This process's newest state is a revision behind: the short way's statement finds another revision, stores
    nothing, and the entry is worked out again on the table as it is."""
    from referee.store import Ledger

    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    other = Ledger(ledger.url)
    try:
        other.append(table_id, TRICK, key=scorer)
        second = {"type": "trick", "cards": DEAL_4P[1][0]}
        status, state = ledger.append(table_id, second, key=scorer)
        assert (status, state["version"], state["revision"]) == (201, 3, 3)
        assert [e["seq"] for e in ledger.events(table_id)] == [1, 2, 3]
        assert other.state(table_id) == state
    finally:
        other.engine.dispose()


def test_a_trick_under_way_another_phone_changed_is_refused(ledger):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    ledger.set_draft(table_id, DEAL_4P[0][0][:2], 1, key=scorer)
    with pytest.raises(Conflict) as refused:
        ledger.append(table_id, TRICK, expected_draft=DEAL_4P[0][0][:1], key=scorer)
    assert refused.value.code == "draft_conflict" and len(ledger.events(table_id)) == 1
    assert ledger.append(table_id, TRICK, expected_draft=DEAL_4P[0][0][:2], key=scorer)[0] == 201


def test_r_common_5_an_entry_the_engine_refuses_stores_nothing(ledger):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, DEAL, key=scorer)
    with pytest.raises(RuleError):
        ledger.append(table_id, {"type": "trick", "cards": ["1C", "1C", "2C", "6O"]}, key=scorer)
    assert ledger.state(table_id)["revision"] == 1


def test_r_common_7_and_8_a_signed_round_table_refuses_its_keys_and_takes_the_directors_with_a_reason(
        client_on_each_database):
    """Through the API (the short way's path: the process holds the table's newest state): both sides signed, the
    table's own key is refused (R-COMMON-7), the director's without a reason too (R-COMMON-8), nothing stored; the
    director's correction with its reason is stored as the director's."""
    client = client_on_each_database
    _, director, table_id, key = buraco_signed(client)
    version = read(client, table_id, key)["version"]
    assert post(client, table_id, key, {"type": "dispute", "side": 1}, 409)["code"] == "signed"
    assert post(client, table_id, director, {"type": "dispute", "side": 1}, 422)["code"] == "reason_required"
    assert read(client, table_id, key)["version"] == version
    assert correct_last_hand(client, table_id, director, 15)["totals"] == [1130, 465]
    last = client.get(f"/api/v1/tables/{table_id}/events?key={key}").get_json()["events"][-1]
    assert (last["type"], last["by"], last["reason"]) == ("tally", "director", "East-West held 15 in hand, not 5")


def fresh_state(ledger, table_id: str) -> dict:
    """The table's state replayed from its whole log by a process that never saw it."""
    from referee.store import Ledger

    other = Ledger(ledger.url)
    try:
        return other.state(table_id)
    finally:
        other.engine.dispose()


def test_a_process_a_few_entries_behind_steps_its_state_on_the_newest_events_only(ledger):
    """Two worker processes taking a table's entries in turn: each finds its newest state one entry behind and steps
    it on the one event it lacks (a SELECT … LIMIT), never the whole log; the states are the log's."""
    from referee.store import Ledger

    table_id, scorer, _ = new(ledger)
    other = Ledger(ledger.url)
    recorded = Recorded(ledger)
    try:
        bodies = [DEAL] + [{"type": "trick", "cards": cards} for cards, _, _ in DEAL_4P[:6]]
        for number, body in enumerate(bodies):
            writer = ledger if number % 2 == 0 else other
            status, state = recorded.during(lambda: writer.append(table_id, body, key=scorer))
            assert status == 201 and state == fresh_state(ledger, table_id)
            if writer is ledger and number > 0 and recorded.sqlite:
                reads = [s for s in recorded.statements if s.startswith("SELECT") and "FROM events" in s]
                assert len(reads) == 1 and "LIMIT 1" in reads[0] and "ORDER BY events.seq DESC" in reads[0]
        assert ledger.state(table_id)["version"] == 7
    finally:
        recorded.close()
        other.engine.dispose()


def test_after_another_process_undid_an_entry_the_whole_log_is_replayed(ledger):
    """An undo moves the version down: the newest events are no longer the ones the kept state lacks."""
    from referee.store import Ledger

    table_id, scorer, _ = new(ledger)
    other = Ledger(ledger.url)
    try:
        ledger.append(table_id, DEAL, key=scorer)
        ledger.append(table_id, TRICK, key=scorer)
        other.undo(table_id)
        other.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]}, key=scorer)  # revision and version +1
        status, state = ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[1][0]}, key=scorer)
        assert (status, state["version"], state["revision"]) == (201, 3, 5)
        assert state == fresh_state(ledger, table_id)
        assert [e["withdrawn"] for e in ledger.events(table_id)] == [False, True, False, False]
    finally:
        other.engine.dispose()


def test_a_taps_trick_under_way_is_one_update_that_checks_the_key(ledger):
    """A card that does not end the trick (``set_draft``) on this process's newest state: one UPDATE whose WHERE
    checks the key, the revision and the trick seen, no read of the keys before it; a viewer key, a wrong key and a
    stale trick still get the long way's own refusals, nothing stored."""
    table_id, scorer, viewer = new(ledger)
    state = ledger.append(table_id, DEAL, key=scorer)[1]
    cards = TRICK["cards"]
    recorded = Recorded(ledger)
    try:
        assert recorded.during(lambda: ledger.set_draft(table_id, cards[:1], state["revision"], key=scorer)) == \
            tuple(cards[:1])
        if ledger.engine.dialect.name == "sqlite":
            assert [s.split()[0] for s in recorded.statements] == ["BEGIN", "UPDATE", "COMMIT"]
        else:
            assert recorded.round_trips() == 1
    finally:
        recorded.close()
    with pytest.raises(Forbidden):
        ledger.set_draft(table_id, cards[:2], state["revision"], seen=cards[:1], key=viewer)
    with pytest.raises(Unauthorized):
        ledger.set_draft(table_id, cards[:2], state["revision"], seen=cards[:1], key="not-a-key")
    with pytest.raises(Conflict):
        ledger.set_draft(table_id, cards[:2], state["revision"], seen=(), key=scorer)  # another phone's view
    assert ledger.look(table_id)[2] == tuple(cards[:1])  # the refused ones stored nothing
    ledger._cache.clear()  # and as the database has it
    assert ledger.look(table_id)[2] == tuple(cards[:1])
