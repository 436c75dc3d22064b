"""Printable pages: the one-page rule summary of a game (for a table's options), and score sheets."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from referee.games import get_game
from referee.summaries import summary
from referee.web.api import request_key

bp = Blueprint("printing", __name__)


@bp.get("/rules/<game_id>")
def rules(game_id):
    return render_template("summary.html", summary=summary(get_game(game_id).id))


@bp.get("/t/<table_id>/rules")
def table_rules(table_id):
    ledger = current_app.extensions["referee.ledger"]
    ledger.authorize(table_id, request_key())
    state = ledger.state(table_id)
    return render_template("summary.html", summary=summary(state["game"], state["options"]), state=state)


@bp.get("/t/<table_id>/sheet")
def sheet(table_id):
    ledger = current_app.extensions["referee.ledger"]
    ledger.authorize(table_id, request_key())
    state = ledger.state(table_id)
    return render_template("sheet.html", state=state, game=get_game(state["game"]), key=None)


@bp.get("/sheet/<game_id>")
def blank_sheet(game_id):
    return render_template("sheet.html", state=None, game=get_game(game_id), key=None)
