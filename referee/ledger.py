"""Tables and their append-only event log, stored with SQLModel. Nothing else in Referee touches the database.

- The state of a table is never stored: it is what replaying its events in force through the engine gives.
- Every write locks the table's row first (an UPDATE of its ``revision``), so two phones writing at once are
  served one after the other, on SQLite and on PostgreSQL alike; ``expected_version`` answers 409 when stale.
  On SQLite a write's transaction begins IMMEDIATE (``referee/database.py``): it waits for the database's write
  lock before it reads, never failing with "database is locked" while another table is written.
- Replayed states are kept per process within ``REFEREE_CACHE_MB`` (``referee/state_cache.py``): one per table,
  successive states sharing their finished deals.
- ``client_event_id`` makes a retried entry harmless: the second one is answered with the state and stores nothing.
- Undo withdraws the last event in force; it stays in the history, marked withdrawn.
- A rematch is a new table with the old one's players, options and keys; ``rematches`` links the two.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import fields
from datetime import datetime, timezone

from sqlalchemy import JSON, Column, UniqueConstraint, func, or_, update
from sqlmodel import Field, Session, SQLModel, select

from referee.database import connect, database_url
from referee.errors import Conflict, Forbidden, NotFound, RuleError, Unauthorized
from referee.games import get_game
from referee.state_cache import StateCache, budget_from_env, successor

def _now() -> datetime:
    return datetime.now(timezone.utc)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class TableRecord(SQLModel, table=True):
    __tablename__ = "tables"
    id: str = Field(primary_key=True, max_length=32)
    game: str = Field(max_length=32)
    players: list = Field(sa_column=Column(JSON, nullable=False))
    options: dict = Field(sa_column=Column(JSON, nullable=False))
    dealer: int = 0
    scorer_hash: str = Field(max_length=64)  # only a hash of the scorer key is stored
    viewer_key: str = Field(max_length=64)
    coscorer_hash: str | None = Field(default=None, max_length=64)  # a second scorer's key, hashed too
    version: int = 0  # events in force
    revision: int = 0  # every change, undo included: the cache key of the replayed state
    created_at: datetime = Field(default_factory=_now)


class EventRecord(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq"), UniqueConstraint("table_id", "client_event_id"))
    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="tables.id", index=True, max_length=32)
    seq: int
    type: str = Field(max_length=32)
    body: dict = Field(sa_column=Column(JSON, nullable=False))
    client_event_id: str | None = Field(default=None, max_length=128)
    at: datetime = Field(default_factory=_now)
    withdrawn: bool = False
    withdrawn_at: datetime | None = None
    withdrawn_by: str | None = Field(default=None, max_length=128)  # the undo's client_event_id, when given

    def to_dict(self) -> dict:
        doc = dict(self.body)
        doc.update(seq=self.seq, type=self.type, at=_iso(self.at), withdrawn=self.withdrawn)
        if self.withdrawn_at is not None:
            doc["withdrawn_at"] = _iso(self.withdrawn_at)
        if self.client_event_id is not None:
            doc["client_event_id"] = self.client_event_id
        return doc


class RematchRecord(SQLModel, table=True):
    """Old table -> its rematch. A table of its own: ``create_all`` adds it to a database made before it, and no
    column of ``tables`` changes. ``old_id`` is the key: one rematch per table, whatever the retries."""
    __tablename__ = "rematches"
    old_id: str = Field(primary_key=True, foreign_key="tables.id", max_length=32)
    new_id: str = Field(foreign_key="tables.id", unique=True, max_length=32)
    created_at: datetime = Field(default_factory=_now)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:  # SQLite gives back naive datetimes; they were stored in UTC
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.isoformat().replace("+00:00", "Z")


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

    def cache_stats(self) -> dict:
        """The replay cache's own accounting: tables kept, their bytes, the budget."""
        return self._cache.stats()

    def init_db(self) -> None:
        SQLModel.metadata.create_all(self.engine)

    def drop_all(self) -> None:
        SQLModel.metadata.drop_all(self.engine)

    # --- tables -------------------------------------------------------------------------------------------
    def create_table(self, game_id, players, options=None, dealer=None) -> tuple:
        """Creates a table; returns (state, scorer_key, viewer_key). The scorer key is never stored."""
        game = get_game(game_id)
        table = game.new_table(players, options, dealer)
        scorer_key, viewer_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        record = TableRecord(id=secrets.token_urlsafe(8), game=game.id, players=table.players,
                             options=table.options, dealer=table.first_dealer, scorer_hash=hash_key(scorer_key),
                             viewer_key=viewer_key)
        with self._writing() as session:
            session.add(record)
            session.commit()
            state = self._remember(record, table)
        return state, scorer_key, viewer_key

    def authorize(self, table_id: str, key: str | None, write: bool = False) -> str:
        """'scorer' or 'viewer' for a key of this table; 404 for no such table, 401 for no or a wrong key,
        403 for a viewer key on a writing call."""
        with self._session() as session:
            record = self._record(session, table_id)
        if not key:
            raise Unauthorized("key_required", "This table needs its key: add ?key=… or an Authorization header.")
        if hmac.compare_digest(hash_key(key), record.scorer_hash):
            return "scorer"
        if record.coscorer_hash and hmac.compare_digest(hash_key(key), record.coscorer_hash):
            return "scorer"
        if hmac.compare_digest(key.encode(), record.viewer_key.encode()):
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
                raise NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))
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
        with self._session() as session:
            return session.exec(select(EventRecord.id).where(
                EventRecord.table_id == table_id, (EventRecord.client_event_id == client_event_id)
                | (EventRecord.withdrawn_by == client_event_id))).first() is not None

    def revision(self, table_id: str) -> int:
        """What a live view asks every second: a change of revision means a change of state."""
        with self._session() as session:
            value = session.exec(select(TableRecord.revision).where(TableRecord.id == table_id)).first()
            if value is None:
                raise NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))
            return value

    def record_of(self, table_id: str) -> dict:
        """The table's set-up (game, players, options, first dealer), for an export."""
        with self._session() as session:
            record = self._record(session, table_id)
            return {"game": record.game, "players": list(record.players), "options": dict(record.options),
                    "dealer": record.dealer}

    def import_table(self, setup: dict, events: list) -> tuple:
        """A new table replaying an exported log's events in force (each checked again); returns like create.
        The whole log is replayed through the engine first, so a bad log stores nothing."""
        if not isinstance(events, list) or not isinstance(setup, dict):
            raise RuleError("bad_import", "An import is an export of Referee: its table and its events.")
        in_force = [{k: v for k, v in e.items() if k not in ("seq", "at", "withdrawn", "withdrawn_at",
                                                           "client_event_id")}
                    for e in events if isinstance(e, dict) and not e.get("withdrawn")]
        game = get_game(setup.get("game"))
        table = game.new_table(setup.get("players"), setup.get("options"), setup.get("dealer"))
        record = TableRecord(id=secrets.token_urlsafe(8), game=game.id, players=table.players,
                             options=table.options, dealer=table.first_dealer, scorer_hash="", viewer_key="")
        stored = []
        for body in in_force:  # one replay, each event checked as an append would; a refusal stores nothing
            event = game.parse_event(table, body)
            game.step(table, event)
            stored.append(_own_fields(event, body))
        scorer_key, viewer_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        record.scorer_hash, record.viewer_key = hash_key(scorer_key), viewer_key
        record.version, record.revision = table.version, len(stored)  # as if appended one by one
        with self._writing() as session:  # the whole log in one transaction: all of it or nothing
            session.add(record)
            session.flush()
            session.add_all(EventRecord(table_id=record.id, seq=seq, type=body["type"], body=body)
                            for seq, body in enumerate(stored, 1))
            session.commit()
            state = self._remember(record, table)
        return state, scorer_key, viewer_key

    def viewer_key(self, table_id: str) -> str:
        with self._session() as session:
            return self._record(session, table_id).viewer_key

    def state(self, table_id: str) -> dict:
        with self._session() as session:
            self._snapshot(session)
            record = self._record(session, table_id)
            return self._serialise(session, record, self._replayed(session, record))

    def snapshot(self, table_id: str) -> tuple:
        """(state, engine table) of a table: the pages ask the engine what is possible on the second, read-only."""
        with self._session() as session:
            self._snapshot(session)
            record = self._record(session, table_id)
            table = self._replayed(session, record)
            return self._serialise(session, record, table), table

    def events(self, table_id: str) -> list:
        with self._session() as session:
            self._record(session, table_id)
            rows = session.exec(select(EventRecord).where(EventRecord.table_id == table_id)
                                .order_by(EventRecord.seq)).all()
            return [row.to_dict() for row in rows]

    # --- writing ------------------------------------------------------------------------------------------
    def append(self, table_id: str, body: dict, expected_version=None, client_event_id=None,
               expected_revision=None) -> tuple:
        """Stores one event if the engine accepts it. Returns (status, state): 201 stored, 200 a retry."""
        with self._writing() as session:
            record = self._lock_table(session, table_id)
            if client_event_id is not None:
                seen = session.exec(select(EventRecord.id).where(EventRecord.table_id == table_id,
                                                                 EventRecord.client_event_id == client_event_id))
                if seen.first() is not None:
                    session.rollback()
                    return 200, self.state(table_id)
            self._check_version(record, expected_version, expected_revision)
            game = get_game(record.game)
            before = self._replayed(session, record, record.revision - 1, keep=False)
            event = game.parse_event(before, body)
            after = successor(game, before, event)
            body = _own_fields(event, body)
            seq = (session.exec(select(func.max(EventRecord.seq)).where(EventRecord.table_id == table_id)).one()
                   or 0) + 1
            session.add(EventRecord(table_id=table_id, seq=seq, type=body["type"], body=body,
                                    client_event_id=client_event_id))
            record.version = after.version
            session.add(record)
            session.commit()
            return 201, self._remember(record, after)

    def undo(self, table_id: str, expected_version=None, expected_revision=None, client_event_id=None) -> dict:
        """Withdraws the last event in force (it stays in the history); 422 when there is none. An undo retried
        with the same ``client_event_id`` withdraws nothing more and answers the state."""
        with self._writing() as session:
            record = self._lock_table(session, table_id)
            if client_event_id is not None:
                seen = session.exec(select(EventRecord.id).where(EventRecord.table_id == table_id,
                                                                 EventRecord.withdrawn_by == client_event_id))
                if seen.first() is not None:
                    session.rollback()
                    return self.state(table_id)
            self._check_version(record, expected_version, expected_revision)
            last = session.exec(select(EventRecord).where(EventRecord.table_id == table_id,
                                                          EventRecord.withdrawn == False)  # noqa: E712
                                .order_by(EventRecord.seq.desc())).first()
            if last is None:
                raise RuleError("nothing_to_undo", "There is nothing to undo at this table.")
            last.withdrawn, last.withdrawn_at, last.withdrawn_by = True, _now(), client_event_id
            session.add(last)
            record.version -= 1
            session.add(record)
            session.flush()
            table = self._replay(session, record)
            session.commit()
            return self._remember(record, table)

    def rematch(self, table_id: str) -> tuple:
        """A finished series goes on at a new table: the same players, options and keys (every link of the old
        table opens the new one with its id), the next dealer as the game would go on (R-COMMON-2; Brouc's stays
        after a declared cape). Returns (status, state): 201 made now, 200 made before (one rematch, however many
        taps). The old table's revision moves, so its live views learn of the rematch at their next poll."""
        with self._writing() as session:
            old = self._lock_table(session, table_id)
            made = session.get(RematchRecord, table_id)
            if made is not None:
                new_id = made.new_id
                session.rollback()
                return 200, self.state(new_id)
            game = get_game(old.game)
            played = self._replayed(session, old, old.revision - 1)
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
            self._cache.put(old.id, old.revision, played)
            return 201, self._remember(new, table)

    # --- inside -------------------------------------------------------------------------------------------
    def _snapshot(self, session: Session) -> None:
        if self.engine.dialect.name == "postgresql":  # the record and its events read from one snapshot
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})

    def _record(self, session: Session, table_id: str) -> TableRecord:
        record = session.get(TableRecord, table_id) if isinstance(table_id, str) else None
        if record is None:
            raise NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))
        return record

    def _lock_table(self, session: Session, table_id: str) -> TableRecord:
        """Takes the table's write lock by bumping its revision first: writers to one table queue here."""
        result = session.exec(update(TableRecord).where(TableRecord.id == table_id)
                              .values(revision=TableRecord.revision + 1))
        if result.rowcount == 0:
            session.rollback()
            raise NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))
        return session.exec(select(TableRecord).where(TableRecord.id == table_id)
                            .execution_options(populate_existing=True)).one()

    def _check_version(self, record: TableRecord, expected, expected_revision=None) -> None:
        """409 when the phone's view is stale. ``version`` (the contract's) goes down on undo, so a phone that saw
        version 5, an undo and a new entry would pass; ``expected_revision`` (every change) catches that too."""
        if expected_revision is not None and expected_revision != record.revision - 1:  # before our own bump
            raise Conflict("version_conflict", "The table changed meanwhile: look at the new state and enter it "
                           "again if it is still needed.", version=record.version, revision=record.revision - 1)
        if expected is not None and expected != record.version:
            raise Conflict("version_conflict", "The table changed meanwhile: look at the new state and enter it "
                           "again if it is still needed.", version=record.version, revision=record.revision - 1)

    def _replayed(self, session: Session, record: TableRecord, revision: int | None = None, keep: bool = True):
        """The engine state of a table at ``revision`` (default: the record's), from the cache or by replay; a
        write (``keep=False``) does not keep the state it replaces, only the one it makes."""
        revision = record.revision if revision is None else revision
        table = self._cache.get(record.id, revision)
        if table is None:
            table = self._replay(session, record)
            if keep:
                self._cache.put(record.id, revision, table)
        return table

    @staticmethod
    def _replay(session: Session, record: TableRecord):
        rows = session.exec(select(EventRecord.body).where(EventRecord.table_id == record.id,
                                                           EventRecord.withdrawn == False)  # noqa: E712
                            .order_by(EventRecord.seq)).all()
        return get_game(record.game).replay(record.players, record.options, record.dealer, rows)

    def _remember(self, record: TableRecord, table) -> dict:
        self._cache.put(record.id, record.revision, table)
        with self._session() as session:  # the write's own session is committed: its links are read afresh
            return self._serialise(session, record, table)

    @staticmethod
    def _serialise(session: Session, record: TableRecord, table) -> dict:
        state = {"id": record.id, "revision": record.revision}
        state.update(get_game(record.game).serialise(table))
        links = session.exec(select(RematchRecord).where(or_(RematchRecord.old_id == record.id,
                                                             RematchRecord.new_id == record.id))).all()
        state["rematch"] = next((link.new_id for link in links if link.old_id == record.id), None)
        state["rematch_of"] = next((link.old_id for link in links if link.new_id == record.id), None)
        return state


def _own_fields(event, body: dict) -> dict:
    """What is stored of an event's body: its type and the fields its parser reads, nothing else."""
    names = [f.name for f in fields(event)] + list(getattr(event, "extra_fields", ()))
    return {"type": event.type, **{name: body[name] for name in names if name in body}}
