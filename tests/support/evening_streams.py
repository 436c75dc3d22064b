"""The evening's followers (tests/support/evening.py): people holding the pages' streams as their browsers do. Each
opens its page (the wall, the viewers' standings, the director's page), takes the stream the page names
(``sse-connect``) and holds it, asked as a browser asks (gzip taken), coming back by itself when it ends
(``Last-Event-ID``, as EventSource does); every
event's revision (``data-revision``) is noted with when it came. A change is seen on a page once its stream shows the
tournament's revision as it was when the change was acknowledged, or a later one."""
from __future__ import annotations

import bisect
import html
import http.client
import re
import threading
import time
import zlib

STREAM = re.compile(r'sse-connect="([^"]+)"')
REVISION = re.compile(rb'data-revision="(\d+)"|[?&;]since=(\d+)')  # the fragment's, or its poll's address
EVENT_ID = re.compile(rb"^id: ?(\S+)", re.M)
HEAD = 4096  # an event's head: its id and its fragment's opening tag (``data-revision``, the poll's ``since``)
BROWSER = {"Accept": "text/html", "Accept-Encoding": "gzip"}  # what a browser asks (its pages and streams gzipped)
# Who follows what, in turn: of every 20 followers one on the director's page (the director and the assistants),
# nine on the wall, ten on the viewers' standings.
TURN = ["director"] + ["wall", "viewers"] * 9 + ["viewers"]


class Follower(threading.Thread):
    def __init__(self, phone, path: str, kind: str):
        super().__init__(daemon=True)
        self.phone, self.path, self.kind = phone, path, kind
        self.moments: list = []
        self.revisions: list = []
        self.connects = 0
        self.refused = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        stream, last_id = None, None
        while not self.stopping.is_set():
            try:
                if stream is None:
                    status, page = self.phone.call("GET", self.path, headers=BROWSER, kind="page")
                    found = STREAM.search(page if isinstance(page, str) else "")
                    if status != 200 or not found:  # no round seated yet on the director's page: looked at again
                        self.refused += 1
                        self.stopping.wait(2)
                        continue
                    stream = html.unescape(found.group(1))
                    self.phone.close()
                    self.note(REVISION.search(stream.encode()))  # what the page shows as it opens
                last_id = self.hold(stream, last_id)
            except (OSError, http.client.HTTPException, RuntimeError):
                pass
            self.stopping.wait(0.3)  # EventSource's pause before it comes back (the stream's retry)

    def hold(self, stream: str, last_id: str | None) -> str | None:
        connection = self.phone.open(timeout=40)
        try:
            connection.request("GET", stream, headers={**BROWSER, "Accept": "text/event-stream",
                                                       **({"Last-Event-ID": last_id} if last_id else {})})
            answer = connection.getresponse()
            if answer.status != 200:  # 204: the server holds as many streams as it may; the page polls instead
                self.refused += 1
                answer.read()
                self.stopping.wait(2)
                return last_id
            self.connects += 1
            pending, scanned = bytearray(), 0  # what came of the event under way; how much of it was searched
            reader = zlib.decompressobj(31) if answer.getheader("Content-Encoding") == "gzip" else None
            while not self.stopping.is_set():
                chunk = answer.read1(1 << 16)  # as it comes, whole events cut out of it (a browser's EventSource)
                if not chunk:
                    return last_id
                pending += reader.decompress(chunk) if reader is not None else chunk
                # Each byte searched once for an event's end, and only an event's head read (its id, the revision
                # its fragment shows): 2,000 followers of a 300-entrant wall in one process, which re-reading each
                # event whole at every chunk kept so busy that the evening's phones beside them waited their turn.
                start, at = 0, pending.find(b"\n\n", max(0, scanned - 1))
                while at >= 0:
                    head = bytes(pending[start:min(at, start + HEAD)])  # "event: live\nid: 123\ndata: <div …"
                    found = EVENT_ID.search(head, 0, 200)
                    if found:
                        last_id = found.group(1).decode()
                    self.note(REVISION.search(head))
                    start = at + 2
                    at = pending.find(b"\n\n", start)
                del pending[:start]
                scanned = len(pending)
            return last_id
        finally:
            connection.close()

    def note(self, found) -> None:
        if found:
            revision = int(next(group for group in found.groups() if group))
            if not self.revisions or revision > self.revisions[-1]:
                self.revisions.append(revision)
                self.moments.append(time.monotonic())

    def saw(self, revision: int) -> float | None:
        """When it first saw ``revision`` or a later one; None if not yet."""
        at = bisect.bisect_left(self.revisions, revision)
        return self.moments[at] if at < len(self.revisions) else None


class Followers:
    """``count`` followers of ``evening``'s pages, shared as ``TURN`` says; ``phone(n)`` gives the n-th its
    connection (its address)."""

    def __init__(self, phone, evening, count: int, spread: float = 0.0):
        self.count, self.spread = count, spread
        paths = {"wall": f"/tournaments/{evening.id}/screen?key={evening.viewer_key}",
                 "viewers": f"/tournaments/{evening.id}/standings?key={evening.viewer_key}",
                 "director": f"/tournaments/{evening.id}?key={evening.director_key}"}
        self.all = [Follower(phone(n), paths[TURN[n % len(TURN)]], TURN[n % len(TURN)]) for n in range(count)]

    def start(self) -> "Followers":
        for n, follower in enumerate(self.all):
            follower.start()
            if self.spread and n % 100 == 99:
                time.sleep(self.spread)  # people arriving, not all in the same instant
        return self

    def opened(self) -> int:
        return sum(1 for f in self.all if f.revisions)

    def behind(self, revision: int) -> list:
        return [f.path for f in self.all if not f.revisions or f.revisions[-1] < revision]

    def lags(self, changes: list, kind: str, most: int = 400) -> tuple:
        """(lags in seconds, changes never seen) on the ``kind`` pages: from each change's sending to its stream
        showing it (at most ``most`` changes, evenly taken)."""
        followers = [f for f in self.all if f.kind == kind]
        return seen_lags((sent, revision, followers) for sent, revision in changes[::max(1, len(changes) // most)])

    def stop(self) -> None:
        for follower in self.all:
            follower.stopping.set()


def seen_lags(changes) -> tuple:
    """(lags in seconds, changes never seen) of ``(sent, revision, followers)``: from each change's sending to each
    of its followers' streams showing its revision."""
    lags, missed = [], 0
    for sent, revision, followers in changes:
        for follower in followers:
            at = follower.saw(revision)
            if at is None:
                missed += 1
            else:
                lags.append(max(0.0, at - sent))
    return lags, missed
