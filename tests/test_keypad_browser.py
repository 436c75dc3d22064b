"""The one keypad of every game's numbers screen, in a real browser at 360×740 with JavaScript (R-COMMON-6): the
sequences a player types — a number, →, the next number, with and without the →, numbers that fill a field, a
number too big — and every field read back: each number is in the field it was typed for, nothing lost, nothing
joined; a number its field cannot hold is said under it in words and the save waits; → moves on only from a field
that holds a number and never wraps; after a save the server refused, the field typed in stays and ⌫ erases in it.
Keys are written as on the pad: digits, ``>`` for →, ``<`` for ⌫."""
import time

import pytest

from tests.support.api import api, state
from tests.support.browser import IDLE, new_phone, press, preview_asked, shot, watch_preview

FOUR = ["Ginette", "Réjean", "Sylvie", "Gaétan"]
FIVE = FOUR + ["Hortense"]


def numbers_screen(browser, server, game, players, deal, **options):
    """A scorer's phone on the numbers screen of a table whose first deal is started (English page: no card letters
    are read here)."""
    made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options})
    api(server, f"/api/v1/tables/{made['id']}/events", deal, made["scorer_key"])
    context, page, _, problems = new_phone(browser, locale="en-GB")
    page.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}&lang=en&mode=numbers")
    assert page.locator(".keypad").is_visible()
    return context, page, made, problems


def values(page):
    return page.eval_on_selector_all("input[data-keypad]", "all => all.map(i => i.value)")


def active(page):
    return page.eval_on_selector_all("input[data-keypad].active", "all => all.map(i => i.name)")


def said_under(page, name):
    return page.inner_text(f"#{name}-error").strip()


def saving(page):
    """Whether the save can be tapped."""
    return page.locator(".sheet-save").is_enabled()


def note(page):
    return page.inner_text(".keypad-note").strip()


def tap(page, selector):
    page.click(selector)
    page.wait_for_function(IDLE)


def test_r_brulot_5_four_players_typing_12_next_9_next_15_gives_each_player_his_number(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brulot", FOUR, {"type": "deal", "trump": "3H"})
    assert active(page) == ["v0"]
    press(page, "12")  # 12 takes no more digit (at most 40): Réjean's field is next by itself
    assert values(page) == ["12", "", "", ""] and active(page) == ["v1"]
    press(page, ">")  # ... so this → is no second move: Réjean is not skipped
    assert active(page) == ["v1"] and note(page) == ""
    press(page, "9>15")
    assert values(page) == ["12", "9", "15", ""] and active(page) == ["v3"]
    assert page.get_attribute("input[name=v3]", "placeholder") == "4"  # Gaétan's: what remains of 40
    press(page, ">>")  # the first → after 15 is no move; the second, from an empty field, says so, moves nowhere
    assert active(page) == ["v3"] and note(page) == "Type a number in this box first, or tap the box you want."
    press(page, "4>")  # the last field: → never wraps to Ginette
    assert values(page) == ["12", "9", "15", "4"] and active(page) == ["v3"]
    assert note(page) == "That was the last box: check the result below, then save."
    press(page, "<")  # ⌫ erases in the field still drawn active
    assert values(page) == ["12", "9", "15", ""]
    shot(page, "keypad-brulot-4-360")
    assert saving(page) and problems == []
    context.close()


def test_r_common_6_a_tapped_field_that_holds_a_number_is_typed_anew_and_backspace_mends_it(browser, server):
    """R-COMMON-6: tapping a number typed earlier and typing replaces it (12 then 10 is 10, never 1210), as a
    spreadsheet's cell; ⌫ instead erases its last digit; → into a typed field chooses it the same way."""
    context, page, made, problems = numbers_screen(browser, server, "brulot", FOUR, {"type": "deal", "trump": "3H"})
    press(page, "12")
    press(page, "9>15")
    assert values(page) == ["12", "9", "15", ""]
    tap(page, "input[name=v0]")
    assert active(page) == ["v0"] and "replacing" in page.get_attribute("input[name=v0]", "class")
    shot(page, "keypad-replace-360")
    press(page, "10")
    assert values(page) == ["10", "9", "15", ""] and active(page) == ["v0"]  # Réjean's 9 is typed: not moved into
    assert "replacing" not in page.get_attribute("input[name=v0]", "class")
    tap(page, "input[name=v2]")
    press(page, "<")  # ⌫ mends: 15 becomes 1
    assert values(page) == ["10", "9", "1", ""]
    press(page, "6")
    assert values(page) == ["10", "9", "16", ""] and active(page) == ["v3"]  # 16 takes no more digit: Gaétan's
    tap(page, "input[name=v0]")
    press(page, ">")  # → onto Réjean's 9: chosen, the next digit replaces it
    assert active(page) == ["v1"]
    press(page, "8")
    assert values(page) == ["10", "8", "16", ""]
    assert page.get_attribute("input[name=v3]", "placeholder") == "6"  # what remains of 40
    assert problems == []
    context.close()


def test_r_brulot_5_five_players_a_penalty_above_the_deals_high_bound_is_said_under_its_field(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brulot", FIVE, {"type": "deal", "trump": "AS"})
    press(page, "0")  # 0 takes no more digit: the next field by itself, and the → after it no second move
    press(page, ">3>6>5>18")
    assert values(page) == ["0", "3", "6", "5", "18"] and active(page) == ["v4"]
    press(page, "<<37")  # one widow card unknown: this deal holds 32 to 36 penalty points (R-BRULOT-5)
    assert values(page) == ["0", "3", "6", "5", "37"] and active(page) == ["v4"]  # too big: it stays to be mended
    assert said_under(page, "v4") == "No more than 36 penalty points in this deal. R-BRULOT-5"
    assert not saving(page)
    shot(page, "keypad-brulot-5-too-big-360")
    press(page, "<")
    assert values(page)[4] == "3" and said_under(page, "v4") == "" and saving(page)
    press(page, "0")  # 0 + 3 + 6 + 5 + 30: the five together pass the deal's 36
    assert said_under(page, "v4") == ("These boxes add up to 44: no more than 36 penalty points in this deal. "
                                      "R-BRULOT-5")
    assert not saving(page) and problems == []
    context.close()


@pytest.mark.parametrize("players", [["Ana", "Bo"], ["Ana", "Bo", "Cy", "Di"]], ids=["2-players", "4-players"])
def test_r_brisca_1_card_points_with_and_without_next_nothing_lost_nothing_joined(browser, server, players):
    context, page, made, problems = numbers_screen(browser, server, "brisca", players, {"type": "deal",
                                                                                         "trump": "1O"})
    press(page, "4>56")  # 4 can take a digit: → moves on from it
    assert values(page) == ["4", "56"]
    tap(page, "input[name=v1]")
    press(page, "<<")
    tap(page, "input[name=v0]")
    press(page, "<70")  # 70 takes no more digit: the next field by itself, and the → after it no second move
    assert active(page) == ["v1"]
    press(page, ">56")
    assert active(page) == ["v1"] and values(page) == ["70", "56"]
    assert said_under(page, "v1") == "These boxes add up to 126: no more than 120 card points in a deal. R-BRISCA-1"
    assert not saving(page)
    press(page, "<<")
    assert values(page) == ["70", ""] and page.get_attribute("input[name=v1]", "placeholder") == "50" and saving(page)
    tap(page, "input[name=v0]")
    press(page, "<<120")  # a field filled to its most
    assert values(page) == ["120", ""] and active(page) == ["v1"]
    tap(page, "input[name=v0]")
    press(page, "<5")  # 125: more than a deal holds, said at once under its field
    assert values(page) == ["125", ""] and active(page) == ["v0"] and not saving(page)
    assert said_under(page, "v0") == "No more than 120 card points in a deal. R-BRISCA-1"
    shot(page, f"keypad-brisca-{len(players)}-too-big-360")
    press(page, "<")
    assert values(page) == ["12", ""] and said_under(page, "v0") == "" and saving(page) and problems == []
    context.close()


def test_r_brouc_2_card_points_typed_one_after_the_other_without_next(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brouc", ["Ana", "Bo", "Cy", "Di"],
                                                   {"type": "deal", "trump": "KH"})
    press(page, "6456")  # Bo & Di's box first (v1), as the slate draws the sides (R-BROUC-6)
    assert values(page) == ["64", "56"]
    tap(page, "input[name=v1]")
    press(page, "<<0")  # 0 fills a field
    assert values(page) == ["0", "56"] and active(page) == ["v1"]  # the next field holds a number: it stays here
    press(page, ">")
    assert active(page) == ["v0"]
    press(page, "<<121")
    assert values(page) == ["0", "121"] and said_under(page, "v0") == ("No more than 120 card points in a deal. "
                                                                         "R-BROUC-2")
    assert not saving(page) and problems == []
    context.close()


def test_r_brusq_3_forty_then_fifty_without_next_go_in_two_fields_never_405(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brusquembille", ["Ana", "Bo", "Cy"],
                                                   {"type": "deal", "trump": "9S"})
    press(page, "4050")
    assert values(page) == ["40", "50", ""] and active(page) == ["v2"]
    assert page.get_attribute("input[name=v2]", "placeholder") == "30"
    tap(page, "input[name=v1]")
    press(page, "<<12")  # 12 can still take a digit; 5 more is 125: said at once
    press(page, "5")
    assert values(page) == ["40", "125", ""] and active(page) == ["v1"]
    assert said_under(page, "v1") == "No more than 120 card points in a deal. R-BRUSQ-3" and not saving(page)
    press(page, "<<<50>30")
    assert values(page) == ["40", "50", "30"] and saving(page) and problems == []
    context.close()


def test_r_buraco_4_four_players_285_next_does_not_skip_the_cards_in_hand(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", ["Ana", "Bo", "Cy", "Di"],
                                                   {"type": "deal"})
    press(page, "285>")  # 285 takes no more digit (at most 1080): the cards in hand by itself, → no second move
    assert values(page) == ["285", "", "", ""] and active(page) == ["v1"]
    press(page, "15>100>45")  # 100 can take a digit: its → moves on
    assert values(page) == ["285", "15", "100", "45"]
    tap(page, "input[name=v0]")
    press(page, "<<<1085")  # more than the two decks hold
    assert values(page)[0] == "1085" and active(page) == ["v0"] and not saving(page)
    assert said_under(page, "v0") == "No more than 1080 card points in a hand. R-BURACO-4"
    press(page, "<<04")  # 1004: no more digit fits, and no card is worth it
    assert values(page) == ["1004", "15", "100", "45"] and active(page) == ["v0"]
    assert said_under(page, "v0") == "Every card is worth a multiple of 5: not 1004. R-BURACO-4"
    assert not saving(page)
    press(page, "5")  # a fifth digit: said under the keypad, not dropped unseen
    assert values(page)[0] == "1004"
    assert note(page) == "This box takes no more digit: ⌫ to mend it, or tap another box."
    shot(page, "keypad-buraco-4-360")
    tap(page, "input[name=v0]")
    press(page, "<<<<250")
    assert values(page) == ["250", "15", "100", "45"] and said_under(page, "v0") == "" and saving(page)
    assert problems == []
    context.close()


def test_r_buraco_4_three_players_the_closers_hand_is_passed_over_by_next(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", ["Ana", "Bo", "Cy"], {"type": "deal"})
    assert page.locator("input[data-keypad]").count() == 6  # melds and hand per player
    tap(page, "button[value='toggle:k:0']")  # Ana closes: her hand is 0, → passes it over
    assert active(page) == ["v0"]
    press(page, "100>60>20>40>15")
    assert values(page) == ["100", "", "60", "20", "40", "15"] and active(page) == ["v5"]
    press(page, ">")
    assert note(page) == "That was the last box: check the result below, then save." and active(page) == ["v5"]
    assert problems == []
    context.close()


@pytest.mark.parametrize("game, players, deal, typed, refused", [
    ("brisca", ["Ana", "Bo"], {"type": "deal", "trump": "1O"}, "70>40", ["70", "40"]),
    ("brulot", FOUR, {"type": "deal", "trump": "3H"}, "12>9>15>1", ["12", "9", "15", "1"]),
    ("buraco", ["Ana", "Bo", "Cy", "Di"], {"type": "deal"}, "250>15>10>45", ["250", "15", "10", "45"]),
], ids=["brisca", "brulot", "buraco"])
def test_r_common_5_after_a_refused_save_the_field_typed_in_stays_and_backspace_erases_there(
        browser, server, game, players, deal, typed, refused):
    context, page, made, problems = numbers_screen(browser, server, game, players, deal)
    press(page, typed)
    last = f"v{len(refused) - 1}"
    assert values(page) == refused and active(page) == [last] and saving(page)
    tap(page, ".sheet-save")  # the engine refuses: 110 of 120; 37 of 40; Buraco: a meld of 10 points
    assert page.locator(".refusal").count() == 1  # the engine's sentence, once
    assert values(page) == refused and active(page) == [last]
    assert state(server, made)["deals"][0]["complete"] is False
    press(page, "<")
    assert values(page) == refused[:-1] + [refused[-1][:-1]]
    shot(page, f"keypad-refused-{game}-360")
    assert problems == []
    context.close()


def test_r_common_6_the_result_shown_is_the_last_typed_even_when_an_earlier_one_comes_back_late(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brulot", FOUR, {"type": "deal", "trump": "3H"})
    held = []

    def first_waits(route):  # the result of the first number typed is slow to come back
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/sheet/preview*", first_waits)
    watch_preview(page)
    press(page, "12")
    deadline = time.monotonic() + 30
    while not held:  # the route's handler runs while Playwright waits: that wait is the pump, ``held`` the condition
        assert time.monotonic() < deadline, "the first preview was never asked"
        page.wait_for_timeout(50)
    press(page, "9>15")
    preview_asked(page)  # the later numbers' result is asked meanwhile (queued behind the first)
    held[0].continue_()
    page.wait_for_selector("#sheet-preview td.total")
    page.wait_for_function(IDLE)
    assert page.locator("#sheet-preview td.total").all_inner_texts() == ["12", "9", "15", "4"]
    assert problems == []
    context.close()
