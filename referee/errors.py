"""The one error type every refusal travels in, from a card parser up to the JSON API.

Two families, as in python-chess: *cannot parse* (the input is not a card, not an event) and *illegal here*
(a well-formed entry that a rule forbids). Both carry a snake_case ``code``, a sentence for the player, and,
where they apply, the ruling id, the card and the player concerned.
"""
from __future__ import annotations


def msg(text: str) -> str:
    """Marks a refusal sentence chosen before it is raised, so the catalogues extract it (``-k msg``)."""
    return text


class Plural(str):
    """A refusal's sentence whose words follow a number (``ngettext``): the English form ``count`` takes, with both
    forms kept, so that a page takes its catalogue's form (French has three, referee/web/i18n.py)."""

    singular: str
    plural: str
    count: int

    def __new__(cls, singular: str, plural: str, count: int) -> "Plural":
        chosen = super().__new__(cls, singular if count == 1 else plural)
        chosen.singular, chosen.plural, chosen.count = singular, plural, count
        return chosen


def ngettext(singular: str, plural: str, count: int) -> Plural:
    """Marks a refusal sentence with a plural (extracted as one msgid with its msgid_plural): its form for
    ``count``."""
    return Plural(singular, plural, count)


class RefereeError(Exception):
    """An entry refused: nothing is stored. Which kind it is (the class) is all it says of how it is answered: the web
    maps each kind to its HTTP status (``referee.web.services.status_of``), as python-chess's errors know no HTTP.

    ``template`` is an English sentence with ``{named}`` fields; ``message`` is it filled in. Pages translate the
    template (it is a msgid of the catalogues) and fill it with card names in the page's language.
    """

    def __init__(self, code: str, template: str, *, rule: str | None = None, card: str | None = None,
                 player: int | None = None, **params):
        self.code = code
        self.template = template
        self.rule = rule
        self.card = card
        self.player = player
        self.params = params
        self.message = template.format(card=card, player=player, **params)
        super().__init__(self.message)

    def to_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        for name in ("rule", "card", "player"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        body.update(self.params)
        return body

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ParseError(RefereeError):
    """The input cannot be read: not a card code, not an event, a missing or mistyped field."""


class RuleError(RefereeError):
    """The input is well formed but a rule of the game forbids it here."""


class NotFound(RefereeError):
    """What is asked for is not there: no such table, tournament, club or member."""


class Unauthorized(RefereeError):
    """No key, or a key that is not this table's (tournament's, club's)."""


class Forbidden(RefereeError):
    """A right key that may not do this (a viewer's key posting, a director's key signing for the sides)."""


class Conflict(RefereeError):
    """The table moved on since the page was drawn (a revision, a trick under way, a form used for another thing)."""
