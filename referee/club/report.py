"""What a club's finished series give each member (R-CLUB-1), worked out from its tables' logs, never typed: series
played and won per game, each game's own statistics (``Game.player_statistics``: Brisca's 60–60s, Brouc's capes …),
the ratings (``ratings.py``) with how each series moved them, and the ladder per game. A season (``since``: an ISO
date, a UTC day) counts the series finished from that day on; None counts every one.

Each table is first cut down to its ``table_figures`` (what the club's figures read of its state: finished or not, its sides, its
totals, its winners, its players' statistics), which the store keeps per table and revision: a change at one table
costs that table's figures, not the whole club's. Pure: no Flask, no statement (``store.py`` reads the records and
the states; a time is written as the API writes it, the store's ``iso``)."""
from __future__ import annotations

from datetime import datetime, timezone

from referee.club.ratings import START, Ratings, match_of
from referee.games import get_game
from referee.store import iso


def table_figures(game_id: str, state: dict) -> dict:
    """What the club's figures read of a table's state (R-CLUB-1): ``finished``, ``sides`` (each its seats), ``totals``,
    ``winners`` (the side that won, or the sides that share the win; none while the series is on), ``lowest_leads``
    (the game's lowest total first: Brûlot), ``stats`` (per seat, the game's own counts)."""
    series = state["series"]
    standing = series.get("standing") or {}
    winners = standing.get("winners") or ([series["winner"]] if series.get("winner") is not None else [])
    return {"finished": bool(series["finished"]), "sides": [list(side["players"]) for side in state["sides"]],
            "totals": list(state["totals"]), "winners": [w for w in winners if w is not None],
            "lowest_leads": bool(standing.get("lowest_leads")),
            "stats": get_game(game_id).player_statistics(state) if series["finished"] else None}


def moment(value) -> datetime:
    """A stored time as an aware UTC datetime (SQLite gives them back naive, in UTC)."""
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def finished_tables(tables: list, figures_of: dict, since: str | None = None) -> list:
    """The club's tables whose series is finished (from the UTC day ``since`` on), in the order they finished (their
    times compared as times; then the order they were made): each its row with its ``figures`` (``table_figures``) and ``finished_at``
    as ISO time."""
    done = []
    for row in tables:
        found = figures_of.get(row["id"])
        if found is None or not found["finished"] or row["finished_at"] is None:
            continue
        if since and moment(row["finished_at"]).date().isoformat() < since:
            continue
        done.append({**row, "figures": found, "at": moment(row["finished_at"])})
    done.sort(key=lambda t: (t["at"], moment(t["created_at"]), t["id"]))
    return [{**t, "finished_at": iso(t["at"])} for t in done]


def seats_of(table: dict, member: str) -> list:
    return [seat for seat, m in enumerate(table.get("members") or []) if m == member]


def side_of(found: dict, seat: int) -> int:
    return next(i for i, players in enumerate(found["sides"]) if seat in players)


def report(members: list, tables: list, figures_of: dict, since: str | None = None,
           ratings: Ratings | None = None) -> dict:
    """The club's figures from ``since`` (see the module): ``players`` (the active members, each with ``played``,
    ``won`` and per game ``played``, ``won``, ``rating`` and ``stats``), ``ladders`` (game -> the rated members, best
    ordinal first, each with the last move), ``series`` (member -> each finished series they played: table, game,
    time, won, the rating before and after) and ``matches`` (how many series were rated). ``ratings``: the club's
    memo of its last rating (``Ratings``), so that a new series costs its own match."""
    done = finished_tables(tables, figures_of, since)
    matches = [m for m in (match_of(t, t["figures"]) for t in done) if m is not None]
    rated, moves = (ratings or Ratings()).rate(matches)
    moved = {(member, match.table): (before, after) for match, changes in zip(matches, moves)
             for member, before, after in changes}
    active = [m for m in members if not m["removed"]]
    figures = {m["id"]: {"played": 0, "won": 0, "games": {}} for m in active}
    series = {m["id"]: [] for m in active}
    for table in done:
        found, game = table["figures"], get_game(table["game"])
        for member in {m for m in (table.get("members") or []) if m in figures}:
            seats = seats_of(table, member)
            won = found["winners"] == [side_of(found, seats[0])]
            mine = figures[member]
            per_game = mine["games"].setdefault(table["game"], {"played": 0, "won": 0, "stats": {
                stat.key: 0 for stat in game.statistics}})
            for counts in (mine, per_game):
                counts["played"] += 1
                counts["won"] += int(won)
            for seat in seats:
                for key, value in found["stats"][seat].items():
                    per_game["stats"][key] = per_game["stats"].get(key, 0) + value
            before, after = moved.get((member, table["id"]), (None, None))
            series[member].append({"table": table["id"], "game": table["game"], "at": table["finished_at"],
                                   "won": won, "players": list(table["players"]), "seats": seats,
                                   "before": before.doc() if before else None,
                                   "after": after.doc() if after else None})
    for member, mine in figures.items():
        for game_id, per_game in mine["games"].items():
            per_game["rating"] = rated.get((member, game_id), START).doc()
    names = {m["id"]: m["name"] for m in active}
    ladders = {}
    for (member, game_id), rating in rated.items():
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
    return {"since": since, "players": players, "ladders": ladders, "series": series, "matches": len(matches)}


def last_played(tables: list) -> dict:
    """member id -> the ISO time of the newest club table they sat at (finished or not): the set-up's chips offer
    the last players first."""
    newest = {}
    for row in tables:
        at = iso(row["finished_at"] or row["created_at"])
        for member in row.get("members") or []:
            if member and at > newest.get(member, ""):
                newest[member] = at
    return newest
