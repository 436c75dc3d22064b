"""A card tapped on the scorer's page, answered to htmx with what the tap changed (``_scorer_tap.html``): the cards
of the picker whose state changed, the forms' fields, the trick line, the message room, the actions, the offline
queue's copy; the series line and the scoreboard when the tap stored a trick. Each part replaces the element of the
same id (htmx's out-of-band swaps); the rest of the page stays as it is. The whole scorer is still the answer when
the deal is over (the next deal's screen), in another way of entry, or on a refusal (scorer.py)."""
from __future__ import annotations

from flask import g, make_response, render_template, request, url_for

from referee.errors import RefereeError
from referee.games import get_game
from referee.store import Once
from referee.web.services import is_htmx, ledger
from referee.web.shared.requests import number
from referee.web.tables.correcting import kept_reason
from referee.web.tables.views import ScorerInput, picker, read_entry


def tap_changes_alone(context: dict) -> bool:
    """The tap left the table in the trick entry with a trick to enter next (the same screen): its answer is what
    changed. A deal completed (or anything else next) redraws the whole scorer."""
    return context["entry"].mode == "trick" and context["state"]["next"]["action"] == "trick" and not context["error"]


def changed_cards(before: list, after: list) -> list:
    """(suit, card) of the picker's cards whose state differs from the page's (``before``, ``after``: rows of
    ``views.picker``); both show the same deck in the same order."""
    return [(suit, card) for (suit, row), (_, shown) in zip(after, before) for card, was in zip(row, shown)
            if card != was]


def render_tap(context: dict, before: list, trick_done: bool):
    """The answer to a card tapped (htmx): the out-of-band parts only; the page's own target is left alone."""
    context.update(changed_cards=changed_cards(before, context["picker"]), trick_done=trick_done, oob=True,
                   refused_card=None)
    response = make_response(render_template("_scorer_tap.html", **context))
    response.headers["HX-Reswap"] = "none"
    state = context["state"]
    response.headers["HX-Replace-Url"] = url_for("tables.table", table_id=state["id"], key=context["key"],
                                                 **context["entry"].query(), **kept_reason())
    return response


def tapped_ahead(table_id: str, key: str | None) -> ScorerInput | None:
    """A card tapped into a trick (htmx), stored the short way with no read before it: on this process's state of the
    table at the revision the page showed, the trick under way (``Ledger.tap_ahead``) or, for the trick's last card,
    the trick (``Ledger.entry_ahead``), by one write that checks the key, the revision, the trick the page showed and
    R-COMMON-7's lock. Returns the entry the page goes on with (the answer drawn from the state written, as ``done``
    draws it), or None when this way does not apply or its write did not store the tap: nothing is stored then, and
    the post goes the long way, which checks the key first and answers why. A card tapped costs one statement."""
    revision = number(request.form.get("revision", ""))
    table = ledger().kept(table_id, revision) if is_htmx() and key else None
    if table is None:
        return None
    game = get_game(table.game)
    try:
        entry = read_entry(request.form, game, table)
        card = game.deck_for(table).parse(request.form.get("card", ""))
    except RefereeError:
        return None  # the long way refuses it, after the key
    event_id = request.form.get("event_id") or None
    damaged = event_id is not None and not Once.valid(event_id)  # as Post.event_id refuses it
    if entry.mode != "trick" or not game.plays_tricks or damaged:
        return None
    seen = tuple(c.code for c in entry.pending)
    cards = (*seen, card.code)
    shown = picker(game, table, entry)  # the deck as this page showed it: the answer swaps what changed
    reason = request.form.get("reason") or None
    try:
        if len(cards) < len(table.players):  # R-COMMON-4: the trick under way, for every phone
            looked = ledger().tap_ahead(table_id, cards, revision, seen, key)
        else:
            looked = ledger().entry_ahead(table_id, {"type": "trick", "cards": list(cards)}, event_id, revision, seen,
                                          key, reason)
    except RefereeError:
        return None  # nothing stored (a reason the long way refuses in words)
    if looked is None:
        return None
    g.tapped, g.looked, g.trick_done = shown, looked, len(cards) == len(table.players)
    return ScorerInput()
