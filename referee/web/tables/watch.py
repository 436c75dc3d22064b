"""What the live views (the viewer page, the big screen) are told at each change, answered from memory.

A room of viewers watches each table: each page holds a stream of server-sent events (``serving/live_streams.py``), or,
where the stream cannot be held (a proxy buffering it, the process holding its most), polls once a second; most
polls find the board unchanged. Each process keeps:

- the watched tables' rows (revision and keys), read for all of them at once by one query (``Ledger.watched``): by
  the process's watcher every ``LIVE_REFRESH_SECONDS`` (0.25 s) while a stream is open (``read``), and by a poll when
  the last read is older than that: whatever the number of viewers, a process asks the database at most four times
  a second, and an unchanged board is answered without asking it at all;
- each table's live fragment as last rendered, per view, language and key (the fragment's links carry the key), with
  its gzip-compressed bytes, its validator and its server-sent event: a change is rendered once per revision and
  trick under way (a card tapped moves no revision, yet the viewers see it: ``stamp``) and process, then sent to
  every stream and served to every poll from memory.

Nothing here is trusted across processes: a change made through another worker reaches this one's viewers at the
next read of the rows (at most ``LIVE_REFRESH_SECONDS`` later); a change made through this process is seen at once
(``forget``, and the watcher's ``written``: ``live_streams.init_streams``). A table no viewer asked about for
``FORGET_SECONDS`` leaves the memo, with its fragments.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

from referee.store import cards_of, draft_text, table_role
from referee.web.shared.live import FORGET_SECONDS, REFRESH_SECONDS, Fragment, Renders, stamp

MAX_RENDERS = 512  # fragments kept per process (a table has at most 2 views × 2 languages × 3 keys)


@dataclass(frozen=True)
class WatchedRow:
    revision: int
    viewer_key: str
    scorer_hash: str
    coscorer_hash: str | None
    draft: str | None = None  # the trick under way as stored, and the revision it belongs to
    draft_revision: int | None = None
    director_hash: str | None = None  # the director's of the table's tournament (R-COMMON-8), None for a free table

    @property
    def trick(self) -> str | None:
        """The trick under way (card codes joined by "."), when it belongs to this revision (as the ledger reads it)."""
        return draft_text(cards_of(self.draft, self.draft_revision, self.revision))

    @property
    def stamp(self) -> str:
        return stamp(self.revision, self.trick)

    def opens(self, key: str | None) -> bool:
        """The key opens this table (any of its keys: a live view only reads), as ``Ledger.authorize`` says."""
        return bool(key) and table_role(key, self.scorer_hash, self.coscorer_hash, self.viewer_key,
                                          self.director_hash) is not None


class Watch:
    def __init__(self, ledger, refresh_seconds: float = REFRESH_SECONDS):
        self.ledger = ledger
        self.refresh_seconds = refresh_seconds
        self._rows: dict[str, WatchedRow] = {}
        self._asked: dict[str, float] = {}  # table id -> when a viewer last asked
        self._read_at = float("-inf")  # when the rows were read (monotonic)
        self._reading = threading.Lock()
        self._renders = Renders(MAX_RENDERS)
        self.reads = 0  # rows read from the database, for the tests and the benches

    def row(self, table_id: str) -> WatchedRow | None:
        """The table's row as read at most ``refresh_seconds`` ago; None when there is no such table."""
        now = time.monotonic()
        self._asked[table_id] = now
        row = self._rows.get(table_id)
        if row is not None and now - self._read_at < self.refresh_seconds:
            return row
        with self._reading:  # one reader at a time; the others find its rows fresh
            row = self._rows.get(table_id)
            if row is not None and time.monotonic() - self._read_at < self.refresh_seconds:
                return row
            return self._read(table_id)

    def read(self, table_ids) -> dict[str, WatchedRow]:
        """The watcher's read (``serving/live_streams.py``): these tables' rows, with every polled one's, now."""
        now = time.monotonic()
        for table_id in table_ids:
            self._asked[table_id] = now
        with self._reading:
            self._read(None)
        return self._rows

    def kept(self, table_id: str) -> WatchedRow | None:
        """The row as the last read found it (a stream's: the watcher keeps it fresh), read when there is none."""
        row = self._rows.get(table_id)
        return row if row is not None else self.row(table_id)

    def _read(self, table_id: str | None) -> WatchedRow | None:
        started = time.monotonic()
        asked = dict(self._asked)
        for gone in [name for name, at in asked.items() if started - at > FORGET_SECONDS]:
            del asked[gone]
            self._asked.pop(gone, None)
        if table_id is not None:
            asked[table_id] = started
        rows = {name: WatchedRow(*values) for name, values in self.ledger.watched(asked).items()}
        self.reads += 1
        for missing in asked.keys() - rows.keys():  # no such table (any more): not watched
            self._asked.pop(missing, None)
        self._renders.keep(rows)
        self._rows, self._read_at = rows, started  # taken as read when the query began: never younger than it is
        return rows.get(table_id) if table_id is not None else None

    def forget(self, table_id: str | None = None) -> None:
        """A write in this process: its viewers' next poll reads the rows again (its streams: ``Watcher.written``)."""
        if table_id is None or table_id in self._rows:
            self._read_at = float("-inf")

    def fragment(self, variant: tuple, row: WatchedRow, render: Callable[[], Fragment]) -> Fragment:
        """The fragment of ``variant`` (table id first) at ``row``'s revision and trick under way, or later,
        rendered once for every viewer."""
        return self._renders.get(variant, row.revision, render, row.trick)

    def revision_fragment(self, variant: tuple, revision: int, render: Callable[[], Fragment]) -> Fragment:
        """The same for what changes with the revision only (the API stream's data: a card tapped is no change)."""
        return self._renders.get(variant, revision, render)
