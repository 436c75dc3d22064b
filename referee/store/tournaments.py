"""What the tournaments' store (``referee/tournament/store.py``) asks the database, on a connection the ledger opened
(``Ledger.reading``, ``Ledger.write``): SQLAlchemy Core statements, as ``rows.py`` asks a table's.

- A state (``records``) is read in a bounded number of statements whatever the tournament's size: its row, its
  entrants, its rounds, its seated tables joined with their ``tables`` rows (revision, set-up) and their last
  entries' times. The tables' states come from ``Ledger.tables_at``.
- Every write locks the tournament's row first (``lock``: an UPDATE of its ``revision`` that answers the row),
  so two directors' taps are served one after the other; its log is written back once (``save_log``).
"""
from __future__ import annotations

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from referee.store import rows
from referee.store.making import table_values
from referee.store.records import (EventRecord, TableRecord, TournamentActRecord, TournamentCardRecord,
                                   TournamentEntrantRecord, TournamentRecord, TournamentRoundRecord,
                                   TournamentTableRecord, hash_key, iso, utc_now)

TOURNAMENTS, ENTRANTS = TournamentRecord.__table__, TournamentEntrantRecord.__table__
ROUNDS, SEATED = TournamentRoundRecord.__table__, TournamentTableRecord.__table__
CARDS, TABLES, EVENTS = TournamentCardRecord.__table__, TableRecord.__table__, EventRecord.__table__
ACTS = TournamentActRecord.__table__


# --- reading ----------------------------------------------------------------------------------------------
def revision(connection, tournament_id: str) -> int | None:
    """The tournament's revision: its own plus its tables' (each grows with every entry and undo), one statement;
    None for no such tournament."""
    tables = (select(func.coalesce(func.sum(TABLES.c.revision), 0))
              .select_from(SEATED.join(TABLES, TABLES.c.id == SEATED.c.table_id))
              .where(SEATED.c.tournament_id == tournament_id).scalar_subquery())
    return connection.execute(select(TOURNAMENTS.c.revision + tables)
                              .where(TOURNAMENTS.c.id == tournament_id)).scalar()


def records(connection, tournament_id: str) -> dict | None:
    """Everything stored of a tournament, for ``reading.read_state``: ``head`` (its row), ``entrants``, ``rounds``,
    ``seated`` (each seat with its table's set-up and counters: id, game, players, options, dealer, version,
    revision) and ``last_entries`` (table id -> the time of its last event). None for no such tournament."""
    head = connection.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)).mappings().first()
    if head is None:
        return None
    entrants = [dict(row) for row in connection.execute(
        select(ENTRANTS.c.number, ENTRANTS.c.names, ENTRANTS.c.joined, ENTRANTS.c.withdrawn)
        .where(ENTRANTS.c.tournament_id == tournament_id).order_by(ENTRANTS.c.number)).mappings()]
    rounds = [dict(row) for row in connection.execute(
        select(ROUNDS.c.number, ROUNDS.c.movement, ROUNDS.c.bye, ROUNDS.c.closed)
        .where(ROUNDS.c.tournament_id == tournament_id).order_by(ROUNDS.c.number)).mappings()]
    seated = [dict(row) for row in connection.execute(
        select(SEATED.c.round, SEATED.c.number, SEATED.c.table_id.label("id"), SEATED.c.ns, SEATED.c.ew,
               SEATED.c.forced, SEATED.c.arbitral, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.dealer,
               TABLES.c.version, TABLES.c.revision)
        .select_from(SEATED.join(TABLES, TABLES.c.id == SEATED.c.table_id))
        .where(SEATED.c.tournament_id == tournament_id).order_by(SEATED.c.round, SEATED.c.number)).mappings()]
    last_entries = dict(connection.execute(
        select(EVENTS.c.table_id, func.max(EVENTS.c.at))
        .where(EVENTS.c.table_id.in_(select(SEATED.c.table_id).where(SEATED.c.tournament_id == tournament_id)))
        .group_by(EVENTS.c.table_id)).all()) if seated else {}
    return {"head": head, "entrants": entrants, "rounds": rounds, "seated": seated, "last_entries": last_entries}


def club_of(connection, tournament_id: str) -> str | None:
    """The club a tournament belongs to (R-CLUB-1), or None."""
    return connection.execute(select(TOURNAMENTS.c.club_id).where(TOURNAMENTS.c.id == tournament_id)).scalar()


def keys(connection, tournament_id: str):
    """(director_hash, viewer_key) of a tournament, or None."""
    return connection.execute(select(TOURNAMENTS.c.director_hash, TOURNAMENTS.c.viewer_key)
                              .where(TOURNAMENTS.c.id == tournament_id)).first()


def cards(connection, tournament_id: str) -> list:
    """(number, key) of each table card, by number."""
    return connection.execute(select(CARDS.c.number, CARDS.c.key).where(CARDS.c.tournament_id == tournament_id)
                              .order_by(CARDS.c.number)).all()


def card_key(connection, tournament_id: str, number: int) -> str | None:
    return connection.execute(select(CARDS.c.key).where(CARDS.c.tournament_id == tournament_id,
                                                        CARDS.c.number == number)).scalar()


def newest_table(connection, tournament_id: str, number: int) -> str | None:
    """The id of the newest round's table at this number (None when that round has fewer tables)."""
    newest = select(func.max(SEATED.c.round)).where(SEATED.c.tournament_id == tournament_id).scalar_subquery()
    return connection.execute(select(SEATED.c.table_id).where(
        SEATED.c.tournament_id == tournament_id, SEATED.c.number == number, SEATED.c.round == newest)).scalar()


def card_table(connection, tournament_id: str, number: int) -> tuple:
    """(the key of table card ``number``, the id of the newest round's table at this number) from one snapshot;
    each None when there is none."""
    card = card_key(connection, tournament_id, number)
    return card, (newest_table(connection, tournament_id, number) if card is not None else None)


def seat(connection, table_id: str):
    """(tournament id, its name, round, table number) of a seated table, or None for a free one."""
    return connection.execute(
        select(SEATED.c.tournament_id, TOURNAMENTS.c.name, SEATED.c.round, SEATED.c.number)
        .join(TOURNAMENTS, TOURNAMENTS.c.id == SEATED.c.tournament_id)
        .where(SEATED.c.table_id == table_id)).first()


# --- writing ----------------------------------------------------------------------------------------------
def insert_tournament(connection, values: dict, entrants: list, members: list | None = None) -> None:
    """A new tournament's row (``TournamentRecord``'s columns) and its entrants, all joined from round 1 (a club's:
    with the member of each name, ``members``)."""
    connection.execute(insert(TOURNAMENTS).values(**values))
    connection.execute(insert(ENTRANTS), [{"tournament_id": values["id"], "number": number, "names": names,
                                           "joined": 1, "members": members[number] if members else None}
                                          for number, names in enumerate(entrants)])


def lock(connection, tournament_id: str):
    """Takes the tournament's write lock by bumping its revision: its row as it is now, None for no such one."""
    return connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)
                              .values(revision=TOURNAMENTS.c.revision + 1).returning(*TOURNAMENTS.c)).first()


def lock_act(connection, tournament_id: str) -> tuple | None:
    """The start of a director's act: the tournament's write lock, taken by bumping its revision (``lock``); (its
    row, its log to add to, its rounds in order), None for no such tournament."""
    head = lock(connection, tournament_id)
    if head is None:
        return None
    return head, list(head.log), rounds_of(connection, tournament_id)


def log_act(log: list, kind: str, message: str, **values) -> None:
    """One of the director's acts in the log, with its time (``save_log`` writes it with the act)."""
    log.append({"at": iso(utc_now()), "kind": kind, "message": message, **values})


def rounds_of(connection, tournament_id: str) -> list:
    """The tournament's rounds, in order (their rows: number, movement, bye, closed…)."""
    return list(connection.execute(select(ROUNDS).where(ROUNDS.c.tournament_id == tournament_id)
                                   .order_by(ROUNDS.c.number)).all())


def entrants_of(connection, tournament_id: str) -> list:
    """The tournament's entrants, by number (their rows: number, names, joined, withdrawn)."""
    return list(connection.execute(select(ENTRANTS).where(ENTRANTS.c.tournament_id == tournament_id)
                                   .order_by(ENTRANTS.c.number)).all())


def card_keys(connection, tournament_id: str) -> dict:
    """table number -> its card's key."""
    return dict(connection.execute(select(CARDS.c.number, CARDS.c.key)
                                   .where(CARDS.c.tournament_id == tournament_id)).all())


def insert_card(connection, tournament_id: str, number: int, key: str) -> None:
    connection.execute(insert(CARDS).values(tournament_id=tournament_id, number=number, key=key))


def insert_table(connection, table_id: str, table, card_key: str, viewer_key: str, **club) -> None:
    """A round's new table: the engine table's set-up, the scorer key of its number's table card (only its hash
    stored), its own viewer key; ``club_id`` and ``members`` in a club's tournament."""
    rows.insert_table(connection, table_values(table_id, table, hash_key(card_key), viewer_key, **club))


def insert_seat(connection, tournament_id: str, round_number: int, number: int, table_id: str, ns: int,
                ew: int) -> None:
    """A round's table: who sits at it (North-South, East-West) and which ordinary table it is (its row first)."""
    connection.execute(insert(SEATED).values(tournament_id=tournament_id, round=round_number, number=number,
                                             table_id=table_id, ns=ns, ew=ew))


def insert_round(connection, tournament_id: str, number: int, movement: str, bye: int | None) -> None:
    connection.execute(insert(ROUNDS).values(tournament_id=tournament_id, number=number, movement=movement, bye=bye))


def seat_at(connection, tournament_id: str, round_number, number) -> str | None:
    """The id of table ``number`` of round ``round_number`` (None when there is none)."""
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 < v < 2 ** 31 for v in (round_number, number)):
        return None
    return connection.execute(select(SEATED.c.table_id).where(
        SEATED.c.tournament_id == tournament_id, SEATED.c.round == round_number, SEATED.c.number == number)).scalar()


def set_arbitral(connection, table_id: str, vp: list) -> None:
    """A round's table takes the VP the director gave it (R-TOURN-1)."""
    connection.execute(update(SEATED).where(SEATED.c.table_id == table_id).values(arbitral=vp))


def set_hidden(connection, tournament_id: str, hidden: bool) -> None:
    connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id).values(standings_hidden=hidden))


def force(connection, table_id: str) -> None:
    """A round's table finished by the director as it stands."""
    connection.execute(update(SEATED).where(SEATED.c.table_id == table_id).values(forced=True))


def close(connection, tournament_id: str, number: int) -> None:
    connection.execute(update(ROUNDS).where(ROUNDS.c.tournament_id == tournament_id, ROUNDS.c.number == number)
                       .values(closed=True))


def withdraw(connection, tournament_id: str, number: int, after: int) -> None:
    """Entrant ``number`` plays no round after round ``after``."""
    connection.execute(update(ENTRANTS).where(ENTRANTS.c.tournament_id == tournament_id, ENTRANTS.c.number == number)
                       .values(withdrawn=after))


def add_entrant(connection, tournament_id: str, number: int, names: list, joined: int,
                members: list | None = None) -> None:
    connection.execute(insert(ENTRANTS).values(tournament_id=tournament_id, number=number, names=names,
                                               joined=joined, members=members))


def save_log(connection, tournament_id: str, log: list) -> None:
    """The director's log as it is after this write's acts (its row locked by ``lock``)."""
    connection.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id).values(log=log))


def act_done(connection, tournament_id: str, key: str):
    """A director's act made before under this key (R-TOURN-5): its row (kind, answer), or None."""
    return connection.execute(select(ACTS.c.kind, ACTS.c.answer).where(ACTS.c.tournament_id == tournament_id,
                                                                       ACTS.c.key == key)).first()


def insert_act(connection, tournament_id: str, key: str, kind: str, answer: dict | None) -> None:
    """A director's act keyed (R-TOURN-5), in the act's own transaction: the primary key lets one in (a second
    raises IntegrityError, and its transaction stores nothing)."""
    try:
        connection.execute(insert(ACTS).values(tournament_id=tournament_id, key=key, kind=kind, answer=answer))
    except IntegrityError:
        raise ActTaken(key) from None


class ActTaken(Exception):
    """The act's key was stored meanwhile by its other post (``insert_act``): this one's transaction is void."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key
