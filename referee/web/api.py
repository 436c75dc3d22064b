"""The JSON API of docs/api.md: parse, call the ledger, answer. No rules here."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request, url_for

from referee.errors import ParseError
from referee.games import GAMES
from referee.web.openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")
CONTRACT_ORDER = ("brulot", "brisca", "buraco", "brouc", "brusquembille")


def ledger():
    return current_app.extensions["referee.ledger"]


def request_key() -> str | None:
    """The key from ``Authorization: Bearer <key>`` or ``?key=<key>`` (links and QR codes)."""
    auth = request.headers.get("Authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return request.args.get("key") or None


def json_body(optional: bool = False) -> dict:
    if optional and not request.get_data():
        return {}
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ParseError("bad_json", "Send a JSON object with Content-Type: application/json.")
    return body


def public_url(endpoint: str, **values) -> str:
    """An absolute link phones can open: PUBLIC_URL when set (``make run`` sets the LAN address)."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


@bp.get("/games")
def games():
    listed = [GAMES[g].describe() for g in CONTRACT_ORDER if g in GAMES]
    return jsonify(games=listed)


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.post("/tables")
def create_table():
    body = json_body()
    state, scorer_key, viewer_key = ledger().create_table(body.get("game"), body.get("players"),
                                                          body.get("options"), body.get("dealer"))
    table_id = state["id"]
    response = jsonify(id=table_id, scorer_key=scorer_key, viewer_key=viewer_key,
                       scorer_url=public_url("pages.table", table_id=table_id, key=scorer_key),
                       viewer_url=public_url("pages.table", table_id=table_id, key=viewer_key), state=state)
    response.headers["Location"] = url_for("api.table", table_id=table_id)
    return response, 201


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
    if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 128
                                  or not client_id.isprintable()):
        raise ParseError("bad_event", "client_event_id must be a text of 1 to 128 printable characters.",
                         field="client_event_id")
    control["client_event_id"] = client_id
    return control


@bp.post("/tables/<table_id>/events")
def post_event(table_id):
    ledger().authorize(table_id, request_key(), write=True)
    body = json_body()
    status, state = ledger().append(table_id, body, **_control(body))
    return jsonify(state=state), status


@bp.post("/tables/<table_id>/undo")
def undo(table_id):
    ledger().authorize(table_id, request_key(), write=True)
    control = _control(json_body(optional=True))
    return jsonify(state=ledger().undo(table_id, control["expected_version"], control["expected_revision"],
                                       control["client_event_id"]))


@bp.get("/tables/<table_id>/events")
def events(table_id):
    ledger().authorize(table_id, request_key())
    return jsonify(events=ledger().events(table_id))


@bp.post("/tables/<table_id>/rematch")
def rematch(table_id):
    """Once the series is over: a new table with the same players, options and keys, the next dealer (201); asked
    again, the same one (200). The key that asked opens it, so its scorer link is the old one with the new id."""
    key = request_key()
    ledger().authorize(table_id, key, write=True)
    status, state = ledger().rematch(table_id)
    new_id = state["id"]
    response = jsonify(id=new_id, scorer_url=public_url("pages.table", table_id=new_id, key=key),
                       viewer_url=public_url("pages.table", table_id=new_id, key=ledger().viewer_key(new_id)),
                       state=state)
    response.headers["Location"] = url_for("api.table", table_id=new_id)
    return response, status
