"""The ledger on SQLite and on PostgreSQL: append-only log, replay, versions, retries, undo, concurrency."""
import threading

import pytest

from referee.errors import Conflict, NotFound, ParseError, RuleError
from referee.web.services import status_of
from tests.support.deals import DEAL_4P
from tests.support.ledgers import at_once, new

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]


def test_create_stores_only_a_hash_of_the_scorer_key(ledger):
    table_id, scorer, viewer = new(ledger)
    assert len(scorer) >= 22 and len(viewer) >= 22 and scorer != viewer
    assert ledger.authorize(table_id, scorer, write=True) == "scorer"
    assert ledger.authorize(table_id, viewer) == "viewer"
    from sqlmodel import Session

    from referee.store.records import TableRecord
    with Session(ledger.engine) as session:
        record = session.get(TableRecord, table_id)
        assert scorer not in (record.scorer_hash, record.viewer_key) and len(record.scorer_hash) == 64


def test_a_whole_deal_replays_to_the_same_state(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    for cards, _, _ in DEAL_4P:
        status, state = ledger.append(table_id, {"type": "trick", "cards": cards})
        assert status == 201
    assert state["version"] == 11 and state["totals"] == [65, 55]
    ledger._cache.clear()  # a fresh process: the state comes from replaying the stored events
    assert ledger.state(table_id) == state


def test_refused_event_stores_nothing(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    with pytest.raises(ParseError) as error:
        ledger.append(table_id, {"type": "trick", "cards": ["8O", "1C", "2C", "3C"]})
    assert error.value.code == "unknown_card"
    with pytest.raises(RuleError):
        ledger.append(table_id, {"type": "trick", "cards": ["1C", "2C"]})
    assert len(ledger.events(table_id)) == 1 and ledger.state(table_id)["version"] == 1


def test_expected_version_and_client_event_id(ledger):
    table_id, _, _ = new(ledger)
    status, state = ledger.append(table_id, {"type": "deal", "trump": "11E"}, expected_version=0,
                                  client_event_id="phone-1")
    assert status == 201 and state["version"] == 1
    status, again = ledger.append(table_id, {"type": "deal", "trump": "11E"}, client_event_id="phone-1")
    assert status == 200 and again["version"] == 1 and len(ledger.events(table_id)) == 1
    with pytest.raises(Conflict) as error:
        ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]}, expected_version=0)
    assert error.value.code == "version_conflict" and status_of(error.value) == 409


def test_undo_withdraws_and_keeps_the_history(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    _, with_trick = ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]})
    state = ledger.undo(table_id)
    assert state["version"] == 1 and state["deals"][0]["tricks"] == []
    _, redone = ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]})
    assert {k: v for k, v in redone.items() if k != "revision"} == \
        {k: v for k, v in with_trick.items() if k != "revision"}
    assert redone["revision"] > with_trick["revision"]
    events = ledger.events(table_id)
    assert [(e["seq"], e["type"], e["withdrawn"]) for e in events] == \
        [(1, "deal", False), (2, "trick", True), (3, "trick", False)]
    ledger.undo(table_id)
    ledger.undo(table_id)
    with pytest.raises(RuleError) as error:
        ledger.undo(table_id)
    assert error.value.code == "nothing_to_undo"


def test_unknown_table(ledger):
    with pytest.raises(NotFound):
        ledger.state("nope")
    with pytest.raises(NotFound):
        ledger.append("nope", {"type": "deal", "trump": "11E"})


def test_two_phones_entering_the_same_trick_at_once_store_it_once(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    trick = {"type": "trick", "cards": DEAL_4P[0][0]}
    assert at_once(8, lambda: ledger.append(table_id, trick, expected_version=1)) == [201] + [409] * 7
    assert len(ledger.events(table_id)) == 2


def test_the_same_retry_arriving_twice_at_once_is_stored_once(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    trick = {"type": "trick", "cards": DEAL_4P[0][0]}
    assert at_once(6, lambda: ledger.append(table_id, trick, client_event_id="trick-1")) == [200] * 5 + [201]
    assert [e["type"] for e in ledger.events(table_id)] == ["deal", "trick"]


def test_an_entry_landing_between_a_commit_and_its_caching_does_not_corrupt_the_cache(ledger, monkeypatch):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    remember, landed = ledger._remember, []

    def remember_late(record, table, *rest):  # phone B's trick commits right after phone A's, before A caches its state
        if not landed:
            landed.append(True)
            other = threading.Thread(target=ledger.append, args=(table_id, {"type": "trick", "cards": DEAL_4P[1][0]}))
            other.start()
            other.join()
        return remember(record, table, *rest)

    monkeypatch.setattr(ledger, "_remember", remember_late)
    _, answer = ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]})
    assert (answer["version"], len(answer["deals"][0]["tricks"])) == (2, 1)
    cached = ledger.state(table_id)
    assert cached["version"] == 3 and len(cached["deals"][0]["tricks"]) == 2
    with pytest.raises(RuleError):  # trick 2 is there: entering it again is refused
        ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[1][0]})
    fresh = type(ledger)(ledger.url)  # another process: no cache, the state is replayed from the log
    assert fresh.state(table_id) == cached
    fresh.engine.dispose()


def test_only_the_events_own_fields_are_stored(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11e", "seq": 99, "withdrawn_at": "2000-01-01", "note": "x"})
    assert ledger.events(table_id)[0]["seq"] == 1
    assert {k for k in ledger.events(table_id)[0]} == {"seq", "type", "trump", "at", "withdrawn", "by"}


def test_expected_revision_catches_an_undo_followed_by_a_new_entry(ledger):
    table_id, _, _ = new(ledger)
    _, seen = ledger.append(table_id, {"type": "deal", "trump": "11E"})  # phone A sees version 1
    ledger.undo(table_id)  # phone B undoes the deal and enters another one: version 1 again
    ledger.append(table_id, {"type": "deal", "trump": "4O"})
    with pytest.raises(Conflict):
        ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]}, expected_revision=seen["revision"])
    status, _ = ledger.append(table_id, {"type": "trick", "cards": ["1C", "11O", "2C", "6O"]},
                              expected_revision=ledger.state(table_id)["revision"])
    assert status == 201


def test_an_undo_retried_with_the_same_client_id_withdraws_one_event(ledger):
    table_id, _, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"})
    ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]})
    assert ledger.undo(table_id, client_event_id="undo-1")["version"] == 1
    assert ledger.undo(table_id, client_event_id="undo-1")["version"] == 1  # the phone retried on bad Wi-Fi
    assert [e["withdrawn"] for e in ledger.events(table_id)] == [False, True]
    assert ledger.undo(table_id, client_event_id="undo-2")["version"] == 0
