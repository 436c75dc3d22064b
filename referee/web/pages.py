"""Plain pages: the home page and a table's scoreboard (the phone interface comes with issue 3)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from referee.games import GAMES, get_game
from referee.web.api import CONTRACT_ORDER, request_key

bp = Blueprint("pages", __name__)
LANGUAGES = ("fr", "en")


def page_language() -> str:
    lang = request.args.get("lang")
    return lang if lang in LANGUAGES else request.accept_languages.best_match(LANGUAGES) or "fr"


@bp.app_template_filter("card")
def card_label(code: str, game_id: str, players: int = 4) -> str:
    """A card code as people read it: ``A♥``, ``10♠``, ``12 bastos``."""
    game = get_game(game_id)
    deck = game.deck_for(game.new_table(["p%d" % i for i in range(players)]))
    return deck.parse(code).short()


@bp.get("/")
def home():
    games = [GAMES[g] for g in CONTRACT_ORDER if g in GAMES]
    return render_template("home.html", games=games, lang=page_language())


@bp.get("/t/<table_id>")
def table(table_id):
    ledger = current_app.extensions["referee.ledger"]
    role = ledger.authorize(table_id, request_key())
    state = ledger.state(table_id)
    return render_template("table.html", state=state, role=role, game=get_game(state["game"]),
                           lang=page_language())
