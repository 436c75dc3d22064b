"""The live streams through Flask's client, on SQLite and PostgreSQL (referee/web/serving/live_streams.py): the contract's API
streams (a state at once, one more at each change made by another process, comment lines, a renewed key ends it),
the pages' streams (alive at once, the fragment when the page's stamp is stale, the rematch's event), the process's
bound (204 for a page, 503 for the API), the watcher's reads counted by the clock and never by the number of streams.
The served app, its two workers and the browser: tests/test_streams_served.py."""
import json
import threading
import time

import pytest

from referee.store import Ledger
from referee.web.serving import live_streams
from referee.web.shared.live import Fragment
from tests.support.api import events, new_table
from tests.support.deals import DEAL_4P, HAND_TO_NS, PAIRS
from tests.support.limits import assert_rate_limited, limited_app
from tests.support.queries import Queries
from tests.support.series import BRISCA_DEAL
from tests.support.burraco import VP_ROWS
from tests.support.streams import patient_streams  # noqa: F401 — the fixture, used by every test
from tests.support.waiting import until


@pytest.fixture
def app(app_on_each_database):
    return app_on_each_database


pytestmark = pytest.mark.usefixtures("patient_streams")


class Stream:
    """A stream read as it comes: its chunks as the server wrote them, cut into events (or comments)."""

    def __init__(self, response):
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        self.response = response
        self.chunks = iter(response.response)
        self.pending = []
        assert next(self.chunks) == f"retry: {live_streams.RETRY_MS}\n\n".encode()

    def next(self) -> dict:
        """The next event: its name, id and data (a comment: name ``:``)."""
        while not self.pending:
            self.pending = [part for part in next(self.chunks).decode().split("\n\n") if part]
        part = self.pending.pop(0)
        if part.startswith(":"):
            return {"event": ":", "data": part[1:].strip()}
        said = {"event": None, "id": None, "data": []}
        for line in part.split("\n"):
            field, _, value = line.partition(": ")
            if field == "data":
                said["data"].append(value)
            else:
                said[field] = value
        said["data"] = "\n".join(said["data"])
        return said

    def ended(self) -> bool:
        try:
            next(self.chunks)
        except StopIteration:
            return True
        return False

    def close(self):
        self.response.close()


def later(seconds: float, action) -> threading.Thread:
    """``action`` run in another thread after ``seconds`` (the stream blocks this one while it waits): time is the
    subject, the change comes while the stream waits as a rule; sooner (a loaded machine), the same events come."""
    def run():
        time.sleep(seconds)
        action()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def other_process(app) -> Ledger:
    """The same database through a ledger of its own: a write never passes through the app's process."""
    return Ledger(app.config["DATABASE_URL"])


def test_the_api_stream_says_the_state_at_once_then_a_change_made_by_another_process(app):
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    response = client.get(f"/api/v1/tables/{table_id}/stream", headers={"Authorization": f"Bearer {viewer}",
                                                                        "Accept-Encoding": "gzip"}, buffered=False)
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store" and response.headers["X-Accel-Buffering"] == "no"
    assert "Content-Encoding" not in response.headers
    stream = Stream(response)
    first = stream.next()
    assert first["event"] == "state" and json.loads(first["data"]) == {"version": 0, "revision": 0}
    other = other_process(app)
    later(0.3, lambda: other.append(table_id, {"type": "deal", "trump": "11E"}))
    change = stream.next()  # the watcher's next read: before the minute's comment line
    assert change["event"] == "state" and json.loads(change["data"]) == {"version": 1, "revision": 1}
    stream.close()
    other.engine.dispose()
    assert app.extensions["referee.watcher"].open == 0


def test_the_api_stream_sends_a_comment_line_between_changes(app, monkeypatch):
    monkeypatch.setattr(live_streams, "COMMENT_SECONDS", 0.2)
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    stream = Stream(client.get(f"/api/v1/tables/{table_id}/stream?key={scorer}", buffered=False))
    assert stream.next()["event"] == "state"
    assert [stream.next() for _ in range(2)] == [{"event": ":", "data": "alive"}] * 2
    stream.close()


def test_a_renewed_key_ends_its_stream_and_the_next_try_is_401(app):
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    api_stream = Stream(client.get(f"/api/v1/tables/{table_id}/stream?key={viewer}", buffered=False))
    page_stream = Stream(client.get(f"/t/{table_id}/stream?key={viewer}&since=0", buffered=False))
    assert api_stream.next()["event"] == "state" and page_stream.next()["event"] == "alive"
    other = other_process(app)
    later(0.2, lambda: other.new_key(table_id, "viewer"))
    assert api_stream.ended() and page_stream.ended()  # at the watcher's next read, not the minute's alive line
    refused = client.get(f"/api/v1/tables/{table_id}/stream?key={viewer}")
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "bad_key"
    assert client.get(f"/t/{table_id}/stream?key={viewer}").status_code == 401
    assert client.get(f"/t/{table_id}/live?key={viewer}", headers={"HX-Request": "true"}).status_code == 286
    assert client.get(f"/api/v1/tables/nosuchtable/stream?key={viewer}").status_code == 404
    other.engine.dispose()


def test_a_process_that_stops_ends_its_streams_at_once(app):
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    streams = [Stream(client.get(f"/api/v1/tables/{table_id}/stream?key={viewer}", buffered=False)),
               Stream(client.get(f"/t/{table_id}/stream?key={viewer}&since=0", buffered=False))]
    assert [s.next()["event"] for s in streams] == ["state", "alive"]
    later(0.2, app.extensions["referee.watcher"].close)
    assert all(s.ended() for s in streams)  # at once: no alive line (a minute apart) comes first


def test_a_page_stream_says_alive_sends_what_the_page_lacks_at_once_then_each_change(app):
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    events(client, table_id, scorer, {"type": "deal", "trump": "11E"})
    stale = Stream(client.get(f"/t/{table_id}/stream?key={viewer}&since=0", buffered=False))
    assert stale.next() == {"event": "alive", "id": None, "data": ""}
    caught_up = stale.next()  # the page shows revision 0: the board at 1, at once
    assert caught_up["event"] == "live" and caught_up["id"] == "1"
    assert caught_up["data"].startswith('<div id="live"') and "since=1" in caught_up["data"]
    polled = client.get(f"/t/{table_id}/live?key={viewer}&since=0")  # the poll's fragment: the same bytes
    assert polled.get_data(as_text=True) == caught_up["data"]
    stale.close()
    current = Stream(client.get(f"/t/{table_id}/stream?key={viewer}&since=1&view=screen", buffered=False))
    assert current.next()["event"] == "alive"
    other = other_process(app)
    later(0.3, lambda: other.append(table_id, {"type": "trick", "cards": DEAL_4P[0][0]}))
    change = current.next()
    assert change["event"] == "live" and change["id"] == "2" and 'class="screen"' in change["data"]
    current.close()
    reconnected = Stream(client.get(f"/t/{table_id}/stream?key={viewer}&since=0",
                                    headers={"Last-Event-ID": "2"}, buffered=False))  # the browser's own retry
    assert reconnected.next()["event"] == "alive"
    other.append(table_id, {"type": "trick", "cards": DEAL_4P[1][0]})
    assert reconnected.next()["id"] == "3"  # nothing sent for 0: the last event it had was 2
    reconnected.close()
    other.engine.dispose()


def test_a_viewers_stream_tells_of_the_rematch_with_its_link(app):
    client = app.test_client()
    made = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}).get_json()
    table_id, scorer, viewer = made["id"], made["scorer_key"], made["viewer_key"]
    for body in BRISCA_DEAL * 3:  # three deals won: the series is over (R-BRISCA-6)
        events(client, table_id, scorer, body)
    seen = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()["revision"]
    screen = Stream(client.get(f"/t/{table_id}/stream?key={viewer}&since={seen}&view=screen", buffered=False))
    assert screen.next()["event"] == "alive"
    rematch = {"Authorization": f"Bearer {scorer}"}
    later(0.2, lambda: client.post(f"/api/v1/tables/{table_id}/rematch", headers=rematch))
    board = screen.next()
    assert board["event"] == "live" and board["id"] == str(seen + 1)  # the rematch moved the old table's revision
    told = screen.next()
    new_id = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()["rematch"]
    assert told["event"] == "referee:rematch" and json.loads(told["data"]) == {
        "url": f"/t/{new_id}/screen?key={viewer}"}
    screen.close()


def test_a_fragment_with_a_rematch_sends_it_as_its_own_event():
    made = Fragment.of(7, b'<div id="live">\n<p>x</p></div>', None,
                       {"HX-Trigger": json.dumps({"referee:rematch": {"url": "/t/new?key=k"}})}, "01O.02O")
    sent = made.sse.decode().split("\n\n")
    assert sent[0] == f'event: live\nid: {made.stamp}\ndata: <div id="live">\ndata: <p>x</p></div>'
    assert sent[1] == 'event: referee:rematch\ndata: {"url": "/t/new?key=k"}' and sent[2:] == [""]
    assert made.sse is made.sse  # made once, sent to every stream


def test_the_watcher_reads_by_the_clock_not_by_the_number_of_streams(app):
    app.config["LIVE_STREAMS"] = 100  # the bound of a gevent server (the default 16 holds threads)
    client = app.test_client()
    tables = [new_table(client) for _ in range(3)]
    queries = Queries(app.extensions["referee.ledger"].engine)
    opened = [client.get(f"/t/{t}/stream?key={v}&since=0", buffered=False) for t, _, v in tables for _ in range(10)]
    opened += [client.get(f"/api/v1/tables/{t}/stream?key={v}", buffered=False) for t, _, v in tables]
    watcher = app.extensions["referee.watcher"]
    assert all(r.status_code == 200 for r in opened) and watcher.open == 33
    queries.selects()
    reads_before, started = watcher.reads, time.monotonic()
    until(lambda: watcher.reads >= reads_before + 4, timeout=60, what="four reads")
    elapsed = time.monotonic() - started  # however long the machine took: never more than a read a quarter second
    reads = [s for s in queries.selects() if s.startswith("SELECT tables.id, tables.revision")]
    assert 2 <= len(reads) <= elapsed / 0.25 + 2  # four a second for 33 streams, and all three tables in each
    # a read under way as the second began or ended is counted on one side of the clock and not the other
    assert all(" IN (" in read for read in reads) and abs(watcher.reads - reads_before - len(reads)) <= 1
    for response in opened:
        response.close()
    assert watcher.open == 0


def test_past_its_bound_a_process_answers_a_page_stream_204_and_an_api_stream_503(app):
    app.config["LIVE_STREAMS"] = 1
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    held = client.get(f"/api/v1/tables/{table_id}/stream?key={viewer}", buffered=False)
    assert held.status_code == 200
    page = client.get(f"/t/{table_id}/stream?key={viewer}")
    assert page.status_code == 204 and page.headers["Cache-Control"] == "no-store"
    api = client.get(f"/api/v1/tables/{table_id}/stream?key={viewer}")
    assert api.status_code == 503 and api.headers["Retry-After"] == "5"
    assert api.get_json()["error"]["code"] == "too_many_streams"
    held.close()
    again = client.get(f"/t/{table_id}/stream?key={viewer}", buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_tournament_streams_its_revision_and_its_live_parts(app):
    client = app.test_client()
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": PAIRS[:4],
                                                    "rounds": [{"movement": "round_robin", "hands": 2}],
                                                    "vp_table": VP_ROWS}).get_json()
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    api_stream = Stream(client.get(f"/api/v1/tournaments/{tid}/stream", headers={"Authorization": f"Bearer {viewer}"},
                                   buffered=False))
    first = json.loads(api_stream.next()["data"])
    assert set(first) == {"revision"}
    wall = Stream(client.get(f"/tournaments/{tid}/stream?key={viewer}&since={first['revision']}&view=screen",
                             headers={"Accept-Language": "en"}, buffered=False))
    assert wall.next()["event"] == "alive"
    seated = client.post(f"/api/v1/tournaments/{tid}/rounds", headers={"Authorization": f"Bearer {director}"})
    table = seated.get_json()["rounds"][0]["tables"][0]
    seen = json.loads(api_stream.next()["data"])["revision"]
    assert seen > first["revision"]
    shown = wall.next()
    assert shown["event"] == "live" and 'class="tournament-wall"' in shown["data"] and shown["id"] == str(seen)
    assert "Round 1:" in shown["data"]  # the round under way, in the page's language
    director_page = Stream(client.get(f"/tournaments/{tid}/stream?key={director}&since={seen}&view=director",
                                      buffered=False))
    assert director_page.next()["event"] == "alive"
    cards = client.get(f"/api/v1/tournaments/{tid}/cards?key={director}").get_json()["cards"]
    card_key = next(c["key"] for c in cards if c["number"] == table["number"])
    other = other_process(app)  # a table's entry through another process moves the tournament's revision
    later(0.2, lambda: other.append(table["table_id"], HAND_TO_NS[0]))
    progressed = director_page.next()
    assert progressed["event"] == "live" and 'class="round-live"' in progressed["data"]
    assert card_key in progressed["data"]  # the table's scorer page, with its card's key
    assert client.get(f"/tournaments/{tid}/stream?key={viewer}&view=director").status_code == 403
    assert client.get(f"/tournaments/{tid}/stream?key=wrong").status_code == 401
    assert client.get(f"/api/v1/tournaments/{tid}/stream?key=wrong").get_json()["error"]["code"] == "bad_key"
    for stream in (api_stream, wall, director_page):
        stream.close()
    other.engine.dispose()


def test_a_stream_with_the_right_key_opens_past_the_guesses_of_others_at_its_address(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_KEY_GUESSES="3 per minute").test_client()
    table_id, scorer, viewer = new_table(client)
    club = {"REMOTE_ADDR": "203.0.113.9"}  # everyone behind the club's one address
    answers = [client.get(f"/api/v1/tables/{table_id}/stream?key=guess{n}", environ_base=club).status_code
               for n in range(5)]  # each a key guess
    assert answers == [401] * 3 + [429] * 2
    assert_rate_limited(client.get(f"/api/v1/tables/{table_id}/stream?key=guess", environ_base=club))
    for path in (f"/api/v1/tables/{table_id}/stream?key={viewer}", f"/t/{table_id}/stream?key={viewer}"):
        opened = client.get(path, environ_base=club, buffered=False)
        assert opened.status_code == 200, path
        opened.close()


def test_a_write_through_this_process_wakes_the_watcher_only_for_a_table_it_streams(app):
    app.config["LIVE_REFRESH_SECONDS"] = 30.0  # no tick in this test's time: every read below is a write's
    watcher = app.extensions["referee.watcher"]
    watcher.refresh_seconds = 30.0
    watcher._own()  # this process's state, made now, and the watcher's wake-up counted from here (no clock)
    watcher._wake = wakes = Wakes()
    client = app.test_client()
    (streamed, scorer, viewer), (other, other_scorer, _) = new_table(client), new_table(client)
    stream = Stream(client.get(f"/api/v1/tables/{streamed}/stream?key={viewer}", buffered=False))
    assert stream.next()["event"] == "state"
    until(lambda: watcher.reads >= 1, timeout=60, what="the first stream's read")
    woken = wakes.sets
    events(client, other, other_scorer, {"type": "deal", "trump": "11E"})  # nobody here streams it: no read
    assert wakes.sets == woken
    reads = watcher.reads
    events(client, streamed, scorer, {"type": "deal", "trump": "11E"})  # its stream: read at once, then told
    assert wakes.sets == woken + 1
    said = stream.next()
    assert said["event"] == "state" and json.loads(said["data"])["version"] == 1
    until(lambda: watcher.reads > reads, timeout=60, what="the read the write asked")
    stream.close()


class Wakes(threading.Event):
    """The watcher's wake-up, counting the times it was set: a write that wakes the watcher is seen as it is made,
    not by how soon the watcher's thread reads after it."""

    def __init__(self):
        super().__init__()
        self.sets = 0

    def set(self):
        self.sets += 1
        super().set()
