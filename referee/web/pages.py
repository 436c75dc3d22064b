"""The home page and a table's page: the scorer's screen for the scorer key, the scoreboard for the viewer key."""
from __future__ import annotations

from functools import lru_cache

from babel.numbers import format_decimal
from flask import Blueprint, current_app, render_template
from flask_babel import gettext

from referee.errors import msg
from referee.games import GAMES, get_game
from referee.web.api import CONTRACT_ORDER, request_key
from referee.web.board_names import board_names, whole_words
from referee.web.i18n import lang, sentence
from referee.web.scorer import render_scorer

bp = Blueprint("pages", __name__)
bp.add_app_template_global(board_names)  # how a board writes the names over its columns
bp.add_app_template_filter(whole_words, "words")  # a name that wraps only at its spaces


@lru_cache(maxsize=16)
def _deck(game_id: str):
    """The game's fullest deck, to write any card a table of it may hold (Brisca's 48, the piquet 32 even where a
    table plays 30): display only, the entries are checked against the table's own deck."""
    game = get_game(game_id)
    decks = [game.deck_for(game.new_table(["p%d" % i for i in range(n)])) for n in game.player_counts()]
    return max(decks, key=lambda deck: deck.size)


@bp.app_template_filter("card")
def card_label(code: str, game_id: str) -> str:
    """A card code as people read it in the page language: ``A♥``, ``10♠``, ``12 bastos``, ``12 bastoni``."""
    return _deck(game_id).parse(code).short(lang())


@bp.app_template_filter("card_name")
def card_name(code: str, game_id: str) -> str:
    """A card's full name in the page language: "as de cœur", "king of bastos (bolets)"."""
    return _deck(game_id).parse(code).name(lang())


@bp.app_template_filter("suit_class")
def suit_class(code: str, game_id: str) -> str:
    """The CSS class of a card's suit (``suit-hearts``, ``suit-copas``): colour plus symbol, never colour alone."""
    card = _deck(game_id).parse(code)
    return "suit-" + card.suit_info.names["en"] if card.suit else "suit-joker"


@bp.app_template_filter("flag_text")
def flag_text(flag: dict, game_id: str) -> str:
    """A deal's flag (revoke, under-trump…) in the page language."""
    return sentence(flag["template"], flag["params"], _deck(game_id), flag["message"])


@bp.app_template_filter("player_name")
def player_name(player: int, state: dict) -> str:
    return state["players"][player]


@bp.app_template_filter("side_name")
def side_name(side: int, state: dict) -> str:
    return state["sides"][side]["name"]


@bp.app_template_filter("series_won")
def series_won(side: int, state: dict) -> str:
    """The series' winner in a sentence: "Ana & Cy win the series!", "Ana wins the series!" (a side of one player)."""
    name = state["sides"][side]["name"]
    if len(state["sides"][side]["players"]) == 1:
        return gettext("%(name)s wins the series!", name=name)
    return gettext("%(side)s win the series!", side=name)


@bp.app_template_filter("series_result")
def series_result(state: dict) -> str:
    """A finished series in a sentence: a shared win, its winner, or none (the score sheet, the big screen)."""
    series = state["series"]
    winners = series.get("winners") or []
    if len(winners) > 1:
        return gettext("Shared win: %(names)s.", names=", ".join(side_name(s, state) for s in winners))
    if series.get("winner") is not None:
        return series_won(series["winner"], state)
    return gettext("The series is over without a winner.")


@bp.app_template_filter("money")
def money(amount) -> str:
    """An amount of money in the page's locale, with two decimals when it has cents: 4, 1.50 (en), 1,50 (fr, de)."""
    return format_decimal(amount, format="#,##0" if float(amount).is_integer() else "#,##0.00",
                          locale=lang())


@bp.app_template_filter("movement")
def movement(move: dict, state: dict) -> str:
    """One jeton movement as a sentence (R-BRUSQ-4): "As de cœur coupé par le 8 de pique : Bo paie 2 jetons…"."""
    deck = _deck(state["game"])
    values = {"name": state["players"][move["player"]], "card": deck.parse(move["card"]).name(lang()),
              "by_card": deck.parse(move["by"]).name(lang()) if move["by"] else "", "jetons": move["jetons"],
              "trick": move["trick"], "deal": move.get("deal")}
    if move["trick"] is None:  # a deal entered by its numbers or its piles: no trick to name
        template = (msg("Deal {deal}: {card} won for its side: {name} receives {jetons} from each opponent.")
                    if move["kind"] == "won" else
                    msg("Deal {deal}: {card} trumped (coupé): {name} pays {jetons} to each opponent."))
    elif move["kind"] == "won":
        template = msg("Trick {trick}: {card} wins for its side: {name} receives {jetons} from each opponent.")
    else:
        template = msg("Trick {trick}: {card} trumped by {by_card}: {name} pays {jetons} to each opponent.")
    return sentence(template, values)


RECENT_DEALS = 6  # the deals a scoreboard shows row by row; the earlier ones sum up in one row


@bp.app_template_filter("recent")
def recent(state: dict, keep: int = RECENT_DEALS) -> dict:
    """The state as a phone's scoreboard shows it: its last ``keep`` deals, the earlier ones summed up in
    ``earlier`` (how many, their numbers, their counted points and deal wins per side), so that a page costs and
    weighs the same at the two-hundredth deal as at the second. The whole sheet stays one link away."""
    deals = state["deals"]
    if len(deals) <= keep:
        return state
    hidden = deals[:-keep]
    points, wins = [0] * len(state["sides"]), [0] * len(state["sides"])
    for deal in hidden:
        outcome = deal.get("outcome") or {}
        if deal.get("complete") and outcome.get("counted", True):
            for side, value in enumerate(deal.get("points") or ()):
                points[side] += value
        if outcome.get("winner") is not None:
            wins[outcome["winner"]] += outcome.get("wins", 1)
    earlier = {"deals": len(hidden), "first": hidden[0]["number"], "last": hidden[-1]["number"], "points": points,
               "wins": wins}
    return {**state, "deals": deals[-keep:], "earlier": earlier}


@bp.get("/")
def home():
    return render_template("home.html", games=[GAMES[g] for g in CONTRACT_ORDER if g in GAMES])


@bp.get("/t/<table_id>")
def table(table_id):
    ledger = current_app.extensions["referee.ledger"]
    key = request_key()
    role = ledger.authorize(table_id, key)
    if role == "scorer":
        return render_scorer(table_id, key)
    state = ledger.state(table_id)
    return render_template("table.html", state=state, game=get_game(state["game"]), key=key)
