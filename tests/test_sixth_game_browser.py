"""Issue 39: Duel, the sixth game defined only under tests/sixth_game/ (tests/test_sixth_game.py), in a real browser:
from the home page to its set-up page and a whole deal tapped card by card on the scorer's page, with JavaScript
(htmx swaps, static/offline.js fed the game's own strength and card points), its console clean. The app is served
from this process, Duel registered in it before it is made (a server process of its own would not know the game).

The deal (R-TEST-1, 2, 3): Ana deals and keeps the turned JH; Bo leads. Tricks from the leader: AS JS (Bo 5), KS JH
(Ana 4), AH QH (Ana 6), KD AD (Bo 7), KH QS (Bo 5), QD JD (Bo 3): Ana 10, Bo 20.
"""
import threading

import pytest
from werkzeug.serving import make_server

from referee import create_app
from referee.games import add_game
from tests.sixth_game import Duel
from tests.support.browser import IDLE, new_phone

TAPS = ["AS", "JS", "KS", "JH", "AH", "QH", "KD", "AD", "KH", "QS", "QD", "JD"]


@pytest.fixture(scope="module")
def duel_site(tmp_path_factory):
    """The app with Duel registered, served from this process; Duel out of the registry after the module."""
    remove = add_game(Duel)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('duel') / 'duel.sqlite3'}",
                      "SECRET_KEY": "test", "TESTING": True, "RATELIMIT_ENABLED": False})
    app.extensions["referee.ledger"].init_db()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    remove()


def test_r_test_1_2_3_from_the_home_page_a_whole_deal_of_duel_tapped_card_by_card(browser, duel_site):
    context, page, phone, problems = new_phone(browser, locale="en-GB")
    page.goto(f"{duel_site}/?lang=en")
    with page.expect_navigation():
        page.click("a.button.primary[href='/new/duel']")
    page.fill("#player-0", "Ana")
    page.fill("#player-1", "Bo")
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    page.wait_for_function(IDLE)
    phone.tap("JH")  # the turned card, in the dealer's hand (R-TEST-2): the deal starts
    assert "held" in page.locator("button.card[value='JH']").get_attribute("class").split()  # Bo cannot play it
    for code in TAPS:
        phone.tap(code)
    assert phone.totals() == ["10", "20"]  # R-TEST-1, 3
    status = " ".join(page.locator(".status-bar").inner_text().split())
    assert "Deal 2 dealer: Bo" in status and "Bo leads 20–10" in status  # R-COMMON-2: Bo deals the next one
    assert "Trick 6: Bo wins, 3 points." in status  # QD over JD, no trump (R-TEST-3)
    assert problems == []
    context.close()
