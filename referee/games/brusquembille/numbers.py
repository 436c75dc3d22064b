"""Brusquembille's deal without its tricks: which aces and tens (the brusquembilles) moved jetons, entered with the
captured piles or with the deal's numbers (the contract's ``tally``). Each is checked against what the deal can hold
(R-BRUSQ-4, R-COMMON-5): a card that is no brusquembille, one entered twice, a trump said to be coupé, the ace of
trump losing, a card in a pile that contradicts its outcome, card points that cannot hold the cards won.
"""
from __future__ import annotations

from referee.errors import ParseError, RuleError, msg
from referee.games import events as ev
from referee.games.base import field_of
from referee.games.tally import typed_points

OUTCOMES = ("won", "trumped", "beaten")  # R-BRUSQ-4: a brusquembille's, in the order the numbers screen cycles them
KIND = {"won": "won", "trumped": "coupe"}  # "beaten" (by a higher card, not a trump) moves nothing


def read_brusquembilles(game, table, data) -> tuple | None:
    """((card, player, outcome), …) from field ``brusquembilles``, or None when the field is absent."""
    items = field_of(data, "brusquembilles", list, optional=True)
    if items is None:
        return None
    read = []
    for item in items:
        if not isinstance(item, dict):
            raise ParseError("bad_event", "Field {field} lists objects with card, player and outcome.",
                             field="brusquembilles")
        outcome = field_of(item, "outcome", str)
        if outcome not in OUTCOMES:
            raise ParseError("bad_event", "An outcome is won, trumped or beaten, not {value}.", value=repr(outcome),
                             field="outcome")
        read.append((ev.read_card(game, table, item, "card"), ev.read_player(table, item), outcome))
    return tuple(read)


def parse_tally(game, table, data) -> ev.Tally:
    points = ev.read_numbers(data, "points", len(table.sides), "side")
    return ev.Tally(points, None, read_brusquembilles(game, table, data) or (), ("brusquembilles",))


def parse_capture(game, table, data) -> ev.Capture:
    capture = ev.parse_capture(game, table, data)
    return ev.Capture(capture.side, capture.cards, capture.last_trick, read_brusquembilles(game, table, data),
                      game.pile_fields)


def verify(game, table, deal, given: tuple, points: list, piles: list | None) -> None:
    """Checks each brusquembille's outcome (R-BRUSQ-4) against the trump, the piles and the card points."""
    seen, won, lost = set(), [0] * len(table.sides), [0] * len(table.sides)
    for card, player, outcome in given:
        where = {"card": card.code, "player": player, "name": table.players[player]}
        if card.rank not in game.jetons:
            raise RuleError("not_brusquembille", "{card} is not a brusquembille: only aces and tens move jetons.",
                            rule="R-BRUSQ-4", **where)
        if card in seen:
            raise RuleError("brusquembille_twice", "{card} is entered twice.", rule="R-BRUSQ-4", **where)
        seen.add(card)
        trump = card.suit == deal.trump_suit
        if trump and card.rank == "A" and outcome != "won":
            raise RuleError("trump_ace_loses", "{card} is the ace of trump: it cannot lose a trick.",
                            rule="R-BRUSQ-4", **where)
        if trump and outcome == "trumped":
            raise RuleError("trump_coupe", "{card} is a trump: only a higher trump beats it, it is never coupé.",
                            rule="R-BRUSQ-4", **where)
        side = table.side_of(player)
        if piles is not None and (card in piles[side]) != (outcome == "won"):
            template = (msg("{card} is not in the pile of {name}'s side: it did not win for them.")
                        if outcome == "won" else msg("{card} is in the pile of {name}'s side: it won for them."))
            raise RuleError("brusquembille_pile", template, rule="R-BRUSQ-4", **where)
        (won if outcome == "won" else lost)[side] += game.points[card.rank]
    for side, value in enumerate(won):
        if value > points[side]:
            raise RuleError("brusquembille_points", "{name} took {points} card points, less than the {needed} of the "
                            "brusquembilles they won.", rule="R-BRUSQ-4", name=table.side_name(side),
                            points=points[side], needed=value, side=side)
    for side, value in enumerate(lost):  # a brusquembille lost lies in the tricks of another side
        others = sum(points) - points[side]
        needed = value + sum(won) - won[side]
        if needed > others:
            raise RuleError("brusquembille_lost_points", "The other sides took {points} card points, less than the "
                            "{needed} of the brusquembilles {name} lost and theirs.", rule="R-BRUSQ-4",
                            name=table.side_name(side), points=others, needed=needed, side=side)


def movements(game, table, deal, given: tuple) -> list:
    """The jetons each outcome moves (R-BRUSQ-4), as the tricks would have moved them (no trick, only the deal)."""
    found = []
    for card, player, outcome in given:
        if outcome in KIND:
            side = table.side_of(player)
            found.append({"player": player, "card": card.code, "kind": KIND[outcome], "jetons": game.jetons[card.rank],
                          "opponents": [p for s, members in enumerate(table.sides) if s != side for p in members],
                          "by": None, "trick": None, "deal": deal.number})
    return found


def as_entered(given: tuple) -> list:
    return [{"card": card.code, "player": player, "outcome": outcome} for card, player, outcome in given]


def sheet_tally(game, sheet, whole: int | None, table) -> dict:
    """The numbers sheet's tally: the card points and each brusquembille tapped, with who played it (R-BRUSQ-4)."""
    rows = []
    for _, (card, player, outcome) in sheet.rows("b"):
        if player == "":
            raise ParseError("sheet_who", "Tap who played {card}.", card=card)
        rows.append({"card": card, "player": int(player), "outcome": outcome})
    return {**typed_points(sheet, whole), "brusquembilles": rows}
