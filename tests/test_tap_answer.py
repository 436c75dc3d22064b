"""A card tapped on the scorer's page answers htmx with what it changed, as out-of-band swaps of the parts of the same
templates (referee/web/tables/tapped.py, _scorer_tap.html): mid-trick the card, the forms' fields, the trick line, the
message room, the actions and the offline queue's copy, nothing else; a trick's last tap adds the series line and what
it changed on the scoreboard (the open deal's rows and tricks, Brusquembille's jetons; a game's board that draws no
such parts, the whole board); a deal's last trick, a refusal and a form posted without JavaScript get the whole
scorer as before: after every tap, the page is what a GET of it shows, in each game played card by card.
Brisca, 4 players, DEAL_4P: Bo leads trick 1 with 1C, 11O, 2C, 6O (Bo wins, 14 points)."""
import json
import re

import pytest

from referee import create_app
from referee.games import add_game
from tests.sixth_game import Duel
from tests.support.deals import DEAL_4P
from tests.support.oob import Spans, apply_oob, element, same_html
from tests.support.scorer import Scorer, create
from tests.support.simulate import LONG_SERIES, PLAYERS, brisca_deal, brouc_deal, brulot_deal, brusquembille_deal

TRICK = DEAL_4P[0][0]
TRICKS = [cards for cards, _winner, _points in DEAL_4P]
MID_TRICK = ["card-11O", "picker-fields", "undo-form", "status-trick", "status-news", "actions", "offline-data"]
OOB = re.compile(r'<(\w+)[^>]*\sid="([\w-]+)"[^>]*\shx-swap-oob="true"')


def swapped(body: str) -> list:
    """The ids a tap's answer swaps, in its order."""
    return [found.group(2) for found in OOB.finditer(body)]


def offline_copy(body: str) -> dict:
    return json.loads(re.search(r'id="offline-data"[^>]*>(.*?)</script>', body, re.S).group(1))


def dealt(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    return scorer


def test_r_common_4_a_card_tapped_mid_trick_answers_only_what_it_changed(client):
    scorer = dealt(client)
    scorer.tap("1C")  # without JavaScript: the whole page again (post/redirect/get)
    assert 'id="scorer"' in scorer.page and 'name="pending" value="1C"' in scorer.page
    response = scorer.post("tap", htmx=True, card="11O")
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and response.headers["HX-Reswap"] == "none"
    assert swapped(body) == MID_TRICK  # the card tapped alone: no other card's state moved
    assert 'id="scorer"' not in body and 'id="scoreboard"' not in body and "menu" not in body
    assert len(response.data) < 8 * 1024
    card = re.search(r'<button[^>]*id="card-11O".*?</button>', body, re.S).group(0)
    assert 'class="card pending"' in card and '<span class="badge" aria-hidden="true">2</span>' in card
    fields = re.search(r'<div hidden id="picker-fields".*?</div>', body, re.S).group(0)
    assert 'name="pending" value="1C.11O"' in fields and 'name="revision" value="1"' in fields
    undo = re.search(r'<form id="undo-form".*?</form>', body, re.S).group(0)
    assert 'name="pending" value="1C.11O"' in undo and "Take back the last card" in undo
    line = " ".join(re.search(r'id="status-trick".*?</div>', body, re.S).group(0).split())
    assert "Trick 1:" in line and "Di's card" in line
    copy = offline_copy(body)
    assert copy["pending"] == ["1C", "11O"] and copy["revision"] == 1 and copy["tricks"] == 0


def test_r_common_2_a_tricks_last_tap_redraws_the_open_deals_row_and_tricks_and_the_cards_played(client):
    scorer = dealt(client)
    for code in TRICK[:3]:
        scorer.post("tap", htmx=True, card=code)
    response = scorer.post("tap", htmx=True, card=TRICK[3])
    body = response.get_data(as_text=True)
    assert response.headers["HX-Reswap"] == "none" and 'id="scorer"' not in body
    assert swapped(body) == ["card-11O", "card-6O", "card-1C", "card-2C", *MID_TRICK[1:], "status-series",
                             "board-last-deal"]  # the scoreboard's open deal, not the whole board
    assert 'id="scoreboard"' not in body and len(response.data) < 8 * 1024
    assert sorted(re.findall(r'value="(\w+)" class="card played"', body)) == sorted(TRICK)
    news = " ".join(re.search(r'id="status-news".*?</p>', body, re.S).group(0).split())
    assert 'class="status-last fresh" role="status"' in news and "Trick 1: Bo wins, 14 points." in news
    row = " ".join(re.search(r'<tbody id="board-last-deal".*?</tbody>', body, re.S).group(0).split())
    assert re.findall(r"<summary>(\d+)</summary>", row) == ["0", "14"]  # R-BRISCA-1: Bo and Di's side, 11 + 3
    added = re.findall(r'<ol hx-swap-oob="beforeend:#tricks-1-list">(.*?)</ol>', body, re.S)  # the trick, at the end
    assert len(added) == 1 and added[0].count("<li>") == 1 and "→ Bo, 14 points" in " ".join(added[0].split())
    assert offline_copy(body)["pending"] == [] and offline_copy(body)["revision"] == 2
    line = " ".join(re.search(r'id="status-trick".*?</div>', body, re.S).group(0).split())
    assert "Trick 2" in line and "Bo's card" in line  # R-COMMON-2: the winner leads the next trick


def test_r_common_5_a_refused_tap_and_a_deals_last_trick_get_the_whole_scorer(client):
    scorer = dealt(client)
    scorer.post("tap", htmx=True, card="1C")
    refused = scorer.post("tap", htmx=True, card="1C")  # the same card again: refused, nothing stored
    body = refused.get_data(as_text=True)
    assert 'id="scorer"' in body and 'role="alert"' in body and "HX-Reswap" not in refused.headers
    assert 'class="card pending refused"' in body
    scorer.post("undo", htmx=True)
    for trick in TRICKS[:-1]:
        for code in trick:
            assert scorer.post("tap", htmx=True, card=code).headers["HX-Reswap"] == "none"
    for code in TRICKS[-1][:-1]:
        scorer.post("tap", htmx=True, card=code)
    last = scorer.post("tap", htmx=True, card=TRICKS[-1][-1])  # the deal is over: the next deal's screen
    body = last.get_data(as_text=True)
    assert "HX-Reswap" not in last.headers and 'id="scorer"' in body and 'id="scoreboard"' in body
    assert "hx-swap-oob" not in body and 'action="/t/' in body and "/deal?key=" in body


def test_r_common_4_the_viewers_see_each_card_a_tap_answered_in_parts(client):
    scorer = dealt(client)
    table_id = scorer.url.split("/t/")[1].split("?")[0]
    viewer = client.application.extensions["referee.ledger"].viewer_key(table_id)
    for count, code in enumerate(TRICK[:3], 1):
        scorer.post("tap", htmx=True, card=code)
        live = " ".join(client.get(f"/t/{table_id}/live?key={viewer}&since=1").get_data(as_text=True).split())
        assert live.count('class="played-now"') == count


# Duel's deal (tests/test_sixth_game.py): Ana deals and keeps the turned JH, Bo leads (R-TEST-2, 3).
DUEL_TRICKS = [["AS", "JS"], ["KS", "JH"], ["AH", "QH"], ["KD", "AD"], ["KH", "QS"], ["QD", "JD"]]
# Each game played card by card (the five registered that play tricks and Duel, the sixth game of tests/sixth_game):
# its players, options and one deal's entries (tests/support/simulate.py), dealt by ``dealer`` from ``seed``.
PLAYED = {
    "brisca": (["Ana", "Bo", "Cy", "Di"], {"wins_needed": 7}, lambda dealer, seed: brisca_deal(4, dealer, seed)),
    "brulot": (PLAYERS, LONG_SERIES, lambda dealer, seed: brulot_deal(4, dealer, seed, "dealer_last_card")[0]),
    "brusquembille": (["Ana", "Bo", "Cy"], {"deals": 12}, lambda dealer, seed: brusquembille_deal(3, dealer, seed)),
    "brouc": (PLAYERS, {}, lambda dealer, seed: brouc_deal(dealer, seed)),
    "duel": (["Ana", "Bo"], {"deals": 12}, lambda dealer, seed: [{"type": "deal", "trump": "JH", "dealer": dealer}]
             + [{"type": "trick", "cards": cards} for cards in DUEL_TRICKS]),
}


def played_table(client, game: str, before: int = 7):
    """A table of ``game`` at its ``before + 1``-th deal (the earlier ones summed up on a phone's board), dealt
    through the API; its scorer's page open; and that deal's tricks, to tap."""
    players, options, deal = PLAYED[game]
    made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": options}).get_json()
    key, state = {"Authorization": f"Bearer {made['scorer_key']}"}, made["state"]
    for number in range(before + 1):
        bodies = deal(state["next"]["player"], 4000 + number)
        for body in bodies if number < before else bodies[:1]:
            answer = client.post(f"/api/v1/tables/{made['id']}/events", json=body, headers=key)
            assert answer.status_code == 201, answer.get_json()
            state = answer.get_json()["state"]
    assert not state["series"]["finished"] and state["next"]["action"] == "trick"
    client.set_cookie("lang", "en")
    tricks = [body["cards"] for body in bodies if body["type"] == "trick"]
    return Scorer(client, f"/t/{made['id']}?key={made['scorer_key']}"), tricks


def tap_as_htmx(scorer, code: str) -> list:
    """One card tapped on a page with JavaScript: htmx swaps the answer's parts into the page the phone holds (or
    the whole scorer in place); the phone's page is then that. Returns the ids swapped out of band."""
    page = scorer.page
    answer = scorer.post("tap", htmx=True, card=code)
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200, body[:300]
    if answer.headers.get("HX-Reswap") == "none":
        scorer.page, ids = apply_oob(page, body)
    else:
        start, end = Spans(page).spans["scorer"]
        scorer.page, ids = page[:start] + body + page[end:], ["scorer"]
    return ids


def check_as_a_get(scorer, game: str, code: str) -> None:
    fresh = scorer.client.get(scorer.url).get_data(as_text=True)
    same_html(element(scorer.page, "scorer"), element(fresh, "scorer"), f"{game}, after {code}")


def play_whole_deal_by_taps(client, game: str) -> list:
    """R-COMMON-4: a whole deal tapped card by card, each answer swapped into the page the phone holds: after each
    tap, the phone's scorer is exactly a fresh GET's. Returns the ids each trick's last tap swapped."""
    scorer, tricks = played_table(client, game)
    last_taps = []
    for trick in tricks:
        for code in trick:
            ids = tap_as_htmx(scorer, code)
            check_as_a_get(scorer, game, code)
        last_taps.append(ids)
    return last_taps


@pytest.mark.parametrize("game", ["brisca", "brulot", "brusquembille", "brouc"])
def test_r_common_4_every_tap_leaves_the_page_a_get_shows(client, game):
    last_taps = play_whole_deal_by_taps(client, game)
    assert last_taps[-1] == ["scorer"]  # the deal's last trick: the whole scorer, the next deal's screen
    board = ["board-last-deal", "board-jetons"] if game == "brusquembille" else ["board-last-deal"]  # R-BRUSQ-4
    for ids in last_taps[:-1]:  # the open deal's rows (and jetons), its trick added: nothing else of the scoreboard
        assert ids[ids.index("status-series"):] == ["status-series", *board, "+tricks-8-list"]


def test_r_test_1_2_3_every_tap_of_a_duel_deal_leaves_the_page_a_get_shows(tmp_path):
    """Duel (tests/sixth_game), registered before its app is made: a game's own board, swapped as it draws it."""
    remove = add_game(Duel)
    try:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'duel.sqlite3'}",
                          "SECRET_KEY": "test", "RATELIMIT_ENABLED": False})
        app.extensions["referee.ledger"].init_db()
        last_taps = play_whole_deal_by_taps(app.test_client(), "duel")
    finally:
        remove()
    assert last_taps[-1] == ["scorer"]  # R-TEST-4: its board draws no parts alone: the whole board, the trick added
    assert all(ids[ids.index("status-series"):] == ["status-series", "scoreboard-board", "+tricks-8-list"]
               for ids in last_taps[:-1])


def test_r_common_4_the_offline_copys_refusals_and_labels_are_in_each_pages_own_language(client):
    """The offline copy's card labels and refusal sentences (static/offline.js says them when the Wi-Fi is down)
    are made once per language and kept (``Deck.labels``, ``offline_data.said_once``): a French page after an
    English one still gets French, and the English one after it English again."""
    scorer = dealt(client)
    english = offline_copy(scorer.page)
    client.set_cookie("lang", "fr")
    french = offline_copy(client.get(scorer.url).get_data(as_text=True))
    client.set_cookie("lang", "en")
    again = offline_copy(client.get(scorer.url).get_data(as_text=True))
    assert english["refusals"]["card_out_of_play"] == "{card} is out of play in this deal; {name} cannot play it."
    assert french["refusals"]["card_out_of_play"].startswith("{card} est hors jeu dans cette donne")
    assert english["labels"]["12B"] == french["labels"]["12B"] == "12 bastos"  # a Spanish suit, named alike
    assert again["refusals"] == english["refusals"] and again["labels"] == english["labels"]
