"""The tournaments' JSON API (docs/api.md, Tournaments): parse, call the store (referee/tournament/store.py), answer.

The director's key works as a table's scorer key (``?key=`` or ``Authorization: Bearer``); the viewer's key reads.
Each table of a round is an ordinary table: its ``table_id`` works with every table call, with its table card's key.
Every director's write takes an optional ``Idempotency-Key``: sent again with it, it answers as the first did and
stores nothing more (R-TOURN-5, ``referee/tournament/director.py``: ``once_act``).
"""
from __future__ import annotations

from flask import jsonify, url_for

from referee.errors import ParseError
from referee.web.api import bp
from referee.web.api.club_seats import club_entrants
from referee.web.services import api_once, public_url, request_key
from referee.web.services import tournaments as store
from referee.web.shared.requests import json_body
from referee.web.shared.visible import (standings_hidden, visible_log, visible_penalties, visible_rounds,
                                        visible_standings)

def answer(state: dict, role: str) -> dict:
    """The state as the API answers it: each table's ``scorer_url`` (its table card's key) for the director,
    null for the viewer, whose key must not open a table for writing; no standings (nor the results of the round
    under way, nor the penalties) for the viewer while the director hides them, and never once the last round is
    closed. The stored
    state is not changed."""
    keys = {card["number"]: card["key"] for card in store().cards(state["id"])} if role == "director" else {}
    rounds = []
    for played in visible_rounds(state, role):
        tables = [{**table, "scorer_url": public_url("tables.table", table_id=table["table_id"],
                                                     key=keys[table["number"]])
                   if table["number"] in keys else None} for table in played["tables"]]
        rounds.append({**played, "tables": tables})
    return {**state, "rounds": rounds, "standings": visible_standings(state, role),
            "penalties": visible_penalties(state, role), "log": visible_log(state, role),
            "standings_hidden": standings_hidden(state)}


def _director(tournament_id: str) -> None:
    store().authorize(tournament_id, request_key(), write=True)


@bp.post("/tournaments", endpoint="create_tournament")
def create():
    body = json_body()
    entrants, club = club_entrants(body)  # a club's tournament (R-CLUB-1): the club key's
    created = store().create(body.get("game"), body.get("name"), entrants, body.get("rounds"),
                             body.get("vp_table"), body.get("options"), once=api_once(),
                             require_signatures=body.get("require_signatures", False), club=club)
    state, director_key, viewer_key = created
    tournament_id = state["id"]
    response = jsonify(id=tournament_id, director_key=director_key, viewer_key=viewer_key,
                       director_url=public_url("tournaments.director", tournament_id=tournament_id, key=director_key),
                       viewer_url=public_url("tournaments.standings", tournament_id=tournament_id, key=viewer_key),
                       state=answer(state, "director"))
    response.headers["Location"] = url_for("api.tournament", tournament_id=tournament_id)
    return response, created.status


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id):
    role = store().authorize(tournament_id, request_key())
    return jsonify(answer(store().state(tournament_id), role))


@bp.post("/tournaments/<tournament_id>/rounds")
def next_round(tournament_id):
    _director(tournament_id)
    return jsonify(answer(store().next_round(tournament_id, once=api_once()), "director")), 201


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/close")
def close_round(tournament_id, number):
    _director(tournament_id)
    body = json_body(optional=True)
    force = body.get("force", False)
    if not isinstance(force, bool):
        raise ParseError("bad_force", "force is true or false.", field="force")
    done = store().close_round(tournament_id, number, force, body.get("reason"), once=api_once())
    return jsonify(**done, state=answer(store().state(tournament_id), "director"))


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/tables/<int:table>/result")
def arbitral_result(tournament_id, number, table):
    """R-TOURN-1: the director gives a table its VP, with a reason."""
    _director(tournament_id)
    body = json_body()
    return jsonify(answer(store().arbitral(tournament_id, number, table, body.get("vp"), body.get("reason"),
                                           once=api_once()),
                          "director"))


@bp.post("/tournaments/<tournament_id>/penalties")
def penalty(tournament_id):
    """R-TOURN-2: a penalty in VP (negative) for an entrant, with a reason."""
    _director(tournament_id)
    body = json_body()
    state = store().penalty(tournament_id, body.get("entrant"), body.get("vp"), body.get("reason"), body.get("round"),
                            once=api_once())
    return jsonify(answer(state, "director")), 201


@bp.post("/tournaments/<tournament_id>/withdrawals")
def withdraw(tournament_id):
    _director(tournament_id)
    entrant = json_body().get("entrant")
    if isinstance(entrant, bool) or not isinstance(entrant, int):
        raise ParseError("bad_entrant", "entrant is an entrant's index, a whole number.", field="entrant")
    return jsonify(answer(store().withdraw(tournament_id, entrant, once=api_once()), "director"))


@bp.post("/tournaments/<tournament_id>/entrants")
def add_entrant(tournament_id):
    _director(tournament_id)
    names = json_body().get("names")
    return jsonify(answer(store().add_entrant(tournament_id, names, once=api_once()), "director")), 201


@bp.get("/tournaments/<tournament_id>/cards", endpoint="tournament_cards")
def cards(tournament_id):
    _director(tournament_id)
    return jsonify(cards=[{**card, "url": public_url("tournaments.card", tournament_id=tournament_id,
                                                     number=card["number"], key=card["key"])}
                          for card in store().cards(tournament_id)])
