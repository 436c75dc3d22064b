"""In a real browser (Debian's Chromium driven by Playwright), at a phone's 360×740: the scoreboard page loads
its script and styles under the strict Content-Security-Policy with no error."""
import json
import os
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import need
from tests.test_brisca import DEAL_4P

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    need(Path(CHROMIUM).exists(), f"{CHROMIUM} is missing (Debian package chromium; .ci/run installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "the playwright package is not installed (make test installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


def call(url, body, key=None):
    request = urllib.request.Request(url, method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_scoreboard_in_chromium_at_360_wide(server, browser):
    created = call(server.url + "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]})
    events = f"{server.url}/api/v1/tables/{created['id']}/events"
    call(events, {"type": "deal", "trump": "11E"}, created["scorer_key"])
    for cards, _, _ in DEAL_4P:
        call(events, {"type": "trick", "cards": cards}, created["scorer_key"])
    page = browser.new_page(viewport={"width": 360, "height": 740}, locale="en-GB")
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(created["viewer_url"])
    totals = page.locator("tfoot tr").first.locator("td").all_inner_texts()
    assert totals == ["65", "55"]
    assert page.evaluate("typeof window.htmx") == "object"  # the pinned htmx is served from static/
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    assert problems == []
    page.close()
