"""The JSON API of docs/api.md: parse, call the ledger, answer. No rules here."""
from __future__ import annotations

import json

from flask import current_app, jsonify, request, url_for

from referee.errors import ParseError
from referee.games import GAMES
from referee.games.base import Doc
from referee.store import Once
from referee.web.api import bp
from referee.web.api.club_seats import club_seating
from referee.web.api.openapi import openapi_document
from referee.web.services import api_once, ledger, public_url, request_key, tournaments
from referee.web.shared.requests import json_body


@bp.get("/games")
def games():
    listed = [game.describe() for game in GAMES.values()]  # in the registry's order, the contract's
    return jsonify(games=listed)


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.post("/tables")
def create_table():
    """201 and the new table; with an ``Idempotency-Key`` the same request again answers 200 with the same table and
    keys (``referee/store/once.py``)."""
    body = json_body()
    players, club = club_seating(body, body.get("players"))  # a club's table (R-CLUB-1): the club key's
    created = ledger().create_table(body.get("game"), players, body.get("options"), body.get("dealer"),
                                    once=api_once(), club=club)
    state, scorer_key, viewer_key = created
    table_id = state["id"]
    response = jsonify(id=table_id, scorer_key=scorer_key, viewer_key=viewer_key,
                       scorer_url=public_url("tables.table", table_id=table_id, key=scorer_key),
                       viewer_url=public_url("tables.table", table_id=table_id, key=viewer_key), state=state)
    response.headers["Location"] = url_for("api.table", table_id=table_id)
    return response, created.status


@bp.get("/tables/<table_id>")
def table(table_id):
    ledger().authorize(table_id, request_key())
    return jsonify(ledger().state(table_id))


def _control(body: dict) -> dict:
    """The entry's control fields: ``expected_version``, ``expected_revision``, ``client_event_id``."""
    control = {}
    for name in ("expected_version", "expected_revision"):
        value = body.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ParseError("bad_event", "{field} must be a whole number.", field=name)
        control[name] = value
    client_id = body.get("client_event_id")
    if client_id is not None and not Once.valid(client_id):  # a form's own id, as the pages' forms carry it
        raise ParseError("bad_event", "client_event_id must be a text of 1 to 128 printable characters.",
                         field="client_event_id")
    control["client_event_id"] = client_id
    return control


def brief() -> bool:
    """A write answers complete deals without their tricks (``tricks_count`` instead), so that its answer stays
    small however long the log; ``?full=1`` asks for the whole state (docs/api.md)."""
    return request.args.get("full") not in ("1", "true")


def state_answer(state: dict, status: int = 200):
    """``{"state": state}`` as JSON. A brief state's finished deals bring their JSON text made once
    (``referee/games/base.py``: ``Doc``), so an answer costs the same to write at the two-hundredth deal as at the
    second; the text is what ``jsonify`` would write (compact, ASCII)."""
    deals = state.get("deals") or []
    if not any(isinstance(deal, Doc) for deal in deals):
        return jsonify(state=state), status
    compact = (",", ":")
    head = json.dumps({"state": {**state, "deals": None}}, separators=compact)
    texts = ",".join(deal.text if isinstance(deal, Doc) else json.dumps(deal, separators=compact) for deal in deals)
    body = head.replace('"deals":null', '"deals":[' + texts + "]", 1)  # a key: inside a string its quotes are \"
    return current_app.response_class(body + "\n", status=status, mimetype="application/json")


@bp.post("/tables/<table_id>/events")
def post_event(table_id):
    """The key is checked on the row the write locks (one statement less than ``authorize`` then the write); a
    body refused is refused after the key, as on every call."""
    key = request_key()
    try:
        body = json_body()
        control = _control(body)
    except ParseError:
        ledger().authorize(table_id, key, write=True)
        raise
    status, state = ledger().append(table_id, body, **control, brief=brief(), key=key, reason=body.get("reason"))
    return state_answer(state, status)


@bp.post("/tables/<table_id>/undo")
def undo(table_id):
    """The key is checked under the write's lock, as an entry's; a director's undo needs its ``reason``."""
    key = request_key()
    ledger().authorize(table_id, key, write=True)
    body = json_body(optional=True)
    control = _control(body)
    return state_answer(ledger().undo(table_id, control["expected_version"], control["expected_revision"],
                                      control["client_event_id"], brief=brief(), key=key, reason=body.get("reason")))


@bp.get("/tables/<table_id>/events")
def events(table_id):
    ledger().authorize(table_id, request_key())
    return jsonify(events=ledger().events(table_id))


@bp.post("/tables/<table_id>/rematch")
def rematch(table_id):
    """Once the series is over: a new table with the same players, options and keys, the next dealer (201); asked
    again, the same one (200). The key that asked opens it, so its scorer link is the old one with the new id. A
    tournament's table has none (409): its players' next table is the next round's."""
    key = request_key()
    ledger().authorize(table_id, key, write=True)
    tournaments().no_rematch(table_id)  # a round's table: 409
    status, state = ledger().rematch(table_id)
    new_id = state["id"]
    response = jsonify(id=new_id, scorer_url=public_url("tables.table", table_id=new_id, key=key),
                       viewer_url=public_url("tables.table", table_id=new_id, key=ledger().viewer_key(new_id)),
                       state=state)
    response.headers["Location"] = url_for("api.table", table_id=new_id)
    return response, status
