"""A viewer's phone that loses the Wi-Fi keeps the last board it received, says since when it is not live, and
catches up by itself when the network is back (issue 18: viewers)."""
import re

from tests.support.api import api
from tests.support.offline import go_offline
from tests.support.simulate import brisca_deal


def test_a_viewer_offline_keeps_the_last_board_says_since_when_and_catches_up(browser, server):
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo"]})
    deal = brisca_deal(2, 0, 11)
    for body in deal[:3]:
        api(server, f"/api/v1/tables/{table['id']}/events", body, table["scorer_key"])
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.url}/t/{table['id']}?key={table['viewer_key']}&lang=en")
    page.wait_for_selector("#live-status:not(.stale)")
    board = page.locator("#scoreboard").inner_text()
    go_offline(context, page)
    page.wait_for_selector("#live-status.stale", timeout=8000)
    said = page.locator("#live-status .off").inner_text()
    assert re.fullmatch(r"○ not live since \d\d:\d\d: trying again…", said), said
    assert page.locator("#scoreboard").inner_text() == board  # the last board stays
    api(server, f"/api/v1/tables/{table['id']}/events", deal[3], table["scorer_key"])  # a trick meanwhile
    context.set_offline(False)
    page.wait_for_selector("#live-status:not(.stale)", timeout=8000)
    page.wait_for_function("(before) => document.getElementById('scoreboard').innerText !== before", arg=board,
                           timeout=5000)
    state = api(server, f"/api/v1/tables/{table['id']}", key=table["viewer_key"])
    shown = page.locator("#scoreboard").inner_text()
    assert all(str(total) in shown for total in state["totals"])
    context.close()
