"""The wall for a big field (issue 27) through Flask's client, on SQLite and PostgreSQL: the round's results in on the
wall and the phones' standings (the tables finished — to confirm, signed, arbitral — over the round's tables), the
director's switch that hides the standings (a CSRF form; the wall and the phones show a sentence, the director's page
and key still see the rows), and a penalty shown apart from the VP that hold it (R-TOURN-2), its reason escaped.

The evening: the 8 pairs of tests/support/deals.py, two Mitchell rounds of 2 hands (burraco_3). Round 1 seats
0 v 4, 1 v 5, 2 v 6, 3 v 7 at tables 1 to 4. Table 1: 500 – 200 (300 apart: 13 – 7 VP); table 3: 180 – 350 (170
apart: 8 – 12); table 2 plays one hand of two, then takes the director's arbitral 12 – 8; table 4 enters nothing."""
from __future__ import annotations

import re
from html import unescape

import pytest

from tests.support.burraco import VP_ROWS, card_key, score_table, signed_tournament
from tests.support.deals import PAIRS

ENTRANTS = [pair.split(" & ") for pair in PAIRS]
PLAN = [{"movement": "mitchell", "hands": 2}] * 2
TABLE_1 = [((300, 0), (100, 0)), ((200, 0), (100, 0))]  # 500 v 200
TABLE_3 = [((100, 0), (200, 0)), ((100, 20), (150, 0))]  # 180 v 350
HIDDEN = "The standings are hidden until the last round is over."


@pytest.fixture
def app(app_on_each_database):
    app_on_each_database.config["WTF_CSRF_ENABLED"] = True  # the switch is a real form: its token is checked
    return app_on_each_database


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def side(melds: int, left: int) -> dict:
    return {"melds": melds, "burracos": {}, "pot": True, "hand": left}


def score(client, table: dict, hands: list) -> None:
    """Each hand (its deal, then its tally) through the tables' API with the table card's key."""
    key = table["scorer_url"].split("key=")[1]
    for ns, ew in hands:
        for body in ({"type": "deal", "trump": None},
                     {"type": "tally", "closed_by": None, "sides": [side(*ns), side(*ew)]}):
            answer = client.post(f"/api/v1/tables/{table['table_id']}/events", json=body, headers=bearer(key))
            assert answer.status_code == 201, answer.get_json()


def evening(client) -> tuple:
    """(tournament id, director's key, viewer's key, round 1's tables), round 1 seated."""
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Tuesday", "entrants": ENTRANTS,
                                                    "rounds": PLAN, "vp_table": VP_ROWS}).get_json()
    seated = client.post(f"/api/v1/tournaments/{made['id']}/rounds", headers=bearer(made["director_key"]))
    assert seated.status_code == 201
    tables = seated.get_json()["rounds"][0]["tables"]
    assert [t["entrants"] for t in tables] == [[0, 4], [1, 5], [2, 6], [3, 7]]
    return made["id"], made["director_key"], made["viewer_key"], tables


def words(html: str) -> str:
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def rows(html: str, table_class: str) -> list:
    """Each body row of the tables of this class, as its cells' words."""
    found = []
    for table in re.findall(rf'<table class="{table_class}">(.*?)</table>', html, re.S):
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S):
            found.append([words(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)])
    return found


def pages(client, tid: str, key: str) -> dict:
    """The wall, its live part, the phones' standings and their live part, as the key opens them."""
    got = {"wall": client.get(f"/tournaments/{tid}/screen?key={key}"),
           "wall_live": client.get(f"/tournaments/{tid}/live?key={key}&view=screen"),
           "standings": client.get(f"/tournaments/{tid}/standings?key={key}"),
           "standings_live": client.get(f"/tournaments/{tid}/live?key={key}")}
    assert {name: answer.status_code for name, answer in got.items()} == dict.fromkeys(got, 200)
    return {name: answer.get_data(as_text=True) for name, answer in got.items()}


def results_in(html: str) -> str:
    return words(re.search(r'<p class="results-in">(.*?)</p>', html, re.S).group(1))


def status(client, tid: str, key: str) -> list:
    return [t["status"] for t in client.get(f"/api/v1/tournaments/{tid}?key={key}").get_json()["rounds"][0]["tables"]]


def token(client, tid: str, director: str) -> str:
    page = client.get(f"/tournaments/{tid}?key={director}").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_results_in_count_the_rounds_finished_tables_on_the_wall_and_the_phones(client):
    tid, director, viewer, tables = evening(client)
    seen = pages(client, tid, viewer)
    assert {name: results_in(html) for name, html in seen.items()} == dict.fromkeys(seen, "Results in: 0 / 4")

    score(client, tables[0], TABLE_1)
    score(client, tables[1], TABLE_1[:1])  # one hand of two: still playing
    seen = pages(client, tid, viewer)
    assert {name: results_in(html) for name, html in seen.items()} == dict.fromkeys(seen, "Results in: 1 / 4")
    score(client, tables[2], TABLE_3)
    assert status(client, tid, director) == ["to_confirm", "playing", "to_confirm", "waiting"]
    seen = pages(client, tid, viewer)
    assert {name: results_in(html) for name, html in seen.items()} == dict.fromkeys(seen, "Results in: 2 / 4")
    assert "Round 1: tables 2 (1/2), 4 (0/2) still playing" in words(seen["wall"])
    assert rows(seen["wall"], "wall-table")[:4] == [["1", "Ana & Bo", "13", "500", "13"],
                                                    ["2", "Mo & Ned", "12", "350", "12"],
                                                    ["3", "Ed & Flo", "8", "180", "8"],
                                                    ["4", "Ida & Jo", "7", "200", "7"]]

    key = tables[0]["scorer_url"].split("key=")[1]  # table 1 signed by both sides: still one result
    for number in (0, 1):
        assert client.post(f"/api/v1/tables/{tables[0]['table_id']}/events", json={"type": "confirm", "side": number},
                           headers=bearer(key)).status_code == 201
    arbitral = client.post(f"/api/v1/tournaments/{tid}/rounds/1/tables/2/result",
                           json={"vp": [12, 8], "reason": "Kim & Lu left after one hand."}, headers=bearer(director))
    assert arbitral.status_code == 200
    assert status(client, tid, director) == ["signed", "arbitral", "to_confirm", "waiting"]
    seen = pages(client, tid, viewer)
    assert {name: results_in(html) for name, html in seen.items()} == dict.fromkeys(seen, "Results in: 3 / 4")
    assert "Round 1: table 4 (0/2) still playing" in words(seen["standings"])

    closed = client.post(f"/api/v1/tournaments/{tid}/rounds/1/close", json={"force": True, "reason": "Late."},
                         headers=bearer(director))
    assert closed.get_json()["closed"] is True and status(client, tid, director)[3] == "not_played"
    seen = pages(client, tid, viewer)  # between rounds: no round under way, no count
    assert all('class="results-in"' not in html and "After 1 round" in words(html) for html in seen.values())


def test_the_directors_switch_hides_the_rows_from_the_wall_and_the_phones_not_from_the_director(client):
    tid, director, viewer, tables = evening(client)
    score(client, tables[0], TABLE_1)
    form = {"csrf_token": token(client, tid, director), "hidden": "1"}
    assert client.post(f"/tournaments/{tid}/standings/hide?key={director}", data={"hidden": "1"}).status_code == 400
    assert client.post(f"/tournaments/{tid}/standings/hide?key={viewer}", data=form).status_code == 403
    refused = client.post(f"/tournaments/{tid}/standings/hide?key={director}", data={**form, "hidden": "yes"})
    assert refused.status_code == 200 and "Choose whether the standings are hidden or shown." in words(
        refused.get_data(as_text=True))
    done = client.post(f"/tournaments/{tid}/standings/hide?key={director}", data=form)
    assert done.status_code == 303 and done.headers["Location"] == f"/tournaments/{tid}?key={director}&done=standings"
    state = client.get(f"/api/v1/tournaments/{tid}?key={director}").get_json()
    assert state["standings_hidden"] is True and [e["kind"] for e in state["log"]][-1] == "hidden"

    for key in (viewer, director):  # the wall is the hall's, whatever key opened it
        seen = pages(client, tid, key)
        for name in ("wall", "wall_live"):
            assert HIDDEN in words(seen[name]) and 'class="wall-table"' not in seen[name], name
            assert results_in(seen[name]) == "Results in: 1 / 4"
            assert "Round 1: tables 2 (0/2), 3 (0/2), 4 (0/2) still playing" in words(seen[name])
    seen = pages(client, tid, viewer)
    for name in ("standings", "standings_live"):
        assert HIDDEN in words(seen[name]) and rows(seen[name], "standings") == [], name
        assert results_in(seen[name]) == "Results in: 1 / 4"
    assert "standings.csv" not in seen["standings"] and "/print" not in seen["standings"]
    mine = pages(client, tid, director)  # the director's key still sees them on the phones' page
    assert HIDDEN not in words(mine["standings"]) and rows(mine["standings"], "standings")[0] == [
        "1", "Ana & Bo", "13", "500", "13"]
    assert "Hidden from the wall and the phones: you see them with the director's key." in words(mine["standings"])

    page = client.get(f"/tournaments/{tid}?key={director}&done=standings")  # the director's page: the rows
    part = re.search(r'<section class="hide-standings".*?</section>', page.get_data(as_text=True), re.S).group(0)
    assert page.status_code == 200 and HIDDEN not in words(page.get_data(as_text=True))
    assert "Hidden: the wall and the phones show the round's tables and the results in, not the standings." in words(
        part) and 'role="status"' in part
    assert f'action="/tournaments/{tid}/standings/hide?key={director}"' in part
    assert '<input type="hidden" name="hidden" value="0">' in part and "Show the standings" in words(part)
    assert [row[:3] for row in rows(part, "standings")] == [["1", "Ana & Bo", "13"], ["2", "Ida & Jo", "7"]] + [
        ["3", names, "0"] for names in ("Cy & Di", "Ed & Flo", "Gus & Hal", "Kim & Lu", "Mo & Ned", "Oz & Pia")]

    shown = client.post(f"/tournaments/{tid}/standings/hide?key={director}", data={**form, "hidden": "0"})
    assert shown.status_code == 303
    part = re.search(r'<section class="hide-standings".*?</section>', client.get(
        f"/tournaments/{tid}?key={director}").get_data(as_text=True), re.S).group(0)
    assert '<input type="hidden" name="hidden" value="1">' in part and "Hide the standings" in words(part)
    assert 'role="status"' not in part and rows(part, "standings") == []
    seen = pages(client, tid, viewer)
    assert all(HIDDEN not in words(html) for html in seen.values())
    assert rows(seen["wall"], "wall-table")[0] == rows(seen["standings"], "standings")[0] == [
        "1", "Ana & Bo", "13", "500", "13"]


def test_a_penalty_is_shown_apart_from_the_vp_that_hold_it_and_listed_with_its_reason(client):
    tid, director, viewer, tables = evening(client)
    score(client, tables[0], TABLE_1)
    score(client, tables[2], TABLE_3)
    seen = pages(client, tid, viewer)
    assert "Pen." not in seen["wall"] and "Pen." not in seen["standings"]  # no penalty: no column
    given = client.post(f"/api/v1/tournaments/{tid}/penalties", json={"entrant": 0, "vp": -2, "reason": "Slow play"},
                        headers=bearer(director))
    assert given.status_code == 201
    given = client.post(f"/api/v1/tournaments/{tid}/penalties",
                        json={"entrant": 7, "vp": -1, "reason": "<b>Phone</b> at the table", "round": 1},
                        headers=bearer(director))
    assert given.status_code == 201
    seen = pages(client, tid, viewer)
    ranked = [["1", "Mo & Ned", "12", "", "350", "12"], ["2", "Ana & Bo", "11", "−2", "500", "13"],
              ["3", "Ed & Flo", "8", "", "180", "8"], ["4", "Ida & Jo", "7", "", "200", "7"],
              ["5", "Cy & Di", "0", "", "0", ""], ["5", "Gus & Hal", "0", "", "0", ""],
              ["5", "Kim & Lu", "0", "", "0", ""], ["8", "Oz & Pia", "−1", "−1", "0", ""]]  # a true minus sign (issue 38)
    for name in ("wall", "wall_live"):
        assert rows(seen[name], "wall-table") == ranked, name
        assert '<th scope="col" class="num pen">Pen.</th>' in seen[name]
    for name in ("standings", "standings_live"):
        assert rows(seen[name], "standings") == ranked, name
        listed = re.search(r'<section class="penalty-list".*?</section>', seen[name], re.S).group(0)
        assert words(listed) == ("Penalties Ana & Bo −2 VP · Slow play "
                                 "Oz & Pia −1 VP · Round 1 · <b>Phone</b> at the table")
        assert "&lt;b&gt;Phone&lt;/b&gt;" in listed and "<b>" not in listed


def test_r_common_7_with_signatures_required_a_finished_table_is_in_once_signed_and_said_to_sign_until_then(client):
    """A tournament that requires signatures counts a result in once it stands (signed, arbitral, corrected), never
    a finished table its sides have not signed: that one is named, still to sign (issue 38's walk-through: the wall
    said 2 / 2 while table 2 had called the director)."""
    tid, _director, viewer, state = signed_tournament(client)
    first, second = state["rounds"][0]["tables"][:2]
    hands = [((300, 0), (100, 0))] * 3
    score_table(client, first, hands)
    score_table(client, second, hands)
    total = len(state["rounds"][0]["tables"])
    seen = pages(client, tid, viewer)
    assert {name: results_in(html) for name, html in seen.items()} == dict.fromkeys(
        seen, f"Results in: 0 / {total} · tables 1, 2 still to sign")
    for number in (0, 1):
        assert client.post(f"/api/v1/tables/{first['table_id']}/events", json={"type": "confirm", "side": number},
                           headers=bearer(card_key(first))).status_code == 201
    seen = pages(client, tid, viewer)
    assert {name: results_in(html) for name, html in seen.items()} == dict.fromkeys(
        seen, f"Results in: 1 / {total} · table 2 still to sign")
