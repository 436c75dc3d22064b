"""The tournaments' API (docs/api.md, Tournaments) on SQLite and PostgreSQL: a Burraco tournament of 8 pairs, two
Mitchell rounds of 3 hands and a Danish round of 3 hands, every hand entered by its numbers (``tally``) through the
tables' API with the table card's key; the standings equal the values worked out by hand below. Every answer is
checked against /api/v1/openapi.json's schemas, as tests/test_openapi.py does."""
from __future__ import annotations


import pytest

from tests.support.api import DOC, check
from tests.support.burraco import ONE, PAIRS, PLAN, ROUND_1, ROUND_2, score_table, side  # noqa: F401
from tests.support.burraco import VP_ROWS


@pytest.fixture
def client(client_on_each_database):
    return client_on_each_database

# After two rounds: 6: 32 VP (MP difference +1565), 1: 29 (+1480), 0: 24 (+410), 5: 19 (-100), 7: 19 (-200),
# 3: 17 (-305), 2: 13 (-1005), 4: 7 (-1845). Danish: 6 v 1, 0 v 5; 7 met 3 in round 1, so 7 takes the next one
# down, 2; then 3 v 4.
ROUND_3 = {
    (6, 1): [((200, 0), (200, 0)), ((100, 0), (100, 0)), ((100, 0), (200, 0))],  # 400 v 500: 100 -> 9/11
    (0, 5): [((600, 0), (20, 15)), ((600, 0), (20, 15)), ((500, 0), (20, 15))],  # 1700 v 15: 1685 -> 20/0
    (7, 2): [((100, 0), (100, 0)), ((100, 0), (100, 0)), ((100, 0), (100, 0))],  # 300 v 300: 0 -> 10/10
    (3, 4): [((300, 0), (50, 0)), ((300, 0), (50, 0)), ((150, 0), (100, 0))],  # 750 v 200: 550 -> 15/5
}
RESULTS = {1: {(0, 4): ([690, 330], [14, 6]), (1, 5): ([195, 200], [10, 10]), (2, 6): ([90, 1200], [2, 18]),
               (3, 7): ([400, 250], [11, 9])},
           2: {(0, 7): ([350, 300], [10, 10]), (1, 4): ([1600, 115], [19, 1]), (2, 5): ([405, 300], [11, 9]),
               (3, 6): ([300, 755], [6, 14])},
           3: {(6, 1): ([400, 500], [9, 11]), (0, 5): ([1700, 15], [20, 0]), (7, 2): ([300, 300], [10, 10]),
               (3, 4): ([750, 200], [15, 5])}}
# (rank, entrant, VP, MP, MP difference), worked out from RESULTS by hand.
FINAL = [(1, 0, 44, 2740, 2095), (2, 6, 41, 2355, 1465), (3, 1, 40, 2295, 1580), (4, 3, 32, 1450, 245),
         (5, 7, 29, 850, -200), (6, 2, 23, 795, -1005), (7, 5, 19, 515, -1785), (8, 4, 12, 645, -2395)]


def play_round(client, state: dict, number: int, hands: dict) -> dict:
    tables = state["rounds"][number - 1]["tables"]
    assert {tuple(t["entrants"]): t["number"] for t in tables} == {pair: n for n, pair in enumerate(hands, 1)}
    for table in tables:
        finished = score_table(client, table, hands[tuple(table["entrants"])])
        assert finished["series"]["finished"] and len(finished["deals"]) == 3  # R-BURACO-6: a round of 3 hands
    return table


def get(client, tournament_id: str, key: str) -> dict:
    return check(client.get(f"/api/v1/tournaments/{tournament_id}?key={key}"), "get", ONE, 200)


def test_a_burraco_tournament_of_8_pairs_two_mitchell_rounds_and_a_danish_one_ranks_as_worked_out_by_hand(client):
    made = check(client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club evening",
                                                          "entrants": PAIRS, "rounds": PLAN}),
                 "post", "/api/v1/tournaments", 201)
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    assert made["state"]["rounds"] == [] and made["state"]["vp_table"][1] == [150, 11, 9]  # burraco_3
    assert made["director_url"].endswith(f"/tournaments/{tid}?key={director}")
    bearer = {"Authorization": f"Bearer {director}"}
    for number, hands in ((1, ROUND_1), (2, ROUND_2), (3, ROUND_3)):
        state = check(client.post(f"/api/v1/tournaments/{tid}/rounds", headers=bearer), "post", ONE + "/rounds",
                      201)
        assert state["rounds"][-1]["status"] == "seated"
        refused = check(client.post(f"/api/v1/tournaments/{tid}/rounds", headers=bearer), "post",
                        ONE + "/rounds", 422)
        assert refused["error"]["code"] == "round_open"
        table = play_round(client, state, number, hands)
        state = get(client, tid, viewer)
        assert state["rounds"][-1]["status"] == "playing"
        assert {tuple(t["entrants"]): (t["result"]["mp"], t["result"]["vp"]) for t in state["rounds"][-1]["tables"]
                } == {pair: (mp, vp) for pair, (mp, vp) in RESULTS[number].items()}
        assert all(t["scorer_url"] is None for t in state["rounds"][-1]["tables"])  # the viewer's key
        seat = client.get(f"/api/v1/tables/{table['table_id']}?key={table['scorer_url'].split('key=')[1]}")
        ns, ew = (PAIRS[e] for e in table["entrants"])
        assert seat.get_json()["players"] == [ns[0], ew[0], ns[1], ew[1]]  # N, E, S, W: N-S side 0
        closed = check(client.post(f"/api/v1/tournaments/{tid}/rounds/{number}/close", headers=bearer),
                       "post", ONE + "/rounds/{number}/close", 200)
        assert (closed["closed"], closed["open_tables"]) == (True, [])
    state = get(client, tid, director)
    assert [(r["rank"], r["entrant"], r["vp"], r["mp"], r["mp_difference"], r["played"]) for r in state["standings"]
            ] == [row + (3,) for row in FINAL]
    assert state["standings"][0]["names"] == "N0a & N0b" and [r["status"] for r in state["rounds"]] == ["closed"] * 3
    over = check(client.post(f"/api/v1/tournaments/{tid}/rounds", headers=bearer), "post", ONE + "/rounds", 422)
    assert over["error"]["code"] == "plan_complete"


def test_a_round_closed_by_force_finishes_its_open_tables_with_the_directors_sentence(client):
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Tuesday", "entrants": PAIRS[:4],
                                                    "rounds": [{"movement": "round_robin", "hands": 2}] * 3,
                                                    "vp_table": VP_ROWS}).get_json()
    tid, bearer = made["id"], {"Authorization": f"Bearer {made['director_key']}"}
    state = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=bearer).get_json()
    first, second = state["rounds"][0]["tables"]
    score_table(client, first, [((200, 0), (100, 0)), ((100, 0), (100, 0))])  # 300 v 200: 100 -> 11/9
    score_table(client, second, [((150, 0), (100, 20))])  # one hand of two: 150 v 80
    url = ONE + "/rounds/{number}/close"
    still = check(client.post(f"/api/v1/tournaments/{tid}/rounds/1/close", headers=bearer), "post", url, 200)
    assert still["closed"] is False and still["open_tables"] == [{"number": 2, "table_id": second["table_id"]}]
    assert still["state"]["rounds"][0]["status"] == "playing"
    done = check(client.post(f"/api/v1/tournaments/{tid}/rounds/1/close", headers=bearer,
                             json={"force": True, "reason": "The pair left at eleven."}), "post", url, 200)
    assert done["closed"] is True and done["open_tables"] == [{"number": 2, "table_id": second["table_id"]}]
    forced = done["state"]["rounds"][0]["tables"][1]
    assert (forced["finished"], forced["forced"], forced["hands"]) == (True, True, 1)
    assert forced["result"] == {"mp": [150, 80], "vp": [11, 9]}  # 70 -> 11/9 (burraco_3)
    assert [e["message"] for e in done["state"]["log"] if e["kind"] in ("forced", "closed")] == [
        "Table 2 of round 1 finished by the director: The pair left at eleven.", "Round 1 closed."]


def test_withdraw_and_add_entrants_between_rounds_a_bye_scores_the_rounds_average(client):
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": PAIRS[:4],
                                                    "rounds": [{"movement": "danish", "hands": 2}] * 3,
                                                    "vp_table": VP_ROWS}).get_json()
    tid, bearer = made["id"], {"Authorization": f"Bearer {made['director_key']}"}
    gone = check(client.post(f"/api/v1/tournaments/{tid}/withdrawals", json={"entrant": 3}, headers=bearer),
                 "post", ONE + "/withdrawals", 200)  # a no-show before round 1
    assert gone["entrants"][3]["withdrawn"] == 0
    state = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=bearer).get_json()
    assert state["rounds"][0]["bye"] == 2 and [t["entrants"] for t in state["rounds"][0]["tables"]] == [[0, 1]]
    refused = check(client.post(f"/api/v1/tournaments/{tid}/entrants", json={"names": ["Late", "Comer"]},
                                headers=bearer), "post", ONE + "/entrants", 422)
    assert refused["error"]["code"] == "round_open"
    score_table(client, state["rounds"][0]["tables"][0], [((300, 0), (100, 0)), ((200, 0), (100, 0))])
    client.post(f"/api/v1/tournaments/{tid}/rounds/1/close", headers=bearer)
    added = check(client.post(f"/api/v1/tournaments/{tid}/entrants", json={"names": ["Late", "Comer"]},
                              headers=bearer), "post", ONE + "/entrants", 201)
    assert added["entrants"][4] == {"index": 4, "names": ["Late", "Comer"], "joined": 2, "withdrawn": None}
    standings = {r["entrant"]: (r["vp"], r["mp"], r["played"]) for r in added["standings"]}
    assert standings == {0: (13, 500, 1), 1: (7, 200, 1), 2: (10, 0, 1), 3: (0, 0, 0), 4: (0, 0, 0)}  # 300: 13/7
    state = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=bearer).get_json()
    assert state["rounds"][1]["bye"] is None  # 0, 2, 1, 4 by the standings; 0 v 2 and 1 v 4
    assert [t["entrants"] for t in state["rounds"][1]["tables"]] == [[0, 2], [1, 4]]


def test_keys_are_asked_like_a_tables(client):
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": PAIRS[:4],
                                                    "rounds": [{"movement": "mitchell"}]}).get_json()
    tid, viewer = made["id"], made["viewer_key"]
    assert made["state"]["plan"] == [{"movement": "mitchell", "hands": 3}]
    for method, path, url in (("get", f"/api/v1/tournaments/{tid}", ONE),
                              ("post", f"/api/v1/tournaments/{tid}/rounds", ONE + "/rounds")):
        call = getattr(client, method)
        assert check(call(path), method, url, 401)["error"]["code"] == "key_required"
        assert check(call(path + "?key=not-the-key"), method, url, 401)["error"]["code"] == "bad_key"
        missing = call(path.replace(tid, "nosuchtournament") + f"?key={viewer}")
        assert check(missing, method, url, 404)["error"]["code"] == "tournament_not_found"
    assert check(client.post(f"/api/v1/tournaments/{tid}/rounds?key={viewer}"), "post", ONE + "/rounds",
                 403)["error"]["code"] == "read_only_key"
    assert client.get(f"/api/v1/tournaments/{tid}/cards?key={viewer}").status_code == 403
    state = client.post(f"/api/v1/tournaments/{tid}/rounds?key={made['director_key']}").get_json()
    cards = check(client.get(f"/api/v1/tournaments/{tid}/cards?key={made['director_key']}"), "get",
                  ONE + "/cards", 200)["cards"]
    assert [c["number"] for c in cards] == [1, 2]
    table = state["rounds"][0]["tables"][0]
    assert table["scorer_url"].endswith(f"/t/{table['table_id']}?key={cards[0]['key']}")
    assert client.get(f"/api/v1/tables/{table['table_id']}?key={cards[1]['key']}").status_code == 401


@pytest.mark.parametrize("body, code", [
    ({"game": "buraco", "name": "X", "entrants": [["A", "B"]], "rounds": [{"movement": "mitchell"}]}, "bad_entrants"),
    ({"game": "buraco", "name": "X", "entrants": [["A", "B"], ["C"]], "rounds": [{"movement": "danish"}]},
     "bad_entrants"),
    ({"game": "buraco", "name": "X", "entrants": [["A", "B"], ["a", "C"]], "rounds": [{"movement": "danish"}]},
     "bad_entrants"),
    ({"game": "buraco", "name": "X", "entrants": PAIRS[:4], "rounds": [{"movement": "swiss"}]}, "bad_rounds"),
    ({"game": "buraco", "name": "X", "entrants": PAIRS[:4], "rounds": [{"movement": "danish", "deals": 3}]},
     "bad_rounds"),
    ({"game": "buraco", "name": "X", "entrants": PAIRS[:4], "rounds": [{"movement": "mitchell"}] * 2},
     "mitchell_over"),
    ({"game": "buraco", "name": "X", "entrants": PAIRS[:4], "rounds": [{"movement": "danish"}],
      "vp_table": [[100, 10, 10], [50, 12, 8]]}, "bad_vp_row"),
    ({"game": "chess", "name": "X", "entrants": PAIRS[:4], "rounds": [{"movement": "danish"}]}, "unknown_game"),
    ({"game": "buraco", "name": " ", "entrants": PAIRS[:4], "rounds": [{"movement": "danish"}]}, "bad_name"),
])
def test_a_tournament_that_cannot_be_played_is_refused_with_a_sentence_and_nothing_stored(client, body, code):
    refused = check(client.post("/api/v1/tournaments", json=body), "post", "/api/v1/tournaments", 422)
    assert refused["error"]["code"] == code and refused["error"]["message"]


def test_the_tournaments_are_in_the_openapi_document():
    assert {"/api/v1/tournaments", ONE, ONE + "/rounds", ONE + "/rounds/{number}/close", ONE + "/withdrawals",
            ONE + "/entrants", ONE + "/cards"} <= set(DOC["paths"])
