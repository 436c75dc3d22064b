"""A Burraco tournament of 8 pairs as the tournament tests play it (tests/test_tournament_api.py,
tests/test_signed_results.py): its pairs, its plan, the hands of its first two Mitchell rounds, and how a table's
hands are entered through the tables' API with its table card's key; and the director's calls they share."""
from __future__ import annotations

from referee.tournament.scoring import VP_TABLES
from tests.support.api import check

PAIRS = [[f"N{i}a", f"N{i}b"] for i in range(8)]
PLAN = [{"movement": "mitchell", "hands": 3}, {"movement": "mitchell", "hands": 3},
        {"movement": "danish", "hands": 3}]
ONE = "/api/v1/tournaments/{tournament_id}"
# R-TOURN-4: a round of 1 or 2 hands has no shipped VP table: a test's short rounds name their rows, the 3-hand
# table's (the VP these tests expect)
VP_ROWS = [list(row) for row in VP_TABLES["burraco_3"]]
VP_ROWS_TEXT = "\n".join([f"{top} {winner} {loser}" for top, winner, loser in VP_ROWS[:-1]] + ["over 1500 20 0"])


def side(melds: int, left: int) -> dict:
    """A side's numbers for a hand ended by the stock: its pot taken, no burraco, ``left`` card points in hand."""
    return {"melds": melds, "burracos": {}, "pot": True, "hand": left}


def score_table(client, table: dict, hands: list) -> dict:
    """Enters each hand (deal, then its tally) at the table through the tables' API with its card's key."""
    key = table["scorer_url"].split("key=")[1]
    for ns, ew in hands:
        for body in ({"type": "deal", "trump": None}, {"type": "tally", "closed_by": None,
                                                       "sides": [side(*ns), side(*ew)]}):
            answer = client.post(f"/api/v1/tables/{table['table_id']}/events", json=body,
                                 headers={"Authorization": f"Bearer {key}"})
            assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["state"]


# (melds, cards left) per side and hand; the points are melds less cards left (R-BURACO-6), MP their sum.
ROUND_1 = {  # Mitchell, first round: N-S are pairs 0-3 at tables 1-4, E-W pairs 4-7 sit at their own number
    (0, 4): [((250, 0), (100, 30)), ((150, 10), (200, 0)), ((300, 0), (80, 20))],  # 690 v 330: 360 -> 14/6
    (1, 5): [((100, 0), (100, 0)), ((60, 10), (60, 10)), ((45, 0), (90, 40))],  # 195 v 200: 5 -> 10/10
    (2, 6): [((40, 20), (300, 0)), ((30, 10), (400, 0)), ((50, 0), (500, 0))],  # 90 v 1200: 1110 -> 2/18
    (3, 7): [((200, 0), (150, 0)), ((100, 0), (100, 50)), ((100, 0), (50, 0))],  # 400 v 250: 150 -> 11/9
}
ROUND_2 = {  # Mitchell, second round: E-W move up one table (the skip comes at round 3 of 4 tables' 3)
    (0, 7): [((100, 0), (100, 0)), ((100, 0), (100, 0)), ((150, 0), (100, 0))],  # 350 v 300: 50 -> 10/10
    (1, 4): [((500, 0), (50, 0)), ((500, 0), (50, 0)), ((600, 0), (20, 5))],  # 1600 v 115: 1485 -> 19/1
    (2, 5): [((150, 0), (100, 0)), ((150, 0), (100, 0)), ((105, 0), (100, 0))],  # 405 v 300: 105 -> 11/9
    (3, 6): [((100, 0), (300, 0)), ((100, 0), (300, 0)), ((100, 0), (155, 0))],  # 300 v 755: 455 -> 6/14
}


def bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def refusal(answer: dict) -> dict:
    return answer["error"] if set(answer) == {"error"} else answer


def card_key(table: dict) -> str:
    return table["scorer_url"].split("key=")[1]


def signed_tournament(client) -> tuple:
    made = check(client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Signed", "entrants": PAIRS,
                                                          "rounds": PLAN, "require_signatures": True}),
                 "post", "/api/v1/tournaments", 201)
    tournament_id, director = made["id"], made["director_key"]
    assert made["state"]["require_signatures"] is True
    state = check(client.post(f"/api/v1/tournaments/{tournament_id}/rounds", headers=bearer(director)), "post",
                  ONE + "/rounds", 201)
    return tournament_id, director, made["viewer_key"], state
