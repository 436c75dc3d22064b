"""Tables and their append-only event log (the records: ``records.py``). Nothing else in Referee reads or
writes the records: the tournaments' store (``referee/tournament/store.py``) does it through the ledger's doors
(``reading``, ``write``, ``store_new``, ``tables_at``) and its statements (``tournaments.py``); the
database whole is only the schema's (``migrations/``) and the backup's (``backup.py``).

The ledger in five modules: this one (connections, reads, the replay cache), ``entries.py`` (an entry, an
undo, the trick under way), ``entry_write.py`` (an entry's short way), ``making.py`` (new tables, imports, rematches,
keys) and the statements they ask (``rows.py``; a tournament's, ``tournaments.py``). One way to write: SQLAlchemy
Core statements on one connection, the record's lock taken first by an ``UPDATE … RETURNING`` (the short way's
compiled once and run on the driver's own connection).

- The state of a table is never stored: it is what replaying its events in force through the engine gives (one
  loop, ``Game.replay_from``).
- Every write locks the table's row first (an UPDATE of its ``revision``), so two phones writing at once are
  served one after the other, on SQLite and on PostgreSQL alike; ``expected_version`` answers 409 when stale.
  On SQLite a write's transaction begins IMMEDIATE (``database.py``): it waits for the database's write
  lock before it reads, never failing with "database is locked" while another table is written.
- An entry asks the database two statements, whatever the log's length (``rows.py``): the UPDATE
  that locks and bumps, the INSERT. Worked out on this process's newest state, its short way (``entry_write.py``)
  puts every check in that UPDATE's WHERE: one statement and one round trip on PostgreSQL. A read asks one when its
  state is cached.
- Replayed states are kept per process within ``REFEREE_CACHE_MB`` (``state_cache.py``): one per table,
  successive states sharing their finished deals, with a checkpoint at the start of the open deal so that an undo
  replays that deal's events, not the log. A state kept behind the table (another process wrote since) is stepped
  on the newest events when they were all entries (``_caught_up``), never replayed from the whole log.
- ``client_event_id`` makes a retried entry harmless: the second one is answered with the state and stores nothing.
- A form that makes a table (set-up, import) names it: its id and keys are derived from the form (``referee/
  once.py``), so the same form posted twice stores one table and both answers lead to it with its keys.
- Undo withdraws the last event in force; it stays in the history, marked withdrawn.
- The trick under way (``set_draft``) is kept on the table's row with its revision: never an event, in no export,
  void once an entry or an undo moves the revision; a tap made on a stale one is refused (409), never merged.
- A rematch is a new table with the old one's players, options and keys; ``rematches`` links the two.
"""
from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel

from referee.errors import Conflict
from referee.games import get_game
from referee.store import rows
from referee.store.database import connect, database_url, write_queue
from referee.store.entries import UNCHECKED, Entries
from referee.store.entry_write import EntryWrite
from referee.store.making import Making
from referee.store.rows import TableRow, missing, role_of
from referee.store.records import iso
from referee.store.state_cache import StateCache, budget_from_env


class Unwritten(Exception):
    """Raised by the work of ``Ledger.write`` to store nothing and answer ``answer`` (its transaction rolled back)."""

    def __init__(self, answer):
        super().__init__()
        self.answer = answer


class Ledger(Entries, Making):
    """The store of tables. ``url`` is an SQLAlchemy database URL (SQLite file or PostgreSQL)."""

    def __init__(self, url: str, cache_mb: float | None = None):
        self.url = database_url(url)
        self.engine = connect(self.url)
        self._write_engine = self.engine.execution_options(referee_write=True)  # same pool, BEGIN IMMEDIATE
        self._queue = write_queue(self.url)
        self._entry_write = EntryWrite(self.engine, self._queue)  # an entry's short way (entry_write.py)
        budget = budget_from_env() if cache_mb is None else int(cache_mb * 1024 * 1024)
        self._cache = StateCache(budget)

    # --- the doors ----------------------------------------------------------------------------------------
    def reading(self):
        """A connection for a read: on PostgreSQL all it reads comes from one snapshot (a table's row and its events,
        a tournament's revision and rows)."""
        connection = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
        return connection

    def read(self, work, *args):
        """Runs ``work(connection, *args)`` on one read connection (``reading``: one snapshot on PostgreSQL) and
        answers what it returns, the connection closed after: ``work`` is one of the store's statements
        (``tournaments.keys``, ``clubs.records`` …) or a function asking several of them from the same snapshot.
        The tournament's and the club's stores read through this door, as they write through ``write``, so that
        no connection is opened outside the store."""
        with self.reading() as connection:
            return work(connection, *args)

    @contextmanager
    def writing(self):
        """A connection for a write (``with ledger.writing() as connection``): on SQLite it waits its turn among
        the writers (``database.py``: ``WriteQueue``), then its transaction holds the write lock from its
        first statement. The write commits it (``connection.commit()``); closed without, it is rolled back."""
        with self._queue, self._write_engine.connect() as connection:
            yield connection

    def write(self, work):
        """Runs ``work(connection)`` in one write transaction (``writing``) and commits what it asked the store's
        statements to write; what ``work`` returns is the answer. An error rolls it all back, and so does
        ``Unwritten(answer)``: nothing stored, ``answer`` answered. The tournament's and the club's stores write
        through this door, so that no transaction is held outside the store."""
        with self.writing() as connection:
            try:
                answer = work(connection)
            except Unwritten as unwritten:
                connection.rollback()
                return unwritten.answer
            connection.commit()
        return answer

    def store_new(self, insert, taken_is_known: bool = True) -> bool:
        """Runs ``insert(connection)`` (a new record and its rows) in one write transaction; False when its id was
        taken (the same form's other post stored it, or is storing it and this one waited for it). With
        ``taken_is_known`` False (no form names the record), a taken id is an error and raises."""
        try:
            with self.writing() as connection:
                insert(connection)
                connection.commit()
        except IntegrityError:
            if not taken_is_known:
                raise
            return False
        return True

    def tables_at(self, connection, found) -> dict:
        """table id -> engine table of each of ``found`` (mappings with id, game, players, options, dealer,
        revision, as ``tournaments.records`` reads them): from the replay cache at the row's revision, else
        replayed from its events, read for all the missing ones in one statement on ``connection``. A state there
        is right for its revision whoever made it: read it, never change it."""
        tables, missing_rows = {}, []
        for row in found:
            table = self._cache.get(row["id"], row["revision"])
            if table is None:
                missing_rows.append(row)
            else:
                tables[row["id"]] = table
        bodies = rows.bodies_of(connection, [row["id"] for row in missing_rows])
        for row in missing_rows:
            game = get_game(row["game"])
            table, checkpoint = game.replay_from(game.new_table(row["players"], row["options"], row["dealer"]),
                                                 bodies[row["id"]])
            self._cache.put(row["id"], row["revision"], table, checkpoint)
            tables[row["id"]] = table
        return tables

    def where(self) -> str:
        """The database's URL as it may be shown (without its password)."""
        return self.engine.url.render_as_string(hide_password=True)

    def forget_connections(self, close: bool = True) -> None:
        """Empties the connection pool (``close=False``: a forked worker leaves the master's connections be)."""
        self.engine.dispose(close=close)

    def init_db(self) -> None:
        SQLModel.metadata.create_all(self.engine)

    def drop_all(self) -> None:
        SQLModel.metadata.drop_all(self.engine)

    # --- reading ------------------------------------------------------------------------------------------
    def authorize(self, table_id: str, key: str | None, write: bool = False) -> str:
        """'scorer' or 'viewer' for a key of this table; 404 for no such table, 401 for no or a wrong key,
        403 for a viewer key on a writing call. (``look`` and ``append`` check it on their own statement.)"""
        with self.engine.connect() as connection:
            found = rows.keys(connection, table_id)
        if found is None:
            raise missing(table_id)
        return role_of(found, key, write)

    def has_event(self, table_id: str, client_event_id: str) -> bool:
        with self.engine.connect() as connection:
            return rows.seen(connection, table_id, client_event_id)

    def _stored(self, table_id: str, client_event_id: str) -> bool:
        """An entry with this ``client_event_id`` is stored (asked only when an entry is refused)."""
        with self.engine.connect() as connection:
            return rows.seen(connection, table_id, client_event_id, undo=False)

    def watched(self, table_ids) -> dict:
        """What the live views of these tables need, in one query (``referee/web/tables/watch.py`` asks it a few times a
        second per process, whatever the number of viewers): id -> (revision, viewer_key, scorer_hash,
        coscorer_hash, draft, draft_revision): the trick under way is part of what they show."""
        with self.engine.connect() as connection:
            return rows.watched(connection, table_ids)

    def record_of(self, table_id: str) -> dict:
        """The table's set-up (game, players, options, first dealer), for an export."""
        with self.engine.connect() as connection:
            row = rows.read_row(connection, table_id)
        if row is None:
            raise missing(table_id)
        return {"game": row.game, "players": list(row.players), "options": dict(row.options), "dealer": row.dealer}

    def viewer_key(self, table_id: str) -> str:
        with self.engine.connect() as connection:
            found = rows.keys(connection, table_id)
        if found is None:
            raise missing(table_id)
        return found[2]

    def state(self, table_id: str, brief: bool = False) -> dict:
        """The table's whole state; ``brief``: as a write answers it (complete deals without their tricks)."""
        state, table = self.snapshot(table_id)
        return get_game(state["game"]).brief(table, state) if brief else state

    def snapshot(self, table_id: str, key=UNCHECKED, write: bool = False) -> tuple:
        """(state, engine table) of a table: the pages ask the engine what is possible on the second, read-only.
        ``key`` (and ``write``) as ``look`` checks them."""
        state, table, _, _ = self.look(table_id, key, write)
        return state, table

    def look(self, table_id: str, key=UNCHECKED, write: bool = False) -> tuple:
        """(state, engine table, trick under way, way of entry) as a page shows them, from one read: the trick's card
        codes in play order, () when none is under way; the way of entry a phone chose for the table (None: none
        chose). ``key``: refused as ``authorize`` refuses it, from the same read."""
        with self.reading() as connection:
            row = rows.read_row(connection, table_id)
            if row is None:
                raise missing(table_id)
            if key is not UNCHECKED:
                role_of(row.keys, key, write)
            table = self._cache.get(row.id, row.revision)
            replayed = table is None
            if replayed:
                table, checkpoint = self._replay(connection, row)
        # a state replayed here is kept once serialised: its finished deals' documents are counted with it
        return ((self._remember(row, table, checkpoint) if replayed else self._serialise(row, table)), table,
                row.trick(), row.entry_mode)

    def kept(self, table_id: str, revision) -> object | None:
        """This process's engine table of ``table_id`` at ``revision`` when its replay cache holds it (no read, no
        key checked: a short way's write checks both), else None."""
        if not (isinstance(table_id, str) and isinstance(revision, int)):
            return None
        return self._cache.get(table_id, revision)

    def written(self, state: dict, entry_mode) -> tuple | None:
        """``look``'s answer just after this process's write answered ``state`` (its trick under way void, its way
        of entry ``entry_mode`` as read before the write), from the replay cache with no read; None when the cache
        no longer holds that revision (then ``look`` reads it). A card's last tap draws its page from it."""
        table = self._cache.get(state["id"], state["revision"])
        return None if table is None else (state, table, (), entry_mode)

    def history(self, table_id: str, key: str | None) -> tuple:
        """(role, set-up, log) of a table from one read, for its history page: ``key``'s role (any key of the table;
        refused as ``authorize`` refuses it), its set-up as ``record_of`` gives it, every event as the log gives it,
        withdrawn ones included."""
        with self.reading() as connection:
            row = rows.read_row(connection, table_id)
            if row is None:
                raise missing(table_id)
            role = role_of(row.keys, key)
            log = rows.log(connection, table_id)
        return role, {"game": row.game, "players": list(row.players), "options": dict(row.options),
                      "dealer": row.dealer}, log

    def exports(self, table_ids) -> list:
        """Each table's set-up (as ``record_of``) and whole log (as ``events``), from one read (a club's export)."""
        found = []
        with self.reading() as connection:
            for table_id in table_ids:
                row = rows.read_row(connection, table_id)
                if row is None:
                    raise missing(table_id)
                found.append(({"game": row.game, "players": list(row.players), "options": dict(row.options),
                               "dealer": row.dealer}, rows.log(connection, table_id)))
        return found

    def events(self, table_id: str) -> list:
        with self.reading() as connection:
            if rows.keys(connection, table_id) is None:
                raise missing(table_id)
            return rows.log(connection, table_id)

    # --- inside -------------------------------------------------------------------------------------------
    @staticmethod
    def _check_version(version: int, revision: int, expected, expected_revision=None) -> None:
        """409 when the phone's view is stale (``version`` and ``revision`` as they were before this write).
        ``version`` (the contract's) goes down on undo, so a phone that saw version 5, an undo and a new entry would
        pass; ``expected_revision`` (every change) catches that too."""
        if (expected_revision is not None and expected_revision != revision) or \
                (expected is not None and expected != version):
            raise Conflict("version_conflict", "The table changed meanwhile: look at the new state and enter it "
                           "again if it is still needed.", version=version, revision=revision)

    def _replayed(self, connection, row: TableRow, revision: int, version: int) -> tuple:
        """(state, checkpoint) of a table at ``revision`` (``version`` events in force, the log as ``connection``
        reads it now), from the cache or by replay; not kept here (a write keeps the state it makes, not the one it
        replaces)."""
        table = self._cache.get(row.id, revision)
        if table is not None:
            return table, self._cache.checkpoint(row.id, revision)
        return self._replay(connection, row, revision, version)

    def _replay(self, connection, row: TableRow, revision: int | None = None, version: int | None = None) -> tuple:
        """(state, checkpoint) of the table's log in force, as ``connection`` reads it (at ``revision``, with
        ``version`` events in force: the row's own by default): caught up from this process's newest state when
        only entries were made since it (``_caught_up``), else the whole log replayed."""
        revision = row.revision if revision is None else revision
        version = row.version if version is None else version
        caught = self._caught_up(connection, row.id, revision, version)
        if caught is not None:
            return caught
        game = get_game(row.game)
        return game.replay_from(game.new_table(row.players, row.options, row.dealer), rows.bodies(connection, row.id))

    def _caught_up(self, connection, table_id: str, revision: int, version: int) -> tuple | None:
        """(state, checkpoint) at ``revision`` from this process's newest state of the table when every write since
        it was an entry (another process wrote them: with several workers a phone's requests go to any): an entry
        moves the revision and the version by one, every other write (an undo, a rematch, a name changed) moves the
        version less than the revision, so the revision and the version having moved alike says that the log in
        force is the one kept and its newest ``behind`` events, which are stepped on it (``Game.replay_from``, the
        state kept left as it is). None otherwise: the whole log is replayed. At a table's 200th deal an entry after
        another process's took 120 ms of CPU to replay, not 1."""
        newest = self._cache.newest(table_id)
        if newest is None:
            return None
        kept_revision, kept, checkpoint = newest
        behind = revision - kept_revision
        if behind <= 0 or version - kept.version != behind:
            return None
        newer = rows.bodies(connection, table_id, newest=behind)
        if len(newer) != behind:
            return None
        table, started = get_game(kept.game).replay_from(kept, newer, shared=True)
        return table, checkpoint if started is None else started  # a deal among them: the open deal's start

    def _remember(self, row: TableRow, table, checkpoint=None, later: bool = False) -> dict:
        """Serialises ``table`` (its finished deals' documents made now, so the cache counts them) and keeps it;
        ``later``: its bytes counted by ``settle_cache`` (a write's state, made from the one kept)."""
        state = self._serialise(row, table)
        self._cache.put(row.id, row.revision, table, checkpoint, later=later)
        return state

    @property
    def cache_pending(self) -> bool:
        """A write's state waits to be measured by ``settle_cache``."""
        return self._cache.pending

    def settle_cache(self) -> None:
        """Measures the states the writes kept (``StateCache.settle``): asked once a write's answer is sent, so that
        the phone does not wait for it; any other use of the cache asks it first."""
        self._cache.settle()

    def _serialise(self, row: TableRow, table) -> dict:
        state = {"id": row.id, "revision": row.revision}
        state.update(get_game(row.game).serialise(table))
        state["rematch"], state["rematch_of"] = row.rematch, row.rematch_of
        corrected = state["signed"].get("corrected")
        if corrected is not None:
            state["signed"]["corrected"] = self._corrected(row.id, table, corrected)
        return state

    def _corrected(self, table_id: str, table, corrected: dict) -> dict:
        """R-COMMON-7b: the state's ``signed.corrected`` with whose key made the correcting entry (the engine's
        ``version``), its reason and its time (ISO, UTC), read once per replayed state."""
        entry = table.correction.get("entry")
        if entry is None:
            with self.reading() as connection:
                found = rows.entry_in_force(connection, table_id, corrected["version"]) or {}
            entry = {"by": found.get("by"), "reason": found.get("reason"),
                     "at": iso(found["at"]) if found.get("at") else None}
            table.correction["entry"] = entry  # the same entry for every read of this state
        doc = {name: value for name, value in corrected.items() if name not in ("version", "entry")}
        return {**entry, **doc}
