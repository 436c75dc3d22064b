"""A card tapped on the scorer's page answers htmx with what it changed, as out-of-band swaps of the parts of the same
templates (referee/web/tables/tapped.py, _scorer_tap.html): mid-trick the card, the forms' fields, the trick line, the
message room, the actions and the offline queue's copy, nothing else; a trick's last tap adds the series line and the
scoreboard; a deal's last trick, a refusal and a form posted without JavaScript get the whole scorer as before.
Brisca, 4 players, DEAL_4P: Bo leads trick 1 with 1C, 11O, 2C, 6O (Bo wins, 14 points)."""
import json
import re

from tests.support.deals import DEAL_4P
from tests.support.scorer import create

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


def test_r_common_2_a_tricks_last_tap_redraws_the_scoreboard_and_the_cards_played(client):
    scorer = dealt(client)
    for code in TRICK[:3]:
        scorer.post("tap", htmx=True, card=code)
    response = scorer.post("tap", htmx=True, card=TRICK[3])
    body = response.get_data(as_text=True)
    assert response.headers["HX-Reswap"] == "none" and 'id="scorer"' not in body
    assert swapped(body) == ["card-11O", "card-6O", "card-1C", "card-2C", *MID_TRICK[1:], "status-series",
                             "scoreboard"]
    assert sorted(re.findall(r'value="(\w+)" class="card played"', body)) == sorted(TRICK)
    news = " ".join(re.search(r'id="status-news".*?</p>', body, re.S).group(0).split())
    assert 'class="status-last fresh" role="status"' in news and "Trick 1: Bo wins, 14 points." in news
    board = re.search(r'<section id="scoreboard".*?</section>', body, re.S).group(0)
    assert "→ Bo, 14 points" in " ".join(board.split())
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
