"""The stored records: tables, their append-only event log, rematch links (SQLModel), and tournaments. The ledger's
modules (``referee/store/``) are the only ones that read or write them, in SQLAlchemy Core statements on these
tables (``rows.py`` a table's, ``tournaments.py`` a tournament's); ``referee/tournament/store.py``
decides what a tournament's write stores (entrants, rounds, seatings, table cards, a round's new tables), never a
table's events or result. The schema's history is in ``migrations/``."""
from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timezone

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from referee.errors import RuleError


def utc_now() -> datetime:
    """Now, in UTC: what every record stores."""
    return datetime.now(timezone.utc)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_role(key: str, writer_hash: str, cowriter_hash: str | None, viewer_key: str) -> str | None:
    """What ``key`` opens: "writer" (its hash is the writer's or the co-writer's: a table's scorer and co-scorer,
    a tournament's director), "viewer" (the viewer key itself), or None. Compared in constant time."""
    hashed = hash_key(key)
    if hmac.compare_digest(hashed, writer_hash) or bool(cowriter_hash and hmac.compare_digest(hashed, cowriter_hash)):
        return "writer"
    if hmac.compare_digest(key.encode(), viewer_key.encode()):
        return "viewer"
    return None


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
    created_at: datetime = Field(default_factory=utc_now)
    # The trick under way, tapped card by card on a scorer's page: its cards' codes joined by "." (in play order)
    # and the revision they belong to. Never an event: it counts in neither version nor revision, is in no export,
    # and is void as soon as the table's revision moves (an entry, an undo) unless that write puts it again.
    draft: str | None = Field(default=None, max_length=64)
    draft_revision: int | None = None
    # How the table enters its deals ("trick", "capture", "numbers"; None: the game's first), for every phone that
    # opens it (R-COMMON-6): a phone's choice, never an event, in neither version nor revision, in no export.
    entry_mode: str | None = Field(default=None, max_length=16)
    # A club's table (R-CLUB-1): its club, and per seat the member sitting there (a member's id, None for a guest)
    club_id: str | None = Field(default=None, max_length=32, index=True)
    members: list | None = Field(default=None, sa_column=Column(JSON, nullable=True))


# what the log adds to an event (who made it and why, R-COMMON-8, included)
LOG_FIELDS = ("seq", "at", "withdrawn", "withdrawn_at", "client_event_id", "own", "by", "reason", "withdrawal")
WHO = ("scorer", "coscorer", "director", "import")  # whose key made an entry or a withdrawal (R-COMMON-8)


def entered(doc: dict) -> dict:
    """An event as it was entered, from its document in the log or an export (``EventRecord.to_dict``): without
    the log's fields, with its own fields of the same names back from ``own``. A document without ``own`` (an
    export written before it) gives its other fields."""
    own = doc.get("own") or {}
    if not isinstance(own, dict):
        raise RuleError("bad_import", "An import is an export of Referee: its table and its events.", field="own")
    return {**{name: value for name, value in doc.items() if name not in LOG_FIELDS},
            **{name: value for name, value in own.items() if name in LOG_FIELDS}}


class EventRecord(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq"), UniqueConstraint("table_id", "client_event_id"))
    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="tables.id", max_length=32)  # found through both constraints (0008)
    seq: int
    type: str = Field(max_length=32)
    body: dict = Field(sa_column=Column(JSON, nullable=False))
    client_event_id: str | None = Field(default=None, max_length=128)
    at: datetime = Field(default_factory=utc_now)
    withdrawn: bool = False
    withdrawn_at: datetime | None = None
    withdrawn_by: str | None = Field(default=None, max_length=128)  # the undo's client_event_id, when given
    # R-COMMON-8: whose key made it (one of WHO; "scorer" for the entries made before it was kept) and the reason
    # given with it (a director's write always has one), and the same of its withdrawal
    entered_by: str = Field(default="scorer", max_length=16, sa_column_kwargs={"server_default": "scorer"})
    reason: str | None = Field(default=None, max_length=300)
    withdrawn_role: str | None = Field(default=None, max_length=16)
    withdrawn_reason: str | None = Field(default=None, max_length=300)

    def to_dict(self) -> dict:
        """The event as the log gives it (docs/api.md, "The log"): its own fields and the log's. An own field with
        a log field's name (an extension's ``at``, where the run takes its cards) is given in ``own``: the log's
        ``at`` stays the time it was stored, for every event, and nothing entered is lost (``entered`` reads it)."""
        own = {name: value for name, value in self.body.items() if name in LOG_FIELDS}
        doc = {name: value for name, value in self.body.items() if name not in own}
        doc.update(seq=self.seq, type=self.type, at=iso(self.at), withdrawn=self.withdrawn,
                   by=self.entered_by or "scorer")
        if self.reason:
            doc["reason"] = self.reason
        if own:
            doc["own"] = own
        if self.withdrawn_at is not None:
            doc["withdrawn_at"] = iso(self.withdrawn_at)
        if self.withdrawn:
            doc["withdrawal"] = {"at": doc.get("withdrawn_at"), "by": self.withdrawn_role or "scorer"}
            if self.withdrawn_reason:
                doc["withdrawal"]["reason"] = self.withdrawn_reason
        if self.client_event_id is not None:
            doc["client_event_id"] = self.client_event_id
        return doc


class RematchRecord(SQLModel, table=True):
    """Old table -> its rematch. A table of its own: ``create_all`` adds it to a database made before it, and no
    column of ``tables`` changes. ``old_id`` is the key: one rematch per table, whatever the retries."""
    __tablename__ = "rematches"
    old_id: str = Field(primary_key=True, foreign_key="tables.id", max_length=32)
    new_id: str = Field(foreign_key="tables.id", unique=True, max_length=32)
    created_at: datetime = Field(default_factory=utc_now)


class TournamentRecord(SQLModel, table=True):
    """A tournament or a club evening: its plan, how a table's result becomes victory points, its keys, its log."""
    __tablename__ = "tournaments"
    id: str = Field(primary_key=True, max_length=32)
    game: str = Field(max_length=32)
    name: str = Field(max_length=120)
    plan: list = Field(sa_column=Column(JSON, nullable=False))  # [{"movement", "hands"?, "deals"?}] per round
    vp_table: list = Field(sa_column=Column(JSON, nullable=False))  # [[max_difference | null, winner, loser]]
    options: dict = Field(sa_column=Column(JSON, nullable=False))  # every table's options beside the round's length
    director_hash: str = Field(max_length=64)  # only a hash of the director's key is stored
    viewer_key: str = Field(max_length=64)
    log: list = Field(sa_column=Column(JSON, nullable=False))  # the director's acts (penalties too), each with its sentence
    revision: int = 0  # every change of the tournament's own records (its tables count theirs)
    # R-COMMON-7: a round closes (without force) only once each of its tables is signed or has an arbitral result
    require_signatures: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    standings_hidden: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})  # the last round's secret
    club_id: str | None = Field(default=None, max_length=32, index=True)  # a club's tournament (R-CLUB-1)
    created_at: datetime = Field(default_factory=utc_now)


class TournamentEntrantRecord(SQLModel, table=True):
    """One pair or one player; ``number`` is its place in the list (0 first), kept when others withdraw."""
    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    number: int
    names: list = Field(sa_column=Column(JSON, nullable=False))
    joined: int = 0  # the first round it may play (added between rounds: the next one)
    withdrawn: int | None = None  # withdrawn after this many rounds; plays no round after
    members: list | None = Field(default=None, sa_column=Column(JSON, nullable=True))  # per name: a member's id or None


class TournamentRoundRecord(SQLModel, table=True):
    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    number: int  # 1 first
    movement: str = Field(max_length=16)
    bye: int | None = None  # the entrant without a table this round
    closed: bool = False
    created_at: datetime = Field(default_factory=utc_now)


class TournamentTableRecord(SQLModel, table=True):
    """Who sits at a round's table, and which ordinary table it is; its result is read from that table's log."""
    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournaments.id", index=True, max_length=32)
    round: int
    number: int  # 1 first: the table card's number
    table_id: str = Field(foreign_key="tables.id", unique=True, max_length=32)
    ns: int  # entrant numbers: North-South (side 0) and East-West (side 1)
    ew: int
    forced: bool = False  # finished by the director when the round closed (the reason is in the log)
    arbitral: list | None = Field(default=None, sa_column=Column(JSON, nullable=True))  # [vp_ns, vp_ew], R-TOURN-1


class TournamentCardRecord(SQLModel, table=True):
    """A table card: its key is the scorer key of every round's table at its number, so one printed QR code leads
    to that number's table of the current round. Kept to print the card again (the director's page only)."""
    __tablename__ = "tournament_cards"
    tournament_id: str = Field(primary_key=True, foreign_key="tournaments.id", max_length=32)
    number: int = Field(primary_key=True)
    key: str = Field(max_length=64)


class TournamentActRecord(SQLModel, table=True):
    """A director's act made once (R-TOURN-5): the act a form or an ``Idempotency-Key`` stood for (``key``: an
    HMAC of the form's id, the act's kind and what it asked, ``once.py``), stored in the act's transaction.
    Its primary key lets one such act in: the same act sent again (a double tap, a retry, two at the same instant)
    finds it and answers as the first did (``answer``: what the first answered beside the state, ``status``)."""
    __tablename__ = "tournament_acts"
    tournament_id: str = Field(primary_key=True, foreign_key="tournaments.id", max_length=32)
    key: str = Field(primary_key=True, max_length=64)
    kind: str = Field(max_length=16)
    status: int = 200
    answer: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    created_at: datetime = Field(default_factory=utc_now)


class ClubRecord(SQLModel, table=True):
    """A club (R-CLUB-1): its name, its keys (only the club key's hash is stored; the viewer key opens its wall) and
    the day its season starts (ISO date; None: every series counts)."""
    __tablename__ = "clubs"
    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=120)
    key_hash: str = Field(max_length=64)
    viewer_key: str = Field(max_length=64)
    season_start: str | None = Field(default=None, max_length=10)
    revision: int = 0  # every change of the club's own records (its tables count theirs)
    created_at: datetime = Field(default_factory=utc_now)


class ClubMemberRecord(SQLModel, table=True):
    """A member of a club. Removed, the name is erased (None) here and at every table and tournament where it was
    shown; the row stays so that the results and ratings of the others stay as they were."""
    __tablename__ = "club_members"
    id: str = Field(primary_key=True, max_length=32)
    club_id: str = Field(foreign_key="clubs.id", index=True, max_length=32)
    name: str | None = Field(default=None, max_length=40)
    removed: bool = False
    created_at: datetime = Field(default_factory=utc_now)


def iso(moment: datetime) -> str:
    """A stored time as the API writes it: ISO 8601 in UTC with a Z (``2026-12-07T08:40:20.123456Z``)."""
    if moment.tzinfo is None:  # SQLite gives back naive datetimes; they were stored in UTC
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.isoformat().replace("+00:00", "Z")
