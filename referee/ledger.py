"""Tables and their append-only event log (the records: ``referee/models.py``). Nothing else in Referee touches the
database.

- The state of a table is never stored: it is what replaying its events in force through the engine gives.
- Every write locks the table's row first (an UPDATE of its ``revision``), so two phones writing at once are
  served one after the other, on SQLite and on PostgreSQL alike; ``expected_version`` answers 409 when stale.
  On SQLite a write's transaction begins IMMEDIATE (``referee/database.py``): it waits for the database's write
  lock before it reads, never failing with "database is locked" while another table is written.
- An entry asks the database two statements, whatever the log's length (``referee/ledger_rows.py``): the UPDATE
  that locks and bumps, the INSERT. A read asks one when its state is cached.
- Replayed states are kept per process within ``REFEREE_CACHE_MB`` (``referee/state_cache.py``): one per table,
  successive states sharing their finished deals, with a checkpoint at the start of the open deal so that an undo
  replays that deal's events, not the log.
- ``client_event_id`` makes a retried entry harmless: the second one is answered with the state and stores nothing.
- A form that makes a table (set-up, import) names it: its id and keys are derived from the form (``referee/
  once.py``), so the same form posted twice stores one table and both answers lead to it with its keys.
- Undo withdraws the last event in force; it stays in the history, marked withdrawn.
- The trick under way (``set_draft``) is kept on the table's row with its revision: never an event, in no export,
  void once an entry or an undo moves the revision; a tap made on a stale one is refused (409), never merged.
- A rematch is a new table with the old one's players, options and keys; ``rematches`` links the two.
"""
from __future__ import annotations

import hmac
import secrets
from dataclasses import fields

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, select

from referee import ledger_rows as rows
from referee.database import connect, database_url
from referee.errors import Conflict, Forbidden, NotFound, ParseError, RefereeError, RuleError, Unauthorized
from referee.games import get_game
from referee.ledger_rows import Row
from referee.models import EventRecord, RematchRecord, TableRecord, entered, hash_key, key_role  # noqa: F401 (also imported from here)
from referee.once import Created, Once, minted
from referee.state_cache import StateCache, budget_from_env, checkpoint_after, fork, replay, successor


def _missing(table_id) -> NotFound:
    return NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))


class Ledger:
    """The store of tables. ``url`` is an SQLAlchemy database URL (SQLite file or PostgreSQL)."""

    def __init__(self, url: str, cache_mb: float | None = None):
        self.url = database_url(url)
        self.engine = connect(self.url)
        self._write_engine = self.engine.execution_options(referee_write=True)  # same pool, BEGIN IMMEDIATE
        budget = budget_from_env() if cache_mb is None else int(cache_mb * 1024 * 1024)
        self._cache = StateCache(budget)

    def _session(self) -> Session:
        # Objects keep the values this transaction saw after commit: the state is cached under *this* write's
        # revision, never under one a concurrent writer committed meanwhile.
        return Session(self.engine, expire_on_commit=False)

    def _writing(self) -> Session:
        """A session for a write: on SQLite its transaction holds the write lock from its first statement."""
        return Session(self._write_engine, expire_on_commit=False)

    def reading(self):
        """A connection for a read: on PostgreSQL all it reads comes from one snapshot (a table's row and its events,
        a tournament's revision and rows)."""
        connection = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
        return connection

    @property
    def states(self) -> StateCache:
        """This process's replay cache, for the modules that read many tables at once (``referee/tournament``):
        a state there is right for its revision whoever made it; read it, never change it."""
        return self._cache

    def cache_stats(self) -> dict:
        """The replay cache's own accounting: tables kept, their bytes, the budget."""
        return self._cache.stats()

    def init_db(self) -> None:
        SQLModel.metadata.create_all(self.engine)

    def drop_all(self) -> None:
        SQLModel.metadata.drop_all(self.engine)

    # --- tables -------------------------------------------------------------------------------------------
    def create_table(self, game_id, players, options=None, dealer=None, once: Once | None = None) -> Created:
        """Creates a table; returns (state, scorer_key, viewer_key) and its ``status``. The scorer key is never
        stored. ``once``: the form that asks (``referee/once.py``): the same form asking again makes nothing and
        answers the table it made, with the same keys (status 200)."""
        game = get_game(game_id)
        table = game.new_table(players, options, dealer)
        made = minted(once, "table", {"game": game.id, "players": table.players, "options": table.options,
                                      "dealer": table.first_dealer})
        record = TableRecord(id=made.id, game=game.id, players=table.players, options=table.options,
                             dealer=table.first_dealer, scorer_hash=hash_key(made.writer_key),
                             viewer_key=made.viewer_key)
        if not self._insert(record, once):
            return self._made_before(made)
        return Created(self._remember(Row(record.id, game.id, table.players, table.options, table.first_dealer, 0,
                                          record.revision), table), made.writer_key, made.viewer_key)

    def _insert(self, record: TableRecord, once: Once | None, events: list = ()) -> bool:
        """Stores a new table and its events in one transaction; False when ``once`` named this table before (its
        id is taken: the other post of the same form stored it, or is storing it and this one waited for it)."""
        try:
            with self._writing() as session:
                session.add(record)
                session.flush()  # the table's row before its events
                session.add_all(EventRecord(table_id=record.id, seq=seq, type=body["type"], body=body)
                                for seq, body in enumerate(events, 1))
                session.commit()
        except IntegrityError:
            if once is None:
                raise
            return False
        return True

    def _made_before(self, made) -> Created:
        """The table a form made before, answered with the keys it was given (200). Its scorer key renewed since:
        409, the form is no way in any more."""
        with self.engine.connect() as connection:
            found = rows.keys(connection, made.id)
        if found is None:  # taken by nothing: the insert failed for another reason; it is not hidden
            raise Conflict("not_made", "The table could not be stored: send it again.")
        if not hmac.compare_digest(found[0], hash_key(made.writer_key)):
            raise Conflict("made_before", "This form already made its table, and that table's link has been "
                           "renewed since: ask whoever renewed it for the new one.")
        return Created(self.state(made.id), made.writer_key, found[2], status=200)

    def authorize(self, table_id: str, key: str | None, write: bool = False) -> str:
        """'scorer' or 'viewer' for a key of this table; 404 for no such table, 401 for no or a wrong key,
        403 for a viewer key on a writing call."""
        with self.engine.connect() as connection:
            found = rows.keys(connection, table_id)
        if found is None:
            raise _missing(table_id)
        scorer_hash, coscorer_hash, viewer_key = found
        if not key:
            raise Unauthorized("key_required", "This table needs its key: add ?key=… or an Authorization header.")
        role = key_role(key, scorer_hash, coscorer_hash, viewer_key)
        if role == "writer":
            return "scorer"
        if role == "viewer":
            if write:
                raise Forbidden("read_only_key", "This is the viewer key: it shows the table but cannot change it.")
            return "viewer"
        raise Unauthorized("bad_key", "This key does not open this table.")

    def new_key(self, table_id: str, kind: str) -> str:
        """Issues a new viewer or co-scorer key; the old one stops working at once. Only a co-scorer key's hash
        is kept (it writes); the viewer key is kept to draw its QR code again."""
        key = secrets.token_urlsafe(24)
        values = {"viewer_key": key} if kind == "viewer" else {"coscorer_hash": hash_key(key)}
        with self._writing() as session:  # the UPDATE first: the row's lock before anything is read
            if session.exec(update(TableRecord).where(TableRecord.id == table_id).values(**values)).rowcount == 0:
                raise _missing(table_id)
            session.commit()
        return key

    def renew_own_key(self, table_id: str, key: str) -> str:
        """A new key in place of ``key``, the scorer's or a co-scorer's own (checked by ``authorize`` first); the old
        one stops at once. Each step is a conditional UPDATE, so the transaction writes first (no read to upgrade:
        never "database is locked" on SQLite) and a key renewed meanwhile by another request is not renewed twice."""
        fresh, old = secrets.token_urlsafe(24), hash_key(key)
        with self._writing() as session:
            for column in (TableRecord.scorer_hash, TableRecord.coscorer_hash):
                done = session.exec(update(TableRecord).where(TableRecord.id == table_id, column == old)
                                    .values({column: hash_key(fresh)}))
                if done.rowcount:
                    session.commit()
                    return fresh
            session.rollback()
        raise Unauthorized("bad_key", "This key does not open this table.")

    def has_event(self, table_id: str, client_event_id: str) -> bool:
        with self.engine.connect() as connection:
            return rows.seen(connection, table_id, client_event_id)

    def _stored(self, table_id: str, client_event_id: str) -> bool:
        """An entry with this ``client_event_id`` is stored (asked only when an entry is refused)."""
        with self.engine.connect() as connection:
            return rows.seen(connection, table_id, client_event_id, undo=False)

    def watched(self, table_ids) -> dict:
        """What the live views of these tables need, in one query (``referee/web/watch.py`` asks it a few times a
        second per process, whatever the number of viewers): id -> (revision, viewer_key, scorer_hash,
        coscorer_hash, draft, draft_revision): the trick under way is part of what they show."""
        columns = (TableRecord.id, TableRecord.revision, TableRecord.viewer_key, TableRecord.scorer_hash,
                   TableRecord.coscorer_hash, TableRecord.draft, TableRecord.draft_revision)
        with self._session() as session:
            rows = session.exec(select(*columns).where(TableRecord.id.in_(list(table_ids)))).all()
        return {row[0]: tuple(row[1:]) for row in rows}

    def record_of(self, table_id: str) -> dict:
        """The table's set-up (game, players, options, first dealer), for an export."""
        with self._session() as session:
            record = self._record(session, table_id)
            return {"game": record.game, "players": list(record.players), "options": dict(record.options),
                    "dealer": record.dealer}

    def import_table(self, setup: dict, events: list, once: Once | None = None) -> Created:
        """A new table replaying an exported log's events in force (each checked again); returns like create.
        The whole log is replayed through the engine first, so a bad log stores nothing; the same import asked
        twice by one form (``once``) makes one table."""
        if not isinstance(events, list) or not isinstance(setup, dict):
            raise RuleError("bad_import", "An import is an export of Referee: its table and its events.")
        in_force = [entered(e) for e in events if isinstance(e, dict) and not e.get("withdrawn")]
        game = get_game(setup.get("game"))
        table = game.new_table(setup.get("players"), setup.get("options"), setup.get("dealer"))
        stored, checkpoint = [], None
        start = max((n for n, body in enumerate(in_force) if body.get("type") == "deal"), default=None)
        for number, body in enumerate(in_force):  # one replay, each checked as an append would: a refusal stores none
            if number == start:  # the open deal begins: what undo starts again from (state_cache.replay)
                checkpoint, table = table, fork(table)
            event = game.parse_event(table, body)
            game.step(table, event)
            stored.append(_own_fields(event, body))
        made = minted(once, "table", {"game": game.id, "players": table.players, "options": table.options,
                                      "dealer": table.first_dealer, "events": stored})
        record = TableRecord(id=made.id, game=game.id, players=table.players, options=table.options,
                             dealer=table.first_dealer, scorer_hash=hash_key(made.writer_key),
                             viewer_key=made.viewer_key)
        record.version, record.revision = table.version, len(stored)  # as if appended one by one
        if not self._insert(record, once, stored):  # the whole log in one transaction: all of it or nothing
            return self._made_before(made)
        row = Row(record.id, game.id, table.players, table.options, table.first_dealer, table.version,
                  record.revision)
        return Created(self._remember(row, table, checkpoint), made.writer_key, made.viewer_key)

    def viewer_key(self, table_id: str) -> str:
        with self._session() as session:
            return self._record(session, table_id).viewer_key

    def state(self, table_id: str, brief: bool = False) -> dict:
        """The table's whole state; ``brief``: as a write answers it (complete deals without their tricks)."""
        state, table = self.snapshot(table_id)
        return get_game(state["game"]).brief(table, state) if brief else state

    def snapshot(self, table_id: str) -> tuple:
        """(state, engine table) of a table: the pages ask the engine what is possible on the second, read-only."""
        state, table, _ = self.look(table_id)
        return state, table

    def look(self, table_id: str) -> tuple:
        """(state, engine table, trick under way) as a page shows them, from one read: the trick's card codes in
        play order, () when none is under way."""
        with self.reading() as connection:
            row = rows.read_row(connection, table_id)
            if row is None:
                raise _missing(table_id)
            table = self._cache.get(row.id, row.revision)
            replayed = table is None
            if replayed:
                table, checkpoint = self._replay(connection, row)
        # a state replayed here is kept once serialised: its finished deals' documents are counted with it
        return (self._remember(row, table, checkpoint) if replayed else self._serialise(row, table)), table, row.trick()

    def events(self, table_id: str) -> list:
        with self._session() as session:
            self._record(session, table_id)
            found = session.exec(select(EventRecord).where(EventRecord.table_id == table_id)
                                 .order_by(EventRecord.seq)).all()
            return [row.to_dict() for row in found]

    # --- writing ------------------------------------------------------------------------------------------
    def append(self, table_id: str, body: dict, expected_version=None, client_event_id=None,
               expected_revision=None, brief: bool = False, expected_draft=None, keep_draft: bool = False) -> tuple:
        """Stores one event if the engine accepts it. Returns (status, state): 201 stored, 200 a retry. ``brief``:
        the state as a write answers it (complete deals without their tricks, docs/api.md). ``expected_draft``: the
        trick under way the phone saw (409 when it is another); ``keep_draft``: it stays under way beside this entry
        (an exchange, a declaration), else it is void with the revision this entry moves."""
        with self._write_engine.connect() as connection:
            row = rows.lock_row(connection, table_id, +1)
            if row is None:
                raise _missing(table_id)
            try:
                self._check_version(row.version - 1, row.revision - 1, expected_version, expected_revision)
                draft = row.trick(row.revision - 1)
                _check_draft(draft, expected_draft)
                before, checkpoint = self._replayed(connection, row, row.revision - 1)
                game = get_game(row.game)
                event = game.parse_event(before, body)
                after = successor(game, before, event)
                rows.insert_event(connection, table_id, _own_fields(event, body), client_event_id)
                if keep_draft and draft:
                    rows.put_draft(connection, table_id, draft, row.revision)
                connection.commit()
            except (RefereeError, IntegrityError):  # a retry of an entry stored before is answered, not refused
                connection.rollback()
                if client_event_id is not None and self._stored(table_id, client_event_id):
                    return 200, self.state(table_id, brief)
                raise
        state = self._remember(row, after, checkpoint_after(before, after, checkpoint))
        return 201, game.brief(after, state) if brief else state

    def undo(self, table_id: str, expected_version=None, expected_revision=None, client_event_id=None,
             brief: bool = False, expected_draft=None, reopen: bool = False) -> dict:
        """Withdraws the last event in force (it stays in the history); 422 when there is none. An undo retried
        with the same ``client_event_id`` withdraws nothing more and answers the state. ``expected_draft`` as for
        ``append``; ``reopen``: a trick withdrawn stays under way without its last card, for every phone (the
        scorer's page). The state before it is
        worked out again from the checkpoint at the start of the open deal when this process has it, replaying
        that deal's events only; else (another process wrote last, or the undo crosses the deal's start) from
        the whole log."""
        with self._write_engine.connect() as connection:
            row = rows.lock_row(connection, table_id, -1)
            if row is None:
                raise _missing(table_id)
            if client_event_id is not None and rows.seen(connection, table_id, client_event_id, entry=False):
                connection.rollback()
                return self.state(table_id, brief)
            self._check_version(row.version + 1, row.revision - 1, expected_version, expected_revision)
            _check_draft(row.trick(row.revision - 1), expected_draft)
            withdrawn = rows.withdraw_last(connection, table_id, client_event_id) if row.version >= 0 else None
            if withdrawn is None:
                raise RuleError("nothing_to_undo", "There is nothing to undo at this table.")
            if reopen and withdrawn.get("type") == "trick" and len(withdrawn.get("cards") or ()) > 1:
                rows.put_draft(connection, table_id, withdrawn["cards"][:-1], row.revision)
            game = get_game(row.game)
            checkpoint = self._cache.checkpoint(row.id, row.revision - 1)
            if checkpoint is not None and checkpoint.version <= row.version:
                newer = rows.bodies(connection, table_id, newest=row.version - checkpoint.version)
                table = fork(checkpoint) if newer else checkpoint
                for body in newer:
                    game.step(table, game.parse_event(table, body))
                checkpoint = checkpoint if newer else None
            else:
                table, checkpoint = self._replay(connection, row)
            connection.commit()
        state = self._remember(row, table, checkpoint)
        return game.brief(table, state) if brief else state

    def set_draft(self, table_id: str, cards, revision: int, seen=()) -> tuple:
        """The trick under way becomes ``cards`` (card codes in play order, fewer than a whole trick; checked by the
        engine, R-COMMON-4) if the table is still at ``revision`` with ``seen`` under way: one UPDATE, never an
        event. 409 when another phone changed the table or the trick meanwhile, unless the trick is already
        ``cards`` (the same tap sent twice). Returns the cards."""
        cards, seen = tuple(cards), tuple(seen)
        table = self._cache.get(table_id, revision) if isinstance(table_id, str) else None
        if table is None:  # not this process's newest state: the table as it is now, at that revision or refused
            state, table = self.snapshot(table_id)
            self._check_version(state["version"], state["revision"], None, revision)
        game = get_game(table.game)
        if not hasattr(game, "verify_partial") or len(cards) >= len(table.players):
            raise ParseError("not_a_draft", "The trick under way holds fewer cards than there are players, not "
                             "{count}.", count=len(cards))
        game.verify_partial(table, game.deck_for(table).parse_many(list(cards)))
        with self._write_engine.connect() as connection:
            if rows.set_draft(connection, table_id, cards, revision, seen):
                connection.commit()
                return cards
        with self.reading() as connection:
            row = rows.read_row(connection, table_id)
        if row is None:
            raise _missing(table_id)
        if row.revision == revision and row.trick() == cards:
            return cards
        self._check_version(row.version, row.revision, None, revision)
        raise draft_conflict()

    def rematch(self, table_id: str) -> tuple:
        """A finished series goes on at a new table: the same players, options and keys (every link of the old
        table opens the new one with its id), the next dealer as the game would go on (R-COMMON-2; Brouc's stays
        after a declared cape). Returns (status, state): 201 made now, 200 made before (one rematch, however many
        taps). The old table's revision moves, so its live views learn of the rematch at their next poll."""
        with self._writing() as session:
            row = rows.lock_row(session.connection(), table_id, 0)
            if row is None:
                session.rollback()
                raise _missing(table_id)
            # Read again after the lock: on PostgreSQL the UPDATE's own subquery saw the links as they were
            # before it waited for the lock, so a rematch made meanwhile is found only by a new statement.
            made = session.get(RematchRecord, table_id)
            if made is not None:
                session.rollback()
                return 200, self.state(made.new_id)
            old = session.get(TableRecord, table_id)
            game = get_game(old.game)
            played, checkpoint = self._replayed(session.connection(), row, row.revision - 1)
            if not played.finished:
                raise RuleError("series_not_finished", "The series is not over yet: a rematch starts when it is.")
            table = game.new_table(list(old.players), dict(old.options), game.next_dealer(played))
            new = TableRecord(id=secrets.token_urlsafe(8), game=old.game, players=table.players,
                              options=table.options, dealer=table.first_dealer, scorer_hash=old.scorer_hash,
                              viewer_key=old.viewer_key, coscorer_hash=old.coscorer_hash)
            session.add(new)
            session.flush()  # the new table's row before the link to it
            session.add(RematchRecord(old_id=old.id, new_id=new.id))
            session.commit()
        self._cache.put(row.id, row.revision, played, checkpoint)
        return 201, self._remember(Row(new.id, new.game, table.players, table.options, table.first_dealer, 0,
                                       new.revision, rematch_of=row.id), table)

    # --- inside -------------------------------------------------------------------------------------------
    def _record(self, session: Session, table_id: str) -> TableRecord:
        record = session.get(TableRecord, table_id) if isinstance(table_id, str) else None
        if record is None:
            raise _missing(table_id)
        return record

    @staticmethod
    def _check_version(version: int, revision: int, expected, expected_revision=None) -> None:
        """409 when the phone's view is stale (``version`` and ``revision`` as they were before this write).
        ``version`` (the contract's) goes down on undo, so a phone that saw version 5, an undo and a new entry would
        pass; ``expected_revision`` (every change) catches that too."""
        if (expected_revision is not None and expected_revision != revision) or \
                (expected is not None and expected != version):
            raise Conflict("version_conflict", "The table changed meanwhile: look at the new state and enter it "
                           "again if it is still needed.", version=version, revision=revision)

    def _replayed(self, connection, row: Row, revision: int) -> tuple:
        """(state, checkpoint) of a table at ``revision``, from the cache or by replay; not kept here (a write keeps
        the state it makes, not the one it replaces)."""
        table = self._cache.get(row.id, revision)
        if table is not None:
            return table, self._cache.checkpoint(row.id, revision)
        return self._replay(connection, row)

    @staticmethod
    def _replay(connection, row: Row) -> tuple:
        return replay(get_game(row.game), row.players, row.options, row.dealer, rows.bodies(connection, row.id))

    def _remember(self, row: Row, table, checkpoint=None) -> dict:
        """Serialises ``table`` (its finished deals' documents made now, so the cache counts them) and keeps it."""
        state = self._serialise(row, table)
        self._cache.put(row.id, row.revision, table, checkpoint)
        return state

    @staticmethod
    def _serialise(row: Row, table) -> dict:
        state = {"id": row.id, "revision": row.revision}
        state.update(get_game(row.game).serialise(table))
        state["rematch"], state["rematch_of"] = row.rematch, row.rematch_of
        return state


def _check_draft(found: tuple, expected) -> None:
    """409 when the trick under way is not the one the phone saw (another phone tapped or took back a card)."""
    if expected is not None and tuple(expected) != found:
        raise draft_conflict()


def draft_conflict() -> Conflict:
    """Another phone changed the trick under way since this one's page showed it."""
    return Conflict("draft_conflict", "Another phone changed the trick under way meanwhile: look at it as it stands "
                    "now and tap again if it is still needed.")


def _own_fields(event, body: dict) -> dict:
    """What is stored of an event's body: its type and the fields its parser reads, nothing else."""
    names = [f.name for f in fields(event)] + list(getattr(event, "extra_fields", ()))
    return {"type": event.type, **{name: body[name] for name in names if name in body}}
