"""What the clubs' store (``referee/club/store.py``) asks the database, on a connection the ledger opened
(``Ledger.reading``, ``Ledger.writing``): SQLAlchemy Core statements, as ``ledger_tournaments.py`` asks a tournament's.

- A club's state is read in four statements whatever its size (``records``): its row, its members, its tables (each
  with its set-up, its members per seat and the time of its last entry in force that is not a signature: when its
  series finished, R-CLUB-1) and its tournaments. The tables' states come from ``Ledger.tables_at``.
- Every write locks the club's row first (``lock``: an UPDATE of its ``revision`` that answers the row), so two
  phones adding members at once are served one after the other; a new table or tournament of the club takes the
  same lock, so a member removed meanwhile never sits at it.
- ``erase`` writes "former member" in place of a removed member's name at every table and tournament of the club
  (their revisions move, so every cached state and live view is drawn again).
"""
from __future__ import annotations

import re

from sqlalchemy import false, func, insert, select, update

from referee.errors import Conflict, NotFound
from referee.games.signatures import KINDS as SIGNATURES
from referee.models import (ClubMemberRecord, ClubRecord, EventRecord, TableRecord, TournamentEntrantRecord,
                            TournamentRecord)

CLUBS, MEMBERS = ClubRecord.__table__, ClubMemberRecord.__table__
TABLES, EVENTS = TableRecord.__table__, EventRecord.__table__
TOURNAMENTS, ENTRANTS = TournamentRecord.__table__, TournamentEntrantRecord.__table__


# --- reading ----------------------------------------------------------------------------------------------
def keys(connection, club_id: str):
    """(key_hash, viewer_key) of a club, or None."""
    return connection.execute(select(CLUBS.c.key_hash, CLUBS.c.viewer_key).where(CLUBS.c.id == club_id)).first()


def revision(connection, club_id: str) -> int | None:
    """The club's revision: its own plus its tables' (each grows with every entry and undo), one statement; None
    for no such club."""
    tables = (select(func.coalesce(func.sum(TABLES.c.revision), 0)).where(TABLES.c.club_id == club_id)
              .scalar_subquery())
    return connection.execute(select(CLUBS.c.revision + tables).where(CLUBS.c.id == club_id)).scalar()


def revisions(connection, club_ids) -> dict:
    """club id -> its revision (as ``revision``), for the live views of several clubs in one statement."""
    ids = list(club_ids)
    if not ids:
        return {}
    tables = dict(connection.execute(select(TABLES.c.club_id, func.sum(TABLES.c.revision))
                                     .where(TABLES.c.club_id.in_(ids)).group_by(TABLES.c.club_id)).all())
    own = connection.execute(select(CLUBS.c.id, CLUBS.c.revision, CLUBS.c.viewer_key, CLUBS.c.key_hash)
                             .where(CLUBS.c.id.in_(ids))).all()
    return {row.id: (row.revision + int(tables.get(row.id) or 0), row.viewer_key, row.key_hash) for row in own}


def records(connection, club_id: str) -> dict | None:
    """Everything stored of a club: ``head`` (its row), ``members`` (removed ones included, their names erased),
    ``tables`` (id, game, players, options, dealer, version, revision, members, created_at, viewer_key (the club's
    pages link to them), finished_at: the time of the last entry in force that is not a signature) and ``tournaments`` (id, name, game, created_at). None for no
    such club."""
    head = connection.execute(select(CLUBS).where(CLUBS.c.id == club_id)).mappings().first()
    if head is None:
        return None
    members = [dict(row) for row in connection.execute(
        select(MEMBERS.c.id, MEMBERS.c.name, MEMBERS.c.removed, MEMBERS.c.created_at)
        .where(MEMBERS.c.club_id == club_id).order_by(MEMBERS.c.created_at, MEMBERS.c.id)).mappings()]
    last = (select(EVENTS.c.table_id, func.max(EVENTS.c.at).label("finished_at"))
            .where(EVENTS.c.table_id.in_(select(TABLES.c.id).where(TABLES.c.club_id == club_id)),
                   EVENTS.c.withdrawn == false(), EVENTS.c.type.not_in(SIGNATURES))
            .group_by(EVENTS.c.table_id).subquery())
    tables = [dict(row) for row in connection.execute(
        select(TABLES.c.id, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.dealer, TABLES.c.version,
               TABLES.c.revision, TABLES.c.members, TABLES.c.created_at, TABLES.c.viewer_key, last.c.finished_at)
        .select_from(TABLES.outerjoin(last, last.c.table_id == TABLES.c.id))
        .where(TABLES.c.club_id == club_id).order_by(TABLES.c.created_at, TABLES.c.id)).mappings()]
    tournaments = [dict(row) for row in connection.execute(
        select(TOURNAMENTS.c.id, TOURNAMENTS.c.name, TOURNAMENTS.c.game, TOURNAMENTS.c.created_at)
        .where(TOURNAMENTS.c.club_id == club_id).order_by(TOURNAMENTS.c.created_at, TOURNAMENTS.c.id)).mappings()]
    return {"head": head, "members": members, "tables": tables, "tournaments": tournaments}


def club_of_table(connection, table_id: str):
    """(club id, members per seat) of a table, or None for a table of no club."""
    found = connection.execute(select(TABLES.c.club_id, TABLES.c.members).where(TABLES.c.id == table_id)).first()
    return found if found is not None and found.club_id else None


# --- writing ----------------------------------------------------------------------------------------------
def check_seats(connection, club_id: str, members) -> None:
    """Takes the club's lock for a new table or tournament of it (its revision moves: its pages learn of the new
    table); 404 for no such club, 409 ``player_not_found`` when one of ``members`` is not an active member."""
    if lock(connection, club_id) is None:
        raise NotFound("club_not_found", "There is no club {club}.", club=repr(club_id))
    active = {row.id for row in members_of(connection, club_id) if not row.removed}
    gone = [m for m in members if m is not None and m not in active]
    if gone:
        raise Conflict("player_not_found", "{player} is no longer a member of this club.", player=repr(gone[0]))


def insert_club(connection, values: dict) -> None:
    connection.execute(insert(CLUBS).values(**values))


def lock(connection, club_id: str):
    """Takes the club's write lock by bumping its revision: its row as it is now, None for no such club."""
    return connection.execute(update(CLUBS).where(CLUBS.c.id == club_id)
                              .values(revision=CLUBS.c.revision + 1).returning(*CLUBS.c)).first()


def members_of(connection, club_id: str) -> list:
    """The club's members, removed ones included (rows: id, name, removed, created_at)."""
    return list(connection.execute(select(MEMBERS).where(MEMBERS.c.club_id == club_id)
                                   .order_by(MEMBERS.c.created_at, MEMBERS.c.id)).all())


def insert_member(connection, club_id: str, member_id: str, name: str) -> None:
    connection.execute(insert(MEMBERS).values(id=member_id, club_id=club_id, name=name, removed=False))


def set_member(connection, club_id: str, member_id: str, **values) -> None:
    connection.execute(update(MEMBERS).where(MEMBERS.c.club_id == club_id, MEMBERS.c.id == member_id)
                       .values(**values))


def set_club(connection, club_id: str, **values) -> None:
    connection.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(**values))


def erase(connection, club_id: str, member_id: str, names) -> None:
    """A removed member's name erased wherever the club's records show it: each seat of a club table where the
    member sat and each of the club's tournament entrants takes ``names(taken)``, a word no other name of that
    table or entrant list has (``taken``: the names there, casefolded); each changed table's and tournament's
    revision moves. A tournament's log says the new word where it said the old name."""
    for row in connection.execute(select(TABLES.c.id, TABLES.c.players, TABLES.c.members)
                                  .where(TABLES.c.club_id == club_id)).all():
        seats = [i for i, member in enumerate(row.members or []) if member == member_id]
        if not seats:
            continue
        players = list(row.players)
        for seat in seats:
            players[seat] = names({p.casefold() for i, p in enumerate(players) if i != seat})
        connection.execute(update(TABLES).where(TABLES.c.id == row.id)
                           .values(players=players, revision=TABLES.c.revision + 1))
    for tournament in connection.execute(select(TOURNAMENTS.c.id, TOURNAMENTS.c.log)
                                         .where(TOURNAMENTS.c.club_id == club_id)).all():
        entrants = connection.execute(select(ENTRANTS.c.id, ENTRANTS.c.names, ENTRANTS.c.members)
                                      .where(ENTRANTS.c.tournament_id == tournament.id)).all()
        taken = {n.casefold() for e in entrants for n in e.names}
        swaps = {}
        for entrant in entrants:
            spots = [i for i, member in enumerate(entrant.members or []) if member == member_id]
            if not spots:
                continue
            changed = list(entrant.names)
            for spot in spots:
                word = names(taken)
                taken.add(word.casefold())
                swaps[changed[spot]] = word
                changed[spot] = word
            connection.execute(update(ENTRANTS).where(ENTRANTS.c.id == entrant.id).values(names=changed))
        if swaps:
            log = [{**act, "message": _swapped(act.get("message", ""), swaps)} for act in tournament.log or []]
            connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament.id)
                               .values(log=log, revision=TOURNAMENTS.c.revision + 1))


def _swapped(message: str, swaps: dict) -> str:
    """The message with each old name (a whole name, not a part of a longer one) said as its new word."""
    for old, new in swaps.items():
        message = re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", lambda _match: new, message)
    return message
