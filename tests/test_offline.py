"""The scorer keeps entering tricks when the Wi-Fi drops (static/offline.js), in Chromium at a phone's 360×740: the
picker works out whose card comes next and who wins each trick, every whole trick waits in IndexedDB, and on
reconnect the queue reaches the server in order, each entry exactly once (client_event_id, expected_revision), even
when the network drops in the middle of the sync; a conflict stops the queue with the server's sentence until the
scorer chooses."""
import json
import re
import urllib.request
from pathlib import Path

import pytest

from tests.support.api import api
from tests.support.browser import NETWORK_CUT, REFUSED, new_phone, shot
from tests.support.deals import DEAL_4P
from tests.support.env import ROOT, need
from tests.support.offline import brisca_table, go_offline, lose_answer, offline_phone, synced
from tests.support.series import SERIES

WAITING = "#offline-queue li.waiting"


def log(server, table_id, key):
    return [e for e in api(server, f"/api/v1/tables/{table_id}/events", key=key)["events"] if e["type"] == "trick"]


def enter_offline(page, count: int):
    """Taps the first ``count`` tricks of DEAL_4P while the page handles them itself; each waits in the queue."""
    for i in range(count):
        for code in DEAL_4P[i][0]:
            page.click(f"#picker button.card[value='{code}']")
        page.wait_for_function("n => document.querySelectorAll('#offline-queue li').length === n", arg=i + 1)


def queued_ids(page) -> list:
    return page.eval_on_selector_all("#offline-queue li", "items => items.map(i => i.dataset.clientEventId)")


def test_three_tricks_offline_one_undone_then_a_closed_tab_and_the_sync_stores_two_once_in_order(server, browser):
    table_id, key, url = brisca_table(server)
    context, page, problems = offline_phone(browser, url)
    enter_offline(page, 3)
    assert page.locator(WAITING).count() == 3
    # R-COMMON-2 worked out on the phone: Bo wins trick 1 (14), Di trick 2 (6), Bo trick 3 (23, the only trump)
    assert [t.strip() for t in page.locator("#offline-queue li .offline-trick").all_inner_texts()] == [
        "Trick 1: Bo wins, 14 points.", "Trick 2: Di wins, 6 points.", "Trick 3: Bo wins, 23 points."]
    assert page.locator(".status-next .next-card").inner_text() == "Bo's card"  # Bo won trick 3: Bo leads
    assert page.locator(".status-deal strong").all_inner_texts() == ["0", "43"]
    assert page.get_attribute("#picker button.card[value='1C']", "class") == "card played"
    page.click("form.undo button")  # the last queued trick leaves the queue
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 2")
    assert page.locator(".status-next .next-card").inner_text() == "Di's card"
    assert page.get_attribute("#picker button.card[value='1O']", "class") == "card free"
    ids = queued_ids(page)
    assert len(set(ids)) == 2 and api(server, f"/api/v1/tables/{table_id}", key=key)["revision"] == 1
    assert log(server, table_id, key) == []  # nothing reached the server
    page.close()  # the tab is closed: the queue is in IndexedDB
    context.set_offline(False)
    page = context.new_page()
    page.goto(url)
    synced(page)
    stored = log(server, table_id, key)
    assert [(e["cards"], e["client_event_id"], e["withdrawn"]) for e in stored] == [
        (DEAL_4P[0][0], ids[0], False), (DEAL_4P[1][0], ids[1], False)]
    assert page.locator(".status-deal strong").all_inner_texts() == ["0", "20"]  # the server's own numbers
    assert page.locator(".status-last").inner_text().startswith("Trick 2: Di wins, 6 points.")
    assert page.evaluate("() => new URL(location.href).searchParams.get('pending')") is None
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems  # no script error
    context.close()


def test_the_network_drops_in_the_middle_of_the_sync_and_each_trick_is_still_stored_once(server, browser):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table_id, key, url = brisca_table(server)
    context, page, problems = offline_phone(browser, url)
    enter_offline(page, 3)
    for code in DEAL_4P[3][0][:2]:  # a trick in progress: two cards, not yet a whole trick
        page.click(f"#picker button.card[value='{code}']")
    ids = queued_ids(page)
    posts = lose_answer(page, "**/api/v1/tables/*/events", 2,
                        lambda request: json.loads(request.post_data)["client_event_id"])
    context.set_offline(False)
    synced(page)
    assert posts == [ids[0], ids[1], ids[1], ids[2]]  # the lost answer's entry again, with its own id
    stored = log(server, table_id, key)
    assert [(e["cards"], e["client_event_id"]) for e in stored] == [(DEAL_4P[i][0], ids[i]) for i in range(3)]
    # the trick in progress goes on where every phone sees it: the server's trick under way, never the address
    assert page.evaluate("() => new URL(location.href).searchParams.get('pending')") is None
    assert page.locator(".status-next .played-now").count() == 2
    assert api(server, f"/api/v1/tables/{table_id}", key=key)["revision"] == 4  # the three tricks: no more
    page.reload()
    assert page.locator(".status-next .played-now").count() == 2
    assert page.locator(".status-deal strong").all_inner_texts() == ["0", "43"]
    # the browser logs the lost answer and the refused requests while offline; nothing else went wrong
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_a_conflict_stops_the_queue_with_the_servers_sentence_until_the_scorer_chooses(server, browser):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table_id, key, url = brisca_table(server)
    first, page, _ = offline_phone(browser, url)
    enter_offline(page, 2)
    ids = queued_ids(page)
    second, other, _, _ = new_phone(browser, "en-GB")
    other.goto(url)
    for code in DEAL_4P[0][0]:  # the co-scorer enters trick 1 meanwhile, online
        other.click(f"#picker button.card[value='{code}']")
        other.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    assert [e["cards"] for e in log(server, table_id, key)] == [DEAL_4P[0][0]]
    first.set_offline(False)
    page.wait_for_selector("#offline-queue li.refused")
    refusal = page.locator("#offline-queue li.refused .offline-refusal").inner_text()
    assert "The table changed meanwhile" in refusal, refusal
    assert page.locator("#offline-queue li").count() == 2 and page.locator(WAITING).count() == 1
    page.wait_for_timeout(5000)  # time is the subject: a retry period passes, nothing after the refused entry sent
    stored = log(server, table_id, key)
    assert len(stored) == 1 and stored[0]["client_event_id"] not in ids  # the co-scorer's trick only
    page.click("#offline-queue li.refused .offline-drop")  # drop trick 1 (the co-scorer's is in); trick 2 goes on
    synced(page)
    stored = log(server, table_id, key)
    assert [e["cards"] for e in stored] == [DEAL_4P[0][0], DEAL_4P[1][0]]
    assert page.locator(".status-deal strong").all_inner_texts() == ["0", "20"]
    first.close()
    second.close()


def test_fix_takes_the_refused_entry_and_those_after_it_back_for_entering_again(server, browser):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table_id, key, url = brisca_table(server)
    first, page, _ = offline_phone(browser, url)
    enter_offline(page, 2)
    api(server, f"/api/v1/tables/{table_id}/events", {"type": "trick", "cards": DEAL_4P[0][0]}, key=key)
    first.set_offline(False)
    page.wait_for_selector("#offline-queue li.refused")
    page.click("#offline-queue li.refused .offline-fix")
    page.wait_for_selector("#offline-queue .offline-again")
    assert page.locator("#offline-queue li").count() == 0
    assert page.locator("#offline-queue .offline-again").inner_text().startswith("To enter again: ")
    page.wait_for_timeout(1000)  # time is the subject: a second passes and nothing taken back is sent
    assert [e["cards"] for e in log(server, table_id, key)] == [DEAL_4P[0][0]]
    assert page.locator(".status-next .next-card").inner_text() == "Bo's card"  # the server's state: Bo won it
    first.close()


def test_a_reload_while_offline_shows_the_waiting_tricks_from_the_service_worker_cache(server, browser):
    need((ROOT / "referee" / "static" / "sw.js").exists(), "static/sw.js (slice O1) is not there yet")
    table_id, key, url = brisca_table(server)
    context, page, _, _ = new_phone(browser, "en-GB")
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=15000)
    page.reload()  # the worker keeps the page under its address
    go_offline(context, page)
    enter_offline(page, 3)
    page.click("form.undo button")
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 2")
    ids = queued_ids(page)
    page.reload()  # offline: the page from the worker's cache, the queue from IndexedDB
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li.waiting').length === 2")
    page.close()
    page = context.new_page()
    page.goto(url)  # closed and opened again, still offline
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li.waiting').length === 2")
    assert queued_ids(page) == ids
    context.set_offline(False)
    synced(page)
    assert [(e["cards"], e["client_event_id"]) for e in log(server, table_id, key)] == [
        (DEAL_4P[0][0], ids[0]), (DEAL_4P[1][0], ids[1])]
    assert page.locator(".status-deal strong").all_inner_texts() == ["0", "20"]
    context.close()


def test_the_page_hands_its_deal_to_the_script_as_data_never_as_code(server):
    table_id, key, url = brisca_table(server)
    with urllib.request.urlopen(url, timeout=10) as answer:
        html = answer.read().decode()
        csp = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    start = html.index('<script type="application/json" id="offline-data">') + len(
        '<script type="application/json" id="offline-data">')
    data = json.loads(html[start:html.index("</script>", start)])
    assert {k: data[k] for k in ("table", "revision", "players", "sides", "leader", "trump_suit", "played", "tricks",
                                 "tricks_per_deal", "pending")} == {
        "table": table_id, "revision": 1, "players": ["Ana", "Bo", "Cy", "Di"], "sides": [[0, 2], [1, 3]],
        "leader": 1, "trump_suit": "E", "played": [], "tricks": 0, "tricks_per_deal": 10, "pending": []}
    assert data["strength"]["1"] == 12 and data["card_points"] == {"1": 11, "3": 10, "12": 4, "11": 3, "10": 2}
    assert data["mode"] == "trick" and data["side_names"] == ["Ana & Cy", "Bo & Di"] and data["labels"]["11E"] == \
        "11 espadas"
    assert Path(ROOT / "referee" / "static" / "offline.js").exists()
    # each form its own id: an entry retried under one form's id is never taken for another form's (an undo's)
    ids = re.findall(r'name="event_id" value="(\w+)"', html)
    assert len(ids) >= 2 and len(set(ids)) == len(ids)


def test_the_words_the_script_shows_come_from_the_page_in_its_language(server):
    _, _, url = brisca_table(server)
    for language, trick in (("en", "Trick %(n)s:"), ("fr", "Pli %(n)s\u00a0:")):  # issue 24: the colon in the sentence
        request = urllib.request.Request(url, headers={"Accept-Language": language})
        with urllib.request.urlopen(request, timeout=10) as answer:
            html = answer.read().decode()
        start = html.index('<script type="application/json" id="offline-words">') + len(
            '<script type="application/json" id="offline-words">')
        words = json.loads(html[start:html.index("</script>", start)])
        assert words["trick_cards"] == trick and words["trick"] == trick.rstrip(":\u00a0")  # "Trick 3", "Trick 3: …"
        assert "%(winner)s" in words["won_n"] and "%(num)s" in words["won_n"]
        assert set(words) >= {"title", "waiting", "offline", "sending", "refused", "fix", "drop", "again",
                              "undo_online", "deal_over", "played", "next", "won_0", "won_1"}


def test_a_tap_whose_request_never_reaches_the_server_waits_on_the_phone_with_the_rest(server, browser):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table_id, key, url = brisca_table(server)
    context, page, _, _ = new_phone(browser, "en-GB")
    page.goto(url)
    page.route("**/t/*/tap?*", lambda route: route.abort())  # the Wi-Fi says it is up; nothing gets through
    enter_offline(page, 1)
    assert page.locator(WAITING).count() == 1 and log(server, table_id, key) == []
    assert page.locator("#offline").is_hidden()  # not "nothing was saved": it waits on this phone
    page.unroute("**/t/*/tap?*")
    synced(page)  # the next retry sends it
    assert [e["cards"] for e in log(server, table_id, key)] == [DEAL_4P[0][0]]
    context.close()


@pytest.mark.parametrize("game", ["brouc", "brusquembille", "brulot"])
def test_the_phone_works_out_each_trick_games_winners_as_the_server_does(server, browser, game):
    """R-COMMON-2 on the phone for the other trick games: three tricks entered offline say the winner and points the
    server gives them once they arrive (the trump suit and strength order of the game, from #offline-data)."""
    players, options, entries = next((p, o, e) for g, p, o, e in SERIES if g == game)
    made = api(server, "/api/v1/tables", {"game": game, "players": players, "options": options})
    key = made["scorer_key"]
    first = next(i for i, body in enumerate(entries) if body["type"] == "trick")
    for body in entries[:first]:  # the deal (its trump, a Brûlot widow): entered online
        api(server, f"/api/v1/tables/{made['id']}/events", body, key=key)
    tricks = [body["cards"] for body in entries[first:first + 3]]
    assert all(body["type"] == "trick" for body in entries[first:first + 3])
    context, page, problems = offline_phone(browser, made["scorer_url"])
    for i, cards in enumerate(tricks):
        for code in cards:
            page.click(f"#picker button.card[value='{code}']")
        page.wait_for_function("n => document.querySelectorAll('#offline-queue li').length === n", arg=i + 1)
    said_offline = [t.strip() for t in page.locator("#offline-queue li .offline-trick").all_inner_texts()]
    context.set_offline(False)
    synced(page)
    deal = api(server, f"/api/v1/tables/{made['id']}", key=key)["deals"][-1]
    assert [t["cards"] for t in deal["tricks"]] == tricks
    winners = [players[t["winner"]] for t in deal["tricks"]]
    assert [re.match(r"Trick \d+: (\S+) wins", line).group(1) for line in said_offline] == winners, said_offline
    if game != "brulot":  # card points (Brûlot counts penalty cards at the end of the deal)
        points = [int(re.search(r"(\d+) points?\.", line).group(1)) for line in said_offline]
        assert points == [t["points"] for t in deal["tricks"]], (said_offline, deal["tricks"])
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_the_next_deal_starts_offline_with_its_turned_card_and_goes_on_card_by_card(server, browser):
    """R-COMMON-2 on the phone: the deal's tenth trick entered offline, the card turned for the next deal starts it
    (the next player deals, the one after leads), its first trick is worked out on the phone; on reconnect the
    server holds the ten tricks, the deal and the trick once each, in order, and says what the phone said."""
    table_id, key, url = brisca_table(server)
    context, page, problems = offline_phone(browser, url)
    enter_offline(page, 10)
    assert page.locator(".status-title .title-main").inner_text() == "Deal 2"
    assert page.locator(".status-title .title-dealer").inner_text() == "dealer: Bo"
    assert page.locator(".status-next").inner_text() == "Tap the card turned for trump."
    page.click("#picker button.card[value='1O']")  # oros are trump in deal 2
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 11")
    assert page.locator(".status-title .title-main").inner_text() == "Deal 2 · trump 1 oros"
    assert page.locator(".status-title .title-dealer").inner_text() == "dealer: Bo"
    assert page.locator(".status-next .next-card").inner_text() == "Cy's card"  # the player after the dealer leads
    assert page.get_attribute("#picker button.card[value='3C']", "class") == "card free"  # played in deal 1
    for code in ["2C", "3C", "4C", "12O"]:  # Cy, Di, Ana, Bo: Bo trumps with the king of oros
        page.click(f"#picker button.card[value='{code}']")
    page.wait_for_function("() => document.querySelectorAll('#offline-queue li').length === 12")
    said = [t.strip() for t in page.locator("#offline-queue li").all_inner_texts()]
    assert said[10].startswith("Deal 2: Bo deals. trump 1 oros") and said[11].startswith(
        "Trick 1: Bo wins, 14 points."), said[10:]
    shot(page, "offline-next-deal-360")
    ids = queued_ids(page)
    context.set_offline(False)
    synced(page)
    log_ = api(server, f"/api/v1/tables/{table_id}/events", key=key)["events"]
    assert [(e["type"], e["client_event_id"]) for e in log_[1:]] == [("trick", i) for i in ids[:10]] + [
        ("deal", ids[10]), ("trick", ids[11])]
    state = api(server, f"/api/v1/tables/{table_id}", key=key)
    deal = state["deals"][-1]
    assert (deal["number"], deal["dealer"], deal["trump"]) == (2, 1, "1O")
    assert [(t["winner"], t["points"]) for t in deal["tricks"]] == [(1, 14)]
    assert page.locator(".status-title").inner_text().startswith("Deal 2")
    assert all(p.startswith("Failed to load resource: net::ERR_") for p in problems), problems
    context.close()


def test_only_the_ways_of_entry_the_phone_can_follow_hand_it_their_deal(server):
    """#offline-data: card by card for a trick game (and its finished deal when the next one can start offline),
    piles and numbers of an open deal; never a Buraco picker (it lays melds), never a Brûlot deal to come (its
    widow)."""
    def data_of(url):
        with urllib.request.urlopen(url, timeout=10) as answer:
            html = answer.read().decode()
        found = re.search(r'<script type="application/json" id="offline-data">(.*?)</script>', html, re.S)
        return json.loads(found.group(1)) if found else None

    table_id, key, url = brisca_table(server)
    assert data_of(url)["mode"] == "trick" and data_of(url)["next_deal"] == {"number": 2, "dealer": 1}
    assert data_of(url + "&mode=capture")["mode"] == "capture" and "next_deal" not in data_of(url + "&mode=capture")
    buraco = api(server, "/api/v1/tables", {"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"]})
    api(server, f"/api/v1/tables/{buraco['id']}/events", {"type": "deal", "dealer": 0}, key=buraco["scorer_key"])
    assert data_of(buraco["scorer_url"]) is None
    players, options, entries = next((p, o, e) for g, p, o, e in SERIES if g == "brulot")
    brulot = api(server, "/api/v1/tables", {"game": "brulot", "players": players, "options": options})
    for body in entries[:next(i for i, b in enumerate(entries) if b["type"] == "trick")]:
        api(server, f"/api/v1/tables/{brulot['id']}/events", body, key=brulot["scorer_key"])
    assert data_of(brulot["scorer_url"])["mode"] == "trick" and "next_deal" not in data_of(brulot["scorer_url"])
