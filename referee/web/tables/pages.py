"""The home page and a table's page: the scorer's screen for the scorer key, the scoreboard for the viewer key."""
from __future__ import annotations

from flask import render_template

from referee.games import GAMES
from referee.store import WRITERS
from referee.web.services import ledger, request_key
from referee.web.tables import bp
from referee.web.tables.board_names import board_names, whole_words
from referee.web.tables.scorer import render_scorer
from referee.web.tables.share import live_view

bp.add_app_template_global(board_names)  # how a board writes the names over its columns
bp.add_app_template_filter(whole_words, "words")  # a name that wraps only at its spaces


@bp.get("/")
def home():
    return render_template("home.html", games=list(GAMES.values()))


@bp.get("/t/<table_id>")
def table(table_id):
    key = request_key()
    role = ledger().authorize(table_id, key)
    if role in WRITERS:  # the scorer, the co-scorer, the director of its tournament (R-COMMON-8)
        return render_scorer(table_id, key)
    return render_template("table.html", key=key, **live_view(table_id))
