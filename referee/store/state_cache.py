"""The replayed states one process keeps, bounded in bytes, the least recently used dropped first.

- One state per table: the newest revision this process has seen. A write reads the state before it and puts the
  state after it in its place; a state arriving late (an older revision) never replaces a newer one.
- Successive states share their finished deals: ``Game.apply`` (``referee/games/base.py``) copies a table's own
  fields and its last deal, then steps the copy, so a write costs the open deal, not the whole log, and a state
  someone holds never changes. The engines change only the last deal (``Table.current``); ``tests/test_memory.py``
  checks it for every game.
- A state's bytes are counted by walking it (a finished deal once, when first seen); a write's state is counted
  after its answer is sent (``put(later=True)``, ``settle``: the web app's ``after_request`` asks it once the
  answer is out), at its predecessor's bytes until then; and walked only at its deal's start and every
  ``MEASURED_EVERY``-th write of a deal, counted in between at its predecessor's bytes and a write's growth. A state
  bigger than the whole budget is not kept: it is replayed from the log when asked, and memory stays bounded
  whatever the log's length.
- ``REFEREE_CACHE_MB`` sets the budget (``DEFAULT_MB`` when unset; 0 keeps nothing, every read replays).
- Beside each state, a checkpoint: the state at the start of its open deal (after the first ``checkpoint.version``
  events in force at that revision). Undo replays only the events after it, not the whole log; an undo that
  crosses the deal's start finds none and replays (``Game.replay_from`` makes one again). Kept under the same
  revision as its state, it is right in every process whatever the others write.
- A finished deal keeps its serialised documents (``referee/games/base.py``): counted with it once they are made.
"""
from __future__ import annotations

import gc
import os
import sys
import threading
from collections import OrderedDict
from types import BuiltinFunctionType, FunctionType, ModuleType

from referee.cards import Card
from referee.games.base import DOCS

CHECKPOINT = "checkpoint"  # its bytes' key among a state's deal sizes
# A write's state is walked at its deal's start and at every MEASURED_EVERY-th write of the deal; in between it is
# counted at its predecessor's bytes plus what a write of this deal added when last walked, so that the walk, an
# entry's largest step after the database's (the more so as the log grows), is paid once in eight entries.
MEASURED_EVERY = 8
DEFAULT_MB = 64  # a small machine's share: some 120 tables of an evening (300 entries each), or 5,000 new ones
# Not a state's own: classes and functions, and cards (each is its deck's, shared by every state: Deck.parse answers
# the deck's own card, a copy shares it), which are half the objects of an open deal.
_NOT_COUNTED = (type, ModuleType, FunctionType, BuiltinFunctionType, Card)
_SKIPPED = frozenset({type, Card, ModuleType, FunctionType, BuiltinFunctionType})  # the usual ones, by their type
_LEAVES = frozenset({str, int, float, bool, bytes, type(None)})  # nothing inside them to walk


def budget_from_env() -> int:
    """``REFEREE_CACHE_MB`` in bytes."""
    raw = os.environ.get("REFEREE_CACHE_MB", "").strip()
    try:
        megabytes = float(raw) if raw else DEFAULT_MB
    except ValueError:
        raise ValueError(f"REFEREE_CACHE_MB must be a number of megabytes, not {raw!r}") from None
    if not megabytes >= 0:
        raise ValueError(f"REFEREE_CACHE_MB must be 0 or more, not {raw!r}")
    return int(megabytes * 1024 * 1024)


def checkpoint_after(before, after, checkpoint):
    """The checkpoint to keep with ``after`` (made from ``before`` by one event): ``before`` itself when that event
    began a deal, else ``before``'s own checkpoint (None: none known)."""
    return before if len(after.deals) > len(before.deals) else checkpoint


def _walk(root, seen: set, limit: float = float("inf")) -> int:
    """Bytes of the objects reachable from ``root`` not in ``seen`` (classes and functions are not the state's);
    the walk stops once past ``limit``."""
    size, stack = 0, [root]
    pop, push, note, size_of, referents = stack.pop, stack.extend, seen.add, sys.getsizeof, gc.get_referents
    while stack and size <= limit:
        obj = pop()
        if id(obj) in seen or type(obj) in _SKIPPED or isinstance(obj, _NOT_COUNTED):
            continue
        note(id(obj))
        size += size_of(obj)
        if type(obj) not in _LEAVES:
            push(referents(obj))
    return size


def measure(state, known: dict | None = None, limit: float = float("inf"), checkpoint=None,
            checkpoint_size: int | None = None) -> tuple:
    """(bytes, {id(deal): (bytes, documents made), CHECKPOINT: bytes}) of a state and its checkpoint, or something
    over ``limit`` once it is clear; ``known`` holds the sizes of deals already counted (shared with the previous state of the same
    table, alive while they are used): counted again once, when their documents were made since. The checkpoint
    adds its own fields and its last deal (``checkpoint_size`` when already counted), the rest being the state's."""
    known = known or {}
    deals = list(getattr(state, "deals", ()))
    size, sizes = _walk(state, {id(deal) for deal in deals}, limit), {}
    for deal in deals:
        if size > limit:
            break
        made = hasattr(deal, DOCS)
        before = known.get(id(deal))
        sizes[id(deal)] = before if before is not None and before[1] == made else (_walk(deal, set(), limit - size),
                                                                                      made)
        size += sizes[id(deal)][0]
    if checkpoint is not None and size <= limit:
        sizes[CHECKPOINT] = checkpoint_size or _walk(checkpoint, {id(deal) for deal in deals}, limit - size)
        size += sizes[CHECKPOINT]
    return size, sizes


class _Kept:
    """A table's state kept: its revision, the state, its bytes (and its finished deals'), its checkpoint."""

    __slots__ = ("revision", "state", "size", "deal_sizes", "checkpoint", "unmeasured", "walked", "per_write")

    def __init__(self, revision, state, size, deal_sizes, checkpoint, unmeasured: int = 0, walked=None,
                 per_write=None):
        self.revision, self.state, self.size, self.deal_sizes = revision, state, size, deal_sizes
        self.checkpoint = checkpoint
        self.unmeasured = unmeasured  # writes counted, not walked, since the last walk
        self.walked = walked  # (revision, bytes) of the last state of this table walked
        self.per_write = per_write  # bytes a write of the open deal added, as the last two walks said; None: unknown

    def estimated(self, revision, state, checkpoint) -> "_Kept":
        """``state`` (this one, one write on, in the same deal) counted at this one's bytes and a write's growth."""
        sizes = dict(self.deal_sizes)  # its finished deals are this one's; its open deal is a copy, walked next time
        sizes.pop(id(self.state.deals[-1]), None)
        return _Kept(revision, state, self.size + self.per_write, sizes, checkpoint, self.unmeasured + 1, self.walked,
                     self.per_write)

    def walked_as(self, size: int, deal_sizes: dict, before: "_Kept") -> None:
        """This state walked (``size``, ``deal_sizes``); ``before``: the one it replaced, when it was written."""
        if self.checkpoint is before.checkpoint and before.walked is not None and self.revision > before.walked[0]:
            self.per_write = max(0.0, (size - before.walked[1]) / (self.revision - before.walked[0]))
        else:  # a new deal: the last deal's growth stands until this one's is known
            self.per_write = before.per_write
        self.size, self.deal_sizes, self.walked, self.unmeasured = size, deal_sizes, (self.revision, size), 0

    @property
    def checkpoint_size(self) -> int | None:
        return self.deal_sizes.get(CHECKPOINT)


class StateCache:
    """Table id -> its newest replayed state, at most ``max_bytes`` in all (by ``measure``)."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._kept: OrderedDict = OrderedDict()
        self._bytes = 0
        self._pending: dict = {}  # table id -> (state kept, the one it replaced), to measure (``settle``)
        self._lock = threading.Lock()

    def get(self, table_id: str, revision: int):
        """The state of ``table_id`` at ``revision`` if kept, else None."""
        with self._lock:
            kept = self._kept.get(table_id)
            if kept is None or kept.revision != revision:
                return None
            self._kept.move_to_end(table_id)
            return kept.state

    def newest(self, table_id: str) -> tuple | None:
        """(revision, state, checkpoint) of the newest state kept for ``table_id``, None when none is: what a write
        may work on before it takes the table's lock, and use if the lock finds the table still at that revision."""
        with self._lock:
            kept = self._kept.get(table_id)
            return None if kept is None else (kept.revision, kept.state, kept.checkpoint)

    def checkpoint(self, table_id: str, revision: int):
        """The checkpoint kept with the state of ``table_id`` at ``revision``, else None."""
        with self._lock:
            kept = self._kept.get(table_id)
            return kept.checkpoint if kept is not None and kept.revision == revision else None

    def put(self, table_id: str, revision: int, state, checkpoint=None, later: bool = False) -> None:
        """Keeps ``state`` as the table's newest (an older revision than the one kept is left out). ``later``: a
        write's state, made from the one kept by one event, kept at once at that one's size and measured by
        ``settle`` (after the write's answer is sent: ``pending``), so that the phone does not wait for the walk;
        every other call settles what waits first, so at most the writes under way wait to be measured."""
        if self.max_bytes <= 0:
            return
        if self._pending:
            self.settle()
        with self._lock:
            before = self._kept.get(table_id)
            if later and before is not None and before.revision < revision:
                if self._same_deal(before, state, checkpoint) and before.per_write is not None \
                        and before.unmeasured + 1 < MEASURED_EVERY:
                    kept = before.estimated(revision, state, checkpoint)  # MEASURED_EVERY
                    self._kept[table_id] = kept
                    self._kept.move_to_end(table_id)
                    self._bytes += kept.size - before.size
                    self._within_budget()
                    return
                kept = _Kept(revision, state, before.size, before.deal_sizes, checkpoint, walked=before.walked,
                             per_write=before.per_write)
                self._kept[table_id] = kept  # its predecessor's bytes stand for its own until measured
                self._kept.move_to_end(table_id)
                self._pending[table_id] = (kept, before)  # ``before`` held: its deals' ids stay theirs
                return
        if before is not None and before.revision > revision:
            return
        size, deal_sizes = measure(state, before.deal_sizes if before is not None else None, self.max_bytes,
                                   checkpoint, before.checkpoint_size if before is not None
                                   and before.checkpoint is checkpoint else None)
        with self._lock:
            old = self._kept.get(table_id)
            if old is not None and old.revision > revision:
                return  # a newer state came in while this one was measured
            if old is not None:
                self._bytes -= old.size
                del self._kept[table_id]
            if size > self.max_bytes:
                return  # bigger than the whole budget: replayed when asked, never kept
            self._kept[table_id] = _Kept(revision, state, size, deal_sizes, checkpoint, walked=(revision, size))
            self._bytes += size
            self._within_budget()

    @staticmethod
    def _same_deal(before: _Kept, state, checkpoint) -> bool:
        """``state`` is ``before``'s one write on, in the same open deal (the same checkpoint, as many deals)."""
        deals, were = getattr(state, "deals", None), getattr(before.state, "deals", None)
        return checkpoint is before.checkpoint and bool(deals) and bool(were) and len(deals) == len(were)

    @property
    def pending(self) -> bool:
        """States kept by ``put(later=True)`` wait to be measured (``settle``)."""
        return bool(self._pending)

    def settle(self) -> None:
        """Measures the states kept at their predecessor's size (``put(later=True)``) and drops the least recently
        used ones until the cache is within its budget again; a state replaced or dropped meanwhile is skipped."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for table_id, (kept, before) in pending.items():
            size, deal_sizes = measure(kept.state, before.deal_sizes, self.max_bytes, kept.checkpoint,
                                       before.checkpoint_size if before.checkpoint is kept.checkpoint else None)
            with self._lock:
                if self._kept.get(table_id) is not kept:
                    continue
                self._bytes += size - kept.size
                kept.walked_as(size, deal_sizes, before)
                if size > self.max_bytes:  # grown past the whole budget: replayed when asked, never kept
                    del self._kept[table_id]
                    self._bytes -= size
                self._within_budget()

    def _within_budget(self) -> None:
        """Drops the least recently used states until the bytes kept are within the budget (under the lock)."""
        while self._bytes > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= dropped.size

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._pending.clear()
            self._bytes = 0

    def stats(self) -> dict:
        """What the cache holds: tables, bytes and the budget (every state measured)."""
        self.settle()
        with self._lock:
            return {"tables": len(self._kept), "bytes": self._bytes, "max_bytes": self.max_bytes}

    def __len__(self) -> int:
        return len(self._kept)
