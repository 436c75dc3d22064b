"""A trick's last tap in Chromium (htmx 2, 360×740): its answer swaps the scoreboard's open deal's rows (a table body
of their own, ``#board-last-deal``), Brusquembille's jetons, and adds the trick at the end of the open deal's list
(``beforeend``), never the whole scoreboard; after each trick the scoreboard and the series line are what a page
loaded afresh shows (referee/web/tables/tapped.py, _scorer_tap.html). Tables at their eighth deal, the seven before
entered through the API (tests/support/simulate.py). R-COMMON-4: each card checked on the server."""
import pytest

from tests.support.api import api
from tests.support.browser import IDLE, new_phone
from tests.support.deals import DEAL_4P
from tests.support.oob import same_html
from tests.support.simulate import LONG_SERIES, PLAYERS, brouc_deal, brulot_deal, brusquembille_deal

PLAYED = {
    "brulot": (PLAYERS, LONG_SERIES, lambda dealer, seed: brulot_deal(4, dealer, seed, "dealer_last_card")[0]),
    "brusquembille": (["Ana", "Bo", "Cy"], {"deals": 12}, lambda dealer, seed: brusquembille_deal(3, dealer, seed)),
    "brouc": (PLAYERS, {}, lambda dealer, seed: brouc_deal(dealer, seed)),
}
PARTS = "() => ['scoreboard', 'status-series'].map(id => document.getElementById(id).outerHTML)"
SWAPS = """() => { window.refereeSwaps = []; document.body.addEventListener('htmx:oobAfterSwap',
  (event) => window.refereeSwaps.push(event.detail.target.id)); }"""


def eighth_deal(server, game: str) -> tuple:
    """A table of ``game`` with seven deals entered and the eighth dealt; its scorer's address and that deal's
    tricks."""
    players, options, deal = PLAYED[game]
    made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options})
    state = made["state"]
    for number in range(8):
        bodies = deal(state["next"]["player"], 5000 + number)
        for body in bodies if number < 7 else bodies[:1]:
            state = api(server, f"/api/v1/tables/{made['id']}/events", body, key=made["scorer_key"])["state"]
    return made["scorer_url"], [body["cards"] for body in bodies if body["type"] == "trick"]


@pytest.mark.parametrize("game", ["brulot", "brusquembille", "brouc"])
def test_r_common_4_a_tricks_last_tap_leaves_the_scoreboard_a_fresh_page_shows(server, browser, game):
    url, tricks = eighth_deal(server, game)
    context, page, phone, problems = new_phone(browser, "en-GB")
    page.goto(f"{url}&lang=en")
    fresh = context.new_page()
    page.evaluate(SWAPS)
    for number, trick in enumerate(tricks[:3], 1):
        for code in trick:
            phone.tap(code)
        page.wait_for_function(IDLE)
        assert page.locator("#scoreboard").count() == 1 and page.locator("#board-last-deal").count() == 1
        assert page.locator("#tricks-8-list > li").count() == number  # the trick added, once
        fresh.goto(page.url)
        for held, loaded in zip(page.evaluate(PARTS), fresh.evaluate(PARTS)):
            same_html(held, loaded, f"{game}, trick {number}")
    swapped = set(page.evaluate("() => window.refereeSwaps"))
    assert {"board-last-deal", "tricks-8-list", "status-series"} <= swapped and "scoreboard" not in swapped
    assert ("board-jetons" in swapped) == (game == "brusquembille")  # R-BRUSQ-4: jetons move with the tricks
    assert problems == []
    context.close()


FOCUSED = "() => document.activeElement ? document.activeElement.id : null"


def test_r_common_4_focus_stays_on_the_card_tapped_and_on_undo(server, browser):
    """A card tapped keeps the focus (its answer swaps that very button, by id), the undo keeps it too (its answer is
    the whole scorer): a keyboard or a screen reader goes on where it was, never from the page's top. Brisca,
    DEAL_4P."""
    made = api(server, "/api/v1/tables", {"game": "brisca", "players": PLAYERS})
    api(server, f"/api/v1/tables/{made['id']}/events", {"type": "deal", "trump": "11E", "dealer": 0},
        key=made["scorer_key"])
    context, page, phone, problems = new_phone(browser, "en-GB")
    page.goto(f"{made['scorer_url']}&lang=en")
    first, second, third, fourth = DEAL_4P[0][0]
    phone.tap(first)
    phone.tap(second)
    assert page.evaluate(FOCUSED) == f"card-{second}"  # the tap's answer swapped the button focused
    phone.act("#undo-form button")  # the last card taken back: the whole scorer
    assert page.evaluate(FOCUSED) == "undo-button"
    assert page.locator("#status-trick").inner_text().split() == ["Trick", "1:", "Bo", "1", "copas", "Cy's", "card"]
    for code in (second, third, fourth):
        phone.tap(code)
    assert page.evaluate(FOCUSED) == f"card-{fourth}"
    phone.act("#undo-form button")  # a whole trick undone reopens without its last card
    assert page.evaluate(FOCUSED) == "undo-button"
    assert page.locator("#picker .card.pending").count() == 3
    assert problems == []
    context.close()


COUNT_READS = """() => { const parse = JSON.parse; window.refereeReads = 0; window.refereeAfterSwaps = 0;
  JSON.parse = function (text) { if (typeof text === 'string' && text.indexOf('"labels"') >= 0) {
    window.refereeReads += 1; } return parse.apply(this, arguments); };
  document.addEventListener('htmx:afterSwap', () => { window.refereeAfterSwaps += 1; }); }"""


def test_r_common_4_a_taps_answer_is_read_once_though_htmx_says_each_part_swapped(server, browser):
    """htmx 2 says ``htmx:afterSwap`` once for each element an answer swaps, the out-of-band parts included, each
    time once every part is in: static/offline.js reads its copy of the table (#offline-data) once an answer, not
    once a part."""
    url, tricks = eighth_deal(server, "brulot")
    context, page, phone, problems = new_phone(browser, "en-GB")
    page.goto(f"{url}&lang=en")
    page.evaluate(COUNT_READS)
    for n, code in enumerate(tricks[0][:2], 1):
        phone.tap(code)
        page.wait_for_function(f"() => document.querySelector('#picker-fields [name=pending]').value.split('.')"
                               f".length === {n}")
        page.wait_for_function(IDLE)
    assert page.evaluate("() => window.refereeAfterSwaps") >= 2 * 7  # the card, the fields, the undo… each said
    assert page.evaluate("() => window.refereeReads") == 2  # once a tap
    assert problems == []
    context.close()
