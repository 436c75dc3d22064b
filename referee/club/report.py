"""What a club's finished series give each member (R-CLUB-1), worked out from its records and its tables' states,
never typed: series played and won per game, each game's own statistics (``Game.player_statistics``: Brisca's 60–60s,
Brouc's capes …), the ratings (``ratings.py``) with how each series moved them, and the ladder per game. A season
(``since``: an ISO date) counts the series finished from that day on; None counts every one. Pure: no Flask, no
database (``store.py`` reads the records and the states)."""
from __future__ import annotations

from referee.club.ratings import START, match_of, rate
from referee.games import get_game
from referee.models import _iso


def finished_tables(records: dict, states: dict, since: str | None = None) -> list:
    """The club's tables whose series is finished (from ``since`` on), in the order they finished: each its row
    (``finished_at`` as ISO time) with its state."""
    done = []
    for row in records["tables"]:
        state = states.get(row["id"])
        if state is None or not state["series"]["finished"] or row["finished_at"] is None:
            continue
        at = _iso(row["finished_at"])
        if since and at[:10] < since:
            continue
        done.append({**row, "finished_at": at, "created": _iso(row["created_at"]), "state": state})
    done.sort(key=lambda t: (t["finished_at"], t["created"], t["id"]))
    return done


def seats_of(table: dict, member: str) -> list:
    return [seat for seat, m in enumerate(table.get("members") or []) if m == member]


def side_of(state: dict, seat: int) -> int:
    return next(i for i, side in enumerate(state["sides"]) if seat in side["players"])


def won_alone(state: dict, side: int) -> bool:
    standing = state["series"].get("standing") or {}
    winners = standing.get("winners") or ([state["series"]["winner"]] if state["series"].get("winner") is not None
                                          else [])
    return list(winners) == [side]


def report(records: dict, states: dict, since: str | None = None) -> dict:
    """The club's figures from ``since`` (see the module): ``players`` (the active members, each with ``played``,
    ``won`` and per game ``played``, ``won``, ``rating`` and ``stats``), ``ladders`` (game -> the rated members, best
    ordinal first, each with the last move), ``series`` (member -> each finished series they played: table, game,
    time, won, the rating before and after) and ``tables`` (every club table, finished or not)."""
    done = finished_tables(records, states, since)
    matches = [m for m in (match_of(t, t["state"]) for t in done) if m is not None]
    ratings, moves = rate(matches)
    moved = {(member, match.table): (before, after) for match, changes in zip(matches, moves)
             for member, before, after in changes}
    active = [m for m in records["members"] if not m["removed"]]
    figures = {m["id"]: {"played": 0, "won": 0, "games": {}} for m in active}
    series = {m["id"]: [] for m in active}
    for table in done:
        state, game = table["state"], get_game(table["game"])
        statistics = game.player_statistics(state)
        for member in {m for m in (table.get("members") or []) if m in figures}:
            seats = seats_of(table, member)
            side = side_of(state, seats[0])
            won = won_alone(state, side)
            mine = figures[member]
            per_game = mine["games"].setdefault(table["game"], {"played": 0, "won": 0, "stats": {
                stat.key: 0 for stat in game.statistics}})
            for counts in (mine, per_game):
                counts["played"] += 1
                counts["won"] += int(won)
            for seat in seats:
                for key, value in statistics[seat].items():
                    per_game["stats"][key] = per_game["stats"].get(key, 0) + value
            before, after = moved.get((member, table["id"]), (None, None))
            series[member].append({"table": table["id"], "game": table["game"], "at": table["finished_at"],
                                   "won": won, "players": list(table["players"]), "seats": seats,
                                   "before": before.doc() if before else None,
                                   "after": after.doc() if after else None})
    for member, mine in figures.items():
        for game_id, per_game in mine["games"].items():
            per_game["rating"] = ratings.get((member, game_id), START).doc()
    names = {m["id"]: m["name"] for m in active}
    ladders = {}
    for (member, game_id), rating in ratings.items():
        if member not in names:
            continue
        last = next((s for s in reversed(series[member]) if s["game"] == game_id and s["after"]), None)
        ladders.setdefault(game_id, []).append({
            "player": member, "name": names[member], "rating": rating.doc(),
            "played": figures[member]["games"][game_id]["played"], "won": figures[member]["games"][game_id]["won"],
            "moved": last["after"]["ordinal"] - last["before"]["ordinal"] if last else 0.0})
    for rows in ladders.values():
        rows.sort(key=lambda r: (-r["rating"]["ordinal"], r["name"].casefold()))
    players = [{"id": m["id"], "name": m["name"], **figures[m["id"]]} for m in active]
    return {"since": since, "players": players, "ladders": ladders, "series": series,
            "matches": len(matches)}


def last_played(records: dict) -> dict:
    """member id -> the ISO time of the newest club table they sat at (finished or not): the set-up's chips offer
    the last players first."""
    newest = {}
    for row in records["tables"]:
        at = _iso(row["finished_at"] or row["created_at"])
        for member in row.get("members") or []:
            if member and at > newest.get(member, ""):
                newest[member] = at
    return newest
