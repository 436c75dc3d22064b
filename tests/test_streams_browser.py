"""The pages' streams in Debian's Chromium, on a served app: a viewer whose stream works makes no poll while it is
healthy and shows each change; a page whose stream is refused (``LIVE_STREAMS=0``: 204) polls and still shows the
change (SQLite and PostgreSQL), and so does one whose stream a proxy holds back; a renewed key ends the page's
stream, its poll is answered 286 and nothing asks again; the tournament's wall, its phones and the director's page
follow a table's entries. Screenshots of the viewer and the wall at 360×740 and 1280×720:
tests/artifacts/stream-*.png."""
import os
import time

import pytest

from referee.store import Ledger
from tests.support.api import api
from tests.support.browser import NETWORK_CUT, PHONE, PUSHED, REFUSED, artifact, shot
from tests.support.deals import DEAL_4P, HAND_TO_NS, PAIRS
from tests.support.env import need
from tests.support.server import Server
from tests.support.burraco import VP_ROWS

WIDE = {"width": 1280, "height": 720}


class Watched:
    """A page in a context of its own, its requests to the live poll and to the stream noted, its console errors
    collected."""

    def __init__(self, browser, viewport=PHONE):
        self.context = browser.new_context(viewport=viewport, locale="en-GB")
        self.page = self.context.new_page()
        self.polls, self.streams, self.problems = [], [], []
        self.page.on("request", self.seen)
        self.page.on("console", lambda m: self.problems.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))

    def seen(self, request):
        if "/live?" in request.url:
            self.polls.append(request.url)
        elif "/stream?" in request.url:
            self.streams.append(request.url)

    def board(self) -> str:
        return self.page.locator("#live").inner_text()

    def changed(self, before: str, timeout: float = 30000) -> None:
        self.page.wait_for_function("(before) => document.getElementById('live').innerText !== before", arg=before,
                                    timeout=timeout)


def brisca_table(server) -> dict:
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]})
    api(server, f"/api/v1/tables/{table['id']}/events", {"type": "deal", "trump": "11E"}, table["scorer_key"])
    return table


def trick(server, table: dict, number: int) -> None:
    api(server, f"/api/v1/tables/{table['id']}/events", {"type": "trick", "cards": DEAL_4P[number][0]},
        table["scorer_key"])


def test_a_viewer_whose_stream_works_makes_no_poll_and_shows_each_change(browser, server_module):
    table = brisca_table(server_module)
    viewer = Watched(browser)
    viewer.page.goto(f"{server_module.url}/t/{table['id']}?key={table['viewer_key']}&lang=en")
    viewer.page.wait_for_function(PUSHED, timeout=10000)
    viewer.polls.clear()
    for number in range(2):
        before = viewer.board()
        trick(server_module, table, number)
        viewer.changed(before)
    time.sleep(1.5)  # time is the subject: a poll (every second) or two would have gone by now
    assert viewer.polls == [] and len(viewer.streams) == 1
    state = api(server_module, f"/api/v1/tables/{table['id']}", key=table["viewer_key"])
    assert all(str(total) in viewer.page.locator("#scoreboard").inner_text() for total in state["totals"])
    assert viewer.page.locator("#live-status.stale").count() == 0
    shot(viewer.page, "stream-viewer-360")
    viewer.page.set_viewport_size(WIDE)
    shot(viewer.page, "stream-viewer-1280")
    assert viewer.problems == []
    viewer.context.close()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_page_whose_stream_is_refused_polls_and_still_shows_the_change(browser, tmp_path, database):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    url = None
    if database == "postgresql":
        url = os.environ.get("TEST_DATABASE_URL")
        need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
        emptied = Ledger(url)
        emptied.drop_all()
        emptied.engine.dispose()
    server = Server(tmp_path / "refused.sqlite3", url, FLASK_LIVE_STREAMS="0").start()  # every stream: 204
    try:
        table = brisca_table(server)
        viewer = Watched(browser)
        viewer.page.goto(f"{server.url}/t/{table['id']}?key={table['viewer_key']}&lang=en")
        with viewer.page.expect_response(lambda r: "/live?" in r.url):  # polling by itself
            pass
        before = viewer.board()
        trick(server, table, 0)
        viewer.changed(before)
        assert viewer.page.evaluate("document.documentElement.getAttribute('data-live')") == "polled"
        assert viewer.streams and viewer.polls
        assert viewer.page.locator("#live-status.stale").count() == 0
        viewer.context.close()
    finally:
        server.kill()


def test_a_stream_held_back_by_a_buffering_proxy_leaves_the_poll_on(browser, server_module):
    table = brisca_table(server_module)
    viewer = Watched(browser)
    held = []
    # never answered: a proxy that buffers the whole stream
    viewer.page.route("**/stream?**", lambda route: held.append(route))
    viewer.page.goto(f"{server_module.url}/t/{table['id']}?key={table['viewer_key']}&lang=en")
    with viewer.page.expect_response(lambda r: "/live?" in r.url):
        pass
    before = viewer.board()
    trick(server_module, table, 0)
    viewer.changed(before)
    assert held and viewer.page.evaluate("document.documentElement.getAttribute('data-live')") == "polled"
    assert viewer.page.locator("#live-status.stale").count() == 0
    viewer.context.close()


def test_a_renewed_key_ends_the_page_stream_and_its_poll_stops_for_good(browser, server_module):
    browser.allow(*NETWORK_CUT, *REFUSED)  # the network cut or a refusal provoked on purpose
    table = brisca_table(server_module)
    viewer = Watched(browser)
    viewer.page.goto(f"{server_module.url}/t/{table['id']}?key={table['viewer_key']}&lang=en")
    viewer.page.wait_for_function(PUSHED, timeout=10000)
    other = Ledger(server_module.env["DATABASE_URL"])  # the scorer renews the viewers' key
    other.new_key(table["id"], "viewer")
    other.engine.dispose()
    with viewer.page.expect_response(lambda r: "/live?" in r.url and r.status == 286, timeout=20000):
        pass  # the stream ended; the page's poll came back once no event came, and was told to stop
    assert viewer.page.locator(".live-stream[sse-connect]").count() == 0  # nothing opens the stream again
    asked = (len(viewer.polls), len(viewer.streams))
    time.sleep(3)  # time is the subject: a poll (every second) or a stream's retry (2 s) would have asked by now
    assert (len(viewer.polls), len(viewer.streams)) == asked
    viewer.context.close()


def test_the_wall_the_phones_and_the_director_follow_a_tables_entries(browser, server_module):
    made = api(server_module, "/api/v1/tournaments", {"game": "buraco", "name": "Club", "entrants": PAIRS[:4],
                                                      "rounds": [{"movement": "round_robin", "hands": 2}] * 3,
                                                      "vp_table": VP_ROWS})
    tid, director, viewer_key = made["id"], made["director_key"], made["viewer_key"]
    seated = api(server_module, f"/api/v1/tournaments/{tid}/rounds", {}, director)["rounds"][0]["tables"][0]
    cards = api(server_module, f"/api/v1/tournaments/{tid}/cards", key=director)["cards"]
    card_key = next(c["key"] for c in cards if c["number"] == seated["number"])
    wall, phone, desk = Watched(browser, WIDE), Watched(browser), Watched(browser)
    wall.page.goto(f"{server_module.url}/tournaments/{tid}/screen?key={viewer_key}&lang=en")
    phone.page.goto(f"{server_module.url}/tournaments/{tid}/standings?key={viewer_key}&lang=en")
    desk.page.goto(f"{server_module.url}/tournaments/{tid}?key={director}&lang=en")
    for watched in (wall, phone, desk):
        watched.page.wait_for_function(PUSHED, timeout=10000)
        watched.polls.clear()
    assert "nothing entered yet" in desk.page.locator("#tables").inner_text()  # the board's rows, out of #live
    before = {name: watched.board() for name, watched in (("wall", wall), ("phone", phone), ("desk", desk))}
    for body in HAND_TO_NS * 2:  # two hands of two: the table is finished
        api(server_module, f"/api/v1/tables/{seated['table_id']}/events", body, card_key)
    for name, watched in (("wall", wall), ("phone", phone), ("desk", desk)):
        watched.changed(before[name])
    wall.page.wait_for_function("() => document.querySelector('.wall-table tbody tr .vp').textContent.trim() !== '0'",
                                timeout=30000)
    desk.page.wait_for_function("() => document.querySelector('.table-progress.finished') !== null", timeout=30000)
    assert "Finished" in desk.page.locator("#tables").inner_text()
    assert wall.polls == phone.polls == desk.polls == []
    wall.page.screenshot(path=str(artifact("stream-wall-1280")))  # the whole screen and never more
    wall.page.set_viewport_size(PHONE)
    shot(wall.page, "stream-wall-360")
    shot(phone.page, "stream-standings-360")
    shot(desk.page, "stream-director-360")
    assert wall.problems == phone.problems == desk.problems == []
    for watched in (wall, phone, desk):
        watched.context.close()
