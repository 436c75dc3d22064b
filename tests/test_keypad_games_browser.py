"""The keypad of every game's numbers screen, typed as a real sheet is, in a real browser at 360×740 with JavaScript
(R-COMMON-6; issue 38): the sequences of a deal with and without →, every field read back exactly. A digit goes into
the field drawn active; a field moves on by itself as soon as no further digit could make a number it can hold, never
later (Brouc's 60 of 120, a Brûlot player's 5 of 40); → from a field that may be left blank (Buraco's closing side's
hand, its melds: the sentence under the keypad says so) moves on and leaves it blank; Buraco's 6 0 4 0 is 60 and 40,
never 604 (R-BURACO-4: every card a multiple of 5); the fields come in the order the sheet asks them, who closed
first, Brouc's sides in its slate's order (R-BROUC-6). Keys are written as on the pad: ``>`` for →, ``<`` for ⌫."""
from tests.support.api import state
from tests.support.browser import IDLE, press, shot
from tests.support.numbers_screen import numbers_screen

PLAYERS = ["Ana", "Bruno", "Céline", "Denis"]
EMPTY = "Tapez d'abord un nombre dans cette case, ou touchez la case voulue."


def fields(page):
    """Every field in the order the sheet shows them: (its name, what it holds)."""
    return page.eval_on_selector_all("input[data-keypad]", "all => all.map(i => [i.name, i.value])")


def active(page):
    return page.eval_on_selector_all("input[data-keypad].active", "all => all.map(i => i.name)")


def note(page):
    return page.inner_text(".keypad-note").strip()


def tap(page, selector):
    page.click(selector)
    page.wait_for_function(IDLE)


def test_r_buraco_5_closed_by_ana_305_next_leaves_her_sides_hand_blank_and_250_45_go_to_bruno_and_denis(
        browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", PLAYERS, {"type": "deal"})
    first = page.locator("fieldset.sheet-group").first  # who closed decides which hand may stay blank: asked first
    assert first.locator("legend").inner_text().startswith("Fermé par")
    tap(page, "button[value='toggle:k:0']")  # Ana closes; Céline, her partner, may still hold cards
    assert active(page) == ["v0"]
    press(page, "305")  # 3050 would pass 1080: Ana & Céline's cards in hand by itself
    assert active(page) == ["v1"]
    press(page, ">")  # the sentence under the keypad says to leave it blank: → moves on, no "type a number first"
    assert active(page) == ["v2"] and note(page) == ""
    press(page, "25045")
    assert fields(page) == [["v0", "305"], ["v1", ""], ["v2", "250"], ["v3", "45"]] and active(page) == ["v3"]
    shot(page, "keypad-games-buraco-issue-360")
    tap(page, "button[value='more:u:0:pure']")  # a closing side has a burraco (R-BURACO-5)
    assert fields(page) == [["v0", "305"], ["v1", ""], ["v2", "250"], ["v3", "45"]]
    page.wait_for_selector("#sheet-preview table")  # the engine takes the blank hand as 0: a result, no refusal
    rows = [r.split("\t") for r in page.inner_text("#sheet-preview").splitlines()]
    assert ["combinaisons", "305", "250"] in rows and ["cartes en main", "0", "-45"] in rows  # R-BURACO-6
    assert problems == []
    context.close()


def test_r_buraco_4_six_zero_four_zero_is_60_and_40_never_604_and_next_passes_blank_melds(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", PLAYERS, {"type": "deal"})
    press(page, "6040")  # 60 may still grow (600, 605); 604 no card makes, nor any longer number: 4 starts the hand
    assert fields(page) == [["v0", "60"], ["v1", "40"], ["v2", ""], ["v3", ""]] and active(page) == ["v1"]
    press(page, ">>")  # from 40 to Bruno & Denis's melds, then on: blank melds count 0
    assert active(page) == ["v3"] and note(page) == ""
    press(page, "120")  # 1200 passes 1080, and 120 and a digit is no card: whole, the last field
    assert fields(page) == [["v0", "60"], ["v1", "40"], ["v2", ""], ["v3", "120"]] and active(page) == ["v3"]
    press(page, "<<<>")  # Bruno & Denis's hand must be typed: → from it empty says so and stays
    assert active(page) == ["v3"] and note(page) == EMPTY
    assert problems == []
    context.close()


def test_r_brulot_5_typed_with_and_without_next_each_player_gets_his_penalties(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brulot", PLAYERS, {"type": "deal",
                                                                                        "trump": "3H"})
    press(page, "12>7")  # 12 is whole (120 passes 40): Bruno's by itself; → after it no second move; 7 is whole too
    assert fields(page) == [["v0", "12"], ["v1", "7"], ["v2", ""], ["v3", ""]] and active(page) == ["v2"]
    press(page, "3")  # 3 may grow (30 … 39 are at most 40): it stays
    assert active(page) == ["v2"]
    press(page, "5")  # 35: whole
    assert active(page) == ["v3"] and page.get_attribute("input[name=v3]", "placeholder") == ""  # 54 passes 40
    tap(page, "input[name=v2]")
    press(page, "<<15")
    assert fields(page) == [["v0", "12"], ["v1", "7"], ["v2", "15"], ["v3", ""]] and active(page) == ["v3"]
    assert page.get_attribute("input[name=v3]", "placeholder") == "6"
    press(page, "6")
    assert fields(page) == [["v0", "12"], ["v1", "7"], ["v2", "15"], ["v3", "6"]] and active(page) == ["v3"]
    assert problems == []
    context.close()


def test_r_brisca_1_card_points_typed_with_and_without_next(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brisca", PLAYERS, {"type": "deal",
                                                                                        "trump": "1O"})
    press(page, "7050")  # 70 is whole (700 passes 120): the other side's by itself
    assert fields(page) == [["v0", "70"], ["v1", "50"]] and active(page) == ["v1"]
    tap(page, "input[name=v0]")
    press(page, "<<1>")  # 1 may grow: → moves on from it
    press(page, "<<119")
    assert fields(page) == [["v0", "1"], ["v1", "119"]] and active(page) == ["v1"]
    assert problems == []
    context.close()


def test_r_brouc_6_the_sheet_lists_the_sides_as_its_slate_and_60_then_40_go_in_two_fields(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brouc", PLAYERS, {"type": "deal",
                                                                                      "trump": "KH"})
    table = state(server, made)
    scorer = table["options"]["scorer_side"]
    order = [1 - scorer, scorer]  # R-BROUC-6: the other side on the slate's left, the scorer's on its right
    names = page.locator(".sheet-name .words").all_inner_texts()
    assert names == [table["sides"][s]["name"] for s in order]
    board = page.locator("#scoreboard thead th").all_inner_texts()
    assert [n for n in board if "&" in n] == names  # as the scoreboard draws them
    assert active(page) == [f"v{order[0]}"]
    press(page, "6040")  # 60 is whole (600 passes 120): the next field by itself, never 604
    assert fields(page) == [[f"v{order[0]}", "60"], [f"v{order[1]}", "40"]]
    tap(page, f"input[name=v{order[0]}]")
    press(page, "<<1>")  # 1 may grow (10 … 19, 100 … 120): → moves on from it
    assert active(page) == [f"v{order[1]}"]
    assert fields(page) == [[f"v{order[0]}", "1"], [f"v{order[1]}", "40"]]
    assert problems == []
    context.close()


def test_r_brusq_3_card_points_typed_with_and_without_next_and_no_stale_remainder(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brusquembille", PLAYERS[:3],
                                                   {"type": "deal", "trump": "9S"})
    press(page, "4>5>")  # 4 and 5 may grow: each → moves on
    assert fields(page) == [["v0", "4"], ["v1", "5"], ["v2", ""]] and active(page) == ["v2"]
    assert page.get_attribute("input[name=v2]", "placeholder") == "111"
    tap(page, "input[name=v0]")
    press(page, "40")  # the tapped 4 typed anew: 40, whole, and Bo's field holds a number: it stays
    tap(page, "input[name=v1]")
    press(page, "<9090")  # 90 then 90: the sum passes 120, said once; no "−60" left in the blank field
    assert fields(page) == [["v0", "40"], ["v1", "90"], ["v2", "90"]]
    press(page, "<<")
    assert fields(page) == [["v0", "40"], ["v1", "90"], ["v2", ""]]
    assert page.get_attribute("input[name=v2]", "placeholder") == ""
    said = page.locator(".field-error:not(:empty)").all_inner_texts()
    assert said == ["Ces cases font 130\u00a0: pas plus de 120 points dans une donne. R-BRUSQ-3"]
    assert problems == []
    context.close()
