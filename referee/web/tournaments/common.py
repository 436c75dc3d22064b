"""What the tournament's pages share: the store, a round's tables and their progress, the entrants' names.

A tournament's pages (``pages.py``: the form and the director's page; ``live.py``: the
standings on a phone and on the club's wall; ``prints.py``: table cards, the printed ranking, exports) read
everything from ``referee.tournament.store.Tournaments``; a table of a round is an ordinary table of the ledger.
"""
from __future__ import annotations

from datetime import datetime, timezone

from flask import url_for

from referee.tournament import reading
from referee.tournament.store import round_unit
from referee.web.services import tournaments as store
from referee.web.shared.visible import hidden_from
from referee.web.tournaments import bp


bp.add_app_template_global(hidden_from)  # whether the standings are hidden from a role now


@bp.app_template_global()
def tournament_seat(state: dict) -> dict | None:
    """What a round's table says of its tournament on the scorer's page, the viewer's and the big screen
    (``_status_tournament.html``): ``name``, ``round``, ``table`` (its number) and ``left``, the hands (Buraco) or
    deals still to play (None for a series played to its end: Brisca, Brouc, a target of points). None for a free
    table. ``state`` is the table's whole state."""
    seat = store().seat(state["id"])
    return None if seat is None else {**seat, "left": deals_left(state)}


@bp.app_template_global()
def tournament_result(state: dict) -> dict | None:
    """A round's table's result as its tournament records it (``{"mp", "vp"}``, from the tournament's VP table), for
    the signing screen (R-COMMON-7); None for a free table or one not finished."""
    seat = store().seat(state["id"])
    if seat is None:
        return None
    played = next((r for r in store().state(seat["tournament"])["rounds"] if r["number"] == seat["round"]), None)
    found = next((t for t in (played or {}).get("tables", ()) if t["table_id"] == state["id"]), None)
    return found and found["result"]


MISSING = ("not_played", "disputed", "waiting", "playing")  # an earlier round's table without a result to stand


def missing_results(state: dict, shown: dict | None) -> list:
    """The tables of the rounds before ``shown`` whose result is missing: not played, disputed, never finished,
    and, when the tournament requires signatures (R-COMMON-7), not signed either. Each with its ``round``."""
    statuses = MISSING + (("to_confirm",) if state.get("require_signatures") else ())
    return [{**table, "round": r["number"]} for r in state["rounds"] if shown is None or r["number"] < shown["number"]
            for table in r["tables"] if table["status"] in statuses and not (table["forced"] and
                                                                             table["status"] == "to_confirm")]


def director_calls(state: dict) -> list:
    """Every open call to the director (R-COMMON-7), each with its round, table, calling entrant and sentence."""
    return [{"round": r["number"], "number": t["number"], "table_id": t["table_id"],
             "entrant": t["entrants"][call["side"]], "message": call.get("message")}
            for r in state["rounds"] for t in r["tables"] for call in t.get("disputes", ())]


def deals_left(state: dict) -> int | None:
    """The hands (Buraco, its option ``hands``, R-BURACO-6) or deals (Brûlot's and Brusquembille's series of so
    many deals, R-BRULOT-6, R-BRUSQ-5) a table still plays, from its state; None for a series to a target."""
    hands = round_unit(state["game"]) == "hands"
    planned = state["options"].get("hands") if hands else state["series"].get("deals")
    if not planned:
        return None
    return max(0, planned - sum(1 for deal in state["deals"] if deal["complete"]))


def current_round(state: dict) -> dict | None:
    return state["rounds"][-1] if state["rounds"] else None


def open_round(state: dict) -> dict | None:
    """The round being played (seated or playing), if any: between rounds there is none."""
    last = current_round(state)
    return last if last and last["status"] != "closed" else None


def round_length(state: dict, number: int) -> int | None:
    """The hands (Buraco) or deals a round of this tournament plays, None for a series."""
    plan = state.get("plan") or []
    if not 1 <= number <= len(plan):
        return None
    unit = round_unit(state["game"])
    return plan[number - 1].get(unit) if unit else None


def entrant_names(state: dict) -> dict:
    """Entrant index -> "Ana & Bo" (a pair) or "Ana" (one player)."""
    return {e["index"]: reading.entrant_names(e["names"]) for e in state["entrants"]}


def entrant_sizes(state: dict) -> dict:
    """Entrant index -> its number of players: a pair's sentences are plural ("Eli & Fabi ont appelé l'arbitre")."""
    return {e["index"]: len(e["names"]) for e in state["entrants"]}


def minutes_since(moment: str | None, now: datetime | None = None) -> int | None:
    """Whole minutes since an event's ISO time ("2024-05-01T20:15:03.123Z"), None without one."""
    if not moment:
        return None
    when = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0, int(((now or datetime.now(timezone.utc)) - when).total_seconds() // 60))


def progress(table: dict) -> dict:
    """A round's table as the director follows it: hands (or deals) done and minutes since its last entry, as the
    store read them from the table's own log."""
    return {"done": table.get("hands", 0), "minutes": minutes_since(table.get("last_entry"))}


def viewer_key(tournament_id: str) -> str:
    """The tournament's viewer key (read only): the standings' link and QR code, whichever key opened the page."""
    return store().viewer_key(tournament_id)


def withdrawn(state: dict) -> set:
    """The entrants withdrawn (after some round, or before the first: 0)."""
    return {e["index"] for e in state["entrants"] if e.get("withdrawn") is not None}


def round_part(tournament_id: str, state: dict) -> dict:
    """The director's page's round under way (or the last one), its tables' progress and their scorer pages' links
    (the table cards' keys): what the page draws and its live part (``_tournament_round_live.html``) redraws."""
    cards = {card["number"]: card["key"] for card in store().cards(tournament_id)}
    shown = open_round(state) or current_round(state)
    tables = []
    if shown:
        for table in shown["tables"]:
            link = url_for("tables.table", table_id=table["table_id"], key=cards.get(table["number"]))
            tables.append({**table, "progress": progress(table), "link": link})
    return {"shown": shown, "open": open_round(state), "tables": tables, "cards": cards, "names": entrant_names(state),
            "sizes": entrant_sizes(state),
            "missing": missing_results(state, shown), "calls": director_calls(state),
            "length": round_length(state, shown["number"]) if shown else None, "unit": round_unit(state["game"])}
