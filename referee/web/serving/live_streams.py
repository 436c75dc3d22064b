"""Server-sent events: one watcher per process tells every open stream of a table or tournament that it changed.

A live screen (the viewer, the big screen, the tournament's wall and phones, the director's page) opens one stream;
an API client may open the contract's (``/api/v1/tables/<id>/stream``, ``/api/v1/tournaments/<id>/stream``). Each
stream waits on its table's or tournament's ``Topic`` (a Condition); nothing in a stream asks the database while it
waits. The process's ``Watcher``, a daemon thread started with the first stream (``threading`` only: real threads
under the Flask dev server, gthread or waitress, greenlets under gevent's patching), reads every streamed table's row
(``Ledger.watched``, through the tables' memo ``watch.py``, so the polls share the read) and every streamed
tournament's revision every ``LIVE_REFRESH_SECONDS`` (0.25 s: four reads a second, whatever the number of streams)
and wakes the topics whose value changed. A write through this process to a table or tournament one of its streams
watches wakes the watcher at once (``Watcher.written``: a read more, as a poll's ``forget`` costs one; a write
nobody here streams costs none); a write through another process or machine is seen at its next read (the signal
goes through the database), or at once where the deployment has a bus (``bus.py``: Redis, ``BUS_URL``), whose
message wakes the watcher as a write of its own does.

A tournament's or a club's pages (the wall, the standings, the director's round, a club's wall) show every one
of their tables: at an evening's pace (a hundred entries a second at 150 tables) each of their changes would redraw
them, in every process, a hundred times a second. The watcher tells their topics of a change at most once every
``LIVE_REDRAW_SECONDS`` (1 s): the first change after a quiet second at once, the ones that follow within it together
at its end (``Watcher.gathered``). A table's own pages (its viewer, its big screen) are told of each change at once.

``LIVE_STREAMS`` bounds the streams one process holds at once (each holds a thread on a threaded server): beyond it a
page's stream answers 204 (the page polls instead) and the API's 503 with ``Retry-After``.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from typing import Callable, Iterator

from flask import Flask, Response, current_app, jsonify, request
from flask.globals import request_ctx

from referee.web.serving.bus import Bus
from referee.web.serving.compression import accepts_gzip
from referee.web.serving.stream_gzip import gzipped
from referee.web.services import club_watch, clubs, standings_watch, tournaments, watch

ALIVE_SECONDS = 5.0  # a page's stream says "alive" this often (static/live.js: healthy while one came in 7 s)
COMMENT_SECONDS = 10.0  # an API stream's comment line (the contract: at least every 15 s)
DEFAULT_STREAMS = 16  # per process on a threaded server: each stream holds one of its threads
REDRAW_SECONDS = 1.0  # a tournament's or club's pages told of a change at most this often (LIVE_REDRAW_SECONDS)
GATHERED = ("tournament", "club")  # the topics whose changes are gathered (every table of theirs changes them)
RETRY_MS = 2000  # the browser's own reconnection delay, told in the stream
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}  # no cache, no proxy buffering

log = logging.getLogger(__name__)


class Topic:
    """A table's or tournament's streams: ``seq`` grows at each change the watcher saw; ``changed`` wakes them."""

    def __init__(self):
        self.changed = threading.Condition()
        self.seq = 0
        self.streams = 0
        self.closed = False  # the process is stopping: its streams end (the browsers and clients come back)

    def notify(self) -> None:
        with self.changed:
            self.seq += 1
            self.changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """Until ``seq`` moves past ``seen`` or ``timeout`` seconds pass; the ``seq`` then."""
        with self.changed:
            self.changed.wait_for(lambda: self.seq != seen, timeout)
            return self.seq


class Watcher:
    """The process's one watcher: topics (("table", id) or ("tournament", id)) -> Topic, and the thread that reads."""

    def __init__(self, app: Flask, refresh_seconds: float, bus: Bus | None = None,
                 redraw_seconds: float = REDRAW_SECONDS):
        self.app = app
        self.refresh_seconds = refresh_seconds
        self.redraw_seconds = redraw_seconds  # GATHERED topics: told at most this often
        self.bus = bus  # the other servers' writes, when the deployment has one (bus.py)
        self.reads = 0  # read rounds, for the tests and the benches
        self._start(None)

    def _start(self, pid: int | None) -> None:
        """Fresh state (at first, and in a forked child: the parent's thread and locks do not cross a fork)."""
        self._pid = pid
        self._topics: dict[tuple, Topic] = {}
        self._values: dict[tuple, object] = {}  # topic -> what its streams were last told of
        self._told: dict[tuple, float] = {}  # a GATHERED topic -> when its streams were last told of a change
        self._due: float | None = None  # the earliest moment a gathered change is to be told
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.open = 0  # streams held now

    def _own(self) -> None:
        if self._pid != os.getpid():
            self._start(os.getpid())

    # --- streams -----------------------------------------------------------------------------------------------
    def take(self) -> bool:
        """A stream more, when this process holds fewer than ``LIVE_STREAMS``."""
        self._own()
        with self._lock:
            if self.open >= self.app.config["LIVE_STREAMS"]:
                return False
            self.open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)

    def join(self, topic: tuple, value: object) -> Topic:
        """The topic's streams are one more; ``value`` is what the stream just read (the watcher compares with it)."""
        self._own()
        with self._lock:
            idle = not self._topics  # the thread waits for a first stream: wake it (else its next tick comes)
            kept = self._topics.get(topic)
            if kept is None:
                kept = self._topics[topic] = Topic()
                self._values[topic] = value
            kept.streams += 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="referee-watcher", daemon=True)
                self._thread.start()
        if self.bus is not None:
            self.bus.listen(self.told)  # another server's write wakes this watcher as this process's own does
        if idle:
            self._wake.set()
        return kept

    def leave(self, topic: tuple) -> None:
        with self._lock:
            kept = self._topics.get(topic)
            if kept is not None:
                kept.streams -= 1
                if kept.streams <= 0:
                    del self._topics[topic]
                    self._values.pop(topic, None)
                    self._told.pop(topic, None)

    def close(self) -> None:
        """Ends every stream of this process at once (a server stopping need not wait for their next event)."""
        with self._lock:
            topics = list(self._topics.values())
        for kept in topics:
            kept.closed = True
            kept.notify()

    def value(self, topic: tuple) -> object:
        return self._values.get(topic)

    def written(self, table_id: str | None, tournament_id: str | None, club_id: str | None = None) -> None:
        """A write through this process, to this table, tournament or club: when one of this process's streams
        watches it (a table's write may be a tournament's or a club's: any such stream), the watcher reads now, not at its next tick
        (a write during a read makes one more). A write nobody here streams costs no read."""
        if self._thread is None or self._pid != os.getpid():
            return
        with self._lock:
            watched = (("table", table_id) in self._topics or ("tournament", tournament_id) in self._topics
                       or ("club", club_id) in self._topics
                       or table_id is not None and any(kind in ("tournament", "club") for kind, _ in self._topics))
        if watched:
            self._wake.set()

    def told(self, table_id: str | None, tournament_id: str | None) -> None:
        """Another server wrote (the bus): its table's row is read again, not taken from the tables' memo, and the
        watcher reads now, as after a write through this process."""
        if table_id is not None:
            self.app.extensions["referee.watch"].forget(table_id)
        self.written(table_id, tournament_id)

    # --- the thread --------------------------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._lock:
                watched = list(self._topics)
            if not watched:
                self._wake.wait()  # no stream: nothing to read until one opens (the loop looks again at once)
                self._wake.clear()
                continue
            self._wake.clear()  # a write from now on (during the read too) makes the next read come at once
            started = time.monotonic()
            try:
                with self.app.app_context():
                    self._read(watched)
            except Exception:  # the database away for a moment: the streams wait, the next tick tries again
                log.exception("the live watcher could not read")
            self.reads += 1
            pause = self.refresh_seconds - (time.monotonic() - started)
            if self._due is not None:  # a gathered change to tell by then, whatever the tick
                pause = min(pause, self._due - time.monotonic())
            self._wake.wait(max(0.0, pause))

    def _read(self, watched: list) -> None:
        found = {}
        tables = [ident for kind, ident in watched if kind == "table"]
        if tables:
            rows = watch().read(tables)
            found.update({("table", ident): rows.get(ident) for ident in tables})
        for kind, ident in watched:
            if kind == "tournament":
                found[(kind, ident)] = standings_watch().reread(ident, tournaments().revision)
            elif kind == "club":
                found[(kind, ident)] = club_watch().reread(ident, clubs().revision)
        self._due = None
        for topic, value in found.items():
            with self._lock:
                kept = self._topics.get(topic)
                changed = kept is not None and self._values.get(topic) != value and not self.gathered(topic, value)
                if changed:
                    self._values[topic] = value
            if changed:
                kept.notify()

    def gathered(self, topic: tuple, value: object) -> bool:
        """Whether ``topic``'s change waits (a GATHERED topic told of one less than ``redraw_seconds`` ago: its
        streams are told at the end of that time, of every change made meanwhile); else it is told now. A
        tournament gone (None) is told at once too."""
        if topic[0] not in GATHERED:
            return False
        now = time.monotonic()
        due = self._told.get(topic, float("-inf")) + self.redraw_seconds
        if now < due and value is not None:
            self._due = due if self._due is None else min(self._due, due)
            return True
        self._told[topic] = now
        return False


def watcher() -> Watcher:
    return current_app.extensions["referee.watcher"]


def init_streams(app: Flask) -> None:
    """The process's watcher, the streams' bound, and the one hook that tells the live views of a write through here."""
    app.config.setdefault("LIVE_STREAMS", DEFAULT_STREAMS)
    app.config.setdefault("LIVE_REDRAW_SECONDS", REDRAW_SECONDS)
    bus = app.extensions["referee.bus"] = Bus(app.config.get("BUS_URL"))
    app.extensions["referee.watcher"] = Watcher(app, app.config["LIVE_REFRESH_SECONDS"], bus,
                                                app.config["LIVE_REDRAW_SECONDS"])

    @app.after_request
    def _written(response):
        """A write through this process is seen at once: by its table's polls (the memo's next poll reads the rows
        again, when a viewer here watches that table) and by its streams (``Watcher.written``)."""
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            args = request.view_args or {}
            if args.get("table_id"):
                watch().forget(args["table_id"])
            watcher().written(args.get("table_id"), args.get("tournament_id"), args.get("club_id"))
            if args.get("table_id") or args.get("tournament_id"):
                bus.publish(args.get("table_id"), args.get("tournament_id"))  # every other server's streams too
        return response


# --- the answers ---------------------------------------------------------------------------------------------

def event(name: str, data: str, ident: str | None = None) -> bytes:
    """One server-sent event; ``data`` on as many ``data:`` lines as it has lines."""
    lines = [f"event: {name}"] + ([f"id: {ident}"] if ident is not None else [])
    lines += [f"data: {line}" for line in data.split("\n")]
    return ("\n".join(lines) + "\n\n").encode()


ALIVE = event("alive", "")
COMMENT = b": alive\n\n"


def stream(topic: tuple, value: object, events: Callable[[Topic, object], Iterator[bytes]],
           page: bool = False) -> Response | None:
    """The stream's answer, or None when this process holds ``LIVE_STREAMS`` already. ``events(topic, within)``
    yields what to send, waiting on the topic between changes, and works each event out within ``within`` (the
    request's context, pushed then only: never while it waits, nor across a yield, so that an "alive" costs no push
    and streams iterated in turn by one thread nest nothing); the stream holds its place until the server closes
    it. A ``page``'s stream travels gzipped when the browser takes it (``stream_gzip.py``)."""
    held = watcher()
    if not held.take():
        return None
    kept = held.join(topic, value)
    released = []

    def release():
        if not released:
            released.append(True)
            held.leave(topic)
            held.release()

    context = request_ctx.copy()  # the request's, pushed while an event is worked out (rendered, translated)

    def body():
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            yield from events(kept, context)
        finally:
            release()

    squeezed = page and accepts_gzip()
    response = Response(gzipped(body()) if squeezed else body(), mimetype="text/event-stream", headers=STREAM_HEADERS)
    if page:
        response.vary.add("Accept-Encoding")
    if squeezed:
        response.headers["Content-Encoding"] = "gzip"
    response.call_on_close(release)  # a stream never started (its client gone first) gives its place back too
    return response


def full_for_api() -> Response:
    """503: this process holds as many streams as it may; try again shortly (or poll the state)."""
    response = jsonify(error={"code": "too_many_streams", "message": "This server holds as many live streams as it "
                              "can: try again in a few seconds, or read the state."})
    response.status_code = 503
    response.headers.update({"Retry-After": "5", **STREAM_HEADERS})
    return response


def full_for_page() -> Response:
    """204: the page's live part polls instead (static/live.js lets the poll go on while no event comes)."""
    return Response(status=204, headers=STREAM_HEADERS)


def api_events(read: Callable[[], object], state: Callable[[object], str | None], kept: Topic, within,
               ) -> Iterator[bytes]:
    """The API's stream: ``event: state`` at once and at each change (``state`` gives its data, None ends the
    stream: a renewed key), a comment line every ``COMMENT_SECONDS`` between them (nothing to work out)."""
    sent = None
    while True:
        seen = kept.seq
        with within:
            data = state(read())
        if data is None or kept.closed:
            return
        if data != sent:
            yield event("state", data)
            sent = data
        while kept.wait(seen, COMMENT_SECONDS) == seen:
            yield COMMENT


def page_events(since: str, stamp: Callable[[], str | None], render: Callable[[], tuple], kept: Topic, within,
                ) -> Iterator[bytes]:
    """A page's stream: "alive" at once and every ``ALIVE_SECONDS``; the live part's event whenever what there is
    to show (``stamp``; None ends the stream: a renewed key, a table gone) is not what the page shows (``since``).
    ``render`` gives (its stamp, the event's bytes), rendered once for every stream (``watch.Renders``). Between
    two changes the watcher tells, nothing is worked out: "alive" only."""
    yield ALIVE
    asked = None  # the stamp last rendered for (a fragment may be newer than the rows the watcher read)
    while True:
        seen = kept.seq
        made = None
        with within:
            now = stamp()
            if now is not None and not kept.closed and now != since and now != asked:
                asked = now
                shown, made = render()
        if now is None or kept.closed:
            return
        if made is not None and shown != since:
            yield made
            since = shown
        while kept.wait(seen, ALIVE_SECONDS) == seen:
            yield ALIVE


def since_shown() -> str:
    """The stamp the page shows: the last event's id on a reconnection (``Last-Event-ID``), else ``since``."""
    return request.headers.get("Last-Event-ID") or request.args.get("since", "")
