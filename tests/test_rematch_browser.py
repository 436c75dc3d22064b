"""The rematch in real browsers (Debian's Chromium, Playwright) at a phone's 360×740: a Brisca series finished through
the API, the scorer taps Rematch, and a phone following the old viewer link and the club's big screen reach the new
table without anyone touching them. Screenshots land in tests/artifacts/ (rematch-*.png)."""
import json
import urllib.request

import pytest

from tests.support.browser import PHONE, new_phone, shot

BRISCA_DEAL = [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}]
DESK = {"width": 1280, "height": 720}


def call(server, path, body=None, key=None):
    request = urllib.request.Request(server.url + path, json.dumps(body or {}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def finished_series(server) -> dict:
    """A Brisca table whose series Ana & Cy won 3-0 (three tallies of 70-50), entered through the API."""
    created = call(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]})
    for body in BRISCA_DEAL * 3:
        call(server, f"/api/v1/tables/{created['id']}/events", body, created["scorer_key"])
    return created


def rematch_of(server, table: dict) -> str:
    request = urllib.request.Request(f"{server.url}/api/v1/tables/{table['id']}?key={table['viewer_key']}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())["rematch"]


def test_a_rematch_leads_the_old_viewer_link_and_the_big_screen_to_the_new_table(server, browser):
    table = finished_series(server)
    old_id, scorer, viewer = table["id"], table["scorer_key"], table["viewer_key"]
    watcher, watching, _, watcher_problems = new_phone(browser, "fr-CH")  # a second phone at the table
    watching.goto(f"{server.url}/t/{old_id}?key={viewer}")
    entries = watching.evaluate("history.length")
    tv = browser.new_context(viewport=DESK, locale="fr-CH")
    screen = tv.new_page()
    screen_problems = []
    screen.on("console", lambda m: screen_problems.append(m.text) if m.type == "error" else None)
    screen.goto(f"{server.url}/t/{old_id}/screen?key={viewer}")
    assert screen.locator(".rematch").count() == 0 and watching.locator(".rematch").count() == 0

    context, page, phone, problems = new_phone(browser, "fr-CH")
    page.goto(f"{server.url}/t/{old_id}?key={scorer}")
    button = page.locator("form.rematch button")
    assert button.inner_text() in ("Revanche", "Rematch")  # French once fr/messages.po has it
    box = button.bounding_box()
    assert box["width"] >= PHONE["width"] - 2 * 16 and box["height"] >= 56  # big: the whole width
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "rematch-1-scorer-finished")
    page.set_viewport_size(DESK)
    shot(page, "rematch-1-scorer-finished-1280")
    page.set_viewport_size(PHONE)
    with page.expect_navigation(url="**/t/*?key=*"):
        button.click()  # htmx posts; HX-Redirect changes the page
    new_id = rematch_of(server, table)
    assert new_id and page.url == f"{server.url}/t/{new_id}?key={scorer}"
    assert page.locator(".status-title .title-main").inner_text() == "Donne 1"
    assert page.locator(".status-title .title-dealer").inner_text() == "donneur\u00a0: Di"  # Ana, Bo, Cy dealt: Di next
    shot(page, "rematch-2-new-scorer")

    # Nobody touches the second phone or the TV: their next poll leads them to the new table.
    watching.wait_for_url(f"{server.url}/t/{new_id}?key={viewer}", timeout=10_000)
    screen.wait_for_url(f"{server.url}/t/{new_id}/screen?key={viewer}", timeout=10_000)
    assert watching.locator("#scoreboard").count() == 1 and watching.locator(".picker").count() == 0
    assert watching.locator("#live").get_attribute("hx-get").startswith(f"/t/{new_id}/live?key={viewer}")
    assert watching.evaluate("history.length") == entries  # replaced: going back never bounces to the old table
    shot(watching, "rematch-3-viewer-followed")
    shot(screen, "rematch-4-screen-followed")

    # The old viewer link opened afresh goes to the rematch by itself too.
    later = watcher.new_page()
    later.goto(f"{server.url}/t/{old_id}?key={viewer}")
    later.wait_for_url(f"{server.url}/t/{new_id}?key={viewer}", timeout=10_000)
    assert problems == [] and watcher_problems == [] and screen_problems == []
    for ctx in (context, watcher, tv):
        ctx.close()


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "screen"])
def test_without_javascript_the_old_links_show_the_way_to_the_rematch(server, browser, size):
    table = finished_series(server)
    old_id, scorer, viewer = table["id"], table["scorer_key"], table["viewer_key"]
    context, page, phone, problems = new_phone(browser, "fr-CH", js=False)
    page.set_viewport_size(size)
    page.goto(f"{server.url}/t/{old_id}?key={scorer}")
    with page.expect_navigation(url="**/t/*?key=*"):
        page.click("form.rematch button")  # post, 303, the new table's scorer page
    new_id = rematch_of(server, table)
    assert page.url == f"{server.url}/t/{new_id}?key={scorer}"
    label = "phone" if size == PHONE else "1280"
    for name, path, target in [("viewer", f"/t/{old_id}?key={viewer}", f"/t/{new_id}?key={viewer}"),
                               ("screen", f"/t/{old_id}/screen?key={viewer}", f"/t/{new_id}/screen?key={viewer}")]:
        page.goto(server.url + path)
        link = page.locator("a[data-follow]")
        assert link.get_attribute("href") == target
        shot(page, f"rematch-5-old-{name}-nojs-{label}")
        with page.expect_navigation():
            link.click()
        assert page.url == server.url + target
    assert problems == []
    context.close()
