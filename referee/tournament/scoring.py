"""A table's result in tournament points, and the standings. Pure: states are the tables' serialised states.

Burraco, as in the federation's competition code, art. 17, as summarised by player sites: a round at a table is 2, 3
or 4 hands; the pairs' match points (MP: the hand counts summed over the round, multiples of 5) are compared and the
difference gives victory points (VP), 20 shared between the two lines, from a table per round length (3 and 4 hands
shipped; the director may enter another). The trick games score a round win / draw / loss as 2 / 1 / 0, their point
difference the tie-break. Standings: total VP, then total MP difference, then the result between the tied entrants.
A bye scores the average VP of its round's tables (rounded to one decimal) and MP 0, and counts as played.
"""
from __future__ import annotations

from referee.errors import msg
from referee.games import FactByGame, get_game
from referee.tournament.movements import PlanError

# (max_difference or None for "over", vp_winner, vp_loser): the shared tables, row for row.
VP_TABLES = {
    "burraco_3": [(50, 10, 10), (150, 11, 9), (250, 12, 8), (350, 13, 7), (500, 14, 6), (650, 15, 5),
                  (800, 16, 4), (1000, 17, 3), (1250, 18, 2), (1500, 19, 1), (None, 20, 0)],
    "burraco_4": [(100, 10, 10), (300, 11, 9), (500, 12, 8), (700, 13, 7), (900, 14, 6), (1100, 15, 5),
                  (1300, 16, 4), (1500, 17, 3), (1700, 18, 2), (2000, 19, 1), (None, 20, 0)],
}
LOWEST_WINS = FactByGame("penalty_points")  # R-BRULOT-6: the lowest total wins (the registry's, live)
WIN, DRAW, LOSS = 2, 1, 0


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def vp_table(spec) -> list:
    """The rows ``(max_difference or None, vp_winner, vp_loser)`` of ``spec``: a shipped table's name, or the
    director's own rows ``[[max_difference, vp_winner, vp_loser], …]`` (the last maximum may be null: "over").
    Maxima rise strictly; a winner takes at least what the loser takes, never less than in the row above, and the
    loser never more. A difference over the last maximum takes the last row. ``PlanError`` (a ``ValueError``)
    with a sentence otherwise."""
    if isinstance(spec, str):
        if spec not in VP_TABLES:
            raise PlanError("bad_vp_table", msg("There is no victory-point table called {name}."), name=spec)
        return list(VP_TABLES[spec])
    if not isinstance(spec, (list, tuple)) or not spec:
        raise PlanError("bad_vp_table", msg("A victory-point table is a name or a list of rows."))
    rows = []
    for number, row in enumerate(spec, 1):
        if not isinstance(row, (list, tuple)) or len(row) != 3:
            raise PlanError("bad_vp_row", msg("Row {row} of the victory-point table needs three numbers: the "
                                              "largest difference, the winner's VP and the loser's VP."), row=number)
        top, winner, loser = row
        if top is None and number != len(spec):
            raise PlanError("bad_vp_row", msg("Only the last row of the victory-point table may leave its largest "
                                              "difference empty (over the row before)."), row=number)
        if not (_number(top) or top is None) or not _number(winner) or not _number(loser):
            raise PlanError("bad_vp_row", msg("Row {row} of the victory-point table needs three numbers: the "
                                              "largest difference, the winner's VP and the loser's VP."), row=number)
        if top is not None and (top < 0 or (rows and top <= rows[-1][0])):
            raise PlanError("bad_vp_row", msg("Row {row} of the victory-point table: its largest difference must "
                                              "be above the row before's."), row=number)
        if loser < 0 or winner < loser:
            raise PlanError("bad_vp_row", msg("Row {row} of the victory-point table: the winner cannot take fewer "
                                              "VP than the loser."), row=number)
        if rows and (winner < rows[-1][1] or loser > rows[-1][2]):
            raise PlanError("bad_vp_row", msg("Row {row} of the victory-point table: a larger difference cannot "
                                              "give the winner fewer VP or the loser more."), row=number)
        rows.append((top, winner, loser))
    return rows


def victory_points(mp: tuple, rows) -> tuple:
    """``(vp_ns, vp_ew)`` from the MP difference: the first row whose maximum is at least ``|difference|`` (None
    matches every difference; past the last maximum, the last row). Equal MP: the first row's (winner, loser),
    each side taking the first (equal in the shipped tables). ``mp`` is ``(ns, ew)``, higher better."""
    ns, ew = mp
    difference = abs(ns - ew)
    row = next((r for r in rows if r[0] is None or r[0] >= difference), rows[-1])
    _top, winner, loser = row
    if ns == ew:
        return (winner, winner) if winner == loser else ((winner + loser) / 2, (winner + loser) / 2)
    return (winner, loser) if ns > ew else (loser, winner)


def better(game_id: str, a, b) -> bool:
    """Whether total ``a`` beats total ``b`` in ``game_id`` (Brûlot: the lower, R-BRULOT-6)."""
    return a < b if game_id in LOWEST_WINS else a > b


def match_points(game_id: str, state: dict) -> tuple:
    """A two-sided table's MP per side (North-South side 0, East-West side 1): its totals as written. For Brûlot
    the lower is the better (``better``)."""
    totals = state["totals"]
    if len(totals) != 2:
        raise PlanError("not_two_sides", msg("A tournament table has two sides; this one has {count}."),
                        count=len(totals))
    return tuple(totals)


def trick_result(game_id: str, state: dict) -> tuple:
    """A trick game's round result: win / draw / loss as ``(2, 0)``, ``(1, 1)``, ``(0, 2)``, from the series' winner
    (Brûlot: ``series.winners``, equal lowest totals sharing the win, R-BRULOT-6). A table finished before its series
    ended (a round closed by the director) is judged on its totals as they stand."""
    series = state.get("series") or {}
    if series.get("finished"):
        winners = series.get("winners") if game_id in LOWEST_WINS else None
        if winners is None:
            winners = [] if series.get("winner") is None else [series["winner"]]
        if len(winners) == 1:
            return (WIN, LOSS) if winners[0] == 0 else (LOSS, WIN)
        return DRAW, DRAW
    ns, ew = match_points(game_id, state)
    if ns == ew:
        return DRAW, DRAW
    return (WIN, LOSS) if better(game_id, ns, ew) else (LOSS, WIN)


def table_result(game_id: str, state: dict, rows=None) -> dict:
    """``{"mp": [ns, ew], "vp": [ns, ew]}`` of a finished (or closed) table: Buraco's VP from ``rows`` (the
    tournament's VP table), a trick game's from ``trick_result``."""
    mp = match_points(game_id, state)
    vp = victory_points(mp, rows) if get_game(game_id).scored_by_vp_table else trick_result(game_id, state)
    return {"mp": [_tidy(x) for x in mp], "vp": [_tidy(x) for x in vp]}


def _tidy(value):
    """A number as a person writes it: one decimal at most, no ``.0``."""
    value = round(value, 1) if isinstance(value, float) else value
    return int(value) if isinstance(value, float) and value.is_integer() else value


def bye_vp(results: list[dict], round_number) -> float | None:
    """A bye's VP in round ``round_number``: the average VP of that round's tables with a result (one decimal), or
    None while none has one."""
    scored = [v for r in results if r.get("round") == round_number and r.get("bye") is None and r.get("vp")
              and not r.get("not_played") for v in r["vp"]]  # a table not played is no result to average
    return _tidy(sum(scored) / len(scored)) if scored else None


def standings(entrants: list[dict], results: list[dict], game_id: str | None = None,
              penalties: list[dict] = ()) -> list[dict]:
    """Ranks ``entrants`` (dicts with ``index``) from ``results`` (``{"round", "ns", "ew", "mp": [a, b], "vp":
    [a, b], "bye": entrant or None}``; a table without a result yet has ``vp`` None and is left out; a bye's ``vp``
    None takes its round's average, or a number given). Order: total VP, then total MP difference (own minus the
    opponents'; reversed for Brûlot, R-BRULOT-6), then the VP the tied entrants took from each other, then the
    entrant's index. Entrants equal on every key but the index share a rank. Each row: ``{"rank", "entrant",
    "vp", "mp", "mp_difference", "played", "last": {"round", "vp", "mp"} or None, "penalties"}``. ``penalties``
    (``{"entrant", "vp"}``, R-TOURN-2): each lowers its entrant's VP; a row's ``penalties`` is their sum (≤ 0)."""
    rows = {e["index"]: {"entrant": e["index"], "vp": 0, "mp": 0, "mp_difference": 0, "played": 0, "last": None}
            for e in entrants}
    between: dict = {}  # (entrant, opponent) -> VP taken

    def count(entrant, round_number, vp, mp, against):
        row = rows.get(entrant)
        if row is None:
            return
        row["vp"] += vp
        row["mp"] += mp
        row["mp_difference"] += mp - against
        row["played"] += 1
        if row["last"] is None or round_number >= row["last"]["round"]:
            row["last"] = {"round": round_number, "vp": _tidy(vp), "mp": _tidy(mp)}

    for result in results:
        if result.get("bye") is not None:
            given = result.get("vp")
            if isinstance(given, (list, tuple)):
                given = given[0] if given else None
            vp = bye_vp(results, result.get("round")) if given is None else given
            if vp is not None:
                mp = result.get("mp")
                mp = (mp[0] if isinstance(mp, (list, tuple)) and mp else mp) or 0
                count(result["bye"], result.get("round"), vp, mp, mp)
            continue
        if not result.get("vp") or not result.get("mp"):
            continue
        ns, ew = result["ns"], result["ew"]
        (vp_ns, vp_ew), (mp_ns, mp_ew) = result["vp"], result["mp"]
        count(ns, result["round"], vp_ns, mp_ns, mp_ew)
        count(ew, result["round"], vp_ew, mp_ew, mp_ns)
        between[(ns, ew)] = between.get((ns, ew), 0) + vp_ns
        between[(ew, ns)] = between.get((ew, ns), 0) + vp_ew

    for penalty in penalties:
        row = rows.get(penalty["entrant"])
        if row is not None:
            row["vp"] += penalty["vp"]
            row["penalties"] = row.get("penalties", 0) + penalty["vp"]
    sign = -1 if game_id in LOWEST_WINS else 1
    for row in rows.values():
        for name in ("vp", "mp", "mp_difference"):
            row[name] = _tidy(row[name])

    def first_keys(row):
        return -row["vp"], -sign * row["mp_difference"]

    group_of = {entrant: first_keys(row) for entrant, row in rows.items()}
    taken: dict = {}  # entrant -> VP taken from the entrants tied with it (each met pair once: no n² over a group)
    for (entrant, other), vp in between.items():
        if other in group_of and group_of.get(entrant) == group_of[other]:
            taken[entrant] = taken.get(entrant, 0) + vp
    for entrant, row in rows.items():
        row["head_to_head"] = _tidy(taken.get(entrant, 0))

    def key(row):
        return first_keys(row) + (-row["head_to_head"],)

    ordered = sorted(rows.values(), key=lambda row: key(row) + (row["entrant"],))
    for position, row in enumerate(ordered):
        before = ordered[position - 1] if position else None
        row["rank"] = before["rank"] if before is not None and key(before) == key(row) else position + 1
    return [{"rank": row["rank"], "entrant": row["entrant"], "vp": row["vp"], "mp": row["mp"],
             "mp_difference": row["mp_difference"], "played": row["played"], "last": row["last"],
             "head_to_head": row["head_to_head"], "penalties": _tidy(row.get("penalties", 0))} for row in ordered]
