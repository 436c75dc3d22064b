"""A card tapped on the scorer's page, answered to htmx with what the tap changed (``_scorer_tap.html``): the cards
of the picker whose state changed, the forms' fields, the trick line, the message room, the actions, the offline
queue's copy; the series line and the scoreboard when the tap stored a trick. Each part replaces the element of the
same id (htmx's out-of-band swaps); the rest of the page stays as it is. The whole scorer is still the answer when
the deal is over (the next deal's screen), in another way of entry, or on a refusal (scorer.py)."""
from __future__ import annotations

from flask import make_response, render_template, url_for

from referee.web.tables.correcting import kept_reason


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
