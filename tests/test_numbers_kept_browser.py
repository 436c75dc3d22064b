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
    page.wait_for_function(f"() => ({KEPT})().length === 0")  # saved: forgotten once the swap is settled
    assert problems == []
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
    assert state(server, made)["deals"] == []
    page.wait_for_function(f"() => ({KEPT})().length === 0")  # undone on purpose: forgotten once settled
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


def fields(page):
    return page.eval_on_selector_all("input[data-keypad]", "all => all.map(i => [i.name, i.value])")


def active(page):
    return page.eval_on_selector_all("input[data-keypad].active", "all => all.map(i => i.name)")


def test_r_common_6_brouc_60_then_6_reload_then_0_makes_60_in_the_field_typed_in(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brouc", PLAYERS, {"type": "deal",
                                                                                      "trump": "KH"})
    first, second = [name for name, _ in fields(page)]  # in the slate's order (R-BROUC-6)
    press(page, "606")  # 60 is whole (600 passes 120): the other side's field by itself, which holds 6
    assert fields(page) == [[first, "60"], [second, "6"]] and active(page) == [second]
    page.reload()
    shown_again(page)
    assert fields(page) == [[first, "60"], [second, "6"]] and active(page) == [second]
    press(page, "0")  # into the field typed in before the reload: 60, never 600 in the first
    assert fields(page) == [[first, "60"], [second, "60"]] and active(page) == [second]
    assert problems == []
    context.close()


def test_r_brusq_3_the_field_typed_in_comes_back_after_a_reload(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "brusquembille", PLAYERS[:3],
                                                   {"type": "deal", "trump": "9S"})
    press(page, "4>5")  # 4 may grow (40 … 49): → moves on; 5 may grow too (50 … 59): it stays
    assert fields(page) == [["v0", "4"], ["v1", "5"], ["v2", ""]] and active(page) == ["v1"]
    page.reload()
    shown_again(page)
    assert active(page) == ["v1"]
    press(page, "0>30")
    assert fields(page) == [["v0", "4"], ["v1", "50"], ["v2", "30"]] and active(page) == ["v2"]
    assert problems == []
    context.close()


def test_r_buraco_5_who_closed_and_the_burracos_come_back_on_the_tables_plain_link(browser, server):
    context, page, made, problems = numbers_screen(browser, server, "buraco", PLAYERS, {"type": "deal"})
    page.goto(f"{server.url}/t/{made['id']}/entry/numbers?key={made['scorer_key']}")  # the table's way (R-COMMON-6)
    shown_again(page)
    page.click("button[value='toggle:k:0']")  # Ana closed (R-BURACO-5): her side's hand may stay blank
    page.wait_for_selector("button[value='toggle:k:0'][aria-pressed='true']")
    page.wait_for_function(IDLE)
    press(page, "305>")  # Ana & Céline's melds, their hand left blank
    page.click("button[value='more:u:0:pure']")  # a pure burraco (R-BURACO-3)
    page.wait_for_selector("button[value='less:u:0:pure']")
    page.wait_for_function(IDLE)
    press(page, "250")  # Bruno & Denis's melds: whole (2500 passes 1080), their hand's field by itself
    assert fields(page) == [["v0", "305"], ["v1", ""], ["v2", "250"], ["v3", ""]] and active(page) == ["v3"]
    again = context.new_page()  # the browser closed and opened again on the table's plain link
    again.goto(f"{server.url}/t/{made['id']}?key={made['scorer_key']}")
    again.wait_for_url(lambda url: "x=" in url)
    shown_again(again)
    assert again.get_attribute("button[value='toggle:k:0']", "aria-pressed") == "true"
    assert again.inner_text("button[value='more:u:0:pure'] .step-count") == "1"
    assert fields(again) == [["v0", "305"], ["v1", ""], ["v2", "250"], ["v3", ""]] and active(again) == ["v3"]
    press(again, "45")  # Bruno & Denis's hand: the sheet is whole, the engine's result has no refusal
    again.wait_for_selector("#sheet-preview table")
    again.wait_for_function(IDLE)
    rows = [r.split("\t") for r in again.inner_text("#sheet-preview").splitlines()]
    assert ["combinaisons", "305", "250"] in rows and ["cartes en main", "0", "-45"] in rows  # R-BURACO-6
    again.click(".sheet-save")
    again.wait_for_function("() => !document.getElementById('sheet')")
    again.wait_for_function(f"() => ({KEPT})().length === 0")  # saved: forgotten once the swap is settled
    assert state(server, made)["deals"][0]["complete"] is True
    assert problems == []
    context.close()
