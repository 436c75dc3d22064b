"""A Burraco tournament table signed 1130–475 and a Brisca pairs' table signed 3 deals to 1, and the director's
correction of the first (issue 38, R-COMMON-7b), through the JSON API, every answer checked against the OpenAPI
document: what tests/test_corrected_*.py start from."""
from __future__ import annotations

from tests.support.api import check
from tests.support.burraco import bearer, card_key, refusal, score_table, side, signed_tournament

ONE = "/api/v1/tournaments/{tournament_id}"
EVENTS = "/api/v1/tables/{table_id}/events"
TABLE = "/api/v1/tables/{table_id}"
UNDO = "/api/v1/tables/{table_id}/undo"
# (melds, cards left) per side and hand: North-South 1130, East-West 475 (R-BURACO-6), its last hand 230 v 80 - 5
HANDS = [((500, 0), (200, 0)), ((400, 0), (200, 0)), ((230, 0), (80, 5))]


def post(client, table_id: str, key: str, body: dict, status: int) -> dict:
    return refusal(check(client.post(f"/api/v1/tables/{table_id}/events", json=body, headers=bearer(key)), "post",
                         EVENTS, status))


def undo(client, table_id: str, key: str, status: int, body: dict) -> dict:
    return refusal(check(client.post(f"/api/v1/tables/{table_id}/undo", json=body, headers=bearer(key)), "post",
                         UNDO, status))


def read(client, table_id: str, key: str) -> dict:
    return check(client.get(f"/api/v1/tables/{table_id}?key={key}"), "get", TABLE, 200)


def table_status(client, tournament_id: str, key: str, number: int = 1) -> dict:
    state = check(client.get(f"/api/v1/tournaments/{tournament_id}?key={key}"), "get", ONE, 200)
    return state["rounds"][0]["tables"][number - 1]


def buraco_signed(client) -> tuple:
    """Table 1 of a signed Burraco tournament played to 1130–475 and signed by both sides: (tournament id, director's
    key, table id, the table card's key)."""
    tournament_id, director, _viewer, state = signed_tournament(client)
    first = state["rounds"][0]["tables"][0]
    key = card_key(first)
    assert score_table(client, first, HANDS)["totals"] == [1130, 475]
    post(client, first["table_id"], key, {"type": "confirm", "side": 0}, 201)
    post(client, first["table_id"], key, {"type": "confirm", "side": 1}, 201)
    return tournament_id, director, first["table_id"], key


def correct_last_hand(client, table_id: str, director: str, east_west_left: int) -> dict:
    """The director withdraws the last hand's tally (the signatures stay) and enters it again with East-West's
    cards in hand ``east_west_left``: the state after it."""
    undo(client, table_id, director, 200, {"reason": "East-West held 15 in hand, not 5"})
    tally = {"type": "tally", "closed_by": None, "sides": [side(230, 0), side(80, east_west_left)],
             "reason": "East-West held 15 in hand, not 5"}
    return post(client, table_id, director, tally, 201)["state"]


def brisca_pairs_signed(client, sign: bool = True) -> tuple:
    """A 4-player Brisca tournament table (Montse & Núria v Jordi & Pau) won 3 deals to 1 with 270 card points to
    210 (R-BRISCA-6), signed by both sides (unless not ``sign``): (tournament id, director's key, table id, card
    key)."""
    made = client.post("/api/v1/tournaments", json={"game": "brisca", "name": "Brisca", "entrants": [
        ["Montse", "Núria"], ["Jordi", "Pau"]], "rounds": [{"movement": "round_robin"}]}).get_json()
    state = client.post(f"/api/v1/tournaments/{made['id']}/rounds", headers=bearer(made["director_key"])).get_json()
    table = state["rounds"][0]["tables"][0]
    table_id, key = table["table_id"], card_key(table)
    for points in ([70, 50], [40, 80], [80, 40], [80, 40]):
        post(client, table_id, key, {"type": "deal", "trump": "1O"}, 201)
        post(client, table_id, key, {"type": "tally", "points": points}, 201)
    state = read(client, table_id, key)
    assert (state["series"]["standing"]["values"], state["totals"]) == ([3, 1], [270, 210])
    for number in (0, 1) if sign else ():
        signed = post(client, table_id, key, {"type": "confirm", "side": number}, 201)["state"]
        assert signed["signed"]["complete"] == (number == 1)
    return made["id"], made["director_key"], table_id, key
