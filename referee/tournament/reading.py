"""A tournament's state worked out from its records (``referee/store/tournaments.py`` reads them in a bounded number
of statements whatever its size; ``store.py`` writes) and its tables' states (``Ledger.tables_at``: from the ledger's
replay cache, else replayed for all the missing tables from one statement's events), so 100 tables scored meanwhile
cost 100 small replays of the new entries' tables, never 100 round trips. A table's result is never stored: it is
what its log gives. Nothing here touches the database.

The whole state is kept per process under the tournament's revision (its own revision plus its tables'), so a
standings screen polling an unchanged tournament costs one statement.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from referee.games import get_game, signatures
from referee.store import iso
from referee.tournament import scoring

KEPT_STATES = 64  # tournaments whose state a process keeps (a few kilobytes a table)


def entrant_names(names: list) -> str:
    return " & ".join(names)


class KeptStates:
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


def brief_state(table) -> dict:
    """What scoring.py reads of a table's state: its totals and its series (Brûlot's winners included)."""
    series = {"finished": table.finished, "winner": table.winner}
    if hasattr(table, "winners"):
        series["winners"] = list(table.winners)
    return {"totals": list(table.totals), "series": series}


def read_state(found: dict, tables: dict, revision: int) -> dict:
    """The tournament's whole state (the contract's GET shape, plus its plan, VP table, log and revision) from its
    records (``ledger_tournaments.records``) and its tables' engine states (id -> table, ``Ledger.tables_at``)."""
    head, rounds, seated, last_entries = found["head"], found["rounds"], found["seated"], found["last_entries"]
    game, rows = head["game"], [tuple(row) for row in head["vp_table"]]

    results, by_round = [], {r["number"]: [] for r in rounds}
    for row in seated:
        table = tables[row["id"]]
        status = table_status(row, table)
        finished = bool(table.finished or row["forced"] or status == "arbitral")
        result = _result(game, row, table, status, rows) if finished else None
        at = last_entries.get(row["id"])
        by_round[row["round"]].append({
            "number": row["number"], "table_id": row["id"], "entrants": [row["ns"], row["ew"]],
            "finished": finished, "result": result, "forced": row["forced"], "status": status,
            "confirmed": [0 in table.signatures, 1 in table.signatures],
            "disputes": [dict(call) for call in table.disputes],
            "hands": sum(1 for deal in table.deals if deal.complete), "version": row["version"],
            "revision": row["revision"], "last_entry": iso(at) if at is not None else None})
        results.append({"round": row["round"], "ns": row["ns"], "ew": row["ew"], "bye": None,
                        "mp": result and result["mp"], "vp": result and result["vp"],
                        "not_played": status == "not_played"})
    for r in rounds:
        if r["bye"] is not None:
            results.append({"round": r["number"], "ns": None, "ew": None, "bye": r["bye"], "mp": 0, "vp": None})

    listed = [{"index": e["number"], "names": list(e["names"]), "joined": e["joined"], "withdrawn": e["withdrawn"]}
              for e in found["entrants"]]
    names = {e["index"]: entrant_names(e["names"]) for e in listed}
    penalties = [act for act in head["log"] if act.get("kind") == "penalty"]  # R-TOURN-2
    standings = scoring.standings(listed, results, game, penalties)
    for row in standings:
        row["names"] = names[row["entrant"]]
    return {
        "id": head["id"], "game": game, "name": head["name"], "entrants": listed,
        "rounds": [{"number": r["number"], "movement": r["movement"], "status": _status(r, by_round[r["number"]]),
                    "bye": r["bye"], "tables": by_round[r["number"]]} for r in rounds],
        "standings": standings, "plan": head["plan"], "vp_table": [list(row) for row in rows],
        "options": head["options"], "log": head["log"], "revision": revision,
        "require_signatures": bool(head["require_signatures"]), "standings_hidden": bool(head["standings_hidden"]),
        "penalties": [{"entrant": act["entrant"], "vp": act["vp"], "reason": act["reason"], "round": act.get("round"),
                       "at": act["at"]} for act in penalties],
    }


def table_status(row: dict, table) -> str:
    """A round's table as the director's page says it (the contract's ``status``): ``arbitral`` (the director
    gave its VP, R-TOURN-1), ``waiting`` (nothing entered), ``not_played`` (closed by force before a deal was
    complete), ``disputed``
    (a side called the director), ``signed`` (every side confirmed, R-COMMON-7), ``corrected`` (the director
    changed a signed result and the sides have not all confirmed it again, R-COMMON-7b), ``to_confirm``
    (finished, not signed yet), else ``playing``."""
    if row.get("arbitral") is not None:
        return "arbitral"
    if row["forced"] and not any(deal.complete for deal in table.deals):  # a deal begun is nothing played
        return "not_played"
    if table.version == 0:
        return "waiting"
    if table.disputes:
        return "disputed"
    if signatures.complete(table):
        return "signed"
    if table.correction is not None and table.finished:  # R-COMMON-7b: settled on the director's word
        return "corrected"
    return "to_confirm" if table.finished or row["forced"] else "playing"


def _result(game: str, row: dict, table, status: str, rows) -> dict:
    """A finished table's ``{"mp", "vp"}``: the director's VP for an arbitral one (MP 0 each: the director gives
    VP only), 0 VP each for one not played (R-TOURN-1), else what its log gives (``scoring.table_result``) and,
    once its series is over, ``series``: its result in the series' unit (``Game.result``, R-COMMON-7b)."""
    if status == "arbitral":
        return {"mp": [0, 0], "vp": list(row["arbitral"])}
    if status == "not_played":
        return {"mp": [0, 0], "vp": [0, 0]}
    found = scoring.table_result(game, brief_state(table), rows)
    if table.finished:  # R-COMMON-7b: the series' result in its unit, as the engine says it (Brisca: deals won)
        said = get_game(game).result(table)
        found["series"] = {name: said[name] for name in ("unit", "values", "winners")}
    return found


def _status(round_row: dict, tables: list) -> str:
    if round_row["closed"]:
        return "closed"
    return "playing" if any(t["revision"] for t in tables) else "seated"
