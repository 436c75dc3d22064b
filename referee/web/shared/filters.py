"""The template filters and globals every area's pages use (cards, names, money, jeton movements, a scoreboard's
recent deals, a series' headline, a form's own id), registered on the app by the factory (``init_app``)."""
from __future__ import annotations

from functools import lru_cache

from babel.numbers import format_decimal
from flask import Flask
from flask_babel import gettext
from jinja2 import pass_context

from referee.cards import rank_letter
from referee.errors import msg
from referee.games import get_game
from referee.web.i18n import lang, sentence
from referee.web.services import form_id
from referee.web.shared import headline

FILTERS = {}


def template_filter(name: str):
    """Notes a function as the app's template filter ``name`` (``init_app`` registers them all)."""
    def note(function):
        FILTERS[name] = function
        return function
    return note


def init_app(app: Flask) -> None:
    for name, function in FILTERS.items():
        app.add_template_filter(function, name)
    app.add_template_filter(headline.headline, "headline")  # the series' standing in words (shared/headline.py)
    app.add_template_filter(headline.deal_score, "deal_score")
    app.add_template_filter(headline.series_result, "series_result")  # what a side signs (R-COMMON-7b)
    app.add_template_filter(headline.result_before, "result_before")  # what it signed before a correction
    app.add_template_filter(headline.series_said, "series_said")  # a round's table's series, in its unit
    app.add_template_global(game_of)  # a template asks the game, never branches on its id
    app.add_template_global(form_id)  # every form that makes something: _setup_form.html, _tournament_form.html


def game_of(state):
    """The engine of a state (a serialised state or a game's id), for a template to ask it what the page shows:
    its words, its seat and side order, its planned deals (the list in ``referee/games/base.py``'s ``Game``)."""
    return get_game(state if isinstance(state, str) else state["game"])


@lru_cache(maxsize=16)
def _deck(game_id: str):
    """The game's fullest deck, to write any card a table of it may hold (Brisca's 48, the piquet 32 even where a
    table plays 30): display only, the entries are checked against the table's own deck."""
    game = get_game(game_id)
    decks = [game.deck_for(game.new_table(["p%d" % i for i in range(n)])) for n in game.player_counts()]
    return max(decks, key=lambda deck: deck.size)


def page_lang(context) -> str:
    """The page's language as its render's context holds it (``i18n.init_app``'s context processor: asked once a
    render, where ``lang()`` asks Flask-Babel again at each card, a few µs each), else ``lang()`` (a macro imported
    without the context)."""
    return context.get("lang") or lang()


@template_filter("card")
@pass_context
def card_label(context, code: str, game_id: str) -> str:
    """A card code as people read it in the page language: ``R♥`` (fr), ``K♥`` (en), ``10♠``, ``12 bastos``."""
    return _deck(game_id).parse(code).short(page_lang(context))


@template_filter("rank")
@pass_context
def rank_label(context, rank: str, game_id: str) -> str:
    """A rank alone as the cards' corners write it in the page language: "R" (roi) in French, "K" in English."""
    return rank_letter(rank, page_lang(context), _deck(game_id).spanish)


@template_filter("card_name")
@pass_context
def card_name(context, code: str, game_id: str) -> str:
    """A card's full name in the page language: "as de cœur", "king of bastos (bolets)"."""
    return _deck(game_id).parse(code).name(page_lang(context))


@template_filter("suit_class")
def suit_class(code: str, game_id: str) -> str:
    """The CSS class of a card's suit (``suit-hearts``, ``suit-copas``): colour plus symbol, never colour alone."""
    card = _deck(game_id).parse(code)
    return "suit-" + card.suit_info.names["en"] if card.suit else "suit-joker"


@template_filter("flag_text")
def flag_text(flag: dict, game_id: str) -> str:
    """A deal's flag (revoke, under-trump…) in the page language."""
    return sentence(flag["template"], flag["params"], _deck(game_id), flag["message"])


@template_filter("flag_line")
def flag_line(flag: dict, state: dict) -> str:
    """A flag in a few words for the status bar's one line: "Revoke: Raphaël, trick 3" (the whole sentence is the
    scoreboard's, ``flag_text``)."""
    title = getattr(get_game(state["game"]), "flag_titles", {}).get(flag["code"])
    if title is None:
        return flag_text(flag, state["game"])
    if flag.get("player") is None:
        return gettext(title)
    name = state["players"][flag["player"]]
    if flag.get("trick") is None:
        return gettext("%(title)s: %(name)s", title=gettext(title), name=name)
    return gettext("%(title)s: %(name)s, trick %(n)s", title=gettext(title), name=name, n=flag["trick"])


@template_filter("player_name")
def player_name(player: int, state: dict) -> str:
    return state["players"][player]


@template_filter("side_name")
def side_name(side: int, state: dict) -> str:
    return state["sides"][side]["name"]


@template_filter("money")
def money(amount) -> str:
    """An amount of money in the page's locale, with two decimals when it has cents: 4, 1.50 (en), 1,50 (fr, de)."""
    return format_decimal(amount, format="#,##0" if float(amount).is_integer() else "#,##0.00",
                          locale=lang())


@template_filter("signed")
def signed(value: int) -> str:
    """A number that moves a balance as the headline writes numbers (shared/headline.py): "+4", "−2" with a true
    minus sign, "0"."""
    return ("+" if value > 0 else "") + headline.number(value)


@template_filter("movement")
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


@template_filter("recent")
def recent(state: dict, keep: int = RECENT_DEALS) -> dict:
    """The state as a phone's scoreboard shows it: its last ``keep`` deals, the earlier ones summed up in
    ``earlier`` (how many, their numbers, their counted points and deal wins per side), so that a page costs and
    weighs the same at the two-hundredth deal as at the second. The whole sheet stays one link away."""
    deals = state["deals"]
    if len(deals) <= keep:
        return state
    hidden = deals[:-keep]
    earlier = {"deals": len(hidden), "first": hidden[0]["number"], "last": hidden[-1]["number"],
               **get_game(state["game"]).summed_deals(state, hidden)}  # points and deal wins, as the game sums them
    return {**state, "deals": deals[-keep:], "earlier": earlier}
