"""The stored records: tables, their append-only event log, rematch links (SQLModel). ``referee/ledger.py`` is the
only module that reads or writes them; the schema's history is in ``referee/migrations/``."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


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
