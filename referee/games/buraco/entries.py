"""Buraco's own entries (the contract's events): a meld laid, a meld extended, a wild card replaced, a pot taken, the
hand's count; each read from its body into a frozen event the engine applies (``engine.py``). Its numbers, the
``tally``, are read in ``tally.py``."""
from __future__ import annotations

from dataclasses import dataclass

from referee.cards import BURACO_108
from referee.errors import ParseError
from referee.games.base import field_of
from referee.games.events import read_player


@dataclass(frozen=True)
class MeldEvent:
    type = "meld"
    side: int
    cards: tuple


@dataclass(frozen=True)
class Extend:
    type = "extend"
    side: int
    meld: int
    cards: tuple
    at: str


@dataclass(frozen=True)
class Replace:
    type = "replace"
    side: int
    meld: int
    card: object


@dataclass(frozen=True)
class Pot:
    type = "pot"
    side: int


@dataclass(frozen=True)
class Count:
    type = "count"
    closed_by: int | None
    hands: tuple
    melds: tuple | None


def _cards(data, name="cards"):
    return tuple(BURACO_108.parse_many(field_of(data, name, list)))


def parse_meld(game, table, data) -> MeldEvent:
    return MeldEvent(field_of(data, "side", int), _cards(data))


def parse_extend(game, table, data) -> Extend:
    at = field_of(data, "at", str, optional=True, default="end")
    if at not in ("start", "end"):
        raise ParseError("bad_event", "Field at is start or end, not {value}.", value=repr(at), field="at")
    return Extend(field_of(data, "side", int), field_of(data, "meld", int), _cards(data), at)


def parse_replace(game, table, data) -> Replace:
    return Replace(field_of(data, "side", int), field_of(data, "meld", int),
                   BURACO_108.parse(field_of(data, "card", str)))


def parse_pot(game, table, data) -> Pot:
    return Pot(field_of(data, "side", int))


def parse_count(game, table, data) -> Count:
    closer = read_player(table, data, "closed_by") if data.get("closed_by") is not None else None
    hands = tuple(tuple(BURACO_108.parse_many(h)) for h in field_of(data, "hands", list))
    melds = data.get("melds")
    if melds is not None:
        if not isinstance(melds, list) or not all(isinstance(side, list) for side in melds):
            raise ParseError("bad_event", "Field melds lists, per side, the melds laid.", field="melds")
        melds = tuple(tuple(tuple(BURACO_108.parse_many(m)) for m in side) for side in melds)
    return Count(closer, hands, melds)
