"""The clubs' JSON API (docs/api.md, "Clubs and players"): parse, call the store (``referee/club/store.py``),
answer. The club key (``Authorization: Bearer`` or ``?key=``) manages the members and makes the club's tables and
tournaments; the viewer key reads. A club's table or tournament is made by the tables' and tournaments' own calls
with ``"club"`` (``club_seats.py``)."""
from __future__ import annotations

from flask import jsonify, url_for

from referee.web.api import bp
from referee.web.services import api_once, clubs, public_url, request_key
from referee.web.shared.requests import json_body


def club_doc(state: dict) -> dict:
    """A club as ``GET /api/v1/clubs/<id>`` answers it (R-CLUB-1): its active members with their series played and
    won and, per game, their rating (and the game's own statistics, ``stats``); its tables and tournaments. The
    figures count the season (``season``: its first day, null for every series)."""
    figures = {p["id"]: p for p in state["figures"]["players"]}
    players = []
    for member in state["members"]:
        mine = figures.get(member["id"], {"played": 0, "won": 0, "games": {}})
        players.append({"id": member["id"], "name": member["name"], "played": mine["played"], "won": mine["won"],
                        "games": {game: {"played": g["played"], "won": g["won"], "rating": g["rating"],
                                         "stats": g["stats"]} for game, g in mine["games"].items()}})
    tables = [{"id": t["id"], "game": t["game"], "finished": t["finished"], "finished_at": t["finished_at"],
               "players": t["players"], "members": t["members"]} for t in state["tables"]]
    return {"id": state["id"], "name": state["name"], "season": state["season"], "players": players,
            "tables": tables, "tournaments": [{"id": t["id"], "name": t["name"], "game": t["game"]}
                                              for t in state["tournaments"]],
            "ladders": state["figures"]["ladders"]}


@bp.post("/clubs", endpoint="create_club")
def create():
    body = json_body()
    created = clubs().create(body.get("name"), once=api_once())
    state, club_key, viewer_key = created
    club_id = state["id"]
    response = jsonify(id=club_id, club_key=club_key, viewer_key=viewer_key,
                       club_url=public_url("clubs.club", club_id=club_id, key=club_key),
                       viewer_url=public_url("clubs.wall", club_id=club_id, key=viewer_key))
    response.headers["Location"] = url_for("api.club", club_id=club_id)
    return response, created.status


@bp.get("/clubs/<club_id>")
def club(club_id):
    clubs().authorize(club_id, request_key())
    return jsonify(club_doc(clubs().state(club_id)))


@bp.patch("/clubs/<club_id>", endpoint="change_club")
def change(club_id):
    """The club's name and the first day of its season (``"season": "YYYY-MM-DD"`` or null)."""
    clubs().authorize(club_id, request_key(), write=True)
    body = json_body()
    clubs().change(club_id, **{name: body[name] for name in ("name", "season") if name in body})
    return jsonify(club_doc(clubs().state(club_id)))


@bp.post("/clubs/<club_id>/players", endpoint="add_player")
def add_player(club_id):
    clubs().authorize(club_id, request_key(), write=True)
    return jsonify(clubs().add_member(club_id, json_body().get("name"))), 201


@bp.patch("/clubs/<club_id>/players/<player_id>", endpoint="rename_player")
def rename_player(club_id, player_id):
    clubs().authorize(club_id, request_key(), write=True)
    return jsonify(clubs().rename_member(club_id, player_id, json_body().get("name")))


@bp.delete("/clubs/<club_id>/players/<player_id>", endpoint="remove_player")
def remove_player(club_id, player_id):
    """R-CLUB-1: the member's name erased everywhere ("former member"); results and ratings stay."""
    clubs().authorize(club_id, request_key(), write=True)
    clubs().remove_member(club_id, player_id)
    return jsonify(id=player_id, removed=True)
