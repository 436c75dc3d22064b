"""A deal entered by its captured piles or by its numbers goes on when the Wi-Fi drops (static/offline.js,
static/offline-queue.js), in Chromium at a phone's 360×740: the pile's cards are gathered on the phone and its save
waits in IndexedDB with the deal's typed points; on reconnect each goes to the scorer's own form, exactly once
(its event id, the revision it was made on), even when an answer is lost; a refusal comes back in the page's
language and stops the queue until the scorer chooses (R-COMMON-6: the other pile, the blank field, worked out by
the server when the entry arrives)."""
from tests.support.api import api, state
from tests.support.browser import IDLE, NETWORK_CUT, REFUSED, at_table, shot, totals_on_page
from tests.support.offline import go_offline, lose_answer, synced

WAITING = "#offline-queue li.waiting"
ANA = ["1O", "3O", "12O", "1C", "2C", "4C"]  # three tricks, 11 + 10 + 4 + 11 = 36 points: Bo's pile is worked out


def events(server, made, kind):
    return [e for e in api(server, f"/api/v1/tables/{made['id']}/events", key=made["scorer_key"])["events"]
            if e["type"] == kind]


def test_r_common_6_a_pile_gathered_offline_waits_and_is_stored_once_when_the_wifi_is_back(browser, server):
    context, page, made, problems, tap = at_table(browser, server, "brisca", ["Ana", "Bo"], "Piles")
    tap("button.card[value='11E']")  # the turned card starts the deal
    go_offline(context, page)
    for code in ANA + ["7C"]:
        page.click(f"#picker button.card[value='{code}']")
    # each tap is drawn once kept (IndexedDB), in order: 7C pending means every tap before it is drawn too
    page.wait_for_selector("#picker button.card.pending[value='7C']")
    page.click("#picker button.card[value='7C']")  # a second tap takes the card back, as online
    page.wait_for_selector("#picker button.card.free[value='7C']")
    assert page.get_attribute("#picker button.card[value='3O']", "class") == "card pending"
    save = "form[action*='/save'] button.primary"
    assert page.locator(save).inner_text() == "Save the pile of Ana (6 cards)"
    page.click(save)
    page.wait_for_selector(WAITING)
    assert page.locator("#offline-queue li .offline-entry").inner_text().strip() == "Pile of Ana, 6 cards"
    page.click("#picker button.card[value='5C']")  # the deal is entered: the next one needs the server
    assert "the next one can start" in page.locator("#offline-queue .offline-note").inner_text()
    shot(page, "offline-pile-360")
    assert events(server, made, "capture") == []
    queued = page.eval_on_selector(WAITING, "item => item.dataset.clientEventId")
    url = page.url
    page.close()  # the tab is closed: the queue is in IndexedDB
    context.set_offline(False)
    page = context.new_page()
    page.goto(url)
    synced(page)
    stored = events(server, made, "capture")
    assert [(e["side"], sorted(e["cards"]), e["client_event_id"]) for e in stored] == [(0, sorted(ANA), queued)]
    assert state(server, made)["deals"][0]["points"] == [36, 84]
    assert totals_on_page(page)[:2] == ["36", "84"]  # the server's own scoreboard
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_r_common_6_a_deal_typed_offline_is_sent_once_even_when_its_answer_is_lost(browser, server):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    context, page, made, problems, tap = at_table(browser, server, "brisca", ["Ana", "Bo"], "Numbers")
    tap("button.card[value='11E']")
    go_offline(context, page)
    page.click("input[name=v0]")
    for digit in "70":
        page.click(f".keypad [data-key='{digit}']")
    page.click(".sheet-save")
    page.wait_for_selector(WAITING)
    assert page.locator("#offline-queue li .offline-entry").inner_text().strip() == "Deal 1: Ana 70"
    assert page.input_value("input[name=v0]") == ""
    shot(page, "offline-numbers-360")
    queued = page.eval_on_selector(WAITING, "item => item.dataset.clientEventId")
    posts = lose_answer(page, "**/t/*/sheet?*", 1, lambda request: request.post_data)
    context.set_offline(False)
    synced(page)
    assert len(posts) == 2 and all(f"event_id={queued}" in body for body in posts)
    stored = events(server, made, "tally")
    assert [(e["points"], e["client_event_id"]) for e in stored] == [([70, 50], queued)]
    assert totals_on_page(page)[:2] == ["70", "50"]
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_a_pile_refused_on_arrival_says_why_in_the_pages_language_and_waits_for_the_scorer(browser, server):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    context, page, made, problems, tap = at_table(browser, server, "brisca", ["Ana", "Bo"], "Piles")
    tap("button.card[value='11E']")
    page.goto(page.url + "&lang=fr")
    page.wait_for_function(IDLE)
    go_offline(context, page)
    for code in ANA:
        page.click(f"#picker button.card[value='{code}']")
    page.click("form[action*='/save'] button.primary")
    page.wait_for_selector(WAITING)
    api(server, f"/api/v1/tables/{made['id']}/events", {"type": "capture", "side": 1, "cards": ["1E", "3E"]},
        key=made["scorer_key"])  # a co-scorer saves a pile meanwhile
    context.set_offline(False)
    page.wait_for_selector("#offline-queue li.refused")
    refusal = page.locator("#offline-queue li.refused .offline-refusal").inner_text()
    assert "La table a changé entre-temps" in refusal, refusal
    shot(page, "offline-pile-refused-fr-360")
    page.wait_for_timeout(4500)  # time is the subject: a retry period passes, nothing sent until the scorer chooses
    assert len(events(server, made, "capture")) == 1
    page.click("#offline-queue li.refused .offline-fix")
    page.wait_for_selector("#offline-queue .offline-again")
    assert "Pile de Ana" in page.locator("#offline-queue .offline-again").inner_text()
    context.close()
