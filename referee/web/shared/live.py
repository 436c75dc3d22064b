"""What every live view shares (a table's viewer and big screen, a tournament's standings, walls and director's
round, a club's wall): the fragment a change is drawn into, once per revision for every viewer (``Fragment``,
``Renders``, ``stamp``; made of parts when a stream sends only the rows it has not sent yet: ``Row``, ``unsent``),
the poll's refusal of a key that opens nothing (``poll_guard``), and the keyed live views of a tournament and a club,
whose memo (``KeyedWatch``: the revision read at most ``LIVE_REFRESH_SECONDS`` ago, the keys seen, the fragments)
answers their polls (``keyed_poll``) and their pages' streams (``keyed_stream``) alike.

A keyed live view is a thing with an id and keys (a tournament, a club: the store that says its revision and
authorizes its keys) whose live part a page polls (``…/live?since=<revision>``) or streams (``…/stream``): the
process's watcher (``serving/live_streams.py``) reads its revision while a stream is open, a poll when the last read
is older than ``LIVE_REFRESH_SECONDS``; an unchanged one is answered without rendering anything.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, NamedTuple

from flask import Response, current_app, request

from referee.errors import NotFound, Unauthorized
from referee.web.serving.compression import MIN_BYTES, accepts_gzip, gzip_bytes
from referee.web.serving.limits import key_failed
from referee.web.serving.live_streams import event, full_for_page, page_events, since_shown, stream, watcher
from referee.web.services import is_htmx
from referee.web.shared.requests import number

REFRESH_SECONDS = 0.25  # a live view's revision, read at most this long ago (LIVE_REFRESH_SECONDS)
FORGET_SECONDS = 60.0  # a table no viewer asked about, a key's role: forgotten after this long
MAX_FRAGMENTS = 256  # a keyed live view's fragments kept per process


def stamp(revision: int, draft: str | None) -> str:
    """What a live view has seen (its poll's ``since``): the revision, and the trick under way when there is one
    (its cards, hashed short: a tap changes the stamp, never the revision)."""
    if not draft:
        return str(revision)
    return f"{revision}-{hashlib.blake2b(draft.encode(), digest_size=5).hexdigest()}"


class Row(NamedTuple):
    """A part of a fragment that a stream sends only when its version is not the one it sent last (a director's
    board's table: ``tournaments/board.py``)."""
    ident: str
    version: str
    html: str


@dataclass(frozen=True)
class Fragment:
    revision: int
    body: bytes
    gzipped: bytes | None  # None when too small to gain from it
    etag: str
    headers: tuple = ()  # e.g. the rematch's HX-Trigger
    trick: str | None = None  # the trick under way it shows (a table's live view)
    parts: tuple = ()  # the body as made, when a stream sends it in part: plain pieces (str, always sent) and rows

    @property
    def stamp(self) -> str:
        return stamp(self.revision, self.trick)

    @cached_property
    def sse(self) -> bytes:
        """The fragment as a stream's event ``live`` (its id: the stamp), then its ``HX-Trigger`` events (the
        rematch's link) as events of their own names: made once, sent to every stream."""
        made = event("live", self.body.decode(), self.stamp)
        for name, value in self.headers:
            if name == "HX-Trigger":
                made += b"".join(event(kind, json.dumps(detail)) for kind, detail in json.loads(value).items())
        return made

    def unsent(self, sent: dict) -> str:
        """The body without the rows whose version ``sent`` (row id -> version: a stream's) holds; ``sent``
        updated. A fragment without parts: its whole body."""
        if not self.parts:
            return self.body.decode()
        kept = []
        for part in self.parts:
            if isinstance(part, Row):
                if sent.get(part.ident) == part.version:
                    continue
                sent[part.ident] = part.version
                part = part.html
            kept.append(part)
        return "".join(kept)

    def shows(self, revision: int, trick: str | None) -> bool:
        """Current for a table at ``revision`` with ``trick`` under way: rendered there, or later."""
        return self.revision > revision or self.revision == revision and self.trick == trick

    def response(self):
        """The fragment as an answer: ``304`` when the client holds it (``If-None-Match``), else its body, gzipped
        when the client takes it, with its validator (weak when it travels in two encodings) and headers."""
        weak = self.gzipped is not None
        if request.if_none_match.contains_weak(self.etag):
            response = Response(status=304)
            response.set_etag(self.etag, weak=weak)
            return response
        response = Response(self.body, mimetype="text/html")
        if self.gzipped is not None:
            response.vary.add("Accept-Encoding")
            if accepts_gzip():
                response.set_data(self.gzipped)
                response.headers["Content-Encoding"] = "gzip"
        response.set_etag(self.etag, weak=weak)
        response.headers.extend(self.headers)
        return response

    @staticmethod
    def of(revision: int, body: bytes, gzipped: bytes | None, headers: dict | None = None,
           trick: str | None = None, parts: tuple = ()) -> "Fragment":
        etag = hashlib.blake2b(body, digest_size=12).hexdigest()
        return Fragment(revision, body, gzipped, etag, tuple((headers or {}).items()), trick or None, parts)

    @staticmethod
    def drawn(revision: int, body: bytes, headers: dict | None = None, trick: str | None = None,
              parts: tuple = ()) -> "Fragment":
        """A fragment of ``body`` as a live view draws it: gzipped once when it gains from it (``MIN_BYTES``)."""
        return Fragment.of(revision, body, gzip_bytes(body) if len(body) >= MIN_BYTES else None, headers, trick,
                           parts)

    @staticmethod
    def of_parts(revision: int, parts: tuple) -> "Fragment":
        """A fragment made of ``parts`` (plain pieces and ``Row``s, in the body's order): its body their HTML
        joined, as ``drawn``."""
        return Fragment.drawn(revision, "".join(part.html if isinstance(part, Row) else part for part in parts)
                              .encode(), parts=parts)


class Renders:
    """Fragments rendered once per revision and kept for every viewer (of a table, of a tournament): variant (its
    id first) -> Fragment, at most ``limit`` of them (all dropped when full: they are made again at the next poll)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._kept: dict[tuple, Fragment] = {}
        self._rendering = threading.Lock()

    def get(self, variant: tuple, revision: int, render: Callable[[], Fragment], trick: str | None = None) -> Fragment:
        kept = self._kept.get(variant)
        if kept is not None and kept.shows(revision, trick):
            return kept
        with self._rendering:  # one render per change, whatever the number of viewers asking at once
            kept = self._kept.get(variant)
            if kept is not None and kept.shows(revision, trick):
                return kept
            made = render()
            if len(self._kept) >= self.limit:
                self._kept = {}
            self._kept[variant] = made
            return made

    def keep(self, ids) -> None:
        """Only the fragments of these ids stay."""
        self._kept = {variant: made for variant, made in self._kept.items() if variant[0] in ids}


def refresh_seconds() -> float:
    return current_app.config.get("LIVE_REFRESH_SECONDS", REFRESH_SECONDS)


def poll_guard(opens: Callable[[], object]) -> object:
    """What ``opens`` answers (the key's role, a table's row), or, to a live part's poll whose key opens nothing any
    more (htmx's ``every 1s``), the answer that stops it: a key guess all the same (``serving/limits.py``: past the
    limit, 429), else 286, which htmx reads as "stop polling" (revoked for good). A page (not htmx) is refused as
    ever: the ``Unauthorized`` goes on."""
    try:
        return opens()
    except Unauthorized:
        if not is_htmx():
            raise
        limited = key_failed()
        if limited is not None:
            return limited
        return Response(status=286, headers={"HX-Reswap": "none"})  # htmx stops polling


class KeyedWatch:
    """A keyed live view's memo, made by the factory (one per process and store, like the tables' ``Watch``): id ->
    (revision, read at); (id, key hash) -> role; rendered fragments. ``store_of`` gives the store whose revision
    and keys it asks (the tournaments', the clubs'); ``param`` is the name of its id in an address (a write to one
    forgets its revision: ``told``)."""

    def __init__(self, store_of: Callable, param: str):
        self._store = store_of
        self.param = param
        self.revisions: dict[str, tuple[int, float]] = {}
        self.roles: dict[tuple, tuple[str, float]] = {}
        self.renders = Renders(MAX_FRAGMENTS)
        self.lock = threading.Lock()
        self.reads = 0

    def revision(self, ident: str, refresh: float) -> int:
        kept = self.revisions.get(ident)
        now = time.monotonic()
        if kept and now - kept[1] < refresh:
            return kept[0]
        with self.lock:
            kept = self.revisions.get(ident)
            if kept and time.monotonic() - kept[1] < refresh:
                return kept[0]
            value = self._store().revision(ident)
            self.reads += 1
            self.revisions[ident] = (value, now)
            return value

    def reread(self, ident: str, read) -> int | None:
        """The watcher's read (``serving/live_streams.py``): the revision now (None: no such one), kept for the
        polls."""
        try:
            value = read(ident)
        except NotFound:
            return None
        self.reads += 1
        self.revisions[ident] = (value, time.monotonic())
        return value

    def role(self, ident: str, key: str | None) -> str:
        """The key's role, asked of the store (its ``authorize``) once a minute per key and process (a live view
        only reads): 404, 401 as the store says."""
        hashed = (ident, hashlib.sha256((key or "").encode()).hexdigest())
        kept = self.roles.get(hashed)
        if kept and time.monotonic() - kept[1] < FORGET_SECONDS:
            return kept[0]
        role = self._store().authorize(ident, key)
        if len(self.roles) > 4096:
            self.roles.clear()
        self.roles[hashed] = (role, time.monotonic())
        return role

    def forget(self, ident: str) -> None:
        self.revisions.pop(ident, None)

    def fragment(self, variant: tuple, revision: int, render) -> Fragment:
        return self.renders.get(variant, revision, render)

    def told(self, response):
        """The factory's ``after_request``: a write through this process (a director's post, a club's form, an
        entry at any table: a table's write may be a tournament's or a club's) is seen by the live views' next poll:
        the revision of the one written, or all those kept, is read again."""
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            ident = (request.view_args or {}).get(self.param)
            if ident:
                self.forget(ident)
            else:
                self.revisions.clear()
        return response


def keyed_poll(kept: KeyedWatch, ident: str, fragment_at: Callable[[int], Fragment]) -> Response:
    """A keyed live view's poll (its key checked first): 204 while its revision is ``since``; else the live part at
    the revision read (``fragment_at``: ``kept.fragment``, rendered once per revision for every variant), with an
    ETag (304 while current)."""
    revision = kept.revision(ident, refresh_seconds())
    since = number(request.args.get("since", ""))
    if since is not None and since >= revision:
        return Response(status=204)
    fragment = fragment_at(revision)
    if since is not None and since >= fragment.revision:
        return Response(status=204)
    return fragment.response()


def newest(now: int | None, since: str) -> str | None:
    """A keyed live view's stamp for its stream: the revision its watcher last told (None: gone), or the page's own
    (``since``) when newer: a page drawn after a change its stream's watcher still gathers (``Watcher.gathered``) is
    sent nothing older than itself."""
    if now is None:
        return None
    return str(max(now, int(since))) if since.isdigit() else str(now)


def keyed_stream(kept: KeyedWatch, topic: tuple, variant: tuple, render: Callable[[], Fragment]) -> Response:
    """A keyed live view's page stream (its key checked first; ``topic``: (kind, id), as the watcher reads it): the
    live part whenever the revision is not the one the page shows; past ``LIVE_STREAMS``, 204 (the page polls)."""
    revision = kept.revision(topic[1], refresh_seconds())
    since = since_shown()

    def stamp_now():
        return newest(watcher().value(topic), since)

    def rendered():
        now = watcher().value(topic)
        fragment = kept.fragment(variant, revision if now is None else now, render)
        return fragment.stamp, fragment.sse

    answer = stream(topic, revision, lambda held, within: page_events(since, stamp_now, rendered, held, within),
                    page=True)
    return answer or full_for_page()
