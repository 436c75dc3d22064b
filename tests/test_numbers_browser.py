"""A deal in seconds, in a real browser at 360×740: one deal of Brisca, Brouc and Brusquembille entered by its numbers
from the scorer page (the switch, the turned card, the keypad, one tap per announce, mariage or brusquembille, save),
the taps counted against the issue's goals and the totals read on the page; a Brouc deal by captured piles keeps its
announce on the slate; without JavaScript the phone's own keyboard does the same."""

import pytest

from tests.support.api import state
from tests.support.browser import Taps, at_table, no_overflow, open_table, shot, totals_on_page


def test_r_common_6_a_brisca_deal_by_numbers_in_five_taps(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "brisca", ["Ana", "Bo"], "Numbers")
    tap("button.card[value='1O']")  # the turned card starts the deal
    tap.keys("70")
    assert page.locator("input[name=v1]").get_attribute("placeholder") == "50"  # the other side appears
    assert "More than 60" in page.locator("#sheet-preview").inner_text() or \
        "more than 60" in page.locator("#sheet-preview").inner_text()
    shot(page, "numbers-brisca-360")
    tap(".sheet-save")
    assert tap.count <= 5, tap.count
    assert state(server, made)["deals"][0]["points"] == [70, 50] and totals_on_page(page)[:2] == ["70", "50"]
    assert no_overflow(page) and problems == []
    context.close()


def test_r_brouc_4_5_a_brouc_deal_by_numbers_with_an_announce_and_a_mariage_in_ten_taps(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "brouc", ["Ana", "Bo", "Cy", "Di"], "Numbers")
    tap("button.card[value='KH']")  # Ana turns the king of hearts: trump hearts
    tap.keys("56")  # the first box is Bo & Di's, as on the slate (R-BROUC-6): Ana & Cy's 64 is worked out
    tap("button[value='pick:a:0']")
    tap("button[value='add:a:H:KQ']")  # K Q of trump: 40, 4 on the slate
    tap("button[value='pick:m:1']")
    tap("button[value='add:m:C:KQ']")  # a mariage sur table of clubs won by Bo & Di: 20
    shot(page, "numbers-brouc-360")
    assert no_overflow(page)
    tap(".sheet-save")
    assert tap.count <= 10, tap.count
    deal = state(server, made)["deals"][0]
    assert deal["points"] == [64, 56] and deal["slate"] == [6 + 4 - 2, 6 + 2] and deal["entry"] == "tally"
    assert totals_on_page(page) == ["8", "8"] and problems == []
    page.set_viewport_size({"width": 1280, "height": 720})
    shot(page, "numbers-brouc-1280")
    context.close()


def test_r_brusq_4_a_brusquembille_deal_by_numbers_with_three_brusquembilles_in_fourteen_taps(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "brusquembille", ["Ana", "Bo", "Cy"], "Numbers")
    tap("button.card[value='9S']")  # trump spades
    tap.keys("45")
    tap("input[name=v1]")
    tap.keys("40")  # Cy's 35 appears
    for card, player in (("AH", 0), ("10D", 1)):
        tap(f"button[value='cycle:{card}']")  # won
        tap(f"button[value='who:{card}:{player}']")
    tap("button[value='cycle:AC']")
    tap("button[value='cycle:AC']")  # coupé
    tap("button[value='who:AC:2']")
    shot(page, "numbers-brusquembille-360")
    assert no_overflow(page)
    tap(".sheet-save")
    assert tap.count <= 14, tap.count
    result = state(server, made)
    assert result["deals"][0]["points"] == [45, 40, 35]
    # Ana's AH won: +4; Bo's 10D won: +2; Cy's AC coupé: pays 2 to each
    assert result["jetons"] == [4 - 1 + 2, -2 + 2 + 2, -2 - 1 - 4] == [5, 2, -7] and problems == []
    assert totals_on_page(page)[:3] == ["45", "40", "35"]
    context.close()


def test_r_common_6_a_brouc_deal_by_captured_piles_keeps_its_announce_on_the_slate(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "brouc", ["Ana", "Bo", "Cy", "Di"], "Piles")
    tap("button.card[value='KH']")
    for card in ["AS", "AH", "AD", "AC", "9S", "8S", "7S", "9H"]:  # Ana & Cy's pile: 44
        tap(f"button.card[value='{card}']")
    tap("button[value='pick:a:0']")
    tap("button[value='add:a:H:KQ']")  # Ana announced K Q of trump: 40
    shot(page, "piles-brouc-announce-360")
    tap("form[action*='/save'] button.primary")
    deal = state(server, made)["deals"][0]
    assert deal["points"] == [44, 76] and deal["slate"] == [4 + 4, 8] and deal["entry"] == "capture"
    assert totals_on_page(page) == ["8", "8"] and problems == []
    context.close()


@pytest.mark.parametrize("js", [False])
def test_r_common_6_without_javascript_the_phones_keyboard_types_the_numbers(browser, server, js):
    context, page, made, _ = open_table(browser, server, "brisca", ["Ana", "Bo"], js=js)
    tap = Taps(page, js=False)
    tap("text=Numbers")
    tap("button.card[value='1O']")
    page.fill("input[name=v0]", "38")
    tap(".sheet-save")
    assert state(server, made)["deals"][0]["points"] == [38, 82]
    assert totals_on_page(page)[:2] == ["38", "82"]
    context.close()
