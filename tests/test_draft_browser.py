"""The trick under way lives on the server, seen by every phone: Chromium at 360×740 with two browser contexts, the
scorer's phone and a co-scorer's or a viewer's. Taps on one show on the other (after its next poll, or a reload), a
reload keeps them, undo into a whole trick reopens it on both, a stale tap is refused with a sentence, and taps made
offline meet another phone's taps without being merged into them. R-COMMON-4 checks each card on the server."""
import json
import urllib.request

from referee.store import Ledger
from tests.support.api import api
from tests.support.browser import IDLE, NETWORK_CUT, REFUSED, new_phone, shot
from tests.support.deals import DEAL_4P
from tests.support.offline import brisca_table, go_offline

TRICK = DEAL_4P[0][0]  # Bo leads: 1C, 11O, 2C, 6O
POLL_MS = 4000  # a live view asks every second


def co_scorer_url(server, table_id: str) -> str:
    """A co-scorer's link, as the share page issues it (its own key, a writer's)."""
    ledger = Ledger(server.env["DATABASE_URL"])
    key = ledger.new_key(table_id, "coscorer")
    ledger.engine.dispose()
    return f"{server.url}/t/{table_id}?key={key}"


def viewer_url(server, table_id: str, endpoint: str = "") -> str:
    ledger = Ledger(server.env["DATABASE_URL"])
    key = ledger.viewer_key(table_id)
    ledger.engine.dispose()
    return f"{server.url}/t/{table_id}{endpoint}?key={key}"


def tap(page, code):
    page.click(f"#picker button.card[value='{code}']")
    page.wait_for_function(IDLE)


def tapped(page) -> list:
    """The trick under way as the scorer's page shows it: the status bar's cards and the picker's marks."""
    marks = page.eval_on_selector_all("#picker button.card.pending", "cards => cards.map(c => c.value)")
    assert page.locator(".status-next .played-now").count() == len(marks)
    return sorted(marks)


def draft_of(server, table_id) -> tuple:
    ledger = Ledger(server.env["DATABASE_URL"])
    found = ledger.look(table_id)[2]
    ledger.engine.dispose()
    return found


def test_taps_show_on_the_viewers_phone_and_a_co_scorers_and_a_reload_keeps_them(server, browser):
    table_id, key, url = brisca_table(server)
    scorer_context, scorer, _, problems = new_phone(browser, "fr-CH")
    scorer.goto(url)
    viewer_context, viewer, _, seen = new_phone(browser, "fr-CH")
    viewer.goto(viewer_url(server, table_id))
    assert viewer.locator(".live-trick").count() == 0
    tap(scorer, "1C")
    tap(scorer, "11O")
    # its next poll: no revision moved, two cards were tapped
    viewer.wait_for_function("() => document.querySelectorAll('.live-trick .played-now').length === 2",
                             timeout=POLL_MS)
    assert [" ".join(t.split()) for t in viewer.locator(".live-trick .played-now").all_inner_texts()] == [
        "Bo 1 copas", "Cy 11 oros"]
    assert viewer.locator(".live-trick .next-card").inner_text() == "Carte de Di"
    shot(viewer, "draft-viewer-360")
    scorer.reload()
    assert tapped(scorer) == ["11O", "1C"] and "pending" not in scorer.url
    co_context, co_scorer, _, _ = new_phone(browser, "fr-CH")
    co_scorer.goto(co_scorer_url(server, table_id))
    assert tapped(co_scorer) == ["11O", "1C"]
    assert co_scorer.locator(".status-next .next-card").inner_text() == scorer.locator(
        ".status-next .next-card").inner_text()
    tap(co_scorer, "2C")  # the co-scorer goes on with the same trick
    viewer.wait_for_function("() => document.querySelectorAll('.live-trick .played-now').length === 3",
                             timeout=POLL_MS)
    tap(co_scorer, "6O")  # the trick is whole: stored, and no longer under way
    viewer.wait_for_function("() => !document.querySelector('.live-trick')"
                             " && document.querySelector('#scoreboard tr.deal td:last-child summary')"
                             ".textContent.trim() === '14'", timeout=POLL_MS)
    scorer.reload()
    assert tapped(scorer) == [] and [e["cards"] for e in api(server, f"/api/v1/tables/{table_id}/events",
                                                             key=key)["events"][1:]] == [TRICK]
    assert problems == [] and seen == []
    for context in (scorer_context, viewer_context, co_context):
        context.close()


def test_undo_into_a_whole_trick_reopens_it_on_both_phones_and_the_big_screen(server, browser):
    table_id, key, url = brisca_table(server)
    scorer_context, scorer, _, _ = new_phone(browser, "fr-CH")
    scorer.goto(url)
    co_context, co_scorer, _, _ = new_phone(browser, "fr-CH")
    co_scorer.goto(co_scorer_url(server, table_id))
    screen_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-CH")
    screen = screen_context.new_page()
    screen.goto(viewer_url(server, table_id, "/screen"))
    for code in TRICK:
        tap(scorer, code)
    assert tapped(scorer) == []
    scorer.click("form.undo button")
    scorer.wait_for_function(IDLE)
    assert tapped(scorer) == ["11O", "1C", "2C"] and draft_of(server, table_id) == ("1C", "11O", "2C")
    co_scorer.reload()  # the co-scorer's phone: the trick reopened there too
    assert tapped(co_scorer) == ["11O", "1C", "2C"]
    screen.wait_for_function("() => document.querySelectorAll('.screen-trick.under-way .played').length === 3",
                             timeout=POLL_MS)
    shot(screen, "draft-screen-1280")
    shot(co_scorer, "draft-co-scorer-reopened-360")
    tap(co_scorer, TRICK[3])  # one tap on the other phone puts the trick back
    assert api(server, f"/api/v1/tables/{table_id}", key=key)["deals"][0]["tricks"][0]["cards"] == TRICK
    for context in (scorer_context, co_context, screen_context):
        context.close()


def test_a_stale_tap_is_refused_with_a_sentence_and_nothing_is_mixed(server, browser):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table_id, key, url = brisca_table(server)
    scorer_context, scorer, _, _ = new_phone(browser, "fr-CH")
    scorer.goto(url)
    co_context, co_scorer, _, _ = new_phone(browser, "fr-CH")
    co_scorer.goto(co_scorer_url(server, table_id))  # its page: no card tapped yet
    tap(scorer, "1C")
    tap(co_scorer, "5C")  # tapped on a view that is now stale
    refusal = co_scorer.locator(".status-bar .refusal").inner_text()
    assert refusal == ("Un autre téléphone a changé le pli en cours entre-temps\u00a0: regardez où il en est et "
                       "touchez de nouveau la carte si elle est encore nécessaire.")
    assert tapped(co_scorer) == ["1C"]  # the trick as it stands, with the refusal
    assert draft_of(server, table_id) == ("1C",)
    shot(co_scorer, "draft-stale-tap-360")
    tap(co_scorer, "11O")  # on the trick as it stands: taken
    scorer.reload()
    assert tapped(scorer) == ["11O", "1C"]
    for context in (scorer_context, co_context):
        context.close()


def test_taps_made_offline_are_never_merged_with_another_phones(server, browser):
    """Phone A taps two cards offline; meanwhile phone B taps another card online. Back online, A's cards are not
    put into B's trick: the server keeps B's, A says its own as cards to enter again, with the refusal."""
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table_id, key, url = brisca_table(server)
    first, page, _, _ = new_phone(browser, "en-GB")
    page.goto(url)
    go_offline(first, page)
    for code in ("1C", "11O"):
        page.click(f"#picker button.card[value='{code}']")
    page.wait_for_function("() => document.querySelectorAll('.status-next .played-now').length === 2")
    second, other, _, _ = new_phone(browser, "en-GB")
    other.goto(co_scorer_url(server, table_id))
    tap(other, "5C")
    first.set_offline(False)
    page.wait_for_selector("#offline-queue .offline-again", timeout=15000)
    assert page.locator("#offline-queue .offline-again").inner_text() == "To enter again: 1 copas 11 oros"
    assert "Another phone changed the trick under way meanwhile" in page.locator("#offline-queue").inner_text()
    assert draft_of(server, table_id) == ("5C",) and tapped(page) == ["5C"]
    shot(page, "draft-offline-refused-360")
    first.close()
    second.close()


def test_taps_made_offline_reach_the_trick_under_way_when_no_other_phone_tapped(server, browser):
    table_id, key, url = brisca_table(server)
    context, page, _, problems = new_phone(browser, "en-GB")
    page.goto(url)
    tap(page, "1C")  # online: on the server
    go_offline(context, page)
    page.click("#picker button.card[value='11O']")
    page.click("form.undo button")  # offline, a card taken back and another tapped
    page.click("#picker button.card[value='2C']")
    page.wait_for_function("() => document.querySelectorAll('.status-next .played-now').length === 2")
    context.set_offline(False)
    page.wait_for_function("() => !document.getElementById('offline-queue')", timeout=15000)
    page.wait_for_function(IDLE)
    assert draft_of(server, table_id) == ("1C", "2C")
    page.reload()
    assert tapped(page) == ["1C", "2C"]
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_the_page_without_javascript_keeps_the_trick_under_way_on_the_server(server, browser):
    table_id, key, url = brisca_table(server)
    context, page, phone, _ = new_phone(browser, "fr-CH", js=False)
    page.goto(url)
    phone.tap("1C")
    phone.tap("11O")
    assert "pending" not in page.url and tapped(page) == ["11O", "1C"]
    request = urllib.request.Request(url)
    with urllib.request.urlopen(request, timeout=10) as answer:  # any phone opening the page sees them
        html = answer.read().decode()
    assert 'name="pending" value="1C.11O"' in html
    phone.act("form.undo button")
    assert tapped(page) == ["1C"] and json.dumps(draft_of(server, table_id)) == '["1C"]'
    context.close()
