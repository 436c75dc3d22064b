"""The scorer's page and its entries. Every form posts and redirects without JavaScript; with htmx the same post
answers the ``_scorer.html`` fragment in place. The entry in progress (mode, tapped cards) lives in the address."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import wraps

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
        "last_trick": last_trick(state), "actors": {action: game.players_for(table, action) for action in possible},
        "event_id": uuid.uuid4().hex, "turned_card": game.turned_card(table),
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


@dataclass
class Post:
    """One scorer's form post: the table, its game and deck, the entry in progress, and the key that opened it."""

    table_id: str
    key: str
    game: object
    table: object
    deck: object
    entry: Entry

    def card(self):
        return self.deck.parse(request.form.get("card", ""))

    def number(self, field: str, optional: bool = False):
        raw = request.form.get(field, "")
        if optional and raw == "":
            return None
        if not raw.isdigit():
            raise ParseError("bad_event", "There is no player {index}: players are 0 to {last}.", index=raw,
                             last=len(self.table.players) - 1)
        return int(raw)

    def store(self, body: dict) -> None:
        ledger().append(self.table_id, body, client_event_id=request.form.get("event_id") or None)


def scorer_post(rule: str):
    """Registers a scorer's form post: scorer key checked (401/403), engine refusals shown on the page."""
    def register(view):
        @bp.post(rule, endpoint=view.__name__)
        @wraps(view)
        def handle(table_id):
            key = request_key() or request.form.get("key")
            ledger().authorize(table_id, key, write=True)
            state, table = ledger().snapshot(table_id)
            game = get_game(state["game"])
            deck = game.deck_for(table)
            post = Post(table_id, key, game, table, deck, Entry.read(request.form, deck))
            try:
                return done(table_id, key, view(post))
            except RefereeError as error:
                # The page again, the engine's sentence beside the picker, nothing stored. Answered 200, as a form
                # shown again is: a 4xx would put an error in the browser's console (the API answers 422).
                return render_scorer(table_id, key, post.entry, refusal(error, deck))
        return handle
    return register


@scorer_post("/t/<table_id>/tap")
def tap(post: Post) -> Entry:
    card, entry = post.card(), post.entry
    if entry.mode != "trick":  # a pile or a claim being gathered: tapping again takes the card back
        return entry.with_pending([c for c in entry.pending if c != card] if card in entry.pending
                                  else [*entry.pending, card])
    cards = [*entry.pending, card]
    post.game.verify_partial(post.table, cards)
    if len(cards) < len(post.table.players):
        return entry.with_pending(cards)
    post.store({"type": "trick", "cards": [c.code for c in cards]})
    return Entry()


@scorer_post("/t/<table_id>/undo")
def undo(post: Post) -> Entry:
    if post.entry.pending:  # one tap takes back the last card tapped
        return post.entry.with_pending(post.entry.pending[:-1])
    ledger().undo(post.table_id)
    return Entry()


@scorer_post("/t/<table_id>/deal")
def deal(post: Post) -> Entry:
    body = {"type": "deal", "trump": request.form.get("card") or None}
    dealer = post.number("dealer", optional=True)
    if dealer is not None:
        body["dealer"] = dealer
    post.store(body)
    return Entry()


@scorer_post("/t/<table_id>/save")
def save(post: Post) -> Entry:
    """Stores what was gathered in the picker: a pile (R-COMMON-6), a claim or an announce."""
    entry, cards = post.entry, [c.code for c in post.entry.pending]
    if entry.mode == "capture":
        body = {"type": "capture", "side": entry.side, "cards": cards}
        if request.form.get("last_trick") in ("yes", "no"):
            body["last_trick"] = request.form["last_trick"] == "yes"
    else:  # a claim (Brisca), an announce (Brouc), a shown hand (Brûlot): a player shows cards
        body = {"type": entry.mode, "player": entry.player if entry.player is not None else -1, "cards": cards}
    post.store(body)
    if entry.mode == "capture":  # more piles to enter (three or more sides): go on with the next side
        state = ledger().state(post.table_id)
        deal = state["deals"][-1] if state["deals"] else None
        if deal is not None and not deal["complete"] and deal.get("captures"):
            missing = [s for s, pile in enumerate(deal["captures"]) if pile is None]
            if missing:
                return Entry("capture", (), missing[0])
    return Entry()


@scorer_post("/t/<table_id>/declare")
def declare(post: Post) -> Entry:
    post.store({"type": "declare", "player": post.number("player"), "call": request.form.get("call", "")})
    return post.entry


@scorer_post("/t/<table_id>/exchange")
def exchange(post: Post) -> Entry:
    post.store({"type": "exchange", "player": post.number("player")})
    return post.entry
