"""The scorer's evening in a real browser: Debian's Chromium driven by Playwright at a phone's 360×740, with
JavaScript (htmx swaps fragments) and without (forms post and redirect), plus an axe-core accessibility check.
Screenshots of each screen land in tests/artifacts/ (git-ignored) for review."""
import pytest

from referee.store import Ledger
from tests.support.browser import AXE, NETWORK_CUT, PHONE, REFUSED, Phone, new_phone, shot
from tests.support.deals import DEAL_4P
from tests.support.env import need


def start_table(phone: Phone, server, label: str) -> None:
    page = phone.page
    page.goto(server.url)
    shot(page, f"{label}-1-home")
    with page.expect_navigation():
        page.click("a.button.primary[href='/new/brisca']")
    for i, name in enumerate(["Ana", "Cy", "Bo", "Di"]):
        page.fill(f"#player-{i}", name)
    phone.act("button[name=op][value='up:2']")  # Bo moves up: Ana, Bo, Cy, Di
    phone.act("button[name=op][value=add]")
    page.fill("#player-4", "Ed")
    phone.act("button[name=op][value='remove:4']")
    assert [page.input_value(f"#player-{i}") for i in range(4)] == ["Ana", "Bo", "Cy", "Di"]
    assert page.locator("input[name=player]").count() == 4
    shot(page, f"{label}-2-setup")
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")


def play_the_deal(phone: Phone, label: str) -> None:
    """Tricks of DEAL_4P by taps, with an undo and a re-entry, and an impossible card refused on the way."""
    page = phone.page
    phone.tap("11E")  # the turned card: the deal starts
    for cards, _, _ in DEAL_4P[:3]:
        for code in cards:
            phone.tap(code)
    phone.act("form.undo button")  # one tap reopens trick 3 without its last card
    assert page.locator(".tricks[open] li").count() == 2
    assert page.locator(".status-next .played-now").count() == 3
    phone.tap(DEAL_4P[2][0][3])  # one tap puts it back
    phone.tap(DEAL_4P[3][0][0])
    shot(page, f"{label}-3-scorer")
    phone.tap("1C")  # played in trick 1: refused with the engine's sentence, nothing changes
    refusal = page.locator(".refusal").inner_text()
    assert "As de copas (porrons) a déjà été joué au pli 1" in refusal, refusal
    shot(page, f"{label}-4-refused")
    for code in DEAL_4P[3][0][1:]:
        phone.tap(code)
    for cards, _, _ in DEAL_4P[4:]:
        for code in cards:
            phone.tap(code)
    assert phone.totals() == ["65", "55"]  # the hand count of tests/test_brisca.py
    shot(page, f"{label}-5-deal-done")


def switch_language(phone: Phone) -> None:
    page = phone.page
    page.click(".menu > summary")  # the language, like the rest of the scorer's tools, is behind the menu
    with page.expect_navigation():
        page.click("nav.languages a[hreflang=en]")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#scoreboard-title") == "Scoreboard" and phone.totals() == ["65", "55"]
    page.click(".menu > summary")
    with page.expect_navigation():
        page.click("nav.languages a[hreflang=fr]")
    assert page.get_attribute("html", "lang") == "fr" and page.inner_text("#scoreboard-title") == "Tableau des scores"


@pytest.mark.parametrize("js", [True, False], ids=["htmx", "no-javascript"])
def test_a_scorers_deal_on_a_phone(server, browser, js):
    context, page, phone, problems = new_phone(browser, "fr-CH", js=js)
    label = "js" if js else "nojs"
    start_table(phone, server, label)
    assert "/t/" in page.url and "key=" in page.url
    play_the_deal(phone, label)
    switch_language(phone)
    if js:
        assert page.evaluate("typeof window.htmx") == "object"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert problems == []
    table_id = page.url.split("/t/")[1].split("?")[0]
    viewer = Ledger(server.env["DATABASE_URL"]).viewer_key(table_id)
    page.goto(f"{server.url}/t/{table_id}?key={viewer}")
    assert phone.totals() == ["65", "55"] and page.locator(".picker").count() == 0
    shot(page, f"{label}-6-scoreboard")
    context.close()


def brouc_table_with_a_deal(server) -> str:
    """A Brouc table with a whole deal (announce, table marriages) and a flagged trick: its scorer link."""
    import json
    import urllib.request

    from tests.support.deals import DEAL_B

    def call(path, body, key=None):
        request = urllib.request.Request(server.url + path, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        if key:
            request.add_header("Authorization", f"Bearer {key}")
        return json.loads(urllib.request.urlopen(request, timeout=10).read())

    created = call("/api/v1/tables", {"game": "brouc", "players": ["Ana", "Bo", "Cy", "Di"]})
    events = f"/api/v1/tables/{created['id']}/events"
    bodies = [{"type": "deal", "trump": "KH"}, {"type": "trick", "cards": DEAL_B[0]},
              {"type": "announce", "player": 0, "cards": ["KH", "QH"]}]
    bodies += [{"type": "trick", "cards": cards} for cards in DEAL_B[1:]]
    bodies += [{"type": "deal", "trump": "7H"}, {"type": "trick", "cards": ["AS", "AH", "8H", "7S"]}]
    for body in bodies:
        call(events, body, created["scorer_key"])
    return created["scorer_url"]


def test_no_serious_accessibility_violation(server, browser):
    need(AXE.exists(), f"{AXE} is missing (npm ci installs axe-core)")
    context, page, phone, _ = new_phone(browser, bypass_csp=True)  # to inject axe
    start_table(phone, server, "axe")
    phone.tap("11E")
    for code in DEAL_4P[0][0] + DEAL_4P[1][0][:2]:
        phone.tap(code)
    scorer = page.url
    table_id = scorer.split("/t/")[1].split("?")[0]
    viewer = f"{server.url}/t/{table_id}?key={Ledger(server.env['DATABASE_URL']).viewer_key(table_id)}"
    brouc = brouc_table_with_a_deal(server)
    found = {}
    for name, url in [("home", server.url + "/"), ("setup", server.url + "/new/brisca"), ("scorer", scorer),
                      ("scoreboard", viewer), ("brouc-scorer", brouc)]:
        page.goto(url)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => (await axe.run(document)).violations"
                               ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))")
        found[name] = [v for v in result if v["impact"] in ("serious", "critical")]
    assert found == {"home": [], "setup": [], "scorer": [], "scoreboard": [], "brouc-scorer": []}
    context.close()


def test_a_brouc_deal_by_taps_and_its_slate(server, browser):
    from tests.support.deals import DEAL_B
    context, page, phone, problems = new_phone(browser, "fr-CH")
    page.goto(server.url)
    with page.expect_navigation():
        page.click("a.button.primary[href='/new/brouc']")
    for i, name in enumerate(["Ana", "Bo", "Cy", "Di"]):
        page.fill(f"#player-{i}", name)
    assert "Ana est en face de Cy." in page.inner_text("#setup")  # the names typed, at once (issue 38)
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")
    phone.tap("KH")  # Ana deals and turns the king of hearts
    for code in DEAL_B[0]:
        phone.tap(code)
    with page.expect_navigation():
        page.click("a[href*='mode=announce']")
    with page.expect_navigation():
        page.click(".actions a.button:text('Ana')")
    phone.tap("KH")
    phone.tap("QH")
    phone.act(".actions button.primary")
    assert page.locator("#scoreboard tr.total td summary").all_inner_texts() == ["0", "4"]  # counted at once
    for cards in DEAL_B[1:]:
        for code in cards:
            phone.tap(code)
    # The slate: Bo & Di on the left, the scorer's side (Ana & Cy, option scorer_side 0) on the right.
    assert page.locator(".slate-table thead th").all_inner_texts() == ["Bo & Di", "", "Ana & Cy"]
    assert page.locator("#scoreboard tr.total td summary").all_inner_texts() == ["2", "14"]
    assert page.locator(".slate-table tr.deal td summary").all_inner_texts() == ["2", "14"]
    page.click(".slate-table tr.deal td.right summary")
    assert "64 points, arrondi vers le bas\u00a0: 6" in page.inner_text(".slate-table tr.deal td.right .why")
    shot(page, "brouc-1-slate")
    assert problems == []
    context.close()


def open_new_table(page, server, game):
    page.goto(server.url)
    with page.expect_navigation():
        page.click(f"a.button.primary[href='/new/{game}']")
    for i, name in enumerate(["Ana", "Bo", "Cy", "Di"]):
        page.fill(f"#player-{i}", name)
    with page.expect_navigation(url="**/t/**"):
        page.click("button[name=op][value=create]")


def test_a_brulot_deal_by_taps_and_its_penalties(server, browser):
    from tests.support.simulate import brulot_deal
    events, penalties, _ = brulot_deal(4, 0, 11, "dealer_last_card")
    context, page, phone, problems = new_phone(browser, "en-GB")
    open_new_table(page, server, "brulot")
    phone.tap(events[0]["trump"])  # Ana shows her last card for trump (R-BRULOT-2)
    for body in events[1:]:
        for code in body["cards"]:
            phone.tap(code)
    assert phone.totals() == [str(p) for p in penalties] and sum(penalties) == 40
    assert "the lowest total wins" in page.inner_text("#scoreboard")
    shot(page, "brulot-1-deal")
    assert problems == []
    context.close()


def test_a_brusquembille_deal_by_taps_with_its_jetons(server, browser):
    from referee.games import get_game
    from tests.support.simulate import brusquembille_deal
    events = brusquembille_deal(4, 0, 44)
    game = get_game("brusquembille")
    expected = game.serialise(game.replay(["Ana", "Bo", "Cy", "Di"], {}, 0, events))
    context, page, phone, problems = new_phone(browser, "fr-CH")
    open_new_table(page, server, "brusquembille")
    phone.tap(events[0]["trump"])
    for body in events[1:]:
        for code in body["cards"]:
            phone.tap(code)
    assert phone.totals() == [str(t) for t in expected["totals"]] and sum(expected["totals"]) == 120
    shown = page.locator(".jetons .jeton-balance summary").all_inner_texts()
    assert shown == [f"{j:+d}" if j else "0" for j in expected["jetons"]] and sum(expected["jetons"]) == 0
    assert any(j for j in expected["jetons"])  # this deal moves jetons
    page.click(".jetons .jeton-row summary >> nth=0")
    assert "Pli" in page.inner_text(".jetons .jeton-row .why >> nth=0")
    shot(page, "brusquembille-1-deal")
    assert problems == []
    context.close()


def test_a_buraco_hand_melds_live_and_counted(server, browser):
    context, page, phone, problems = new_phone(browser, "en-GB")
    open_new_table(page, server, "buraco")
    phone.act("#scorer button.primary")  # start hand 1

    def go(selector):
        with page.expect_navigation():
            page.click(selector)

    go("a[href*='mode=meld'][href*='side=0']")
    for code in ("KC", "QC", "JC"):
        phone.tap(code)
    phone.act(".builder button.primary")  # laid: K Q J of clubs for Ana & Cy
    go("a[href*='mode=meld'][href*='side=1']")
    for code in ("5H", "6S", "7H"):
        phone.tap(code)
    phone.act(".builder button.primary")
    assert page.inner_text(".refusal") == "A run is of one suit; this one mixes spades and hearts."  # by name (issue 24)
    for _ in range(3):
        phone.act("form.undo button")  # take the three cards back
    for code in ("5D", "6D", "7D"):
        phone.tap(code)
    phone.act(".builder button.primary")  # Bo & Di: 5 6 7 of diamonds
    go("a[href*='mode=extend'][href*='side=0'][href*='meld=0']")
    for code in ("10C", "9C", "8C", "7C"):
        phone.tap(code)
    phone.act(".builder button.primary")
    assert "pure burraco 200" in page.inner_text(".melds-table")
    phone.act(".team >> nth=0 >> button[name=pot]")  # Ana & Cy take their pot
    go("a[href*='mode=count']")
    go(".builder a[href*='player=1']")
    phone.tap("KD")
    go(".builder a[href*='player=3']")
    phone.tap("4S")
    page.select_option("#closed_by", "2")
    go(".builder form.inline button")
    rows = [page.locator(".breakdown tbody tr").nth(i).locator("td").all_inner_texts() for i in range(5)]
    assert rows == [["65", "15"], ["200", "0"], ["0", "-15"], ["100", "0"], ["0", "-100"]]
    assert page.locator(".breakdown tfoot td").all_inner_texts() == ["365", "-100"]
    shot(page, "buraco-1-count")
    phone.act(".builder button.primary")  # save the count
    assert phone.totals() == ["365", "-100"]
    shot(page, "buraco-2-counted")
    assert problems == []
    context.close()


def deal_row(page) -> str:
    return ",".join(page.locator("#scoreboard tr.deal td summary").all_inner_texts())


def test_the_viewer_follows_the_scorer_live_and_recovers_after_a_restart(server, browser):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    import json
    import time
    import urllib.request

    def call(path, body, key):
        request = urllib.request.Request(server.url + path, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
        return json.loads(urllib.request.urlopen(request, timeout=10).read())

    created = call("/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}, "")
    viewer_context, viewer, _, problems = new_phone(browser, "en-GB")
    viewer.goto(created["viewer_url"])
    viewer.evaluate("window.stillTheSamePage = true")
    scorer_context, page, phone, _ = new_phone(browser, "en-GB")
    page.goto(created["scorer_url"])
    phone.tap("11E")
    for code in DEAL_4P[0][0]:
        phone.tap(code)
    viewer.wait_for_function("() => [...document.querySelectorAll('#scoreboard tr.deal td summary')]"
                             ".map(e => e.textContent.trim()).join(',') === '0,14'", timeout=30000)
    assert viewer.evaluate("window.stillTheSamePage") is True  # followed live, never reloaded
    server.kill()
    viewer.wait_for_selector("#live-status.stale", timeout=30000)  # the view says it is not live
    server.start()
    call(f"/api/v1/tables/{created['id']}/events", {"type": "trick", "cards": DEAL_4P[1][0]}, created["scorer_key"])
    viewer.wait_for_function("() => [...document.querySelectorAll('#scoreboard tr.deal td summary')]"
                             ".map(e => e.textContent.trim()).join(',') === '0,20'", timeout=30000)
    viewer.wait_for_selector("#live-status:not(.stale)", timeout=30000)
    assert viewer.evaluate("window.stillTheSamePage") is True and deal_row(viewer) == "0,20"
    shot(viewer, "viewer-live")
    viewer_context.close()
    scorer_context.close()
