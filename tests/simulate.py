"""Plays Brisca deals with a seeded shuffle, as four people would at a table, and returns the entries made.

Used to record whole series for replay tests and for the benchmark; the players play any card of their hand.
"""
from __future__ import annotations

import random

from referee.cards import SPANISH_40, SPANISH_48
from referee.games.brisca import HAND_SIZE, STRENGTH
from referee.games.tricks import trick_winner


def brisca_deal(n_players: int, dealer: int, seed: int, trump_suit: str | None = None) -> list:
    """The event bodies of one complete deal: ``deal`` then every trick, cards in play order."""
    rng = random.Random(seed)
    deck = list((SPANISH_48 if n_players == 6 else SPANISH_40).cards)
    rng.shuffle(deck)
    hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(n_players)]
    turned = deck[HAND_SIZE * n_players]
    stock = deck[HAND_SIZE * n_players + 1:] + [turned]  # the turned card lies under the stock, drawn last
    trump = trump_suit or turned.suit
    events = [{"type": "deal", "trump": turned.code, "dealer": dealer}]
    leader = (dealer + 1) % n_players
    while any(hands):
        order = [(leader + i) % n_players for i in range(n_players)]
        cards = [hands[p].pop(rng.randrange(len(hands[p]))) for p in order]
        winner = order[trick_winner(cards, trump, STRENGTH)]
        events.append({"type": "trick", "cards": [c.code for c in cards]})
        if stock:
            for p in [(winner + i) % n_players for i in range(n_players)]:
                hands[p].append(stock.pop(0))
        leader = winner
    return events
