"""Hidden means hidden (issue 38 item 8, R-TOURN-2): while the director hides the standings, the viewer's key reads
no penalty — not the API's ``penalties`` list, nor a standing's ``penalties``, nor the log's penalty entries (nor an
arbitral result of the round under way), nor any viewer's page, print or export; the director still reads them all."""
import pytest

PAIRS = [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]
PLAN = [{"movement": "round_robin", "hands": 3}] * 3
REASON, ARBITRAL = "Slow play at table two", "Cards shown by mistake"


@pytest.fixture
def hidden(client):
    """A tournament, round 1 seated, a −2 penalty and an arbitral 12–8 at table 1, the standings hidden:
    (id, director's key, viewer's key)."""
    client.set_cookie("lang", "en")
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Tuesday", "entrants": PAIRS,
                                                    "rounds": PLAN}).get_json()
    tid, director = made["id"], {"Authorization": f"Bearer {made['director_key']}"}
    assert client.post(f"/api/v1/tournaments/{tid}/rounds", headers=director).status_code == 201
    assert client.post(f"/api/v1/tournaments/{tid}/penalties", json={"entrant": 1, "vp": -2, "reason": REASON},
                       headers=director).status_code == 201
    assert client.post(f"/api/v1/tournaments/{tid}/rounds/1/tables/1/result",
                       json={"vp": [12, 8], "reason": ARBITRAL}, headers=director).status_code == 200
    client.application.config["WTF_CSRF_ENABLED"] = False
    done = client.post(f"/tournaments/{tid}/standings/hide?key={made['director_key']}", data={"hidden": "1"})
    assert done.status_code == 303
    return tid, made["director_key"], made["viewer_key"]


VIEWER_PAGES = ["/tournaments/{tid}/standings", "/tournaments/{tid}/screen", "/tournaments/{tid}/live",
                "/tournaments/{tid}/live?view=screen", "/tournaments/{tid}/print", "/tournaments/{tid}/standings.json",
                "/tournaments/{tid}/standings.csv", "/tournaments/{tid}/rounds/1/results.csv",
                "/api/v1/tournaments/{tid}"]


def opened(client, path: str, tid: str, key: str) -> str:
    url = path.format(tid=tid)
    answer = client.get(url + ("&" if "?" in url else "?") + f"key={key}")
    assert answer.status_code == 200, url
    return answer.get_data(as_text=True)


def test_r_tourn_2_while_hidden_the_viewers_key_reads_no_penalty_anywhere(client, hidden):
    tid, director, viewer = hidden
    state = client.get(f"/api/v1/tournaments/{tid}?key={viewer}").get_json()
    assert state["standings_hidden"] is True
    assert state["standings"] == [] and state["penalties"] == []
    assert [entry["kind"] for entry in state["log"]] == ["seated", "hidden"]
    assert state["rounds"][0]["tables"][0]["result"] is None
    for path in VIEWER_PAGES:
        text = opened(client, path, tid, viewer)
        assert REASON not in text and ARBITRAL not in text and "Penalt" not in text, path


def test_r_tourn_2_while_hidden_the_director_still_reads_the_penalties(client, hidden):
    tid, director, viewer = hidden
    state = client.get(f"/api/v1/tournaments/{tid}?key={director}").get_json()
    assert [(p["entrant"], p["vp"], p["reason"]) for p in state["penalties"]] == [(1, -2, REASON)]
    assert {row["entrant"]: (row["vp"], row["penalties"]) for row in state["standings"]} == {
        0: (12, 0), 1: (-2, -2), 2: (0, 0), 3: (8, 0)}
    assert [entry["kind"] for entry in state["log"]] == ["seated", "penalty", "arbitral", "hidden"]
    assert REASON in opened(client, "/tournaments/{tid}", tid, director)
    assert REASON in opened(client, "/tournaments/{tid}/standings", tid, director)


def test_r_tourn_2_shown_again_the_viewer_reads_the_penalty(client, hidden):
    tid, director, viewer = hidden
    assert client.post(f"/tournaments/{tid}/standings/hide?key={director}", data={"hidden": "0"}).status_code == 303
    state = client.get(f"/api/v1/tournaments/{tid}?key={viewer}").get_json()
    assert [(p["entrant"], p["vp"]) for p in state["penalties"]] == [(1, -2)]
    assert REASON in opened(client, "/tournaments/{tid}/standings", tid, viewer)
