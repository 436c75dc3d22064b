"""Signing a table's result on its phone, in Debian's Chromium (issue 27, R-COMMON-7, R-COMMON-8): a Burraco evening
that requires signatures; table 1's phone (360×740) enters its last hand by its numbers, each pair taps its
confirmation on the same phone, and the director's page, open in a second browser context, shows the table signed
without a reload (how soon is bench/'s to say). The director then corrects it with a reason, and the table's history shows the withdrawn entry struck
through with the director's reason. Screenshots: tests/artifacts/signing-*.png."""

from tests.support.api import api
from tests.support.browser import IDLE, Taps, artifact, new_phone, shot
from tests.support.deals import HAND_TO_NS, PAIRS

PLAN = [{"movement": "mitchell", "hands": 3}, {"movement": "mitchell", "hands": 3}]


def signed_evening(server) -> tuple:
    """A Burraco evening of 8 pairs that requires signatures, round 1 seated: (id, director key, table 1, its key)."""
    made = api(server, "/api/v1/tournaments", {"game": "buraco", "name": "Signed evening", "require_signatures": True,
                                               "entrants": [p.split(" & ") for p in PAIRS], "rounds": PLAN})
    state = api(server, f"/api/v1/tournaments/{made['id']}/rounds", {}, made["director_key"])
    table = state["rounds"][0]["tables"][0]
    return made["id"], made["director_key"], table, table["scorer_url"].split("key=")[1]


def test_r_common_7_each_pair_confirms_on_the_phone_and_the_director_sees_it_signed(browser, server):
    tid, director, table, card = signed_evening(server)
    for body in HAND_TO_NS * 2:
        api(server, f"/api/v1/tables/{table['table_id']}/events", body, card)
    context, phone, _, problems = new_phone(browser, locale="en-GB")
    phone.goto(f"{server.url}/t/{table['table_id']}?key={card}")
    tap = Taps(phone)
    tap("text=Numbers")
    tap("form[action*='/deal'] button.primary")  # "Start hand 3"
    tap("button[value='toggle:k:0']")  # Ana closes
    tap.keys("250")
    tap.keys("15")
    tap("button[value='more:u:0:pure']")
    tap.keys("120")
    tap.keys("45")
    tap(".sheet-save")
    assert phone.locator("#signing").count() == 1
    assert phone.locator(".sign-button").all_inner_texts() == ["Ana & Bo confirm", "Ida & Jo confirm"]
    assert "19 VP" in phone.inner_text(".signing-result") and "1 VP" in phone.inner_text(".signing-result")
    shot(phone, "signing-360")

    desk_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    desk = desk_context.new_page()
    desk_problems = []
    desk.on("console", lambda m: desk_problems.append(m.text) if m.type == "error" else None)
    desk.goto(f"{server.url}/tournaments/{tid}?key={director}")
    assert desk.inner_text(".table-progress >> nth=0 >> .status-badge").strip() == "To confirm"

    tap(".sign-button >> text=Ana & Bo confirm")
    assert phone.locator(".signed-side").inner_text().strip() == "✓ Ana & Bo confirmed"
    tap(".sign-button >> text=Ida & Jo confirm")
    desk.wait_for_function("() => { const b = document.querySelector('.table-progress .status-badge');"
                           " return b && b.classList.contains('status-signed'); }", timeout=30000)
    assert "Signed by every side. Only the director can change this result now." in phone.inner_text(".signed-badge")
    assert phone.locator(".undo-button").is_disabled()
    shot(phone, "signing-signed-360")
    desk.screenshot(path=str(artifact("signing-director-1280")))
    desk.set_viewport_size({"width": 360, "height": 740})
    shot(desk, "signing-director-360")

    # The director corrects the table from the page: its reason first, then an undo that keeps it in the log.
    desk.set_viewport_size({"width": 1280, "height": 720})
    with desk.expect_navigation():
        desk.click(".table-progress >> nth=0 >> text=Correct")
    desk.fill("#correction-reason", "Ida & Jo's cards left were 40, not 45")
    with desk.expect_navigation():
        desk.click("text=Start the correction")
    assert "Correction by the director" in desk.inner_text(".correction-note")
    desk.click(".undo-button")
    desk.wait_for_function(IDLE)
    log = api(server, f"/api/v1/tables/{table['table_id']}/events", None, director)["events"]
    withdrawn = [e for e in log if e["withdrawn"]]
    assert [(e["type"], e["withdrawal"]["by"], e["withdrawal"]["reason"]) for e in withdrawn] == [
        ("tally", "director", "Ida & Jo's cards left were 40, not 45")]
    shot(desk, "signing-correction-1280")

    # The table's history, from the director's page (R-COMMON-8): the withdrawn entry struck through, who withdrew
    # it and why, at 360×740 as the table's phone shows it.
    desk.goto(f"{server.url}/tournaments/{tid}?key={director}")
    with desk.expect_navigation():
        desk.click(".table-progress >> nth=0 >> text=History")
    desk.set_viewport_size({"width": 360, "height": 740})
    struck = desk.locator(".history-line.withdrawn")
    assert struck.count() == 1 and struck.locator("del").count() == 2  # the entry, and the points it gave
    assert struck.locator("del").first.inner_text() == "The hand by its numbers"
    assert struck.locator("del").last.inner_text() == "hand 535–75"  # 250 + 100 closing + 200 pure - 15; 120 - 45
    assert "Withdrawn by the director" in struck.inner_text()
    assert "Reason: Ida & Jo's cards left were 40, not 45" in struck.inner_text()
    assert desk.evaluate("getComputedStyle(document.querySelector('.history-line.withdrawn del'))"
                         ".textDecorationLine") == "line-through"
    assert desk.evaluate("document.documentElement.scrollWidth") <= 360
    shot(desk, "signing-history-360")
    assert problems == [] and desk_problems == []
    for ctx in (context, desk_context):
        ctx.close()
