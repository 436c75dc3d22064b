"""Buraco melds: what a run or a set may hold (R-BURACO-2), its wild card and what it stands for, its burraco class
(R-BURACO-3) and its value (R-BURACO-4). Pure functions of the cards, in the order they were laid; and the copies of
a card the two decks still hold (R-BURACO-1)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from referee.cards import BURACO_108, Card
from referee.errors import RuleError, msg

RANK_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12,
               "K": 13}
VALUE_RANKS = {v: r for r, v in RANK_VALUES.items()} | {14: "A"}
MAX_RUN, MAX_SET = 14, 9  # R-BURACO-2
BURACO = 7
BONUS = {"pure": 200, "semi_pure": 150, "dirty": 100}  # R-BURACO-3


def is_joker(card: Card) -> bool:
    return card.suit is None


@dataclass(frozen=True)
class Meld:
    kind: str  # run or set
    cards: tuple
    wild: int | None  # index of the wild card (a joker, or a 2 used as pinella), if any
    represents: Card | None  # the card the wild stands for (a run), or its rank (a set: suit None)
    values: tuple = ()  # a run's rank value per card (1 = ace low … 14 = ace high)
    suit: str | None = None
    rank: str | None = None

    @property
    def burraco(self) -> str | None:
        """R-BURACO-3: pure without a wild; semi-pure when taking the wild out leaves a pure burraco (a run's end,
        or any set); otherwise dirty."""
        if len(self.cards) < BURACO:
            return None
        if self.wild is None:
            return "pure"
        at_end = self.kind == "set" or self.wild in (0, len(self.cards) - 1)
        return "semi_pure" if at_end and len(self.cards) - 1 >= BURACO else "dirty"

    def value(self, low_ace_counts_5: bool = True) -> int:
        """R-BURACO-4: the melded cards' values; a wild 2 is 20, a natural 2 is 5, an ace laid low may count 5."""
        total = 0
        for i, card in enumerate(self.cards):
            if i == self.wild:
                total += 30 if is_joker(card) else 20
            elif card.rank == "A" and self.kind == "run" and self.values[i] == 1 and low_ace_counts_5:
                total += 5
            else:
                total += card_value(card, in_hand=False)
        return total

    def to_dict(self, low_ace_counts_5: bool = True) -> dict:
        return {"kind": self.kind, "cards": [c.code for c in self.cards], "wild": self.wild,
                "represents": self.represents.code if self.represents and self.represents.suit else
                (self.represents.rank if self.represents else None),
                "burraco": self.burraco, "bonus": BONUS.get(self.burraco or "", 0),
                "value": self.value(low_ace_counts_5)}


def card_value(card: Card, in_hand: bool = True) -> int:
    """R-BURACO-4: 3–7 5, 8–K 10, ace 15, joker 30; a 2 left in hand 20, a 2 laid in its natural place 5."""
    if is_joker(card):
        return 30
    if card.rank == "A":
        return 15
    if card.rank == "2":
        return 20 if in_hand else 5
    return 5 if RANK_VALUES[card.rank] <= 7 else 10


def refuse(code: str, template: str, **fields):
    raise RuleError(code, template, rule="R-BURACO-2", **fields)


def read_meld(cards: list) -> Meld:
    """The meld these cards make, in the order laid, or a refusal naming what is wrong (R-BURACO-2)."""
    if len(cards) < 3:
        refuse("meld_too_short", msg("A meld has at least 3 cards; this one has {count}."), count=len(cards))
    naturals = [c for c in cards if not is_joker(c) and c.rank != "2"]
    if not naturals:
        refuse("meld_all_wild", msg("A meld cannot be made of wild cards alone."))
    if len({c.rank for c in naturals}) == 1 and len(naturals) > 1 or len(naturals) == 1 and \
            len({c.suit for c in cards if not is_joker(c)}) > 1:
        return read_set(cards, naturals[0].rank)
    return read_run(cards)


def read_set(cards: list, rank: str) -> Meld:
    wilds = [i for i, c in enumerate(cards) if is_joker(c) or c.rank != rank]
    for i in wilds:
        if not is_joker(cards[i]) and cards[i].rank != "2":
            refuse("meld_mixed", msg("{card} does not belong in a set of {rank}s."), card=cards[i].code, rank=rank)
    if len(wilds) > 1:
        refuse("two_wild_cards", msg("A meld holds at most one wild card (joker or 2); this one has {count}."),
               count=len(wilds))
    if len(cards) > MAX_SET:
        refuse("set_too_long", msg("A set holds at most 9 cards (8 of a rank in two decks and one wild), not "
                                   "{count}."), count=len(cards))
    wild = wilds[0] if wilds else None
    return Meld("set", tuple(cards), wild, Card(rank, None) if wild is not None else None, rank=rank)


def read_run(cards: list) -> Meld:
    suits = {c.suit for c in cards if not is_joker(c) and c.rank != "2"}
    if len(suits) != 1:
        refuse("run_mixed_suits", msg("A run is of one suit; this one mixes {suits}."), suits=", ".join(sorted(suits)),
               suit_codes=sorted(suits, key="SHDC".index))  # a page names them: "pique, cœur et carreau"
    suit = suits.pop()
    if len(cards) > MAX_RUN:
        refuse("run_too_long", msg("A run holds at most 14 cards (A to K and one wild), not {count}."),
               count=len(cards))
    best = None
    for step in (1, -1):
        for start in range(1, 15):
            values = [start + step * i for i in range(len(cards))]
            if not all(1 <= v <= 14 for v in values):
                continue
            wilds, ok = [], True
            for card, value in zip(cards, values):
                if is_joker(card) or (card.rank == "2" and not (card.suit == suit and value == 2)):
                    wilds.append(value)
                elif card.suit != suit or RANK_VALUES[card.rank] != value and not (card.rank == "A" and value == 14):
                    ok = False
                    break
            aces = sum(1 for c in cards if not is_joker(c) and c.rank == "A")
            if ok and aces <= 1 and (best is None or len(wilds) < len(best[1])):
                best = (values, wilds)
    if best is None:
        aces = [c for c in cards if not is_joker(c) and c.rank == "A"]
        if len(aces) > 1:
            refuse("run_two_aces", msg("A run holds one ace, low (A-2-3) or high (Q-K-A), never both."))
        refuse("not_a_sequence", msg("These cards are not a sequence of one suit, in order: {cards}."),
               cards=" ".join(c.code for c in cards))
    values, wilds = best
    if len(wilds) > 1:
        refuse("two_wild_cards", msg("A meld holds at most one wild card (joker or 2); this one has {count}."),
               count=len(wilds))
    wild = values.index(wilds[0]) if wilds else None
    represents = Card(VALUE_RANKS[wilds[0]], suit) if wilds else None
    return Meld("run", tuple(cards), wild, represents, tuple(values), suit=suit)


# --- copies (R-BURACO-1) ------------------------------------------------------------------------------------
def copies_taken(hand, taken=()) -> Counter:
    """The copies of each card laid in a hand's melds (none without a hand), then those of ``taken``."""
    counted = Counter(c for melds in hand.melds.values() for meld in melds for c in meld.cards) if hand else Counter()
    counted.update(taken)
    return counted


def third_copy(card: Card) -> RuleError:
    """R-BURACO-1: two decks, two of each card and four jokers: one more is refused."""
    return RuleError("third_copy", "The two decks hold only {n} of {card}: this would be one more.",
                     rule="R-BURACO-1", card=card.code, n=BURACO_108.counts[card])
