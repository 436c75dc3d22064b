"""Brouc's deal without its tricks: the announces, mariages sur table, declaration and cape that a table enters with
its captured piles or with the deal's numbers (the contract's ``tally``). Each is checked against what the deal can
hold (R-COMMON-5): a shape that is no announce, a card announced twice, a mariage sur table of a king the announcer
held, a side credited with a trick it cannot have won, card points a mariage's own cards exceed.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.cards import FRENCH_SUITS
from referee.errors import ParseError, RuleError, msg
from referee.games import events as ev
from referee.games.base import field_of
from referee.games.brouc.slate import DECLARED_COCHES, announce_points, declaration_refusal
from referee.games.tally import typed_points

HAND = 8  # R-BROUC-1: eight cards each
POINTS = {"K": 4, "Q": 3, "J": 2}  # R-BROUC-2: the cards of an announce or a mariage
MOST_IN_TWO_TRICKS = 4 * 11 + 4 * 10  # R-BROUC-2: eight cards hold at most the four aces and the four tens


@dataclass(frozen=True)
class BroucNumbers:
    """What a deal entered without its tricks carries beside the points: ``announces`` ((player, cards), …),
    ``marriages`` ((side, cards), …), ``declare`` (player, call) or None, ``cape`` the side that took every trick
    (a tally says it; piles show it)."""

    announces: tuple = ()
    marriages: tuple = ()
    declare: tuple | None = None
    cape: int | None = None

    def __bool__(self) -> bool:
        return bool(self.announces or self.marriages or self.declare)


def _objects(data, name: str) -> list:
    items = field_of(data, name, list, optional=True, default=[])
    if not all(isinstance(item, dict) for item in items):
        raise ParseError("bad_event", "Field {field} lists objects.", field=name)
    return items


def read_numbers(game, table, data, with_cape: bool) -> BroucNumbers:
    announces = tuple((ev.read_player(table, a), ev.read_cards(game, table, a)) for a in _objects(data, "announces"))
    marriages = tuple((ev.read_side(table, m, "side"), ev.read_cards(game, table, m))
                      for m in _objects(data, "marriages"))
    declare = data.get("declare")
    if declare is not None:
        if not isinstance(declare, dict):
            raise ParseError("bad_event", "Field {field} is an object with player and call, or null.", field="declare")
        declare = (ev.parse_declare(game, table, declare).player, declare["call"])
    cape = ev.read_side(table, data, "cape", optional=True) if with_cape else None
    return BroucNumbers(announces, marriages, declare, cape)


FIELDS = ("announces", "marriages", "declare")


def parse_tally(game, table, data) -> ev.Tally:
    points = ev.read_numbers(data, "points", len(table.sides), "side")
    return ev.Tally(points, None, read_numbers(game, table, data, with_cape=True), ("cape", *FIELDS))


def parse_capture(game, table, data) -> ev.Capture:
    capture = ev.parse_capture(game, table, data)
    return ev.Capture(capture.side, capture.cards, capture.last_trick, read_numbers(game, table, data, False), FIELDS)


def king_queen(cards, code: str, template: str, rule: str, **where) -> set:
    """R-BROUC-4, 5: the king and queen of one suit, or king, queen and jack: their ranks, or a refusal."""
    ranks = sorted(c.rank for c in cards)
    if len({c.suit for c in cards}) != 1 or ranks not in (["K", "Q"], ["J", "K", "Q"]):
        raise RuleError(code, template, rule=rule, **where)
    return set(ranks)


# One check per announce rule, the same for a deal entered trick by trick (engine.py) and by its numbers (here).
def announce_shape(cards, player: int) -> set:
    """R-BROUC-4: an announce is the king and queen of one suit, or king, queen and jack: their ranks."""
    return king_queen(cards, "bad_announce", msg("An announce is the king and queen of one suit, or king, queen and "
                      "jack."), "R-BROUC-4", player=player)


def refuse_no_trick(table, player: int):
    """R-BROUC-4: only a player who has already won a trick may announce."""
    return RuleError("announce_needs_trick", "{name} has not won a trick yet: only a player who has may announce.",
                     rule="R-BROUC-4", player=player, name=table.players[player])


def refuse_too_many(table, player: int, left: int):
    """R-BROUC-4: the announcer still holds the cards, and a hand holds only so many now."""
    return RuleError("announce_too_many", "{name} holds {left} cards now: these cannot all be in the hand.",
                     rule="R-BROUC-4", player=player, name=table.players[player], left=left)


def verify_not_announced(card, announced, player: int) -> None:
    """R-BROUC-8b: each card is announced once in a deal."""
    if card in announced:
        raise RuleError("announce_twice", "{card} was already announced in this deal.", rule="R-BROUC-8b",
                        card=card.code, player=player)


def verify(table, deal, numbers: BroucNumbers, points: list, cape: int | None, piles: list | None) -> None:
    """Checks the numbers of a deal whose card points per side are ``points`` and whose cape is ``cape``;
    ``piles`` are the captured piles when the deal was entered by them."""
    announced = {}
    shown = {p: [] for p in range(len(table.players))}
    for player, cards in numbers.announces:
        announce_shape(cards, player)
        if cape is not None and table.side_of(player) != cape:  # R-BROUC-4: after a trick won
            raise refuse_no_trick(table, player)
        for card in cards:
            verify_not_announced(card, announced, player)
            if card == deal.trump and player != deal.dealer:  # R-BROUC-1: the turned card stays with the dealer
                raise RuleError("card_in_other_hand", "{card} is known to be in {holder}'s hand.",
                                rule="R-BROUC-1", card=card.code, player=player, holder=table.players[deal.dealer])
            announced[card] = player
        shown[player] += cards
    for player, cards in shown.items():  # the dealer's turned card may have gone in the trick he won first
        if len(set(cards)) > HAND - 1:  # R-BROUC-4: an announce comes after a trick won, one card played at least
            raise refuse_too_many(table, player, HAND - 1)
    in_marriage = set()
    married_points = [0] * len(table.sides)
    for side, cards in numbers.marriages:
        name = table.side_name(side)
        king_queen(cards, "bad_marriage", msg("A mariage sur table is the king and queen of one suit, or king, queen "
                   "and jack."), "R-BROUC-5")
        if cape is not None and side != cape:
            raise RuleError("marriage_needs_trick", "{name} took no trick: no mariage sur table can be theirs.",
                            rule="R-BROUC-5", name=name, side=side)
        for card in cards:
            if card in in_marriage:
                raise RuleError("marriage_twice", "{card} is in two mariages sur table.", rule="R-BROUC-5",
                                card=card.code)
            if card in announced:  # R-BROUC-4, 5: the announcer held king and queen: never together in a trick
                raise RuleError("marriage_announced", "{name} announced {card}: the king and queen of {suit} were "
                                "in one hand, so they never lay together in a trick.", rule="R-BROUC-5",
                                card=card.code, name=table.players[announced[card]],
                                suit=FRENCH_SUITS[card.suit].names["en"], suit_code=card.suit)
            if piles is not None and card not in piles[side]:  # the trick with the mariage is in its winner's pile
                raise RuleError("marriage_not_in_pile", "{card} is not in the pile of {name}: the mariage sur table "
                                "cannot be theirs.", rule="R-BROUC-5", card=card.code, name=name, side=side)
            in_marriage.add(card)
        married_points[side] += sum(POINTS[c.rank] for c in cards)
    for side, value in enumerate(married_points):
        if value > points[side]:
            raise RuleError("marriage_points", "{name} took {points} card points, less than the {needed} of the "
                            "cards in their mariages sur table.", rule="R-BROUC-5", name=table.side_name(side),
                            points=points[side], needed=value, side=side)
    if numbers.declare is not None:
        verify_declaration(table, deal, numbers, points, cape, piles)


def verify_declaration(table, deal, numbers: BroucNumbers, points: list, cape: int | None,
                       piles: list | None) -> None:
    """R-BROUC-8, 8b: la cape is declared at the second-to-last card by a side that had won every trick so far (six
    or seven of them), at 19 or more on the slate with the announces it had made."""
    player, call = numbers.declare
    side = table.side_of(player)
    other, name = 1 - side, table.side_name(side)
    if cape is not None and cape != side:
        raise RuleError("declare_trick_lost", "{name}'s side declared la cape after winning six tricks: the other "
                        "side cannot have taken them all.", rule="R-BROUC-8b", player=player,
                        name=table.players[player])
    if points[other] > MOST_IN_TWO_TRICKS:
        raise RuleError("declare_too_late", "{name} declared la cape, so the other side took two tricks at the most: "
                        "not {points} card points.", rule="R-BROUC-8b", player=player, name=name,
                        points=points[other])
    if piles is not None and len(piles[other]) > 2 * len(table.players):
        raise RuleError("declare_too_late", "{name} declared la cape, so the other side took two tricks at the most: "
                        "not {count} cards.", rule="R-BROUC-8b", player=player, name=name, count=len(piles[other]))
    if any(table.side_of(p) == other for p, _ in numbers.announces):
        raise RuleError("declare_announce", "{name} declared la cape: the other side won no trick before the last "
                        "two, when nobody holds a king and a queen any more to announce.", rule="R-BROUC-8b",
                        player=player, name=name)
    slate = list(table.totals)  # R-BROUC-8: the slate when declaring, with this side's announces (counted when made)
    slate[side] += sum(announce_points(set(c.rank for c in cards), cards[0].suit == deal.trump_suit) // 10
                       for p, cards in numbers.announces if table.side_of(p) == side)
    refusal = declaration_refusal(call, slate, side)
    if refusal:
        code, template, fields = refusal
        raise RuleError(code, template, rule="R-BROUC-8", player=player, **fields)


def verify_cape(table, points: list, cape: int | None) -> None:
    """R-BROUC-8: a side that took every trick took all 120 card points."""
    if cape is not None and points[cape] != sum(points):
        raise RuleError("cape_points", "{name} took every trick but has {points} card points, not {whole}.",
                        rule="R-BROUC-8", name=table.side_name(cape), points=points[cape], whole=sum(points),
                        side=cape)


def write_announces(table, deal, numbers: BroucNumbers) -> None:
    """Writes the announces (on the slate at once, R-BROUC-6), the mariages sur table and the declaration."""
    for player, cards in numbers.announces:
        side = table.side_of(player)
        value = announce_points(set(c.rank for c in cards), cards[0].suit == deal.trump_suit)
        deal.announces.append({"player": player, "side": side, "cards": [c.code for c in cards], "points": value,
                               "tens": value // 10, "after_trick": None, "shown": list(cards)})
        table.totals[side] += value // 10
    for side, cards in numbers.marriages:
        deal.marriages.append({"trick": None, "suit": cards[0].suit, "cards": [c.code for c in cards],
                               "points": announce_points(set(c.rank for c in cards),
                                                         cards[0].suit == deal.trump_suit), "side": side})
    if numbers.declare is not None:
        player, call = numbers.declare
        deal.declaration = {"player": player, "side": table.side_of(player), "call": call,
                            "coches": DECLARED_COCHES[call]}


def as_entered(numbers: BroucNumbers) -> dict:
    """The numbers as the table entered them, kept with the deal."""
    return {"cape": numbers.cape,
            "announces": [{"player": p, "cards": [c.code for c in cards]} for p, cards in numbers.announces],
            "marriages": [{"side": s, "cards": [c.code for c in cards]} for s, cards in numbers.marriages],
            "declare": {"player": numbers.declare[0], "call": numbers.declare[1]} if numbers.declare else None}


def sheet_tally(game, sheet, whole: int | None, table) -> dict:
    """The numbers sheet's tally: the card points, the cape, the announces, the mariages sur table and a declaration
    (R-BROUC-4, 5, 8)."""
    cape = sheet.rows("c")
    declare = sheet.rows("d")
    return {**typed_points(sheet, whole), "cape": int(cape[0][1][0]) if cape else None,
            "announces": [{"player": int(p[0]), "cards": _typed_cards(p[1])} for _, p in sheet.rows("a")],
            "marriages": [{"side": int(p[0]), "cards": _typed_cards(p[1])} for _, p in sheet.rows("m")],
            "declare": {"player": int(declare[0][1][0]), "call": declare[0][1][1]} if declare else None}


def _typed_cards(text: str) -> list:
    return [c for c in text.split(".") if c]
