"""A tournament's state read at once, in a bounded number of statements whatever its size (``store.py`` writes).

A state asks the database: the tournament's row, its entrants, its rounds, its seated tables joined with their
``tables`` rows (revision, set-up), their last entries' times, and — only for tables whose replayed state this
process does not hold at their revision — their events, all of them in one statement. Each table's state comes from
the ledger's replay cache (``referee/state_cache.py``), so 100 tables scored meanwhile cost 100 small replays of
the new entries' tables, never 100 round trips. A table's result is never stored: it is what its log gives.

The whole state is kept per process under the tournament's revision (its own revision plus its tables'), so a
standings screen polling an unchanged tournament costs one statement.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict

from sqlalchemy import false, func, select

from referee.games import get_game
from referee.models import (EventRecord, TableRecord, TournamentEntrantRecord, TournamentRecord,
                            TournamentRoundRecord, TournamentTableRecord, _iso)
from referee.state_cache import replay
from referee.tournament import scoring

TOURNAMENTS, ENTRANTS = TournamentRecord.__table__, TournamentEntrantRecord.__table__
ROUNDS, SEATED = TournamentRoundRecord.__table__, TournamentTableRecord.__table__
TABLES, EVENTS = TableRecord.__table__, EventRecord.__table__
KEPT_STATES = 64  # tournaments whose state a process keeps (a few kilobytes a table)


def revision_query(tournament_id: str):
    """The tournament's revision: its own plus its tables' (each grows with every entry and undo), one statement."""
    tables = (select(func.coalesce(func.sum(TABLES.c.revision), 0))
              .select_from(SEATED.join(TABLES, TABLES.c.id == SEATED.c.table_id))
              .where(SEATED.c.tournament_id == tournament_id).scalar_subquery())
    return select(TOURNAMENTS.c.revision + tables).where(TOURNAMENTS.c.id == tournament_id)


def entrant_names(names: list) -> str:
    return " & ".join(names)


class Memo:
    """The last state worked out per tournament, under its revision; at most KEPT_STATES, the oldest out first."""

    def __init__(self):
        self._kept: OrderedDict = OrderedDict()  # id -> [revision, state, when it was last known current]
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}

    def get(self, tournament_id: str, revision: int, read_at: float):
        with self._lock:
            found = self._kept.get(tournament_id)
            if found is None or found[0] != revision:
                return None
            found[2] = max(found[2], read_at)
            self._kept.move_to_end(tournament_id)
            return found[1]

    def since(self, tournament_id: str, moment: float):
        """The state kept for this tournament if it was read from the database after ``moment`` (monotonic): it
        holds every change made before then. None otherwise."""
        with self._lock:
            found = self._kept.get(tournament_id)
            return found[1] if found is not None and found[2] >= moment else None

    def put(self, tournament_id: str, revision: int, state: dict, read_at: float) -> None:
        with self._lock:
            self._kept[tournament_id] = [revision, state, read_at]
            self._kept.move_to_end(tournament_id)
            while len(self._kept) > KEPT_STATES:
                gone, _ = self._kept.popitem(last=False)
                self._building.pop(gone, None)

    def building(self, tournament_id: str) -> threading.Lock:
        """One reader per tournament and process works a new state out; the others wait for it and take it."""
        with self._lock:
            if len(self._building) > 4 * KEPT_STATES:  # ids asked once (a mistyped link): not kept for ever
                self._building = {name: lock for name, lock in self._building.items() if name in self._kept}
            return self._building.setdefault(tournament_id, threading.Lock())


def engine_tables(connection, cache, rows) -> dict:
    """table id -> engine table of each row (mapping with id, game, players, options, dealer, revision): from the
    ledger's cache at the row's revision, else replayed from its events, read for all the missing ones at once."""
    found, missing = {}, []
    for row in rows:
        table = cache.get(row["id"], row["revision"])
        if table is None:
            missing.append(row)
        else:
            found[row["id"]] = table
    if missing:
        bodies = {row["id"]: [] for row in missing}
        query = (select(EVENTS.c.table_id, EVENTS.c.body)
                 .where(EVENTS.c.table_id.in_(list(bodies)), EVENTS.c.withdrawn == false())
                 .order_by(EVENTS.c.table_id, EVENTS.c.seq))
        for table_id, body in connection.execute(query):
            bodies[table_id].append(body)
        for row in missing:
            table, checkpoint = replay(get_game(row["game"]), row["players"], row["options"], row["dealer"],
                                       bodies[row["id"]])
            cache.put(row["id"], row["revision"], table, checkpoint)
            found[row["id"]] = table
    return found


def brief_state(table) -> dict:
    """What scoring.py reads of a table's state: its totals and its series (Brûlot's winners included)."""
    series = {"finished": table.finished, "winner": table.winner}
    if hasattr(table, "winners"):
        series["winners"] = list(table.winners)
    return {"totals": list(table.totals), "series": series}


def read_state(connection, cache, tournament_id: str, revision: int) -> dict | None:
    """The tournament's whole state (the contract's GET shape, plus its plan, VP table, log and revision), or None
    for no such tournament."""
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
               SEATED.c.forced, TABLES.c.game, TABLES.c.players, TABLES.c.options, TABLES.c.dealer,
               TABLES.c.version, TABLES.c.revision)
        .select_from(SEATED.join(TABLES, TABLES.c.id == SEATED.c.table_id))
        .where(SEATED.c.tournament_id == tournament_id).order_by(SEATED.c.round, SEATED.c.number)).mappings()]
    last_entries = dict(connection.execute(
        select(EVENTS.c.table_id, func.max(EVENTS.c.at))
        .where(EVENTS.c.table_id.in_(select(SEATED.c.table_id).where(SEATED.c.tournament_id == tournament_id)))
        .group_by(EVENTS.c.table_id)).all()) if seated else {}
    tables = engine_tables(connection, cache, seated)
    game, rows = head["game"], [tuple(row) for row in head["vp_table"]]

    results, by_round = [], {r["number"]: [] for r in rounds}
    for row in seated:
        table = tables[row["id"]]
        finished = bool(table.finished or row["forced"])
        result = scoring.table_result(game, brief_state(table), rows) if finished else None
        at = last_entries.get(row["id"])
        by_round[row["round"]].append({
            "number": row["number"], "table_id": row["id"], "entrants": [row["ns"], row["ew"]],
            "finished": finished, "result": result, "forced": row["forced"],
            "hands": sum(1 for deal in table.deals if deal.complete), "version": row["version"],
            "revision": row["revision"], "last_entry": _iso(at) if at is not None else None})
        results.append({"round": row["round"], "ns": row["ns"], "ew": row["ew"], "bye": None,
                        "mp": result and result["mp"], "vp": result and result["vp"]})
    for r in rounds:
        if r["bye"] is not None:
            results.append({"round": r["number"], "ns": None, "ew": None, "bye": r["bye"], "mp": 0, "vp": None})

    listed = [{"index": e["number"], "names": list(e["names"]), "joined": e["joined"], "withdrawn": e["withdrawn"]}
              for e in entrants]
    names = {e["index"]: entrant_names(e["names"]) for e in listed}
    standings = scoring.standings(listed, results, game)
    for row in standings:
        row["names"] = names[row["entrant"]]
    return {
        "id": head["id"], "game": game, "name": head["name"], "entrants": listed,
        "rounds": [{"number": r["number"], "movement": r["movement"], "status": _status(r, by_round[r["number"]]),
                    "bye": r["bye"], "tables": by_round[r["number"]]} for r in rounds],
        "standings": standings, "plan": head["plan"], "vp_table": [list(row) for row in rows],
        "options": head["options"], "log": head["log"], "revision": revision,
    }


def _status(round_row: dict, tables: list) -> str:
    if round_row["closed"]:
        return "closed"
    return "playing" if any(t["revision"] for t in tables) else "seated"
