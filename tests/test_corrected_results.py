"""A correction asks the sides again (issue 38, R-COMMON-7b), through the JSON API on SQLite and PostgreSQL, every
answer checked against /api/v1/openapi.json: a signed result the director changes (another number in the series'
unit, or another winner) keeps its signatures in the log as those of the earlier result, the table is ``corrected``
(settled for closing a round), and the sides confirm the new result again; a correction that leaves the result in
the unit as it was keeps the signatures. A side signs in the series' unit: Brisca deals won, never card points."""
from __future__ import annotations

import pytest

from tests.support.api import check
from tests.support.burraco import card_key, score_table, signed_tournament
from tests.support.corrected import (EVENTS, HANDS, ONE, bearer, brisca_pairs_signed, buraco_signed,
                                     correct_last_hand, post, read, refusal, table_status, undo)


@pytest.fixture
def client(client_on_each_database):
    return client_on_each_database


def test_r_common_7b_a_buraco_correction_from_1130_475_to_1130_465_asks_both_sides_again(client):
    tournament_id, director, table_id, key = buraco_signed(client)
    assert table_status(client, tournament_id, director)["status"] == "signed"
    # the confirmations carry what they signed, in the series' unit (the log's body, the engine's numbers)
    log = check(client.get(f"/api/v1/tables/{table_id}/events?key={key}"), "get", EVENTS, 200)["events"]
    assert [e["result"] for e in log if e["type"] == "confirm"] == [{"values": [1130, 475], "winners": [0]}] * 2

    state = correct_last_hand(client, table_id, director, 15)
    assert state["totals"] == [1130, 465]
    corrected = state["signed"]["corrected"]
    assert state["signed"]["sides"] == [] and state["signed"]["complete"] is False
    assert {name: corrected[name] for name in ("by", "reason", "sides_before", "result_before", "winners_before")} \
        == {"by": "director", "reason": "East-West held 15 in hand, not 5", "sides_before": [0, 1],
            "result_before": [1130, 475], "winners_before": [0]}
    assert corrected["at"].endswith("Z")
    row = table_status(client, tournament_id, director)
    assert (row["status"], row["confirmed"]) == ("corrected", [False, False])

    # R-COMMON-7b: the table's own keys may confirm the corrected result (the series stays closed to their entries),
    # the director's key signs for no side (403, nothing stored)
    refused = post(client, table_id, director, {"type": "confirm", "side": 0, "reason": "x"}, 403)
    assert (refused["code"], refused["rule"]) == ("sides_sign", "R-COMMON-7b")
    assert read(client, table_id, key)["version"] == state["version"]
    assert post(client, table_id, key, {"type": "deal", "trump": None}, 422)["code"] == "series_finished"
    post(client, table_id, key, {"type": "confirm", "side": 0}, 201)
    row = table_status(client, tournament_id, director)
    assert (row["status"], row["confirmed"]) == ("corrected", [True, False])
    again = post(client, table_id, key, {"type": "confirm", "side": 1}, 201)["state"]["signed"]
    assert (again["sides"], again["complete"], again["corrected"]["sides_before"],
            again["corrected"]["result_before"]) == ([0, 1], True, [0, 1], [1130, 475])  # kept as a record
    assert table_status(client, tournament_id, director)["status"] == "signed"
    assert read(client, table_id, key)["signed"]["corrected"]["reason"] == "East-West held 15 in hand, not 5"
    # signed again: closed to the table's own keys
    assert post(client, table_id, key, {"type": "dispute", "side": 1}, 409)["code"] == "signed"


def test_r_common_7b_a_corrected_table_is_settled_for_closing_a_round_that_needs_signatures(client):
    tournament_id, director, table_id, key = buraco_signed(client)
    correct_last_hand(client, table_id, director, 15)
    closing = client.post(f"/api/v1/tournaments/{tournament_id}/rounds/1/close", json={}, headers=bearer(director))
    refused = refusal(check(closing, "post", ONE + "/rounds/{number}/close", 422))
    assert refused["code"] == "open_tables" and [t["number"] for t in refused["open_tables"]] == [2, 3, 4]


def test_r_common_7b_a_buraco_correction_that_leaves_1130_475_keeps_the_signatures(client):
    tournament_id, director, table_id, key = buraco_signed(client)
    state = correct_last_hand(client, table_id, director, 5)
    assert state["totals"] == [1130, 475]
    assert state["signed"] == {"sides": [0, 1], "complete": True, "disputes": []}
    assert table_status(client, tournament_id, director)["status"] == "signed"


def test_r_common_7b_a_brisca_side_signs_deals_won_and_a_correction_of_card_points_alone_keeps_it(client):
    tournament_id, director, table_id, key = brisca_pairs_signed(client)
    log = check(client.get(f"/api/v1/tables/{table_id}/events?key={key}"), "get", EVENTS, 200)["events"]
    assert log[-1]["result"] == {"values": [3, 1], "winners": [0]}  # deals won, not 270 / 210
    undo(client, table_id, director, 200, {"reason": "70–50, not 80–40"})
    state = post(client, table_id, director, {"type": "tally", "points": [70, 50], "reason": "70–50"}, 201)["state"]
    assert state["totals"] == [260, 220] and state["signed"] == {"sides": [0, 1], "complete": True, "disputes": []}
    assert table_status(client, tournament_id, director)["status"] == "signed"


def test_r_common_7b_a_brisca_correction_that_changes_the_deals_won_and_the_winner_asks_again(client):
    tournament_id, director, table_id, key = brisca_pairs_signed(client)
    undo(client, table_id, director, 200, {"reason": "Jordi & Pau won the fourth deal"})
    post(client, table_id, director, {"type": "tally", "points": [50, 70], "reason": "Jordi & Pau won it"}, 201)
    post(client, table_id, director, {"type": "deal", "trump": "1O", "reason": "The series goes on"}, 201)
    state = post(client, table_id, director, {"type": "tally", "points": [40, 80], "reason": "The fifth deal"},
                 201)["state"]
    assert (state["series"]["standing"]["values"], state["series"]["standing"]["winners"]) == ([2, 3], [1])
    corrected = state["signed"]["corrected"]
    assert (state["signed"]["sides"], state["signed"]["complete"]) == ([], False)
    assert (corrected["sides_before"], corrected["result_before"], corrected["winners_before"], corrected["reason"]) \
        == ([0, 1], [3, 1], [0], "The fifth deal")
    assert table_status(client, tournament_id, director)["status"] == "corrected"
    for number in (1, 0):
        post(client, table_id, key, {"type": "confirm", "side": number}, 201)
    assert table_status(client, tournament_id, director)["status"] == "signed"
    log = check(client.get(f"/api/v1/tables/{table_id}/events?key={key}"), "get", EVENTS, 200)["events"]
    assert [e["result"] for e in log if e["type"] == "confirm"] == [{"values": [3, 1], "winners": [0]}] * 2 + [
        {"values": [2, 3], "winners": [1]}] * 2


def test_r_common_7b_a_confirmation_names_no_result_of_its_own(client):
    """The result a confirmation carries is the engine's: a phone sending another is not believed."""
    tournament_id, director, _viewer, state = signed_tournament(client)
    first = state["rounds"][0]["tables"][0]
    score_table(client, first, HANDS)
    post(client, first["table_id"], card_key(first), {"type": "confirm", "side": 0,
                                                     "result": {"values": [1, 2], "winners": [1]}}, 201)
    log = check(client.get(f"/api/v1/tables/{first['table_id']}/events?key={card_key(first)}"), "get", EVENTS,
                200)["events"]
    assert log[-1]["result"] == {"values": [1130, 475], "winners": [0]}
