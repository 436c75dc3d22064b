"""What the ledger's frequent calls ask the database, each in as few statements as it can (SQLAlchemy Core on one
connection, no ORM objects to build):

- a read (``read_row``): the table's row and its rematch links, one SELECT; the events only when the state is not
  in the replay cache;
- an entry (``lock_row`` then ``insert_event``): one UPDATE that takes the table's write lock, bumps its revision
  and version and answers the row (``RETURNING``), one INSERT whose ``seq`` is worked out inside it;
- an undo: the same UPDATE, one UPDATE that withdraws the last event in force, and the events of the open deal.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import false, func, insert, select, update

from referee.models import EventRecord, RematchRecord, TableRecord, _now

TABLES, EVENTS, LINKS = TableRecord.__table__, EventRecord.__table__, RematchRecord.__table__
COLUMNS = (TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.dealer, TABLES.c.version,
           TABLES.c.revision)


@dataclass(frozen=True)
class Row:
    """A table as a state needs it: set-up, counters, rematch links."""

    id: str
    game: str
    players: list
    options: dict
    dealer: int
    version: int
    revision: int
    rematch: str | None = None
    rematch_of: str | None = None


def _links() -> tuple:
    rematch = select(LINKS.c.new_id).where(LINKS.c.old_id == TABLES.c.id).correlate(TABLES).scalar_subquery()
    rematch_of = select(LINKS.c.old_id).where(LINKS.c.new_id == TABLES.c.id).correlate(TABLES).scalar_subquery()
    return rematch.label("rematch"), rematch_of.label("rematch_of")


def read_row(connection, table_id: str) -> Row | None:
    found = connection.execute(select(*COLUMNS, *_links()).where(TABLES.c.id == table_id)).first()
    return Row(*found) if found is not None else None


def lock_row(connection, table_id: str, version_step: int) -> Row | None:
    """Takes the table's write lock (writers to one table queue here) by bumping its revision, and its version by
    ``version_step`` (+1 an entry, -1 an undo, 0 a rematch): the row as it is now, None for no such table. A
    refused write rolls the whole transaction back, bump included."""
    found = connection.execute(update(TABLES).where(TABLES.c.id == table_id)
                               .values(revision=TABLES.c.revision + 1, version=TABLES.c.version + version_step)
                               .returning(*COLUMNS, *_links())).first()
    return Row(*found) if found is not None else None


def keys(connection, table_id: str):
    """(scorer_hash, coscorer_hash, viewer_key) of a table, or None."""
    return connection.execute(select(TABLES.c.scorer_hash, TABLES.c.coscorer_hash, TABLES.c.viewer_key)
                              .where(TABLES.c.id == table_id)).first()


def seen(connection, table_id: str, client_event_id: str, *, entry: bool = True, undo: bool = True) -> bool:
    """An entry (``client_event_id``) or an undo (``withdrawn_by``) with this id is stored at this table."""
    kinds = ([EVENTS.c.client_event_id == client_event_id] if entry else []) + \
        ([EVENTS.c.withdrawn_by == client_event_id] if undo else [])
    where = kinds[0] if len(kinds) == 1 else (kinds[0] | kinds[1])
    return connection.execute(select(EVENTS.c.id).where(EVENTS.c.table_id == table_id, where)
                              .limit(1)).first() is not None


def insert_event(connection, table_id: str, body: dict, client_event_id: str | None) -> None:
    """Appends one event; its ``seq`` (the next one) is read by the INSERT itself, under the table's lock."""
    prior = EVENTS.alias("prior")
    seq = select(func.coalesce(func.max(prior.c.seq), 0) + 1).where(prior.c.table_id == table_id).scalar_subquery()
    connection.execute(insert(EVENTS).values(table_id=table_id, seq=seq, type=body["type"], body=body,
                                             client_event_id=client_event_id, at=_now(), withdrawn=False))


def withdraw_last(connection, table_id: str, client_event_id: str | None) -> bool:
    """Marks the last event in force withdrawn (it stays in the log); False when there is none."""
    last = EVENTS.alias("last")
    newest = (select(last.c.id).where(last.c.table_id == table_id, last.c.withdrawn == false())
              .order_by(last.c.seq.desc()).limit(1).scalar_subquery())
    done = connection.execute(update(EVENTS).where(EVENTS.c.id == newest)
                              .values(withdrawn=True, withdrawn_at=_now(), withdrawn_by=client_event_id))
    return done.rowcount == 1


def bodies(connection, table_id: str, newest: int | None = None) -> list:
    """The bodies of the events in force, in order: all of them, or only the ``newest`` ones."""
    query = select(EVENTS.c.body).where(EVENTS.c.table_id == table_id, EVENTS.c.withdrawn == false())
    if newest is None:
        return list(connection.execute(query.order_by(EVENTS.c.seq)).scalars())
    if newest <= 0:
        return []
    found = list(connection.execute(query.order_by(EVENTS.c.seq.desc()).limit(newest)).scalars())
    found.reverse()
    return found
