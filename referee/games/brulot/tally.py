"""A Brûlot deal by its numbers (the contract's ``tally``): each player's penalty points, and the widow's cards when
the table knows them. Pure checks beside engine.py; the scoring is the one of card entry (``Brulot.score_deal``).

What a deal can hold (R-BRULOT-5): 4 × the four penalty values (40 by default), less what the widow holds. The
widow's top card is known from the deal (R-BRULOT-2), the whole widow when the deal or the tally gives it
(R-BRULOT-1); a widow card nobody names may be any card nobody took, so with part of the widow unknown the players'
sum lies between what the unknown cards could hold at most and at least. Each number is checked alone (a total some
penalty cards make, not above what is left) and all together (the penalty cards can be shared out that way, what
nobody took fitting in the unknown widow places). Who took which card is not claimed: no brûlé, no revoke is known.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from referee.errors import ParseError, RuleError
from referee.games import events as ev
from referee.games.tally import over_the_bound_first, reachable


@dataclass(frozen=True)
class BrulotNumbers:
    """What the table wrote: ``penalties`` per player, ``widow`` the widow's cards it names (or None)."""

    penalties: tuple
    widow: tuple | None = None


def parse_tally(game, table, data) -> ev.Tally:
    """``penalties``: one whole number per player; ``widow``: cards, optional (contract, "A deal by its numbers")."""
    penalties = ev.read_numbers(data, "penalties", len(table.players), "player")
    widow = ev.read_cards(game, table, data, "widow") if data.get("widow") is not None else None
    return ev.Tally(extras=BrulotNumbers(penalties, widow), extra_fields=("penalties", "widow"))


def known_widow(table, deal, given: tuple | None, size: int) -> list:
    """The widow cards known once the tally is in: the deal's (its top card, or all of it) and the tally's, which
    must agree with them, repeat no card and not pass the widow's size (R-BRULOT-1)."""
    known = list(deal.widow)
    if given is None:
        return known
    twice = next((c for i, c in enumerate(given) if c in given[:i]), None)
    if twice is not None:
        raise RuleError("card_twice", "{card} is entered twice in the widow.", rule="R-BRULOT-1", card=twice.code)
    if len(given) > size:
        raise RuleError("bad_widow", "With {n} players the widow holds {size} cards.", rule="R-BRULOT-1",
                        n=len(table.players), size=size)
    if len(known) == size:  # the deal gave the whole widow: the tally's cards are among them
        stranger = next((c for c in given if c not in known), None)
        if stranger is not None:
            raise RuleError("widow_disagrees", "{card} is not in the widow entered with the deal.",
                            rule="R-BRULOT-1", card=stranger.code)
        return known
    merged = known + [c for c in given if c not in known]
    if len(merged) > size:  # a whole widow given here that leaves out the top card turned with the deal
        missing = next(c for c in known if c not in given)
        raise RuleError("widow_disagrees", "{card} was turned from the widow with the deal; the widow given here "
                        "leaves it out.", rule="R-BRULOT-1", card=missing.code)
    return merged


def verify_penalties(table, deck, values: dict, widow: list, unknown: int, penalties: tuple) -> None:
    """Each player's penalty points, then their sum, then all of them together, against the penalty cards (``values``
    per rank) not known to be in the widow (R-BRULOT-5); ``unknown`` widow cards are not known."""
    ranks = tuple(r for r, v in values.items() if v > 0)  # a rank worth 0 is no penalty card here
    counts = tuple(sum(1 for c in deck.cards if c.rank == r and c not in widow) for r in ranks)
    worth = tuple(values[r] for r in ranks)
    in_play = tuple(sorted(w for w, n in zip(worth, counts) for _ in range(n)))
    whole = sum(values.get(c.rank, 0) for c in deck.cards)  # 4 × the four values: 40 by default
    most = sum(in_play)  # what is left once the known widow's penalties are out
    for player in over_the_bound_first(penalties, most):  # R-COMMON-5: the one typed is named
        value = penalties[player]
        name = table.players[player]
        if not 0 <= value <= most:
            raise RuleError("tally_penalties_range", "{name} cannot have {penalties} penalty points: a player takes "
                            "0 to {most} in this deal.", rule="R-BRULOT-5", player=player, name=name,
                            penalties=value, most=most)
        if value not in reachable(in_play):
            raise RuleError("tally_penalties_impossible", "No penalty cards of this deal add up to {penalties}: "
                            "{name} cannot have {penalties} penalty points.", rule="R-BRULOT-5", player=player,
                            name=name, penalties=value)
    total = sum(penalties)
    if not unknown and total != most:  # R-BRULOT-5: 40 minus the widow's, the widow known
        raise RuleError("tally_penalties_sum", "The players' penalties add up to {total}; this deal holds {held}: "
                        "{whole} minus the widow's {widow}.", rule="R-BRULOT-5", total=total, held=most,
                        whole=whole, widow=whole - most)
    low = most - sum(sorted(in_play, reverse=True)[:unknown])
    if not low <= total <= most:  # the unknown widow cards hold at most the highest ones left, at least nothing
        raise RuleError("tally_penalties_sum", "The players' penalties add up to {total}; with the widow known only "
                        "in part, this deal holds {low} to {high}.", rule="R-BRULOT-5", total=total,
                        unknown=unknown, low=low, high=most)
    if not shared_out(counts, worth, penalties, unknown):
        numbers = ", ".join(f"{table.players[p]} {v}" for p, v in enumerate(penalties))
        raise RuleError("tally_penalties_split", "No sharing of this deal's penalty cards gives {numbers}: each "
                        "number is possible alone, not all together.", rule="R-BRULOT-5", numbers=numbers,
                        penalties=list(penalties))


def shared_out(counts: tuple, worth: tuple, penalties: tuple, free: int) -> bool:
    """Whether the penalty cards (``counts`` of each rank worth ``worth``) can go to the players so that each takes
    exactly his number, the cards nobody took fitting in the ``free`` unknown widow places (R-BRULOT-5)."""
    left = {counts}
    for target in penalties:
        left = {tuple(r - a for r, a in zip(rest, take)) for rest in left
                for take in hands_worth(counts, worth, target) if all(a <= r for a, r in zip(take, rest))}
        if not left:
            return False
    return any(sum(rest) <= free for rest in left)


@lru_cache(maxsize=256)
def hands_worth(counts: tuple, worth: tuple, target: int) -> tuple:
    """Every choice of so many cards of each penalty rank (within ``counts``) worth ``target`` in all."""
    return tuple(take for take in product(*(range(n + 1) for n in counts))
                 if sum(a * w for a, w in zip(take, worth)) == target)


def side_penalties(table, penalties: tuple) -> list:
    """R-BRULOT-6: a side's penalties are its players' (partners add theirs; alone, a side is one player)."""
    return [sum(penalties[p] for p in side) for side in table.sides]


def sheet_tally(game, sheet, whole: int | None, table) -> dict:
    """The numbers sheet's tally: each player's penalty points (R-BRULOT-5). With the widow known, the one player
    left blank took what remains of the deal's ``whole``; with part of it unknown, every player is typed."""
    blank = sheet.values.count("")
    if whole is None and blank:
        raise ParseError("sheet_incomplete", "Type the penalties of every player: with the widow known only in "
                         "part, none is worked out.")
    if blank > 1:
        raise ParseError("sheet_incomplete", "Type the penalties of every player but one.")
    return {"penalties": sheet.numbers(whole)}
