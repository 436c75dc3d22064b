"""The numbers screen holds still under the finger, in a real browser at 360×740 with JavaScript, for every game, with
players' names of 20 characters (R-COMMON-6): measured with bounding boxes against the screen and the save button.
A tap that opens a choice (a Brouc announcer or mariage, a Brusquembille ace, the cape's declaration) brings the whole
choice into view; a tap that opens none (a burraco, a pot) leaves its button where it was; the save, after the
result, never covers a control; saving a deal brings the next deal's first action into view; the numbers mode's
first screen says what comes, and the turned card's tap shows the fields and the keypad. Every name in a box is
whole, broken only between its words, and nothing is wider than the screen."""
import pytest

from tests.support.api import api, state
from tests.support.browser import IDLE, PHONE, new_phone, press, shot

NAMES = ["Jean-Pierre Rossier", "Marie-Christine Roux", "Raphaël Dubuis-Monet", "Hortense Vuilleumier",
         "Ginette Lachapelle"]
# The games' numbers screens: (id, game, players, the deal's start, what a player types for a deal that saves).
SCREENS = [
    ("brisca-2", "brisca", 2, {"type": "deal", "trump": "1O"}, "70"),
    ("brisca-4", "brisca", 4, {"type": "deal", "trump": "1O"}, "70"),
    ("brouc", "brouc", 4, {"type": "deal", "trump": "KH"}, "64"),
    ("brulot-4", "brulot", 4, {"type": "deal", "trump": "3H"}, "12>9>15"),
    ("brulot-5", "brulot", 5, {"type": "deal", "trump": "AS"}, "0>3>6>5>18"),
    ("brusquembille-3", "brusquembille", 3, {"type": "deal", "trump": "9S"}, "40>50"),
    ("buraco-4", "buraco", 4, {"type": "deal"}, "250>15>120>45"),
    ("buraco-3", "buraco", 3, {"type": "deal"}, "100>20>60>20>40>15"),  # nobody closed: the stock ran out
]

# Every control of the scorer's page (status bar aside) the save's box overlaps: none may be.
# The sheet's <details> just opened, whole on the screen under the status bar (what in_view checks, in the page).
OPENED_IN_VIEW = """() => { const opened = document.querySelector('#sheet details[open]');
  if (!opened) { return false; }
  const box = opened.getBoundingClientRect(), bar = document.querySelector('.status-bar').getBoundingClientRect();
  return bar.bottom - 0.5 <= box.top && box.bottom <= window.innerHeight + 0.5; }"""
UNDER_THE_SAVE = """() => {
  const save = document.querySelector('.sheet-save').getBoundingClientRect();
  return Array.from(document.querySelectorAll('#scorer button, #scorer input:not([type=hidden]), #scorer select, '
      + '#scorer summary, #scorer a'))
    .filter((e) => e.checkVisibility({contentVisibilityAuto: true}) && !e.closest('.sheet-save, .status-bar'))
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width > 0 && r.height > 0 && r.bottom > save.top && r.top < save.bottom && r.right > save.left && r.left < save.right)
    .map(([e]) => e.value || e.name || e.textContent.trim().slice(0, 40));
}"""
# Names in the numbers screen's boxes, chips and groups: a word drawn on two lines, or a box narrower than its words.
BROKEN_NAMES = """() => Array.from(document.querySelectorAll('#sheet .words'))
  .filter((words) => words.offsetParent !== null)
  .flatMap((words) => {
    const box = words.parentElement.getBoundingClientRect();
    return Array.from(words.querySelectorAll('.word'))
      .filter((w) => w.getClientRects().length !== 1 || w.getBoundingClientRect().right > box.right + 0.5
                     || w.getBoundingClientRect().left < box.left - 0.5)
      .map((w) => w.textContent);
  })"""
# Whatever is wider than the screen, or reaches past its right edge (unless a box within the screen cuts it off).
TOO_WIDE = """() => Array.from(document.querySelectorAll('#scorer *'))
  .filter((e) => e.checkVisibility() && e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .filter((e) => { // what a box of the screen cuts off (a status line's "…") is not wider than the screen
    for (let up = e.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') { return up.getBoundingClientRect().right > window.innerWidth + 0.5; }
    }
    return true;
  })
  .map((e) => e.tagName + '.' + e.className)"""


def numbers_screen(browser, server, game, players, deal, lang="en"):
    made = api(server, "/api/v1/tables", {"game": game, "players": NAMES[:players]})
    api(server, f"/api/v1/tables/{made['id']}/events", deal, made["scorer_key"])
    context, page, _, problems = new_phone(browser, locale="en-GB")
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang={lang}&mode=numbers")
    return context, page, made, problems


def tap(page, selector):
    page.click(selector)
    page.wait_for_function(IDLE)


def room(page):
    """The part of the screen a tap may show things in: under the sticky status bar, down to the screen's bottom."""
    bar = page.locator(".status-bar").bounding_box()
    return bar["y"] + bar["height"], PHONE["height"]


def in_view(page, selector):
    """Whether the element is whole on the screen, under the status bar."""
    box = page.locator(selector).first.bounding_box()
    top, bottom = room(page)
    return top - 0.5 <= box["y"] and box["y"] + box["height"] <= bottom + 0.5 and box["x"] >= 0 and \
        box["x"] + box["width"] <= PHONE["width"]


def at_the_bottom(page, selector):
    """Scrolls the page so that the element sits at the very bottom of the screen, as a thumb leaves it."""
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'end'})")


def looks_right(page, name):
    shot(page, name)  # first, so that a failure leaves what it saw
    assert page.evaluate(UNDER_THE_SAVE) == []
    assert page.evaluate(BROKEN_NAMES) == []
    assert page.evaluate(TOO_WIDE) == [] and page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("label, game, players, deal, typed", SCREENS, ids=[s[0] for s in SCREENS])
def test_r_common_6_long_names_stay_whole_the_save_covers_nothing_and_saving_shows_the_next_deal(
        browser, server, label, game, players, deal, typed):
    context, page, made, problems = numbers_screen(browser, server, game, players, deal)
    assert in_view(page, ".sheet-points") and in_view(page, ".keypad")
    looks_right(page, f"in-view-{label}-360")
    names = page.locator(".sheet-side-name .words" if game == "buraco" else ".sheet-name .words").all_inner_texts()
    table = state(server, made)
    sides = [" & ".join(NAMES[p] for p in side["players"]) for side in table["sides"]]
    if game == "brouc":  # as its slate draws them: the other side, then the scorer's (R-BROUC-6)
        sides = [sides[1 - table["options"]["scorer_side"]], sides[table["options"]["scorer_side"]]]
    assert names == (NAMES[:players] if game == "brulot" else sides)  # every name whole, in words
    press(page, typed)
    for y in range(0, page.evaluate("document.documentElement.scrollHeight"), 300):  # the page at any scroll
        page.evaluate(f"window.scrollTo(0, {y})")
        assert page.evaluate(UNDER_THE_SAVE) == [], y
    page.wait_for_selector("#sheet-preview table")  # the engine's result, before the save
    tap(page, ".sheet-save")
    assert state(server, made)["deals"][0]["complete"] is True
    first = "form[action*='/deal'] button.primary" if game == "buraco" else "#picker .suit-row"
    assert in_view(page, first) and page.evaluate("window.scrollY") == 0  # the next deal's first action
    shot(page, f"in-view-{label}-saved-360")
    assert problems == []
    context.close()


def test_r_brouc_4_5_8_a_tapped_announcer_mariage_or_declaration_shows_its_whole_choice(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brouc", 4, {"type": "deal", "trump": "KH"})
    at_the_bottom(page, "button[value='pick:a:2']")  # the announcers' third row at the screen's bottom edge
    tap(page, "button[value='pick:a:2']")
    assert in_view(page, "[data-choice]") and page.locator("[data-choice] .suit-button").count() == 8
    assert in_view(page, "button[value='pick:a:2']")  # the announcer tapped, above its suits
    assert page.evaluate(UNDER_THE_SAVE) == []
    shot(page, "in-view-brouc-announce-360")
    tap(page, "button[value='add:a:H:KQ']")  # the announce is written: the choice closes, nothing jumps
    assert page.locator("[data-choice]").count() == 0
    at_the_bottom(page, "button[value='pick:m:1']")
    tap(page, "button[value='pick:m:1']")
    assert in_view(page, "[data-choice]") and page.locator("[data-choice] .suit-button").count() == 8
    tap(page, "button[value='add:m:C:KQ']")
    at_the_bottom(page, "#sheet details summary")
    page.click("#sheet details summary")  # la cape's declaration, opened on the phone
    page.wait_for_function(OPENED_IN_VIEW)  # static/numbers.js brings it into view on its toggle
    assert in_view(page, "#sheet details[open]")
    assert page.evaluate(UNDER_THE_SAVE) == [] and problems == []
    context.close()


def test_r_brusq_4_a_tapped_ace_shows_who_played_it_in_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brusquembille", 3, {"type": "deal",
                                                                                            "trump": "9S"})
    at_the_bottom(page, "button[value='cycle:AS']")
    tap(page, "button[value='cycle:AS']")
    assert in_view(page, "[data-choice]") and page.locator("[data-choice] button[value^='who:AS:']").count() == 3
    assert in_view(page, "button[value='cycle:AS']")
    assert page.locator("[data-choice] .help").inner_text() == "Who played ace of spades?"
    shot(page, "in-view-brusquembille-who-360")
    tap(page, "button[value='who:AS:1']")
    assert page.locator("button[value='cycle:AS'] small").inner_text() == "won · " + NAMES[1]
    assert problems == []
    context.close()


def test_r_buraco_3_a_tapped_burraco_or_pot_stays_under_the_finger(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", 4, {"type": "deal"})
    for button in ("button[value='more:u:1:pure']", "button[value='more:u:1:pure']", "button[value='flip:n:1']",
                   "button[value='toggle:k:3']"):
        at_the_bottom(page, button)
        before = page.locator(button).bounding_box()["y"]
        tap(page, button)
        assert abs(page.locator(button).bounding_box()["y"] - before) <= 1, button
    assert page.locator("button[value='more:u:1:pure'] .step-count").inner_text() == "2"
    assert problems == []
    context.close()


@pytest.mark.parametrize("game, turned", [("brisca", "1O"), ("brouc", "KH"), ("brusquembille", "9S")])
def test_r_common_6_the_numbers_modes_first_screen_says_what_comes_and_the_turned_card_shows_the_keypad(
        browser, server, game, turned):
    made = api(server, "/api/v1/tables", {"game": game, "players": NAMES[:4 if game != "brusquembille" else 3]})
    context, page, _, problems = new_phone(browser, locale="en-GB")
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=en")
    tap(page, "text=Numbers")
    assert page.locator(".entry-switch [aria-current]").inner_text() == "Numbers"
    assert page.inner_text(".entry-next") == ("The turned card starts the deal: tap it, then type the points on the "
                                              "keypad.")
    assert in_view(page, ".entry-next")
    shot(page, f"in-view-{game}-numbers-first-360")
    tap(page, f"button.card[value='{turned}']")
    assert in_view(page, ".sheet-points") and in_view(page, ".keypad")
    assert page.locator("input[data-keypad].active").count() == 1 and problems == []
    context.close()
