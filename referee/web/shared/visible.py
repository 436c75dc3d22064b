"""What a key's role may read of a tournament (R-TOURN-2): while the director hides the standings (the last round's
secret), no standings, penalties, results of the round under way nor the log's acts that would tell them, to all
but the director's key — on the tournament's pages, its wall, its prints and exports (``tournaments/``) and in the
API (``api/tournaments.py``) alike."""
from __future__ import annotations


def over(state: dict) -> bool:
    """Every round of the plan seated and closed: the tournament is over."""
    return len(state["rounds"]) >= len(state["plan"]) and all(r["status"] == "closed" for r in state["rounds"])


def standings_hidden(state: dict) -> bool:
    """The director's switch in force: it hides the standings until the last round is over, and never after (a
    switch forgotten on does not keep the final ranking from the hall)."""
    return bool(state.get("standings_hidden")) and not over(state)


def hidden_from(state: dict, role: str) -> bool:
    """Whether the standings are hidden from ``role`` now (the last round's suspense): from all but the director."""
    return standings_hidden(state) and role != "director"


def visible_standings(state: dict, role: str) -> list:
    """The standings as ``role`` may read them: none while they are hidden from it (the wall, the phones, the prints,
    the exports and the API alike); the director's key reads them."""
    return [] if hidden_from(state, role) else state["standings"]


def visible_rounds(state: dict, role: str) -> list:
    """The rounds as ``role`` may read them: while the standings are hidden from it, the results of a round not
    closed yet are left out (``result`` null, as a table still playing), since they would tell the standings."""
    if not hidden_from(state, role):
        return state["rounds"]
    return [r if r["status"] == "closed" else {**r, "tables": [{**t, "result": None} for t in r["tables"]]}
            for r in state["rounds"]]


def visible_penalties(state: dict, role: str) -> list:
    """The penalties as ``role`` may read them (R-TOURN-2): none while the standings are hidden from it, since each
    tells a standing's VP (the API, the viewers' pages, the wall, the prints alike); the director reads them."""
    return [] if hidden_from(state, role) else state["penalties"]


def visible_log(state: dict, role: str) -> list:
    """The director's log as ``role`` may read it: while the standings are hidden from it, without the penalties
    nor the arbitral results of a round not closed yet (their VP would tell the standings)."""
    if not hidden_from(state, role):
        return state["log"]
    closed = {r["number"] for r in state["rounds"] if r["status"] == "closed"}
    return [entry for entry in state["log"] if entry["kind"] != "penalty"
            and not (entry["kind"] == "arbitral" and entry.get("round") not in closed)]
