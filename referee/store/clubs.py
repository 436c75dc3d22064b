"""What the clubs' store (``referee/club/store.py``) asks the database, on a connection the ledger opened
(``Ledger.reading``, ``Ledger.write``): SQLAlchemy Core statements, as ``tournaments.py`` asks a tournament's.

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

from sqlalchemy import false, func, insert, select, update

from referee.errors import Conflict, NotFound, ParseError
from referee.games.signatures import SIGNATURES
from referee.store.records import (ClubMemberRecord, ClubRecord, EventRecord, TableRecord, TournamentEntrantRecord,
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


def records(connection, club_id: str) -> dict | None:
    """Everything stored of a club: ``head`` (its row), ``members`` (removed ones included, their names erased),
    ``tables`` (id, game, players, options, dealer, version, revision, members, created_at, viewer_key (the club's
    pages link to them) and finished_at: the time of the last entry in force that is not a signature) and
    ``tournaments`` (id, name, game, created_at). None for no such club."""
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


def insert_member(connection, club_id: str, member_id: str, name: str | None, removed: bool = False) -> None:
    connection.execute(insert(MEMBERS).values(id=member_id, club_id=club_id, name=name, removed=removed))


def set_member(connection, club_id: str, member_id: str, **values) -> None:
    connection.execute(update(MEMBERS).where(MEMBERS.c.club_id == club_id, MEMBERS.c.id == member_id)
                       .values(**values))


def set_club(connection, club_id: str, **values) -> None:
    connection.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(**values))


def erase(connection, club_id: str, member_id: str, word_for) -> None:
    """A removed member's name erased wherever the club's records show it: each of the club's tournament entrants and
    each seat of a club table where the member sat takes ``word_for(taken)``, a word no other name of that entrant
    list or table has (``taken``: the names there, casefolded); each changed tournament's and table's revision
    moves, and a tournament's log says the new names where its acts named the old ones. The locks in the house's
    order (the club's, taken by the caller; each tournament's row before its entrants; the tables last), so that a
    director's act or a round being seated meanwhile waits, never deadlocks."""
    for tournament_id in connection.execute(select(TOURNAMENTS.c.id).where(TOURNAMENTS.c.club_id == club_id)
                                            .order_by(TOURNAMENTS.c.id)).scalars().all():
        _erase_entrants(connection, tournament_id, member_id, word_for)
    for row in connection.execute(select(TABLES.c.id, TABLES.c.members).where(TABLES.c.club_id == club_id)
                                  .order_by(TABLES.c.id)).all():
        if member_id not in (row.members or []):
            continue
        players = connection.execute(update(TABLES).where(TABLES.c.id == row.id)  # its lock, then its names
                                     .values(revision=TABLES.c.revision + 1).returning(TABLES.c.players)).scalar()
        players = list(players)
        for seat, member in enumerate(row.members):
            if member == member_id:
                players[seat] = word_for({p.casefold() for i, p in enumerate(players) if i != seat})
        connection.execute(update(TABLES).where(TABLES.c.id == row.id).values(players=players))


def _erase_entrants(connection, tournament_id: str, member_id: str, word_for) -> bool:
    """One tournament's part of ``erase``: its row locked first (its log read with the lock), then its entrants."""
    entrants = connection.execute(select(ENTRANTS.c.members).where(ENTRANTS.c.tournament_id == tournament_id)).all()
    if not any(member_id in (e.members or []) for e in entrants):
        return False
    log = connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)
                             .values(revision=TOURNAMENTS.c.revision + 1).returning(TOURNAMENTS.c.log)).scalar()
    entrants = connection.execute(select(ENTRANTS.c.id, ENTRANTS.c.number, ENTRANTS.c.names, ENTRANTS.c.members)
                                  .where(ENTRANTS.c.tournament_id == tournament_id)
                                  .order_by(ENTRANTS.c.number)).all()
    taken = {n.casefold() for e in entrants for n in e.names}
    renamed = {}  # entrant number -> (its names as the log wrote them, as they are now)
    for entrant in entrants:
        if member_id not in (entrant.members or []):
            continue
        names = list(entrant.names)
        for spot, member in enumerate(entrant.members):
            if member == member_id:
                names[spot] = word_for(taken)
                taken.add(names[spot].casefold())
        renamed[entrant.number] = (" & ".join(entrant.names), " & ".join(names))
        connection.execute(update(ENTRANTS).where(ENTRANTS.c.id == entrant.id).values(names=names))
    connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)
                       .values(log=[_renamed(act, renamed) for act in log or []]))
    return True


def _renamed(act: dict, renamed: dict) -> dict:
    """A log act whose message named an entrant renamed (its ``entrant``, a round's ``bye``): the entrant's whole
    names as they are now in place of the old ones, nothing else of the sentence touched."""
    message = act.get("message")
    for field in ("entrant", "bye"):
        number = act.get(field)
        if isinstance(message, str) and not isinstance(number, bool) and number in renamed:
            old, new = renamed[number]
            message = message.replace(old, new)
    return {**act, "message": message} if message is not None else act


def seat_names(connection, club_id: str, items, by_name: bool = False) -> tuple:
    """(names, members) of a club's players (R-CLUB-1), read on ``connection``: an item ``{"player": id}`` is that
    member (by their name now), a plain name a guest's. With ``by_name`` (a form, a tournament's entrants) a name
    that is a member's is that member, whatever its case; without (the tables' API), a guest cannot take a
    member's name (422 ``member_name``): the seat would be the member's in a reader's eyes and a guest's in the
    figures. 422 ``unknown_player`` for an id that is no member, or a member who left."""
    active = [row for row in members_of(connection, club_id) if not row.removed]
    by_id = {row.id: row for row in active}
    named = {row.name.casefold(): row for row in active}
    names, seats = [], []
    for item in items:
        if isinstance(item, dict):
            member = by_id.get(item.get("player")) if isinstance(item.get("player"), str) else None
            if member is None or set(item) != {"player"}:
                raise ParseError("unknown_player", "{player} is not a member of this club.",
                                 player=repr(item.get("player"))[:80], field="players")
            names.append(member.name)
            seats.append(member.id)
            continue
        member = named.get(item.strip().casefold()) if isinstance(item, str) else None
        if member is not None and not by_name:
            raise ParseError("member_name", "{name} is a member's name: seat the member ({{\"player\": id}}), or "
                             "give the guest a name of their own.", name=item.strip(), field="players")
        names.append(member.name if member else item)
        seats.append(member.id if member else None)
    return names, seats


def club_seat_names(connection, club_id: str, items, by_name: bool = False) -> tuple | None:
    """``seat_names`` of an existing club, None for no such club (one read)."""
    if keys(connection, club_id) is None:
        return None
    return seat_names(connection, club_id, items, by_name=by_name)


def active_ids(connection, club_id: str) -> set:
    """The ids of the club's members who have not left (a rematch or a round seats only them as members)."""
    return {row.id for row in members_of(connection, club_id) if not row.removed}
