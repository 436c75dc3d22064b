"""The numbers screen keeps in view what a player must see (R-COMMON-6; issue 38), in a real browser at 360×740 with
JavaScript and French names, measured with bounding boxes against the screen and the sticky status bar's bottom: in
every game the save is in view once the last field is filled; a refusal under a field is in view when it is raised,
and the bar covers neither it nor the "Points de cartes" title; no empty band under the bar. Screenshots at 360×740
and 1280×720 (tests/artifacts/save-in-view-*.png) are for looking at."""
import pytest

from tests.support.api import api
from tests.support.browser import IDLE, PHONE, new_phone, press, shot

PLAYERS = ["Ana", "Bruno", "Céline", "Denis", "Hortense"]
# (id, game, players, the deal's start, the keys that fill every field of the sheet, → included where one is typed)
SCREENS = [
    ("brisca-2", "brisca", 2, {"type": "deal", "trump": "1O"}, "7050"),
    ("brisca-4", "brisca", 4, {"type": "deal", "trump": "1O"}, "7050"),
    ("brouc", "brouc", 4, {"type": "deal", "trump": "KH"}, "6456"),
    ("brulot-4", "brulot", 4, {"type": "deal", "trump": "3H"}, "12>9>15>4>"),
    ("brulot-5", "brulot", 5, {"type": "deal", "trump": "AS"}, "0>3>6>5>18"),
    ("brusquembille-3", "brusquembille", 3, {"type": "deal", "trump": "9S"}, "40>50>30"),
    ("buraco-4", "buraco", 4, {"type": "deal"}, "250>15>120>45>"),
    ("buraco-3", "buraco", 3, {"type": "deal"}, "100>20>60>20>40>15>"),
]
# An element's box against the room a screen leaves under the sticky status bar: [top, bottom, bar's bottom, height].
BOX = """(selector) => { const box = document.querySelector(selector).getBoundingClientRect();
  return [box.top, box.bottom, document.querySelector('.status-bar').getBoundingClientRect().bottom,
          window.innerHeight]; }"""


def numbers_screen(browser, server, game, players, deal, **viewport):
    made = api(server, "/api/v1/tables", {"game": game, "players": PLAYERS[:players]})
    api(server, f"/api/v1/tables/{made['id']}/events", deal, made["scorer_key"])
    context, page, _, problems = new_phone(browser)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=fr&mode=numbers")
    page.wait_for_selector(".keypad:not([hidden])")
    return context, page, made, problems


def in_view(page, selector):
    top, bottom, bar, height = page.evaluate(BOX, selector)
    return bar - 0.5 <= top and bottom <= height + 0.5


@pytest.mark.parametrize("label, game, players, deal, typed", SCREENS, ids=[s[0] for s in SCREENS])
def test_r_common_6_the_save_is_in_view_once_the_last_field_is_filled(browser, server, label, game, players, deal,
                                                                       typed):
    context, page, made, problems = numbers_screen(browser, server, game, players, deal)
    assert in_view(page, ".sheet-points legend")  # the title is clear of the status bar
    top, bottom, bar, height = page.evaluate(BOX, "#scorer > :not(.status-bar)")
    assert top - bar < 16  # no empty band under the status bar
    press(page, typed)
    page.wait_for_selector("#sheet-preview table")
    page.wait_for_function(IDLE)  # the result above the save has its height: the save is still in view
    assert page.locator(".sheet-save").is_enabled() and in_view(page, ".sheet-save")
    shot(page, f"save-in-view-{label}-360", full_page=False)
    assert problems == []
    context.close()


@pytest.mark.parametrize("label, game, players, deal, typed", SCREENS[2:3] + SCREENS[6:7], ids=["brouc", "buraco-4"])
def test_r_common_6_the_numbers_screen_at_1280(browser, server, label, game, players, deal, typed):
    context, page, made, problems = numbers_screen(browser, server, game, players, deal, width=1280, height=720)
    press(page, typed)
    page.wait_for_selector("#sheet-preview table")
    page.wait_for_function(IDLE)
    assert in_view(page, ".sheet-save")
    shot(page, f"save-in-view-{label}-1280", full_page=False)
    assert problems == []
    context.close()


def test_r_buraco_4_a_refusal_raised_is_in_view_and_the_bar_covers_neither_it_nor_the_title(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", 4, {"type": "deal"})
    press(page, "12>")  # 12 may still grow (120, 125): refused once left, no card makes it (R-BURACO-4)
    assert page.inner_text("#v0-error").startswith("Chaque carte vaut un multiple de 5")
    assert in_view(page, "#v0-error")
    press(page, "15>250")
    assert in_view(page, "#v0-error") and in_view(page, "input[name=v3].active")
    press(page, "45>")  # the last field: its refusal, not the save (which waits), is what comes into view
    assert not page.locator(".sheet-save").is_enabled()
    assert in_view(page, "#v0-error") and in_view(page, ".sheet-points legend")
    shot(page, "save-in-view-buraco-refused-360", full_page=False)
    page.click("input[name=v0]")
    press(page, "<<120")  # mended: the save comes into view once the last field is done
    assert page.locator(".sheet-save").is_enabled()
    assert problems == [] and PHONE["height"] == 740
    context.close()


def whole_in_view(page):
    """The save's box wholly inside 360×740 and under the sticky status bar (issue 38's walk: half off-screen)."""
    page.wait_for_function(IDLE)
    top, bottom, bar, height = page.evaluate(BOX, ".sheet-save")
    return height == PHONE["height"] and bar - 0.5 <= top and bottom <= height + 0.5


def test_r_brisca_1_after_7_0_the_save_comes_into_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brisca", 2, {"type": "deal", "trump": "1O"})
    press(page, "70")  # the other side's 50 is worked out (R-BRISCA-1: 120 in a deal): the save is what comes next
    assert page.get_attribute("input[name=v1]", "placeholder") == "50"
    page.wait_for_selector("#sheet-preview table")
    assert page.locator(".sheet-save").is_enabled() and whole_in_view(page)
    assert problems == []
    context.close()


def test_r_brulot_5_the_last_players_penalties_left_to_the_app_the_save_comes_into_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brulot", 4, {"type": "deal", "trump": "3H"})
    press(page, "12>9>15>")  # Denis's 4 is worked out (40 in a deal of 4 players, R-BRULOT-5)
    assert page.get_attribute("input[name=v3]", "placeholder") == "4"
    page.wait_for_selector("#sheet-preview table")
    assert page.locator(".sheet-save").is_enabled() and whole_in_view(page)
    assert problems == []
    context.close()


def test_r_buraco_3_after_the_last_number_and_a_pure_burraco_the_save_comes_into_view(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", 4, {"type": "deal"})
    page.click("button[value='toggle:k:0']")  # Ana closed: her side's hand may stay blank (R-BURACO-5)
    page.wait_for_selector("button[value='toggle:k:0'][aria-pressed='true']")
    page.wait_for_function(IDLE)
    press(page, "305>25045")  # the last number: Bruno & Denis's hand
    page.click("button[value='more:u:0:pure']")  # a pure burraco (R-BURACO-3)
    page.wait_for_selector("button[value='less:u:0:pure']")
    page.wait_for_selector("#sheet-preview table")
    assert page.locator(".sheet-save").is_enabled() and whole_in_view(page)
    shot(page, "save-in-view-buraco-burraco-360", full_page=False)
    assert problems == []
    context.close()
