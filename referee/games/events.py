"""The entries a table takes (docs/api.md, "Events"), as frozen values.

Each parser reads a JSON body for one table and either returns the event or raises ``ParseError`` naming the
field or the card it cannot read. Whether the event is allowed *now* is the game's business, not the parser's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.cards import Card
from referee.errors import ParseError, msg
from referee.games.base import field_of


@dataclass(frozen=True)
class Deal:
    type: ClassVar[str] = "deal"
    trump: Card | None
    dealer: int | None = None
    widow: tuple | None = None  # Brûlot: the widow's cards, when known


@dataclass(frozen=True)
class TrickPlayed:
    type: ClassVar[str] = "trick"
    cards: tuple


@dataclass(frozen=True)
class Capture:
    type: ClassVar[str] = "capture"
    side: int
    cards: tuple
    last_trick: bool | None = None
    extras: object = None  # what the game takes beside a pile (Brouc's announces, Brusquembille's brusquembilles)
    extra_fields: tuple = ()  # the body's fields the extras were read from (the ledger stores them)


@dataclass(frozen=True)
class Tally:
    """A deal by its numbers: what the table writes on paper, closing the open deal. ``points`` per side (trick
    games), ``last_trick`` the side that took it (Brisca's 60–60), ``extras`` the game's own fields, already read."""

    type: ClassVar[str] = "tally"
    points: tuple = ()
    last_trick: int | None = None
    extras: object = None
    extra_fields: tuple = ()  # the body's fields the extras were read from (the ledger stores them)


@dataclass(frozen=True)
class Exchange:
    type: ClassVar[str] = "exchange"
    player: int
    card: Card | None = None


@dataclass(frozen=True)
class Claim:
    type: ClassVar[str] = "claim"
    player: int
    cards: tuple


@dataclass(frozen=True)
class Announce:
    type: ClassVar[str] = "announce"
    player: int
    cards: tuple


@dataclass(frozen=True)
class Reveal:
    type: ClassVar[str] = "reveal"
    player: int
    cards: tuple


@dataclass(frozen=True)
class Declare:
    type: ClassVar[str] = "declare"
    player: int
    call: str


def read_player(table, data, name="player") -> int:
    player = field_of(data, name, int)
    if not 0 <= player < len(table.players):
        raise ParseError("bad_event", "There is no player {index}: players are 0 to {last}.", index=player,
                         last=len(table.players) - 1, field=name)
    return player


def read_cards(game, table, data, name="cards") -> tuple:
    return tuple(game.deck_for(table).parse_many(field_of(data, name, list)))


def read_card(game, table, data, name, optional=False):
    code = field_of(data, name, str, optional=optional)
    return None if code is None else game.deck_for(table).parse(code)


def parse_deal(game, table, data) -> Deal:
    dealer = field_of(data, "dealer", int, optional=True)
    if dealer is not None and not 0 <= dealer < len(table.players):
        raise ParseError("bad_event", "There is no player {index} to deal.", index=dealer, field="dealer")
    widow = read_cards(game, table, data, "widow") if data.get("widow") is not None else None
    return Deal(read_card(game, table, data, "trump", optional=True), dealer, widow)


def parse_trick(game, table, data) -> TrickPlayed:
    return TrickPlayed(read_cards(game, table, data))


def parse_capture(game, table, data) -> Capture:
    last = field_of(data, "last_trick", bool, optional=True)
    return Capture(field_of(data, "side", int), read_cards(game, table, data), last)


def read_side(table, data, name: str, optional: bool = False) -> int | None:
    side = field_of(data, name, int, optional=optional)
    if side is not None and not 0 <= side < len(table.sides):
        raise ParseError("bad_event", "There is no side {index}: sides are 0 to {last}.", index=side,
                         last=len(table.sides) - 1, field=name)
    return side


def read_numbers(data, name: str, count: int, what: str) -> tuple:
    """``count`` whole numbers (one per side, or per player) in field ``name``."""
    values = field_of(data, name, list)
    if len(values) != count or any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        template = (msg("Field {field} gives {count} whole numbers, one per side.") if what == "side" else
                    msg("Field {field} gives {count} whole numbers, one per player."))
        raise ParseError("bad_event", template, field=name, count=count)
    return tuple(values)


def parse_points_tally(game, table, data) -> Tally:
    """A tally of card points per side (Brisca), with the side of the last trick where a 60–60 needs it."""
    return Tally(read_numbers(data, "points", len(table.sides), "side"), read_side(table, data, "last_trick", True))


def parse_exchange(game, table, data) -> Exchange:
    return Exchange(read_player(table, data), read_card(game, table, data, "card", optional=True))


def parse_claim(game, table, data) -> Claim:
    return Claim(read_player(table, data), read_cards(game, table, data))


def parse_announce(game, table, data) -> Announce:
    return Announce(read_player(table, data), read_cards(game, table, data))


def parse_declare(game, table, data) -> Declare:
    call = field_of(data, "call", str)
    if call not in DECLARATIONS:
        raise ParseError("bad_event", "A declaration is {calls}, not {call}.", calls=" or ".join(DECLARATIONS),
                         call=repr(call), field="call")
    return Declare(read_player(table, data), call)


DECLARATIONS = ("cape_dehors", "cape_dehors_pas_dedouble")
# What every trick game's parser reads of a deal, a trick and a pile, as the API's document declares it (each game's
# declared.py: (the fields needed, the ones it may take)).
TRICK_EVENT_FIELDS = {"deal": ((), ("trump", "dealer")), "trick": (("cards",), ()),
                      "capture": (("side", "cards"), ())}


def parse_reveal(game, table, data) -> Reveal:
    return Reveal(read_player(table, data), read_cards(game, table, data))
