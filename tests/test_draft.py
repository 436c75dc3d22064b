"""The trick under way (the cards tapped so far, card by card) lives on the server, beside the log and never in it:
the ledger's draft on SQLite and PostgreSQL (exact cards, the revision it belongs to, cleared when the trick is stored
or an entry or an undo moves the table, refused when stale, never merged), then the scorer's page, a co-scorer's,
the viewer's live view and the big screen through Flask's client. R-COMMON-4 checks every card tapped."""
import json
import threading

import pytest

from referee.errors import Conflict, ParseError, RuleError
from referee.web.services import status_of
from tests.support.deals import DEAL_4P
from tests.support.ledgers import new
from tests.support.scorer import Scorer, create

TRICK = DEAL_4P[0][0]  # Bo leads: 1C, 11O, 2C, 6O (Bo wins, 14)


def dealt(ledger, **options) -> tuple:
    table_id, _, _ = new(ledger, **options)
    _, state = ledger.append(table_id, {"type": "deal", "trump": "11E"})
    return table_id, state["revision"]


def test_the_trick_under_way_is_kept_beside_the_log_never_in_it(ledger):
    table_id, revision = dealt(ledger)
    assert ledger.look(table_id)[2] == ()
    assert ledger.set_draft(table_id, TRICK[:1], revision) == ("1C",)
    assert ledger.set_draft(table_id, TRICK[:2], revision, seen=TRICK[:1]) == ("1C", "11O")
    state, _, draft, _ = ledger.look(table_id)
    assert draft == ("1C", "11O") and (state["version"], state["revision"]) == (1, revision)  # counted in neither
    assert [e["type"] for e in ledger.events(table_id)] == ["deal"] and "draft" not in json.dumps(state)
    assert set(ledger.record_of(table_id)) == {"game", "players", "options", "dealer"}  # the export's table
    ledger._cache.clear()  # another process: the trick under way is read from the database
    assert ledger.look(table_id)[2] == ("1C", "11O")
    fresh = type(ledger)(ledger.url)
    assert fresh.look(table_id)[2] == ("1C", "11O") and fresh.watched([table_id])[table_id][4:6] == ("1C.11O", 1)
    fresh._cache.clear()  # a tap served by a process that never replayed this table
    assert fresh.set_draft(table_id, TRICK[:3], revision, seen=TRICK[:2]) == ("1C", "11O", "2C")
    fresh.engine.dispose()
    assert ledger.look(table_id)[2] == ("1C", "11O", "2C")


def test_the_trick_stored_clears_the_trick_under_way(ledger):
    table_id, revision = dealt(ledger)
    ledger.set_draft(table_id, TRICK[:3], revision)
    status, state = ledger.append(table_id, {"type": "trick", "cards": TRICK}, expected_draft=TRICK[:3])
    assert status == 201 and ledger.look(table_id)[2] == () and state["revision"] == revision + 1
    ledger.set_draft(table_id, DEAL_4P[1][0][:2], state["revision"])  # an entry from the API (offline.js) clears it too
    ledger.append(table_id, {"type": "trick", "cards": DEAL_4P[1][0]})
    assert ledger.look(table_id)[2] == ()


def test_a_tap_on_a_stale_trick_is_refused_and_changes_nothing(ledger):
    table_id, revision = dealt(ledger)
    ledger.set_draft(table_id, ["1C"], revision)  # phone A taps Bo's 1C
    with pytest.raises(Conflict) as stale:  # phone B's page still showed an empty trick
        ledger.set_draft(table_id, ["5C"], revision, seen=())
    assert stale.value.code == "draft_conflict" and status_of(stale.value) == 409
    assert stale.value.message == ("Another phone changed the trick under way meanwhile: look at it as it stands now "
                                   "and tap again if it is still needed.")
    assert ledger.set_draft(table_id, ["1C"], revision, seen=()) == ("1C",)  # the same tap twice: already so
    with pytest.raises(Conflict) as older:
        ledger.set_draft(table_id, ["1C", "11O"], revision - 1, seen=["1C"])
    assert older.value.code == "version_conflict"
    with pytest.raises(Conflict):  # a whole trick entered on a stale trick under way: not stored
        ledger.append(table_id, {"type": "trick", "cards": ["5C", "11B", "11C", "6B"]}, expected_draft=())
    assert ledger.look(table_id)[2] == ("1C",) and [e["type"] for e in ledger.events(table_id)] == ["deal"]


def test_two_phones_tapping_at_once_never_mix_their_cards(ledger):
    table_id, revision = dealt(ledger)
    results, barrier = [], threading.Barrier(2)

    def tap(card):
        barrier.wait()
        try:
            results.append(ledger.set_draft(table_id, [card], revision))
        except Conflict as error:
            results.append(error.code)

    threads = [threading.Thread(target=tap, args=(card,)) for card in ("1C", "5C")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    kept = ledger.look(table_id)[2]
    assert sorted(results, key=str) == sorted([kept, "draft_conflict"], key=str) and kept in (("1C",), ("5C",))


def test_the_engine_checks_every_card_of_the_trick_under_way_R_COMMON_4(ledger):
    table_id, revision = dealt(ledger)
    with pytest.raises(RuleError) as twice:
        ledger.set_draft(table_id, ["1C", "1C"], revision)
    assert (twice.value.code, twice.value.rule, twice.value.card) == ("card_twice", "R-COMMON-4", "1C")
    with pytest.raises(ParseError) as unknown:
        ledger.set_draft(table_id, ["ZZ"], revision)
    assert unknown.value.code == "unknown_card"
    with pytest.raises(ParseError) as whole:  # a whole trick is an entry of the log, never a trick under way
        ledger.set_draft(table_id, TRICK, revision)
    assert whole.value.code == "not_a_draft"
    ledger.append(table_id, {"type": "trick", "cards": TRICK})
    with pytest.raises(RuleError) as played:
        ledger.set_draft(table_id, ["1C"], revision + 1)
    assert played.value.code == "card_already_played" and ledger.look(table_id)[2] == ()


def test_undo_into_a_whole_trick_reopens_it_without_its_last_card_for_everyone(ledger):
    table_id, revision = dealt(ledger)
    ledger.append(table_id, {"type": "trick", "cards": TRICK})
    state = ledger.undo(table_id, expected_draft=(), reopen=True)
    assert (state["version"], state["revision"]) == (1, revision + 2) and state["deals"][0]["tricks"] == []
    assert ledger.look(table_id)[2] == ("1C", "11O", "2C")
    ledger._cache.clear()
    assert ledger.look(table_id)[2] == ("1C", "11O", "2C")
    ledger.set_draft(table_id, [], state["revision"], seen=TRICK[:3])  # its cards taken back one by one: none left
    assert ledger.look(table_id)[2] == ()
    ledger.undo(table_id)  # the deal: no trick to reopen, and the API's undo reopens none
    assert ledger.look(table_id)[2] == ()


def test_an_undo_on_a_stale_trick_is_refused_and_another_entry_clears_it(ledger):
    table_id, revision = dealt(ledger)
    ledger.append(table_id, {"type": "trick", "cards": TRICK})
    ledger.set_draft(table_id, ["5C"], revision + 1)
    with pytest.raises(Conflict) as stale:  # this phone saw no card of trick 2: it meant to undo trick 1
        ledger.undo(table_id, expected_draft=(), reopen=True)
    assert stale.value.code == "draft_conflict" and ledger.state(table_id)["version"] == 2
    ledger.undo(table_id)  # without a trick under way to check (the API): the trick under way goes with the revision
    assert ledger.look(table_id)[2] == ()


def test_an_exchange_beside_the_trick_under_way_keeps_it_R_BRISCA_4(ledger):
    table_id, revision = dealt(ledger, exchange_requires="player")
    ledger.append(table_id, {"type": "trick", "cards": TRICK})  # Bo won a trick: he may exchange
    ledger.set_draft(table_id, ["5C"], revision + 1)
    _, state = ledger.append(table_id, {"type": "exchange", "player": 1}, expected_draft=["5C"], keep_draft=True)
    assert state["deals"][0]["exchange"]["player"] == 1 and ledger.look(table_id)[2] == ("5C",)
    ledger.set_draft(table_id, ["5C", "11B"], state["revision"], seen=["5C"])
    assert ledger.look(table_id)[2] == ("5C", "11B")


# --- through the pages ------------------------------------------------------------------------------------------

def viewer_key(client, scorer) -> tuple:
    table_id = scorer.url.split("/t/")[1].split("?")[0]
    return table_id, client.application.extensions["referee.ledger"].viewer_key(table_id)


def test_a_tap_is_seen_by_a_reload_a_co_scorer_and_the_viewers(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    table_id, viewer = viewer_key(client, scorer)
    revision = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()["revision"]
    assert client.get(f"/t/{table_id}/live?key={viewer}&since={revision}").status_code == 204
    assert scorer.tap("1C").status_code == 303 and scorer.tap("11O").status_code == 303
    assert "pending" not in scorer.url and 'name="pending" value="1C.11O"' in scorer.page
    co_key = client.application.extensions["referee.ledger"].new_key(table_id, "coscorer")
    co_scorer = Scorer(client, f"/t/{table_id}?key={co_key}")
    assert 'name="pending" value="1C.11O"' in co_scorer.page and "Di's card" in co_scorer.page
    poll = client.get(f"/t/{table_id}/live?key={viewer}&since={revision}")  # the revision did not move: a tap did
    live = " ".join(poll.get_data(as_text=True).split())
    assert poll.status_code == 200 and "Trick 1</span>" in live and "Di's card" in live
    assert '<span class="played-now">Bo <span class="card-inline suit-copas" title="ace of copas (porrons)">1 copas' \
        '</span></span> <span class="played-now">Cy <span class="card-inline suit-oros"' in live
    stamp = live.split("since=")[1].split('"')[0]
    assert stamp.startswith(f"{revision}-") and client.get(
        f"/t/{table_id}/live?key={viewer}&since={stamp}").status_code == 204
    screen = " ".join(client.get(f"/t/{table_id}/live?key={viewer}&since={revision}&view=screen")
                      .get_data(as_text=True).split())
    assert 'class="screen-trick under-way"' in screen and "1 copas</span><small>Bo</small>" in screen
    assert "11 oros</span><small>Cy</small>" in screen and "Di's card" in screen
    export = client.get(f"/api/v1/tables/{table_id}/export.json?key={viewer}").get_json()
    assert [e["type"] for e in export["events"]] == ["deal"] and "draft" not in json.dumps(export)  # never exported
    assert "1C" not in client.get(f"/api/v1/tables/{table_id}/export.csv?key={viewer}").get_data(as_text=True)
    page = client.get(f"/t/{table_id}?key={viewer}").get_data(as_text=True)  # the viewer's page, opened now
    assert 'class="live-trick"' in page and f"since={stamp}" in page
    assert scorer.tap("2C").status_code == 303 and scorer.tap("6O").status_code == 303  # the trick is stored
    poll = client.get(f"/t/{table_id}/live?key={viewer}&since={stamp}").get_data(as_text=True)
    assert 'class="live-trick"' not in poll and f"since={revision + 1}" in poll
    assert 'name="pending" value=""' in client.get(scorer.url).get_data(as_text=True)


def test_a_stale_tap_from_the_co_scorers_phone_is_refused_with_a_sentence(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    table_id, _ = viewer_key(client, scorer)
    co_key = client.application.extensions["referee.ledger"].new_key(table_id, "coscorer")
    co_scorer = Scorer(client, f"/t/{table_id}?key={co_key}")  # its page: no card tapped yet
    scorer.tap("1C")
    response = co_scorer.post("tap", htmx=True, card="5C")
    assert response.status_code == 409
    assert ("Another phone changed the trick under way meanwhile: look at it as it stands now and tap again if it "
            "is still needed.") in co_scorer.page
    assert 'name="pending" value="1C"' in co_scorer.page  # the trick as it stands, shown with the refusal
    assert 'name="pending" value="1C"' in client.get(scorer.url).get_data(as_text=True)  # nothing mixed, nothing lost
    assert co_scorer.tap("11O").status_code == 303 and 'name="pending" value="1C.11O"' in co_scorer.page


def test_undo_into_a_whole_trick_reopens_it_for_every_phone(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    table_id, viewer = viewer_key(client, scorer)
    for code in TRICK:
        scorer.tap(code)
    assert scorer.post("undo").status_code == 303
    co_key = client.application.extensions["referee.ledger"].new_key(table_id, "coscorer")
    assert 'name="pending" value="1C.11O.2C"' in Scorer(client, f"/t/{table_id}?key={co_key}").page
    live = " ".join(client.get(f"/t/{table_id}/live?key={viewer}").get_data(as_text=True).split())
    assert "Ana's card" in live and live.count('class="played-now"') == 3
    scorer.post("undo")  # a card back: the trick under way holds two
    assert 'name="pending" value="1C.11O"' in client.get(f"/t/{table_id}?key={co_key}").get_data(as_text=True)


def test_offline_taps_sent_back_keep_the_trick_only_if_no_other_phone_tapped_meanwhile(client):
    """static/offline.js sends the cards it tapped while offline with the trick it began from (``pending``)."""
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    table_id, _ = viewer_key(client, scorer)
    assert scorer.post("draft", htmx=True, cards="1C.11O", pending="").status_code == 200
    assert 'name="pending" value="1C.11O"' in scorer.page
    co_key = client.application.extensions["referee.ledger"].new_key(table_id, "coscorer")
    other = Scorer(client, f"/t/{table_id}?key={co_key}")
    response = other.post("draft", htmx=True, cards="5C", pending="")  # began from an empty trick: another's now
    assert response.status_code == 409 and "Another phone changed the trick under way" in other.page
    assert client.application.extensions["referee.ledger"].look(table_id)[2] == ("1C", "11O")


def test_an_exchange_tapped_beside_the_trick_under_way_keeps_its_cards_R_BRISCA_4(client):
    scorer = create(client)  # opt_exchange_requires=player
    scorer.post("deal", card="11E", dealer="0")
    for code in TRICK:
        scorer.tap(code)
    scorer.tap("5C")  # Bo won trick 1 and leads trick 2
    assert scorer.post("exchange", player="1").status_code == 303
    assert "Bo exchanged 7 espadas for 11 espadas." in scorer.page and 'name="pending" value="5C"' in scorer.page
    assert scorer.tap("11B").status_code == 303 and 'name="pending" value="5C.11B"' in scorer.page


def test_a_tapped_card_costs_one_write_and_a_trick_its_entry_only(client):
    """A tap is one request and one statement that writes (the draft's conditional UPDATE); the trick's last tap
    writes what an entry writes (the row's lock and bump, the event), no more. Counted, never timed."""
    from tests.support.statements import Recorded

    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    recorded = Recorded(client.application.extensions["referee.ledger"])  # at the driver: the entry's short way too
    try:
        recorded.during(lambda: scorer.post("tap", htmx=True, card="1C"))
        assert recorded.written() == ["UPDATE tables SET"]
        recorded.during(lambda: [scorer.post("tap", htmx=True, card=code) for code in TRICK[1:]])
        assert recorded.written() == ["UPDATE tables SET"] * 2 + ["UPDATE tables SET", "INSERT INTO events"]
    finally:
        recorded.close()


def test_the_same_tap_sent_twice_is_taken_once(client):
    """Without JavaScript a double tap (or bad Wi-Fi) sends the same form twice: the card is tapped once, no
    refusal; a card taken back twice the same way is taken back once."""
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    page = scorer.page
    first = scorer.tap("1C")
    scorer.page = page  # the browser sends the same form again
    again = scorer.tap("1C")
    assert (first.status_code, again.status_code) == (303, 303) and 'name="pending" value="1C"' in scorer.page
    scorer.tap("11O")
    page = scorer.page
    scorer.post("undo")
    scorer.page = page
    assert scorer.post("undo").status_code == 303 and 'name="pending" value="1C"' in scorer.page
    assert 'class="refusal"' not in scorer.page
