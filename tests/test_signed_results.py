"""Signed results and who entered what (issue 27), through the JSON API on SQLite and PostgreSQL, every answer checked
against /api/v1/openapi.json: R-COMMON-7 (each side confirms, a signed round's table is closed to its own keys, only
the director corrects), R-COMMON-8 (the log's ``by``, ``reason``, ``withdrawal``), R-TOURN-1 (arbitral results, a
table not played gives 0–0 VP) and R-TOURN-2 (penalties in the standings).

The tournament is test_tournament_api.py's Buraco of 8 pairs (its first two Mitchell rounds' hands), made with
``require_signatures``."""
from __future__ import annotations

import pytest

from tests.support.api import check
from tests.support.burraco import ROUND_1, ROUND_2, bearer, card_key, refusal, score_table, side, signed_tournament

ONE = "/api/v1/tournaments/{tournament_id}"
EVENTS = "/api/v1/tables/{table_id}/events"
UNDO = "/api/v1/tables/{table_id}/undo"


@pytest.fixture
def client(client_on_each_database):
    return client_on_each_database


def post(client, table_id: str, key: str, body: dict, status: int) -> dict:
    """The answer of an entry: its state's answer, or (4xx) its error."""
    return refusal(check(client.post(f"/api/v1/tables/{table_id}/events", json=body, headers=bearer(key)), "post",
                         EVENTS, status))


def undo(client, table_id: str, key: str, status: int, body: dict | None = None) -> dict:
    return refusal(check(client.post(f"/api/v1/tables/{table_id}/undo", json=body or {}, headers=bearer(key)),
                         "post", UNDO, status))


def tournament(client, tournament_id: str, key: str) -> dict:
    return check(client.get(f"/api/v1/tournaments/{tournament_id}?key={key}"), "get", ONE, 200)


def table_of(state: dict, round_number: int, number: int) -> dict:
    return state["rounds"][round_number - 1]["tables"][number - 1]


def test_r_common_7_a_buraco_tournament_of_8_pairs_signed_by_both_sides_closed_only_by_the_director(client):
    tournament_id, director, viewer, state = signed_tournament(client)
    tables = state["rounds"][0]["tables"]
    assert [t["status"] for t in tables] == ["waiting"] * 4 and all(t["confirmed"] == [False, False] for t in tables)

    first = tables[0]
    key = card_key(first)
    post(client, first["table_id"], key, {"type": "deal", "trump": None}, 201)
    refused = post(client, first["table_id"], key, {"type": "confirm", "side": 0}, 422)  # R-COMMON-7: not yet
    assert (refused["code"], refused["rule"]) == ("not_finished", "R-COMMON-7")
    assert table_of(tournament(client, tournament_id, director), 1, 1)["status"] == "playing"
    undo(client, first["table_id"], key, 200)
    for table in tables:
        score_table(client, table, ROUND_1[tuple(table["entrants"])])
    state = tournament(client, tournament_id, viewer)
    assert [t["status"] for t in state["rounds"][0]["tables"]] == ["to_confirm"] * 4

    # require_signatures: the round stays open while a table is neither signed nor arbitral (422 open_tables)
    closing = client.post(f"/api/v1/tournaments/{tournament_id}/rounds/1/close", json={}, headers=bearer(director))
    refused = refusal(check(closing, "post", ONE + "/rounds/{number}/close", 422))
    assert refused["code"] == "open_tables" and [t["number"] for t in refused["open_tables"]] == [1, 2, 3, 4]

    # table 1: North-South, then East-West confirm on the same phone; a side confirms once
    assert post(client, first["table_id"], key, {"type": "confirm", "side": 0}, 201)["state"]["signed"] == {
        "sides": [0], "complete": False, "disputes": []}
    assert table_of(tournament(client, tournament_id, viewer), 1, 1)["confirmed"] == [True, False]
    assert post(client, first["table_id"], key, {"type": "confirm", "side": 0}, 422)["code"] == "already_confirmed"
    signed = post(client, first["table_id"], key, {"type": "confirm", "side": 1}, 201)["state"]
    assert signed["signed"] == {"sides": [0, 1], "complete": True, "disputes": []} and signed["version"] == 8
    assert table_of(tournament(client, tournament_id, viewer), 1, 1)["status"] == "signed"

    # signed: the table card's key neither enters nor undoes (409 signed), and nothing is stored
    refused = post(client, first["table_id"], key, {"type": "deal", "trump": None}, 409)
    assert (refused["code"], refused["rule"]) == ("signed", "R-COMMON-7")
    assert undo(client, first["table_id"], key, 409)["code"] == "signed"
    assert client.get(f"/api/v1/tables/{first['table_id']}?key={key}").get_json()["version"] == 8

    # the director's key opens the table; each of its writes needs a reason (422 reason_required, nothing stored)
    assert undo(client, first["table_id"], director, 422)["code"] == "reason_required"
    last_hand = ROUND_1[tuple(first["entrants"])][-1]
    tally = {"type": "tally", "closed_by": None, "sides": [side(*last_hand[0]), side(*last_hand[1])]}
    assert post(client, first["table_id"], director, tally, 422)["code"] == "reason_required"
    corrected = undo(client, first["table_id"], director, 200, {"reason": "Pair 5 counted its hand twice"})["state"]
    assert corrected["signed"]["sides"] == [0, 1] and not corrected["series"]["finished"]  # signatures kept
    assert post(client, first["table_id"], key, tally, 409)["code"] == "signed"  # the correction is the director's
    post(client, first["table_id"], director, {**tally, "reason": "Entered again as the sheet says"}, 201)
    log = check(client.get(f"/api/v1/tables/{first['table_id']}/events?key={viewer_of(client, first, key)}"), "get",
                EVENTS, 200)["events"]
    assert [(e["seq"], e["type"], e["by"], e["withdrawn"]) for e in log[-4:]] == [
        (7, "tally", "scorer", True), (8, "confirm", "scorer", False), (9, "confirm", "scorer", False),
        (10, "tally", "director", False)]  # seq 1: the deal entered too early, withdrawn
    assert log[-4]["withdrawal"]["by"] == "director" and log[-4]["withdrawal"]["reason"] == \
        "Pair 5 counted its hand twice" and log[-4]["withdrawal"]["at"] == log[-4]["withdrawn_at"]
    assert log[-1]["reason"] == "Entered again as the sheet says" and "reason" not in log[-2]
    again = client.get(f"/api/v1/tables/{first['table_id']}?key={key}").get_json()
    assert again["signed"]["complete"] and again["series"]["finished"] and again["totals"] == [690, 330]

    # table 2: East-West calls the director; its own confirm answers the call
    second = tables[1]
    key2 = card_key(second)
    post(client, second["table_id"], key2, {"type": "confirm", "side": 0}, 201)
    called = post(client, second["table_id"], key2, {"type": "dispute", "side": 1,
                                                     "message": "The third hand's pot is missing"}, 201)["state"]
    assert called["signed"] == {"sides": [0], "complete": False,
                                "disputes": [{"side": 1, "message": "The third hand's pot is missing"}]}
    row = table_of(tournament(client, tournament_id, director), 1, 2)
    assert (row["status"], row["confirmed"], row["disputes"]) == (
        "disputed", [True, False], [{"side": 1, "message": "The third hand's pot is missing"}])
    post(client, second["table_id"], key2, {"type": "confirm", "side": 1}, 201)
    assert table_of(tournament(client, tournament_id, director), 1, 2)["status"] == "signed"

    # table 3: an arbitral 12–8 (R-TOURN-1), with its reason; a result without one is refused
    path = f"/api/v1/tournaments/{tournament_id}/rounds/1/tables/3/result"
    assert client.post(path, json={"vp": [12, 8]}, headers=bearer(director)).get_json()["error"]["code"] == \
        "reason_required"
    assert client.post(path, json={"vp": [15, 8], "reason": "x"}, headers=bearer(director)).status_code == 422
    assert client.post(path, json={"vp": [12, 8], "reason": "x"}, headers=bearer(viewer)).status_code == 403
    state = check(client.post(path, json={"vp": [12, 8], "reason": "A card fell: replayed hand disputed"},
                              headers=bearer(director)), "post", ONE + "/rounds/{number}/tables/{table}/result", 200)
    third = table_of(state, 1, 3)
    assert (third["status"], third["result"]) == ("arbitral", {"mp": [0, 0], "vp": [12, 8]})
    assert state["log"][-1]["kind"] == "arbitral" and state["log"][-1]["reason"] == \
        "A card fell: replayed hand disputed"

    fourth = tables[3]
    for number in (0, 1):
        post(client, fourth["table_id"], card_key(fourth), {"type": "confirm", "side": number}, 201)
    closed = check(client.post(f"/api/v1/tournaments/{tournament_id}/rounds/1/close", json={},
                               headers=bearer(director)), "post", ONE + "/rounds/{number}/close", 200)
    assert closed["closed"] is True
    assert [t["status"] for t in closed["state"]["rounds"][0]["tables"]] == ["signed", "signed", "arbitral",
                                                                               "signed"]

    # R-TOURN-2: a penalty of -2 for pair 0, shown apart; the standings' VP include it
    state = check(client.post(f"/api/v1/tournaments/{tournament_id}/penalties",
                              json={"entrant": 0, "vp": -2, "reason": "Slow play", "round": 1},
                              headers=bearer(director)), "post", ONE + "/penalties", 201)
    assert state["penalties"][0] | {"at": None} == {"entrant": 0, "vp": -2, "reason": "Slow play", "round": 1,
                                                    "at": None}
    # round 1 as entered, table 3 (pairs 2 v 6) arbitral 12–8 with MP 0 each; pair 0 14 - 2
    assert [(r["rank"], r["entrant"], r["vp"], r["mp_difference"], r["penalties"]) for r in state["standings"]] == [
        (1, 0, 12, 360, -2), (2, 2, 12, 0, 0), (3, 3, 11, 150, 0), (4, 5, 10, 5, 0), (5, 1, 10, -5, 0),
        (6, 7, 9, -150, 0), (7, 6, 8, 0, 0), (8, 4, 6, -360, 0)]
    assert client.post(f"/api/v1/tournaments/{tournament_id}/penalties", json={"entrant": 0, "vp": 2, "reason": "x"},
                       headers=bearer(director)).status_code == 422


def viewer_of(client, table: dict, key: str) -> str:
    """The viewer key of a round's table (its share page's link): the log is read with any key of the table."""
    return client.application.extensions["referee.ledger"].viewer_key(table["table_id"])


def test_r_tourn_1_a_forced_close_of_a_table_with_nothing_entered_gives_0_0_not_10_10(client):
    tournament_id, director, viewer, state = signed_tournament(client)
    for table in state["rounds"][0]["tables"]:
        score_table(client, table, ROUND_1[tuple(table["entrants"])])
    client.post(f"/api/v1/tournaments/{tournament_id}/rounds/1/close", json={"force": True, "reason": "Time"},
                headers=bearer(director))
    state = check(client.post(f"/api/v1/tournaments/{tournament_id}/rounds", headers=bearer(director)), "post",
                  ONE + "/rounds", 201)
    tables = state["rounds"][1]["tables"]
    for table in tables[:3]:
        score_table(client, table, ROUND_2[tuple(table["entrants"])])
    post(client, tables[3]["table_id"], card_key(tables[3]), {"type": "deal", "trump": None}, 201)  # begun only
    closed = client.post(f"/api/v1/tournaments/{tournament_id}/rounds/2/close", json={"force": True,
                                                                                      "reason": "Pair 3 left"},
                         headers=bearer(director)).get_json()
    assert closed["closed"] is True
    rows = closed["state"]["rounds"][1]["tables"]
    assert [t["status"] for t in rows] == ["to_confirm", "to_confirm", "to_confirm", "not_played"]
    assert rows[3]["entrants"] == [3, 6] and rows[3]["result"] == {"mp": [0, 0], "vp": [0, 0]}
    assert closed["state"]["log"][-2]["kind"] == "not_played"
    standings = {r["entrant"]: r["vp"] for r in closed["state"]["standings"]}
    # round 1 (14/6, 10/10, 2/18, 11/9) and round 2 (10/10, 19/1, 11/9, and 3 v 6 not played: 0/0)
    assert standings == {0: 24, 1: 29, 2: 13, 3: 11, 4: 7, 5: 19, 6: 18, 7: 19}


def test_r_common_7_a_free_tables_signature_is_a_record_the_scorers_undo_withdraws(client):
    made = client.post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"],
                                               "options": {"hands": 1}}).get_json()
    table_id, key = made["id"], made["scorer_key"]
    post(client, table_id, key, {"type": "deal", "trump": None}, 201)
    post(client, table_id, key, {"type": "tally", "closed_by": None, "sides": [side(300, 0), side(100, 20)]}, 201)
    co = client.application.extensions["referee.ledger"].new_key(table_id, "coscorer")
    post(client, table_id, co, {"type": "confirm", "side": 0}, 201)
    state = post(client, table_id, key, {"type": "confirm", "side": 1}, 201)["state"]
    assert state["signed"]["complete"] is True
    state = undo(client, table_id, key, 200)["state"]  # a free table: not locked
    assert state["signed"] == {"sides": [0], "complete": False, "disputes": []}
    log = client.get(f"/api/v1/tables/{table_id}/events?key={key}").get_json()["events"]
    assert [(e["type"], e["by"]) for e in log] == [("deal", "scorer"), ("tally", "scorer"), ("confirm", "coscorer"),
                                                   ("confirm", "scorer")]
    assert log[-1]["withdrawal"]["by"] == "scorer" and "reason" not in log[-1]["withdrawal"]
    refused = post(client, table_id, key, {"type": "confirm", "side": 2}, 422)
    assert (refused["code"], refused["field"]) == ("bad_event", "side")


def brisca_night_played(client) -> tuple:
    """A Brisca tournament of two players, its one table's series played to its end by the table's own key (Ana wins
    three deals, R-BRISCA-6): (table id, the table card's key, the director's key)."""
    made = client.post("/api/v1/tournaments", json={"game": "brisca", "name": "Brisca night", "entrants": [
        ["Ana"], ["Bo"]], "rounds": [{"movement": "round_robin"}]}).get_json()
    state = client.post(f"/api/v1/tournaments/{made['id']}/rounds", headers=bearer(made["director_key"])).get_json()
    table = state["rounds"][0]["tables"][0]
    table_id, key, director = table["table_id"], card_key(table), made["director_key"]
    for _ in range(3):  # R-BRISCA: three deal wins take the series
        post(client, table_id, key, {"type": "deal", "trump": "1O"}, 201)
        post(client, table_id, key, {"type": "tally", "points": [80, 40]}, 201)
    return table_id, key, director


def test_r_common_7_a_correction_under_way_and_the_trick_under_way_are_the_directors_alone(client):
    """Review of issue 27: once a side has confirmed and the director's undo opened the series again, the table's own
    keys write nothing (409 signed) — neither an entry nor a card of the trick under way — until the director is done."""
    table_id, key, director = brisca_night_played(client)
    post(client, table_id, key, {"type": "confirm", "side": 0}, 201)
    undo(client, table_id, director, 200, {"reason": "Bo's last deal was 70"})
    undo(client, table_id, director, 200, {"reason": "Bo's last deal was 70"})  # the deal itself: now open
    assert post(client, table_id, key, {"type": "deal", "trump": "1O"}, 409)["code"] == "signed"
    ledger = client.application.extensions["referee.ledger"]
    post(client, table_id, director, {"type": "deal", "trump": "1O", "reason": "Again"}, 201)
    state, _table = ledger.snapshot(table_id)
    with pytest.raises(Exception) as refused:
        ledger.set_draft(table_id, ["3O"], state["revision"], key=key)
    assert getattr(refused.value, "code", None) == "signed"
    assert ledger.set_draft(table_id, ["3O"], state["revision"], key=director) == ("3O",)
    assert ledger.look(table_id)[2] == ("3O",)


def test_r_common_7_after_a_call_the_directors_entries_are_withdrawn_by_the_director_alone(client):
    """Review of issue 27: a side called the director, the director's undo opened the series and the director entered
    the deal again; the table's own keys neither enter during the correction nor withdraw the director's entry
    afterwards (409 signed, nothing stored); the calling side's confirmation still answers its call."""
    table_id, key, director = brisca_night_played(client)
    post(client, table_id, key, {"type": "dispute", "side": 1, "message": "My last deal was 70"}, 201)
    undo(client, table_id, director, 200, {"reason": "Bo's last deal was 70"})
    assert post(client, table_id, key, {"type": "tally", "points": [50, 70]}, 409)["code"] == "signed"
    post(client, table_id, director, {"type": "tally", "points": [50, 70], "reason": "As Bo said"}, 201)
    post(client, table_id, director, {"type": "deal", "trump": "1O", "reason": "The series goes on"}, 201)
    refused = undo(client, table_id, key, 409)
    assert (refused["code"], refused["rule"]) == ("signed", "R-COMMON-7")
    log = client.get(f"/api/v1/tables/{table_id}/events?key={key}").get_json()["events"]
    assert [(e["type"], e["by"], e["withdrawn"]) for e in log[-4:]] == [
        ("tally", "scorer", True), ("dispute", "scorer", False), ("tally", "director", False),
        ("deal", "director", False)]
    post(client, table_id, director, {"type": "tally", "points": [80, 40], "reason": "Ana's third win"}, 201)
    post(client, table_id, key, {"type": "confirm", "side": 1}, 201)  # Bo's confirmation answers the call
    post(client, table_id, key, {"type": "confirm", "side": 0}, 201)
    assert client.get(f"/api/v1/tables/{table_id}?key={key}").get_json()["signed"] == {
        "sides": [0, 1], "complete": True, "disputes": []}


def test_r_common_8_a_reason_typed_on_two_lines_is_kept_on_one(client):
    tournament_id, director, _, state = signed_tournament(client)
    table = state["rounds"][0]["tables"][0]
    post(client, table["table_id"], card_key(table), {"type": "deal", "trump": None}, 201)
    undo(client, table["table_id"], director, 200, {"reason": "Dealt twice:\r\nthe first deal is void"})
    log = client.get(f"/api/v1/tables/{table['table_id']}/events?key={director}").get_json()["events"]
    assert log[0]["withdrawal"]["reason"] == "Dealt twice: the first deal is void"


def test_r_common_7_an_import_takes_signatures_only_where_an_entry_would(client):
    setup = {"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"], "options": {"hands": 1}, "dealer": 0}
    bare = [{"type": "confirm", "side": 0}, {"type": "confirm", "side": 1}]
    refused = client.post("/api/v1/import", json={"table": setup, "events": bare})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "not_finished"
    played = [{"type": "deal", "trump": None},
              {"type": "tally", "closed_by": None, "sides": [side(300, 0), side(100, 20)]}]
    twice = client.post("/api/v1/import", json={"table": setup, "events": played + bare[:1] * 2})
    assert twice.status_code == 422 and twice.get_json()["error"]["code"] == "already_confirmed"
    made = client.post("/api/v1/import", json={"table": setup, "events": played + bare})
    assert made.status_code == 201 and made.get_json()["state"]["signed"]["complete"] is True
    log = client.get(f"/api/v1/tables/{made.get_json()['id']}/events?key={made.get_json()['viewer_key']}").get_json()
    assert {e["by"] for e in log["events"]} == {"import"}  # R-COMMON-8
