"""What a club's pages show, from the club's state (``Clubs.state``): the ladders per game with the games' names,
the members with their figures and last series, the club's tables with their links; a member's figures per game
(this season and every season), the game's own statistics in words (``Game.statistics``), their series (each a link
to its table, with how the rating moved) and the points of the rating's chart."""
from __future__ import annotations

from flask import url_for

from referee.games import GAMES, get_game
from referee.web.i18n import lang

RECENT_TABLES = 12


def game_ids() -> list:
    """The games' ids in alphabetical order: the order of a club's ladders, a member's figures and the exports'
    columns (the registry's order is the home page's, issue 39: these kept theirs)."""
    return sorted(GAMES)


def table_link(table: dict) -> str:
    """A club table's page with its viewer key (the club's pages may show its tables; the club key writes none)."""
    return url_for("tables.table", table_id=table["id"], key=table["viewer_key"])


def ladders(figures: dict) -> list:
    """[(game, rows)] in the order of the games' ids (``game_ids``), only the games rated."""
    return [(GAMES[game], figures["ladders"][game]) for game in game_ids() if game in figures["ladders"]]


def club_view(state: dict, key: str, viewer: str) -> dict:
    figures = {p["id"]: p for p in state["figures"]["players"]}
    members = [{**m, "played": figures.get(m["id"], {}).get("played", 0),
                "won": figures.get(m["id"], {}).get("won", 0)} for m in state["members"]]
    tables = [{**t, "link": table_link(t), "game_name": get_game(t["game"]).names[lang()]}
              for t in reversed(state["tables"])][:RECENT_TABLES]
    return {"members": members, "ladders": ladders(state["figures"]), "tables": tables,
            "viewer": viewer, "matches": state["figures"]["matches"]}


def member_view(state: dict, player_id: str, viewer: str) -> dict | None:
    member = next((m for m in state["members"] if m["id"] == player_id), None)
    if member is None:
        return None
    season = _figures(state["figures"], player_id)
    ever = _figures(state["ever"], player_id) if state["ever"] else None
    links = {t["id"]: t for t in state["tables"]}
    series = []
    for item in reversed((state["ever"] or state["figures"])["series"].get(player_id, [])):
        table = links.get(item["table"])
        series.append({**item, "link": table_link(table) if table else None,
                       "game_name": get_game(item["game"]).names[lang()],
                       "others": [p for i, p in enumerate(item["players"]) if i not in item["seats"]],
                       "moved": item["after"]["ordinal"] - item["before"]["ordinal"] if item["after"] else None})
    curves = {}
    for item in state["figures"]["series"].get(player_id, []):
        if item["after"]:
            points = curves.setdefault(item["game"], [(item["before"]["ordinal"], None)])
            points.append((item["after"]["ordinal"], item["at"]))
    return {"member": member, "season_figures": season, "ever_figures": ever, "series": series,
            "curves": curves, "viewer": viewer}


def _figures(figures: dict, player_id: str) -> dict:
    """The member's figures: ``played``, ``won`` and per game (in the games' order) its name, played, won, rating
    and statistics in words [(label, rule, count)]."""
    mine = next((p for p in figures["players"] if p["id"] == player_id), None) or {"played": 0, "won": 0,
                                                                                     "games": {}}
    games = []
    for game_id in game_ids():
        per_game = mine["games"].get(game_id)
        if per_game is None:
            continue
        game = get_game(game_id)
        stats = [(stat.label[lang()], stat.rule, per_game["stats"].get(stat.key, 0)) for stat in game.statistics]
        rank = next((i + 1 for i, row in enumerate(figures["ladders"].get(game_id, []))
                     if row["player"] == player_id), None)
        games.append({"game": game, "played": per_game["played"], "won": per_game["won"],
                      "rating": per_game["rating"], "stats": stats, "rank": rank,
                      "rated": len(figures["ladders"].get(game_id, []))})
    return {"played": mine["played"], "won": mine["won"], "games": games}
