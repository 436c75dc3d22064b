"""Nothing typed on the numbers screen is lost on the phone it was typed on (R-COMMON-6; issue 38), in a real browser
at 360×740 with JavaScript: numbers typed and not saved come back after a reload, Back and Forward, and a language
switch (kept per table and deal by static/numbers-kept.js); they are dropped once the deal is saved; an undo with
numbers typed asks first, a refusal keeps the deal and the numbers, a yes undoes it and forgets them."""
from tests.support.api import api, state
from tests.support.browser import IDLE, press, shot
from tests.support.numbers_screen import numbers_screen

PLAYERS = ["Ana", "Bruno", "Céline", "Denis"]
KEPT = "() => Object.keys(localStorage).filter((k) => k.startsWith('referee:numbers:'))"


def brulot_numbers(browser, server, lang="fr"):
    return numbers_screen(browser, server, "brulot", PLAYERS, {"type": "deal", "trump": "3H"}, lang)


def values(page):
    return page.eval_on_selector_all("input[data-keypad]", "all => all.map(i => i.value)")


def shown_again(page):
    """The numbers screen set up again (its keypad shown by static/numbers.js) and the page idle."""
    page.wait_for_selector(".keypad:not([hidden])")
    page.wait_for_function(IDLE)


def test_r_common_6_brulot_12_next_7_survives_a_reload(browser, server):
    context, page, made, problems = brulot_numbers(browser, server)
    press(page, "12>7")
    assert values(page) == ["12", "7", "", ""]
    page.reload()
    shown_again(page)
    assert values(page) == ["12", "7", "", ""]
    assert page.eval_on_selector_all("input[data-keypad].active", "a => a.map(i => i.name)") == ["v2"]
    press(page, "15")  # typing goes on where it stopped, and the result counts the numbers put back
    assert values(page) == ["12", "7", "15", ""] and page.get_attribute("input[name=v3]", "placeholder") == "6"
    page.wait_for_selector("#sheet-preview td.total")
    page.wait_for_function(IDLE)
    assert page.locator("#sheet-preview td.total").all_inner_texts() == ["12", "7", "15", "6"]
    shot(page, "numbers-kept-reload-360")
    assert problems == []
    context.close()


def test_r_common_6_brulot_numbers_survive_back_and_forward(browser, server):
    context, page, made, problems = brulot_numbers(browser, server)
    press(page, "12>7")
    table = page.url
    page.goto(f"{server.url}/")
    page.go_back()
    page.wait_for_url(table)
    shown_again(page)
    assert values(page) == ["12", "7", "", ""]
    page.go_forward()
    page.wait_for_url(f"{server.url}/")
    page.go_back()
    page.wait_for_url(table)
    shown_again(page)
    assert values(page) == ["12", "7", "", ""] and problems == []
    context.close()


def test_r_common_6_brulot_numbers_survive_a_language_switch(browser, server):
    context, page, made, problems = brulot_numbers(browser, server)
    press(page, "12>7")
    page.click(".menu > summary")
    page.click(".menu .languages a[hreflang='en']")
    page.wait_for_selector("html[lang='en']")
    shown_again(page)
    assert page.locator(".sheet-save").inner_text() == "Save deal 1"
    assert values(page) == ["12", "7", "", ""] and problems == []
    context.close()


def test_r_common_6_a_saved_deal_forgets_its_numbers(browser, server):
    context, page, made, problems = brulot_numbers(browser, server)
    press(page, "12>7>15")
    assert len(page.evaluate(KEPT)) == 1
    page.wait_for_selector("#sheet-preview td.total")
    page.click(".sheet-save")
    page.wait_for_function("() => !document.getElementById('sheet')")
    assert state(server, made)["deals"][0]["complete"] is True
    assert page.evaluate(KEPT) == [] and problems == []
    context.close()


def test_r_common_7_undo_with_numbers_typed_asks_first_and_a_refusal_keeps_them(browser, server):
    context, page, made, problems = brulot_numbers(browser, server, lang="en")
    table = page.url
    press(page, "12>7")
    asked = []

    def refuse(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.click("form.undo button")
    page.wait_for_function(IDLE)
    assert asked == ["Undo the last entry? The numbers typed on this screen and not saved will be lost."]
    assert values(page) == ["12", "7", "", ""] and len(state(server, made)["deals"]) == 1  # nothing undone
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("form.undo button")
    page.wait_for_function("() => !document.getElementById('sheet')")  # the deal's start undone: the cards to turn
    assert state(server, made)["deals"] == [] and page.evaluate(KEPT) == []
    api(server, f"/api/v1/tables/{made['id']}/events", {"type": "deal", "trump": "3H"}, made["scorer_key"])
    page.goto(table)
    shown_again(page)
    assert values(page) == ["", "", "", ""] and problems == []  # undone on purpose: nothing comes back
    context.close()


def test_r_common_7_undo_with_nothing_typed_asks_nothing(browser, server):
    context, page, made, problems = brulot_numbers(browser, server)
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("form.undo button")
    page.wait_for_function("() => !document.getElementById('sheet')")
    assert asked == [] and state(server, made)["deals"] == [] and problems == []
    context.close()
