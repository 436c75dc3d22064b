"""A deal by its numbers (the contract's ``tally``): what a table writes on paper, as one event that closes the open
deal. The checks every trick game shares: the deal is open and no card of it was entered (R-COMMON-6), and each
side's card points are a number some cards of the deal add up to, the sides together holding the deal's points
(R-COMMON-5). What only the cards could prove is not claimed: the deal says it was entered by its numbers.
"""
from __future__ import annotations

from functools import lru_cache

from referee.errors import RuleError


@lru_cache(maxsize=32)
def reachable(values: tuple) -> frozenset:
    """Every total some of the cards worth ``values`` add up to (with 11, 10, 4, 3, 2 four times: all of 0 … 120
    but 1 and 119)."""
    sums = {0}
    for value in values:
        sums |= {s + value for s in sums}
    return frozenset(sums)


def open_for_tally(game, table):
    """The open deal, if nothing of it was entered card by card or pile by pile."""
    deal = game.open_deal(table)
    if deal.tricks or deal.captures is not None:
        raise RuleError("entry_mixed", "Cards of this deal were already entered; a deal by its numbers replaces "
                        "card entry and cannot be mixed with it: undo them first.", rule="R-COMMON-6")
    return deal


def over_the_bound_first(numbers, bound: int) -> list:
    """The indices of ``numbers``, those over ``bound`` first (R-COMMON-5): with one side or player left blank on the
    numbers sheet, the other's remainder is then negative, and a refusal names the number that was typed (121 and
    -1: the 121)."""
    return sorted(range(len(numbers)), key=lambda index: numbers[index] <= bound)


def typed_points(sheet, whole: int | None) -> dict:
    """The numbers sheet's card points per side (R-COMMON-6), when some were typed: the tally's ``points``."""
    return {"points": sheet.numbers(whole)} if sheet.values else {}


def verify_points(game, table, deal, points: tuple, rule: str) -> None:
    """Card points per side, checked against the cards in play (R-COMMON-5); ``rule`` gives the card values."""
    values = tuple(sorted(v for v in (game.points_for(table).get(c.rank, 0)
                                      for c in deal.cards_out(game.deck_for(table))) if v))
    whole = sum(values)
    for side in over_the_bound_first(points, whole):
        value = points[side]
        name = table.side_name(side)
        if not 0 <= value <= whole:
            raise RuleError("tally_points_range", "{name} cannot have {points} card points: a side takes 0 to "
                            "{whole}.", rule=rule, name=name, points=value, whole=whole, side=side)
        if value not in reachable(values):
            raise RuleError("tally_points_impossible", "No cards of this deal add up to {points}: {name} cannot "
                            "have {points} card points.", rule=rule, name=name, points=value, side=side)
    if sum(points) != whole:
        raise RuleError("tally_points_sum", "The sides' card points add up to {total}; a deal holds {whole}.",
                        rule=rule, total=sum(points), whole=whole)


def close(game, table, deal, points: tuple, numbers: dict) -> None:
    """Closes the deal with ``points`` per side; ``numbers`` is what was entered, kept with the deal."""
    deal.tally = numbers
    deal.card_points = list(points)
    deal.played.update(deal.cards_out(game.deck_for(table)))
    deal.known.clear()
    game.finish_deal(table, deal)
