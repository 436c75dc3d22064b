"""A table's history (issue 27, R-COMMON-8), ``/t/<id>/history`` on SQLite and PostgreSQL: any key of the table opens
it; every entry in order with its time and whose key made it; a withdrawn entry struck through with who withdrew it
and why; each entry in force with its deal's points after it, and the series' standing where it moved. The log
replayed step by step is the engine's (``referee/games/history.py``)."""
from __future__ import annotations

import re

import pytest

from referee.games import get_game
from referee.games.history import steps
from tests.support.burraco import ROUND_1, bearer, card_key, score_table, signed_tournament

BRISCA = [{"type": "deal", "trump": "4C"}, {"type": "tally", "points": [70, 50]}, {"type": "deal", "trump": "3E"},
          {"type": "trick", "cards": ["5E", "6C", "5B", "1O"]}]


@pytest.fixture
def client(client_on_each_database):
    client_on_each_database.set_cookie("lang", "en")
    return client_on_each_database


def text(html: str) -> str:
    """The page's words, tags taken out and spaces joined (a score's numbers as they read: "11–0")."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html).replace("&nbsp;", " ")).replace("&amp;", "&")


def lines(html: str) -> list:
    """Each entry's words, in the page's order, each time it says as "hh:mm"."""
    return [re.sub(r"\b\d\d:\d\d UTC\b", "hh:mm", text(part)).strip()
            for part in re.findall(r'<li class="history-line[^"]*">(.*?)</li>', html, re.S)]


def test_r_common_8_the_engine_replays_a_log_step_by_step():
    game = get_game("brisca")
    found = steps(game, ["Ana", "Bo", "Cy", "Di"], {}, 0, BRISCA)
    assert [(s.deal, s.dealer, s.points, s.complete, s.winner) for s in found] == [
        (1, 0, (0, 0), False, None), (1, 0, (70, 50), True, None), (2, 1, (0, 0), False, None),
        (2, 1, (11, 0), False, 2)]
    assert [s.standing["values"] for s in found] == [[0, 0], [1, 0], [1, 0], [1, 0]]  # R-BRISCA-6: deals won


def test_r_common_8_every_entry_in_order_a_withdrawn_one_struck_through(client):
    made = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}).get_json()
    table_id, key = made["id"], made["scorer_key"]
    for body in BRISCA + [{"type": "trick", "cards": ["7E", "7C", "7B", "7O"]}]:
        assert client.post(f"/api/v1/tables/{table_id}/events", json=body, headers=bearer(key)).status_code == 201
    assert client.post(f"/api/v1/tables/{table_id}/undo", json={}, headers=bearer(key)).status_code == 200
    answer = client.get(f"/t/{table_id}/history?key={made['viewer_key']}")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    found = lines(page)
    assert lines(client.get(f"/t/{table_id}/history?key={key}").get_data(as_text=True)) == found  # any key
    assert found == [
        "#1 hh:mm · the scorer New deal · dealt by Ana · trump 4 copas",
        "#2 hh:mm · the scorer The deal by its numbers deal 70–50 · Ana & Cy lead 1–0",
        "#3 hh:mm · the scorer New deal · dealt by Bo · trump 3 espadas",
        "#4 hh:mm · the scorer Trick 5 espadas 6 copas 5 bastos 1 oros · won by Cy deal 11–0",
        "#5 hh:mm · the scorer Trick 7 espadas 7 copas 7 bastos 7 oros · won by Cy deal 11–0 Withdrawn by the scorer "
        "hh:mm"]  # what the withdrawn trick gave: 7 espadas, trump, by Cy; no card points
    log = client.get(f"/api/v1/tables/{table_id}/events?key={key}").get_json()["events"]
    assert f'<time datetime="{log[0]["at"]}">{log[0]["at"][11:16]} <abbr>UTC</abbr></time>' in page
    assert page.count("<del>") == 2 and '<li class="history-line withdrawn">' in page  # the trick, its points
    assert "<h2>Deal 1</h2>" in page and "<h2>Deal 2</h2>" in page and "1 entry withdrawn." in page
    assert client.get(f"/t/{table_id}/history?key=wrong").status_code == 401
    assert client.get(f"/t/{table_id}/history").status_code == 401
    assert client.get(f"/t/nosuchtable/history?key={key}").status_code == 404
    scorer_page = client.get(f"/t/{table_id}?key={key}").get_data(as_text=True)
    assert f'href="/t/{table_id}/history?key={key}"' in scorer_page  # the scorer's menu
    viewer_page = client.get(f"/t/{table_id}?key={made['viewer_key']}").get_data(as_text=True)
    assert f'href="/t/{table_id}/history?key={made["viewer_key"]}"' in viewer_page


def test_r_common_8_r_common_7b_the_directors_correction_shows_who_and_why(client):
    tournament_id, director, viewer, state = signed_tournament(client)
    first = state["rounds"][0]["tables"][0]
    key = card_key(first)
    score_table(client, first, ROUND_1[tuple(first["entrants"])])
    for number in (0, 1):
        client.post(f"/api/v1/tables/{first['table_id']}/events", json={"type": "confirm", "side": number},
                    headers=bearer(key))
    assert client.post(f"/api/v1/tables/{first['table_id']}/undo", json={"reason": "Pair 4 counted 30, not 20"},
                       headers=bearer(director)).status_code == 200
    tally = {"type": "tally", "closed_by": None, "reason": "As the sheet says",
             "sides": [{"melds": 300, "burracos": {}, "pot": True, "hand": 0},
                       {"melds": 80, "burracos": {}, "pot": True, "hand": 30}]}
    assert client.post(f"/api/v1/tables/{first['table_id']}/events", json=tally,
                       headers=bearer(director)).status_code == 201
    page = client.get(f"/t/{first['table_id']}/history?key={director}").get_data(as_text=True)
    found = lines(page)
    assert found == [
        "#1 hh:mm · the scorer New hand · dealt by N0a",
        "#2 hh:mm · the scorer The hand by its numbers hand 250–70 · N0a & N0b lead 250–70",
        "#3 hh:mm · the scorer New hand · dealt by N4a",
        "#4 hh:mm · the scorer The hand by its numbers hand 140–200 · N0a & N0b lead 390–270",
        "#5 hh:mm · the scorer New hand · dealt by N0b",
        "#6 hh:mm · the scorer The hand by its numbers hand 300–60 Withdrawn by the director hh:mm "
        "Reason: Pair 4 counted 30, not 20",  # what the withdrawn tally gave: 80 less 20
        "#7 hh:mm · the scorer Result confirmed · N0a & N0b · 690–330 points A signature of the result before the "
        "director's correction: it no longer counts.",  # R-COMMON-7b: what it signed, no longer counting
        "#8 hh:mm · the scorer Result confirmed · N4a & N4b · 690–330 points A signature of the result before the "
        "director's correction: it no longer counts.",
        "#9 hh:mm · the director The hand by its numbers hand 300–50 · N0a & N0b win the series 690–320 "
        "Reason: As the sheet says"]  # R-BURACO-6: melds less cards left; 250+140+300, 70+200+50
    assert "<h2>Hand 3</h2>" in page and text(re.search(r'<p class="history-seat">(.*?)</p>', page, re.S)[1]) == \
        "Signed · Round 1 · table 1"  # which table it is, printed too
    assert page.count("<del>") == 2 and page.count('class="history-line by-director"') == 1
    director_page = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    assert f'href="/t/{first["table_id"]}/history?key={director}"' in director_page
