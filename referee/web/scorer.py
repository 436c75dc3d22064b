"""The scorer's page and its entries. Every form posts and redirects without JavaScript; with htmx the same post
answers the ``_scorer.html`` fragment in place. The entry in progress (mode, tapped cards) lives in the address."""
from __future__ import annotations

import uuid

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for

from referee.errors import ParseError, RefereeError
from referee.games import get_game
from referee.web.api import request_key
from referee.web.i18n import refusal
from referee.web.views import Entry, last_trick, next_player, picker

bp = Blueprint("scorer", __name__)


def ledger():
    return current_app.extensions["referee.ledger"]


def page_context(table_id: str, key: str, entry: Entry | None = None, error: str | None = None) -> dict:
    state, table = ledger().snapshot(table_id)
    game = get_game(state["game"])
    deck = game.deck_for(table)
    entry = entry or Entry.read(request.args, deck)
    possible = game.possible(table)
    return {
        "state": state, "table": table, "game": game, "deck": deck, "key": key, "entry": entry, "error": error,
        "possible": possible, "picker": picker(game, table, entry), "next_player": next_player(table, entry),
        "last_trick": last_trick(state), "exchangers": game.players_for(table, "exchange")
        if "exchange" in possible else [], "event_id": uuid.uuid4().hex,
    }


def render_scorer(table_id: str, key: str, entry: Entry | None = None, error: str | None = None, status=200):
    context = page_context(table_id, key, entry, error)
    template = "_scorer.html" if request.headers.get("HX-Request") else "scorer.html"
    response = make_response(render_template(template, **context), status)
    if request.headers.get("HX-Request"):
        response.headers["HX-Replace-Url"] = url_for("pages.table", table_id=table_id, key=key,
                                                     **context["entry"].query())
    return response


def done(table_id: str, key: str, entry: Entry):
    """After an entry: the fragment for htmx, a redirect (post/redirect/get) without JavaScript."""
    if request.headers.get("HX-Request"):
        return render_scorer(table_id, key, entry)
    return redirect(url_for("pages.table", table_id=table_id, key=key, **entry.query()), code=303)


def scorer_entry(table_id: str):
    """The scorer key (403/401 otherwise), the game, its deck and the entry in progress from the form."""
    key = request_key() or request.form.get("key")
    ledger().authorize(table_id, key, write=True)
    state, table = ledger().snapshot(table_id)
    game = get_game(state["game"])
    deck = game.deck_for(table)
    return key, game, table, deck, Entry.read(request.form, deck)


def refused(table_id, key, entry, error: RefereeError, deck):
    """The page again, the engine's sentence beside the picker, nothing stored. Answered 200, as a form shown
    again is: a 4xx would put an error in the browser's console for an ordinary refusal (the API answers 422)."""
    return render_scorer(table_id, key, entry, refusal(error, deck))


def store(table_id: str, body: dict) -> None:
    ledger().append(table_id, body, client_event_id=request.form.get("event_id") or None)


@bp.post("/t/<table_id>/tap")
def tap(table_id):
    key, game, table, deck, entry = scorer_entry(table_id)
    try:
        card = deck.parse(request.form.get("card", ""))
        if entry.mode != "trick":  # a pile or a claim being gathered: tapping again takes the card back
            pending = [c for c in entry.pending if c != card] if card in entry.pending else [*entry.pending, card]
            return done(table_id, key, entry.with_pending(pending))
        cards = [*entry.pending, card]
        game.verify_partial(table, cards)
        if len(cards) < len(table.players):
            return done(table_id, key, entry.with_pending(cards))
        store(table_id, {"type": "trick", "cards": [c.code for c in cards]})
        return done(table_id, key, Entry())
    except RefereeError as error:
        return refused(table_id, key, entry, error, deck)


@bp.post("/t/<table_id>/undo")
def undo(table_id):
    key, game, table, deck, entry = scorer_entry(table_id)
    if entry.pending:  # one tap takes back the last card tapped
        return done(table_id, key, entry.with_pending(entry.pending[:-1]))
    try:
        ledger().undo(table_id)
    except RefereeError as error:
        return refused(table_id, key, entry, error, deck)
    return done(table_id, key, Entry())


@bp.post("/t/<table_id>/deal")
def deal(table_id):
    key, game, table, deck, entry = scorer_entry(table_id)
    body = {"type": "deal", "trump": request.form.get("card") or None}
    dealer = request.form.get("dealer")
    try:
        if dealer not in (None, ""):
            if not dealer.isdigit():
                raise ParseError("bad_event", "There is no player {index} to deal.", index=dealer)
            body["dealer"] = int(dealer)
        store(table_id, body)
    except RefereeError as error:
        return refused(table_id, key, entry, error, deck)
    return done(table_id, key, Entry())


@bp.post("/t/<table_id>/save")
def save(table_id):
    """Stores the pile (captured-card entry, R-COMMON-6) or the claim gathered in the picker."""
    key, game, table, deck, entry = scorer_entry(table_id)
    cards = [c.code for c in entry.pending]
    if entry.mode == "capture":
        body = {"type": "capture", "side": entry.side, "cards": cards}
        if request.form.get("last_trick") in ("yes", "no"):
            body["last_trick"] = request.form["last_trick"] == "yes"
    else:
        body = {"type": "claim", "player": entry.player if entry.player is not None else -1, "cards": cards}
    try:
        store(table_id, body)
    except RefereeError as error:
        return refused(table_id, key, entry, error, deck)
    return done(table_id, key, Entry())


@bp.post("/t/<table_id>/exchange")
def exchange(table_id):
    key, game, table, deck, entry = scorer_entry(table_id)
    try:
        player = request.form.get("player", "")
        if not player.isdigit():
            raise ParseError("bad_event", "There is no player {index}: players are 0 to {last}.", index=player,
                             last=len(table.players) - 1)
        store(table_id, {"type": "exchange", "player": int(player)})
    except RefereeError as error:
        return refused(table_id, key, entry, error, deck)
    return done(table_id, key, entry)
