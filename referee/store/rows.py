"""What the ledger asks the database about tables and events, each call in as few statements as it can (SQLAlchemy
Core on one connection, no ORM objects to build: the one way Referee reads and writes, ``tournaments.py``
too). The frequent calls:

- a read (``read_row``): the table's row and its rematch links, one SELECT; the events only when the state is not
  in the replay cache;
- an entry (``lock_row`` then ``insert_event``; its short way, ``entry_write.py``, the same two with every check in
  the UPDATE's WHERE): one UPDATE that takes the table's write lock, bumps its revision
  and version and answers the row (``RETURNING``), one INSERT whose ``seq`` is worked out inside it;
- an undo: the same UPDATE, one UPDATE that withdraws the last event in force, and the events of the open deal;
- a card tapped into the trick under way (``set_draft``): one conditional UPDATE of the table's draft, made only if
  the table is still at the revision and the draft the phone saw (its lock, its check and its write in one).

The rarer ones (a new table, its keys, its log, the live views' counters, a rematch's link) follow them below.
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass

from sqlalchemy import bindparam, case, false, func, insert, literal_column, or_, select, update

from referee.errors import Forbidden, NotFound, Unauthorized
from referee.errors import Conflict
from referee.games.signatures import SIGNATURES
from referee.store.records import (EventRecord, RematchRecord, TableRecord, TournamentRecord, TournamentTableRecord,
                                   hash_key, utc_now)

TABLES, EVENTS, LINKS = TableRecord.__table__, EventRecord.__table__, RematchRecord.__table__
TOURNAMENTS, SEATED = TournamentRecord.__table__, TournamentTableRecord.__table__
WRITERS = ("scorer", "coscorer", "director")  # the roles that write (R-COMMON-8 keeps which one did)
COLUMNS = (TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.dealer, TABLES.c.version,
           TABLES.c.revision, TABLES.c.draft, TABLES.c.draft_revision, TABLES.c.entry_mode)


@dataclass(frozen=True)
class TableRow:
    """A table as a state needs it: set-up, counters, rematch links."""

    id: str
    game: str
    players: list
    options: dict
    dealer: int
    version: int
    revision: int
    draft: str | None = None  # the trick under way, as stored: card codes joined by "."
    draft_revision: int | None = None  # the revision it belongs to: void at any other
    entry_mode: str | None = None  # how the table enters its deals, as a phone chose it (None: the game's first)
    rematch: str | None = None
    rematch_of: str | None = None
    keys: tuple | None = None  # (scorer_hash, coscorer_hash, viewer_key, director_hash), as ``keys`` reads them

    @property
    def in_tournament(self) -> bool:
        """A round's table (its tournament's director's key opens it): a signed result locks it (R-COMMON-7)."""
        return bool(self.keys and self.keys[3])

    def trick(self, revision: int | None = None) -> tuple:
        """The cards of the trick under way at ``revision`` (the row's own by default), () when there is none."""
        return cards_of(self.draft, self.draft_revision, self.revision if revision is None else revision)


def cards_of(draft: str | None, draft_revision: int | None, revision: int) -> tuple:
    """A stored draft's card codes, when it belongs to ``revision``; else ()."""
    return tuple(draft.split(".")) if draft and draft_revision == revision else ()


def draft_text(cards) -> str | None:
    """Card codes as a draft stores them (None for no card)."""
    return ".".join(cards) or None


def _links() -> tuple:
    rematch = select(LINKS.c.new_id).where(LINKS.c.old_id == TABLES.c.id).correlate(TABLES).scalar_subquery()
    rematch_of = select(LINKS.c.old_id).where(LINKS.c.new_id == TABLES.c.id).correlate(TABLES).scalar_subquery()
    return rematch.label("rematch"), rematch_of.label("rematch_of")


# The frequent statements are built once, their values bound at each call: building a statement (and its cache key)
# again on every entry cost more than running it.
_ID, _STEP, _CLIENT = bindparam("b_table"), bindparam("b_step"), bindparam("b_client")
# The director's key of the table's tournament opens it too (None for a free table): read with its keys. Its names
# are spelt whole: an UPDATE's RETURNING writes its columns without their table's name (SQLite: "id" ambiguous).
_DIRECTOR = (select(TOURNAMENTS.c.director_hash).select_from(SEATED.join(
    TOURNAMENTS, literal_column("tournaments.id") == literal_column("tournament_tables.tournament_id")))
    .where(literal_column("tournament_tables.table_id") == literal_column("tables.id"))
    .scalar_subquery().label("director_hash"))
_KEY_COLUMNS = (TABLES.c.scorer_hash, TABLES.c.coscorer_hash, TABLES.c.viewer_key, _DIRECTOR)
# A read and a write answer the table's keys with its row, so that the key a request carries is checked on the same
# statement (Ledger.look, Ledger.append), not by one more connection and query before it.
_READ = select(*COLUMNS, *_links(), *_KEY_COLUMNS).where(TABLES.c.id == _ID)
_LOCK = (update(TABLES).where(TABLES.c.id == _ID)
         .values(revision=TABLES.c.revision + 1, version=TABLES.c.version + _STEP)
         .returning(*COLUMNS, *_links(), *_KEY_COLUMNS))
_KEYS = select(*_KEY_COLUMNS).where(TABLES.c.id == _ID)
_PRIOR = EVENTS.alias("prior")
_INSERT = insert(EVENTS).values(
    table_id=_ID, type=bindparam("b_type"), body=bindparam("b_body", type_=EVENTS.c.body.type),
    client_event_id=_CLIENT, at=bindparam("b_at", type_=EVENTS.c.at.type), withdrawn=False,
    entered_by=bindparam("b_by"), reason=bindparam("b_reason"),
    seq=select(func.coalesce(func.max(_PRIOR.c.seq), 0) + 1).where(_PRIOR.c.table_id == _ID).scalar_subquery())
_LAST = EVENTS.alias("last")
_WITHDRAW = update(EVENTS).where(EVENTS.c.id == (
    select(_LAST.c.id).where(_LAST.c.table_id == _ID, _LAST.c.withdrawn == false())
    .order_by(_LAST.c.seq.desc()).limit(1).scalar_subquery())).values(
    withdrawn=True, withdrawn_at=bindparam("b_at", type_=EVENTS.c.withdrawn_at.type),
    withdrawn_by=_CLIENT, withdrawn_role=bindparam("b_by"), withdrawn_reason=bindparam("b_reason")).returning(EVENTS.c.body)
# A director's correction withdraws the last entry that is no signature: the signatures stay (R-COMMON-7)
_WITHDRAW_PLAY = update(EVENTS).where(EVENTS.c.id == (
    select(_LAST.c.id).where(_LAST.c.table_id == _ID, _LAST.c.withdrawn == false(), _LAST.c.type.not_in(SIGNATURES))
    .order_by(_LAST.c.seq.desc()).limit(1).scalar_subquery())).values(
    withdrawn=True, withdrawn_at=bindparam("b_at", type_=EVENTS.c.withdrawn_at.type),
    withdrawn_by=_CLIENT, withdrawn_role=bindparam("b_by"), withdrawn_reason=bindparam("b_reason")).returning(EVENTS.c.body)
_DRAFT, _AT = bindparam("b_draft", type_=TABLES.c.draft.type), bindparam("b_revision", type_=TABLES.c.revision.type)
_SEEN_DRAFT = bindparam("b_seen", type_=TABLES.c.draft.type)
_PUT_DRAFT = update(TABLES).where(TABLES.c.id == _ID).values(draft=_DRAFT, draft_revision=_AT)
_SET_DRAFT = update(TABLES).where(
    TABLES.c.id == _ID, TABLES.c.revision == _AT,
    func.coalesce(case((TABLES.c.draft_revision == _AT, TABLES.c.draft)), "") == _SEEN_DRAFT).values(
    draft=_DRAFT, draft_revision=_AT)
_PUT_WAY = update(TABLES).where(TABLES.c.id == _ID).values(
    entry_mode=bindparam("b_way", type_=TABLES.c.entry_mode.type))
_IN_FORCE = select(EVENTS.c.body).where(EVENTS.c.table_id == _ID, EVENTS.c.withdrawn == false())
_ALL = _IN_FORCE.order_by(EVENTS.c.seq)
_NEWEST = _IN_FORCE.order_by(EVENTS.c.seq.desc()).limit(bindparam("b_newest"))
_SEEN = {(entry, undo): select(EVENTS.c.id).where(
    EVENTS.c.table_id == _ID,
    or_(*([EVENTS.c.client_event_id == _CLIENT] if entry else []) + ([EVENTS.c.withdrawn_by == _CLIENT] if undo else [])))
    .limit(1) for entry in (True, False) for undo in (True, False) if entry or undo}


def missing(table_id) -> NotFound:
    """The refusal of a call naming no table (``read_row`` or ``lock_row`` answered None)."""
    return NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))


def role_of(keys: tuple, key: str | None, write: bool = False) -> str:
    """Whose key ``key`` is at a table whose ``keys`` are (scorer_hash, coscorer_hash, viewer_key, director_hash):
    'scorer', 'coscorer', 'director' (its tournament's, R-COMMON-8) or 'viewer'; 401 for no or a wrong key, 403 for
    a viewer key on a writing call. Compared in constant time."""
    if not key:
        raise Unauthorized("key_required", "This table needs its key: add ?key=… or an Authorization header.")
    role = table_role(key, *keys)
    if role == "viewer" and write:
        raise Forbidden("read_only_key", "This is the viewer key: it shows the table but cannot change it.")
    if role is None:
        raise Unauthorized("bad_key", "This key does not open this table.")
    return role


def table_role(key: str, scorer_hash: str, coscorer_hash: str | None, viewer_key: str,
             director_hash: str | None = None) -> str | None:
    """'scorer', 'coscorer', 'director', 'viewer' or None for ``key`` at a table with these keys, every one
    compared (in constant time) whichever matches."""
    hashed = hash_key(key)
    found = [role for role, stored in (("scorer", scorer_hash), ("coscorer", coscorer_hash),
                                       ("director", director_hash)) if stored and hmac.compare_digest(hashed, stored)]
    viewer = hmac.compare_digest(key.encode(), (viewer_key or "").encode())
    return found[0] if found else ("viewer" if viewer else None)


def signed_lock(in_tournament: bool, role: str, table) -> None:
    """R-COMMON-7: a round's table whose result is signed is closed to the table's own keys (409 ``signed``): only
    the director corrects it. So is one under the director's correction: a side has confirmed or called the director
    and the director's undo opened the series again (a correction is the director's alone, and the signatures it
    keeps were given to the result before it)."""
    if role in ("scorer", "coscorer") and in_tournament and closed_to_sides(table):
        raise Conflict("signed", "Both sides signed this table's result: only the director can change it now. "
                       "Call the director if it is wrong.", rule="R-COMMON-7")


def closed_to_sides(table) -> bool:
    """R-COMMON-7: a round's table in this state refuses its own keys (``signed_lock``): signed by every side, or
    under the director's correction."""
    return bool((len(table.signatures) == len(table.sides) and not table.disputes) or
                ((table.signatures or table.disputes) and not table.finished))


def director_may_sign(table, body) -> bool:
    """R-COMMON-7b: the director's key may enter ``body`` here: anything but a side's confirmation of a corrected
    result not yet signed again (``sides_sign``)."""
    return not (isinstance(body, dict) and body.get("type") == "confirm" and table.correction is not None
                and not (len(table.signatures) == len(table.sides) and not table.disputes))


def sides_sign(role: str, table, body) -> None:
    """R-COMMON-7b: a result the director corrected is confirmed again by the sides, with the table's own keys only
    (403 ``sides_sign``): the director's key does not sign for a side."""
    if role == "director" and not director_may_sign(table, body):
        raise Forbidden("sides_sign", "Each side confirms the corrected result on the table's phone, with the "
                        "table's key: the director's key does not sign for a side.", rule="R-COMMON-7b")


def read_row(connection, table_id: str) -> TableRow | None:
    """The table's row, None for no such table (an id that is no text is none: never sent to the database)."""
    if not isinstance(table_id, str):
        return None
    return _row(connection.execute(_READ, {"b_table": table_id}).first())


def _row(found) -> TableRow | None:
    """A row as ``_READ`` and ``_LOCK`` answer it: its columns, its links, then its keys."""
    return TableRow(*found[:-4], keys=tuple(found[-4:])) if found is not None else None


def lock_row(connection, table_id: str, version_step: int) -> TableRow | None:
    """Takes the table's write lock (writers to one table queue here) by bumping its revision, and its version by
    ``version_step`` (+1 an entry, -1 an undo, 0 a rematch): the row as it is now, None for no such table. A
    refused write rolls the whole transaction back, bump included. (On PostgreSQL the rematch links it answers are
    as they were before it waited for the lock: ``Ledger.rematch`` reads them again.)"""
    if not isinstance(table_id, str):
        return None
    return _row(connection.execute(_LOCK, {"b_table": table_id, "b_step": version_step}).first())


def keys(connection, table_id: str):
    """(scorer_hash, coscorer_hash, viewer_key, director_hash) of a table, or None."""
    return connection.execute(_KEYS, {"b_table": table_id}).first() if isinstance(table_id, str) else None


_SET_UP = select(TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.dealer, TABLES.c.club_id,
                 TABLES.c.members, TABLES.c.scorer_hash).where(TABLES.c.id == _ID)


def set_up(connection, table_id: str):
    """(game, players, options, dealer, club_id, members, scorer_hash) of a table as it was made, or None."""
    return connection.execute(_SET_UP, {"b_table": table_id}).first() if isinstance(table_id, str) else None


def seen(connection, table_id: str, client_event_id: str, *, entry: bool = True, undo: bool = True) -> bool:
    """An entry (``client_event_id``) or an undo (``withdrawn_by``) with this id is stored at this table."""
    found = connection.execute(_SEEN[entry, undo], {"b_table": table_id, "b_client": client_event_id})
    return found.first() is not None


def insert_event(connection, table_id: str, body: dict, client_event_id: str | None, by: str = "scorer",
                 reason: str | None = None) -> None:
    """Appends one event, with whose key made it and its reason (R-COMMON-8); its ``seq`` (the next one) is read
    by the INSERT itself, under the table's lock."""
    connection.execute(_INSERT, {"b_table": table_id, "b_type": body["type"], "b_body": body,
                                 "b_client": client_event_id, "b_at": utc_now(), "b_by": by, "b_reason": reason})


def last_entered_by(connection, table_id: str) -> str | None:
    """Whose key made the last event in force (R-COMMON-8), None when there is none."""
    return connection.execute(select(EVENTS.c.entered_by).where(EVENTS.c.table_id == table_id,
                                                                EVENTS.c.withdrawn == false())
                              .order_by(EVENTS.c.seq.desc()).limit(1)).scalar()


def entry_in_force(connection, table_id: str, number: int) -> dict | None:
    """The ``number``-th event in force (from 1): whose key made it, why and when (R-COMMON-8), None if none."""
    found = connection.execute(select(EVENTS.c.entered_by, EVENTS.c.reason, EVENTS.c.at).where(
        EVENTS.c.table_id == table_id, EVENTS.c.withdrawn == false()).order_by(EVENTS.c.seq)
        .offset(max(number - 1, 0)).limit(1)).first()
    return None if found is None else {"by": found[0], "reason": found[1], "at": found[2]}


def withdraw_last(connection, table_id: str, client_event_id: str | None, by: str = "scorer",
                  reason: str | None = None, keep_signatures: bool = False) -> dict | None:
    """Marks the last event in force withdrawn (it stays in the log, with whose key withdrew it and why,
    R-COMMON-8): its body, None when there is none. ``keep_signatures``: the last that is no signature (a
    director's correction, R-COMMON-7)."""
    done = connection.execute(_WITHDRAW_PLAY if keep_signatures else _WITHDRAW,
                              {"b_table": table_id, "b_client": client_event_id, "b_at": utc_now(), "b_by": by,
                               "b_reason": reason})
    return done.scalar()


def set_draft(connection, table_id: str, cards, revision: int, seen) -> bool:
    """The trick under way becomes ``cards`` if the table is at ``revision`` with ``seen`` as its trick under way
    (two phones tapping at once: the second one's view is stale); False, and nothing written, otherwise."""
    done = connection.execute(_SET_DRAFT, {"b_table": table_id, "b_draft": draft_text(cards), "b_revision": revision,
                                           "b_seen": draft_text(seen) or ""})
    return done.rowcount == 1


def set_entry_mode(connection, table_id: str, mode: str) -> bool:
    """The table's way of entry becomes ``mode``: one UPDATE of its row, neither its revision nor its version."""
    return connection.execute(_PUT_WAY, {"b_table": table_id, "b_way": mode}).rowcount > 0


def put_draft(connection, table_id: str, cards, revision: int) -> None:
    """The trick under way is ``cards`` at ``revision``, under the table's lock (a write that carries it on)."""
    connection.execute(_PUT_DRAFT, {"b_table": table_id, "b_draft": draft_text(cards), "b_revision": revision})


def bodies(connection, table_id: str, newest: int | None = None) -> list:
    """The bodies of the events in force, in order: all of them, or only the ``newest`` ones."""
    if newest is None:
        return list(connection.execute(_ALL, {"b_table": table_id}).scalars())
    if newest <= 0:
        return []
    found = list(connection.execute(_NEWEST, {"b_table": table_id, "b_newest": newest}).scalars())
    found.reverse()
    return found


def bodies_of(connection, table_ids) -> dict:
    """table id -> the bodies of its events in force, in order, for many tables in one statement."""
    found = {table_id: [] for table_id in table_ids}
    if found:
        query = (select(EVENTS.c.table_id, EVENTS.c.body)
                 .where(EVENTS.c.table_id.in_(list(found)), EVENTS.c.withdrawn == false())
                 .order_by(EVENTS.c.table_id, EVENTS.c.seq))
        for table_id, body in connection.execute(query):
            found[table_id].append(body)
    return found


def log(connection, table_id: str) -> list:
    """Every event of the table, withdrawn ones included, as the log gives them (``EventRecord.to_dict``)."""
    found = connection.execute(select(EVENTS).where(EVENTS.c.table_id == table_id).order_by(EVENTS.c.seq))
    return [EventRecord(**row).to_dict() for row in found.mappings()]


def insert_table(connection, values: dict) -> None:
    """A new table's row (``TableRecord``'s columns; the others take their defaults)."""
    connection.execute(insert(TABLES).values(**values))


def insert_events(connection, table_id: str, bodies: list) -> None:
    """A new table's log at once (an import, R-COMMON-8: its entries are the import's), numbered from 1."""
    if bodies:
        connection.execute(insert(EVENTS), event_rows(table_id, bodies))


def event_rows(table_id: str, bodies: list, times: list | None = None) -> list:
    """A new table's log as rows (``insert_events``, ``insert_many``), numbered from 1, each entered by the import,
    when ``times`` says (a club's import keeps them), else now."""
    return [{"table_id": table_id, "seq": seq, "type": body["type"], "body": body, "entered_by": "import",
             **({"at": times[seq - 1]} if times is not None else {})} for seq, body in enumerate(bodies, 1)]


def insert_many(connection, tables: list, events: list) -> None:
    """New tables' rows (as ``insert_table``'s, all with the same columns), then their events' (``event_rows``):
    one statement each (``executemany``)."""
    if tables:
        connection.execute(insert(TABLES), tables)
    if events:
        connection.execute(insert(EVENTS), events)


def set_keys(connection, table_id: str, values: dict, where=None) -> bool:
    """Changes a table's keys (``viewer_key``, ``scorer_hash``, ``coscorer_hash``), only where ``where`` (a column
    -> value) holds; False when no row was changed."""
    conditions = [TABLES.c.id == table_id] + [TABLES.c[name] == value for name, value in (where or {}).items()]
    return connection.execute(update(TABLES).where(*conditions).values(**values)).rowcount > 0


def watched(connection, table_ids) -> dict:
    """id -> (revision, viewer_key, scorer_hash, coscorer_hash, draft, draft_revision, director_hash) of these
    tables."""
    columns = (TABLES.c.id, TABLES.c.revision, TABLES.c.viewer_key, TABLES.c.scorer_hash, TABLES.c.coscorer_hash,
               TABLES.c.draft, TABLES.c.draft_revision, _DIRECTOR)
    found = connection.execute(select(*columns).where(TABLES.c.id.in_(list(table_ids))))
    return {row[0]: tuple(row[1:]) for row in found}


def rematch_of(connection, table_id: str) -> str | None:
    """The id of the table's rematch, read by a statement of its own (after the lock: see ``lock_row``)."""
    return connection.execute(select(LINKS.c.new_id).where(LINKS.c.old_id == table_id)).scalar()


def link_rematch(connection, old_id: str, new_id: str) -> None:
    connection.execute(insert(LINKS).values(old_id=old_id, new_id=new_id))
