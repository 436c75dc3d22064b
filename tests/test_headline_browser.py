"""The series' headline in Debian's Chromium: on a 360×740 phone the status bar's line (and the viewer's) says the
leader in the series' own unit on one line with two sides of 20-character names, a deal under way's points after it,
names never broken; a Brisca series won 3 deals to 2 with fewer card points (R-BRISCA-6) is said so by the status
bar, the viewer and the big screen at 1280×720, whose giant numbers are the deals won. Screenshots:
tests/artifacts/headline-*.png, looked at before a change lands."""
import pytest

from tests.support.api import api
from tests.support.browser import artifact, new_phone, shot
from tests.support.deals import MONTSE_WINS, deals
from tests.support.simulate import brisca_deal, brulot_deal, brusquembille_deal
from tests.support.text import NNBSP

MONTSE, JORDI = "Montserrat Fernández", "Jordi Puig i Cadafal"  # 20 characters each
assert len(MONTSE) == len(JORDI) == 20
# Four players whose sides are named in 20 characters ("Jean-Marc & Hortense").
FOUR = ["Jean-Marc", "Raphaëlle", "Hortense", "Mathilde"]


def without_dealer(events):
    return [{k: v for k, v in e.items() if k != "dealer"} for e in events]


# Each game with two sides of 20-character names, a deal under way (the trick games) after one entered by numbers.
GAMES = {
    "brisca": ([MONTSE, JORDI], {}, deals(MONTSE_WINS[:3]) + without_dealer(brisca_deal(2, 1, 7)[:3])),
    "brouc": (FOUR, {}, deals([[90, 30]], "7D") + [{"type": "deal", "trump": "KH"},
                                                   {"type": "trick", "cards": ["7S", "8S", "9S", "AS"]}]),
    "brulot": (FOUR, {"partnership": True}, without_dealer(brulot_deal(4, 0, 3, "dealer_last_card")[0])
               + without_dealer(brulot_deal(4, 1, 5, "dealer_last_card")[0][:3])),
    "brusquembille": (FOUR, {}, deals([[70, 50]], "9S") + without_dealer(brusquembille_deal(4, 1, 9)[:3])),
    "buraco": ([MONTSE, JORDI], {}, [{"type": "deal"}, {"type": "tally", "closed_by": 0, "sides": [
        {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0}, {"melds": 150, "pot": True, "hand": 40}]},
        {"type": "deal"}]),
}

LINE = """sel => { const p = document.querySelector(sel); const r = p.getBoundingClientRect();
  const lh = parseFloat(getComputedStyle(p).lineHeight);
  const split = [...p.querySelectorAll('.side-name, .score, .chip')].filter(c => {
    const rs = [...c.getClientRects()]; return rs.some(q => Math.abs(q.top - rs[0].top) > lh / 2); })
    .map(c => c.innerText);  // a name, a score or a chip over two lines
  return {height: r.height, line: lh, right: r.right, width: innerWidth, split: split, text: p.innerText}; }"""


def made(server, game):
    players, options, events = GAMES[game]
    table = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options})
    for body in events:
        api(server, f"/api/v1/tables/{table['id']}/events", body, table["scorer_key"])
    return table


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_the_status_bar_headline_is_one_line_at_360_px_with_two_sides_of_20_characters(server_module, browser, game,
                                                                                        lang):
    server = server_module
    table = made(server, game)
    context, page, _, problems = new_phone(browser, "fr-CH" if lang == "fr" else "de-DE")
    page.goto(f"{server.url}/t/{table['id']}?key={table['scorer_key']}&lang={lang}")
    line = page.evaluate(LINE, ".status-headline")
    page.screenshot(path=str(artifact(f"headline-{game}-{lang}-360")))  # the screen as the phone shows it
    assert line["height"] < 1.5 * line["line"], line  # one line
    assert line["right"] <= line["width"] and line["split"] == [], line  # nothing runs off, no chip split
    if game != "buraco":  # the deal under way: its own points, after the headline
        assert page.locator(".status-headline .status-deal strong").count() == 2
    page.goto(f"{server.url}/t/{table['id']}?key={table['viewer_key']}&lang={lang}")
    viewer = page.evaluate(LINE, ".viewer-headline")
    assert viewer["right"] <= viewer["width"] and viewer["split"] == [], viewer
    shot(page, f"headline-{game}-{lang}-viewer")
    assert problems == []
    context.close()


def test_r_brisca_6_a_series_won_with_fewer_card_points_says_the_winner_3_2_on_the_phone_and_the_big_screen(
        server_module, browser):
    server = server_module
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": [MONTSE, JORDI]})
    for body in deals(MONTSE_WINS):
        api(server, f"/api/v1/tables/{table['id']}/events", body, table["scorer_key"])
    state = api(server, f"/api/v1/tables/{table['id']}", key=table["viewer_key"])
    assert state["totals"] == [223, 377] and state["series"]["winner"] == 0  # fewer card points, more deals
    won = f"{MONTSE} gagne la série 3{NNBSP}–{NNBSP}2"
    context, page, _, problems = new_phone(browser)
    page.goto(f"{server.url}/t/{table['id']}?key={table['scorer_key']}&lang=fr")
    assert page.locator(".status-headline .headline-main").inner_text() == won
    bar = page.locator(".status-bar").inner_text()
    assert "223" not in bar and "377" not in bar  # the card points: on the scoreboard, not in the headline
    page.screenshot(path=str(artifact("headline-brisca-won-360")))
    page.goto(f"{server.url}/t/{table['id']}?key={table['viewer_key']}&lang=fr")
    assert page.locator(".winner .headline-main").inner_text() == won
    shot(page, "headline-brisca-won-viewer")
    context.close()
    screen = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-CH", reduced_motion="reduce")
    wall = screen.new_page()
    wall.goto(f"{server.url}/t/{table['id']}/screen?key={table['viewer_key']}&lang=fr")
    assert wall.locator(".winner-line").inner_text() == won
    assert wall.locator(".winner-totals .total").all_inner_texts() == ["3", "2"]
    assert wall.locator(".screen-total").all_inner_texts() == ["3", "2"]
    wall.screenshot(path=str(artifact("headline-brisca-won-screen-720p")))
    screen.close()
    assert problems == []


def test_r_brisca_6_the_big_screen_s_giant_numbers_are_the_deals_won_with_the_card_points_small(server_module,
                                                                                                  browser):
    server = server_module
    table = made(server, "brisca")  # 2–1 in deals, 142 card points to 218, a deal under way
    screen = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-CH")
    wall = screen.new_page()
    wall.goto(f"{server.url}/t/{table['id']}/screen?key={table['viewer_key']}&lang=fr")
    assert wall.locator(".screen-total").all_inner_texts() == ["2", "1"]
    assert wall.locator(".screen-headline").inner_text() == f"{MONTSE} mène 2{NNBSP}–{NNBSP}1"
    assert wall.locator(".screen-series .detail").all_inner_texts() == ["142 points des cartes",
                                                                        "218 points des cartes"]
    size = "sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)"
    giant, small = wall.evaluate(size, ".screen-total"), wall.evaluate(size, ".screen-series .detail")
    assert giant >= 72 and small * 3 <= giant, (giant, small)  # a tenth of 720 px; the card points far smaller
    wall.screenshot(path=str(artifact("headline-brisca-screen-720p")))
    screen.close()
