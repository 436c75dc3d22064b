"""Plays deals with a seeded shuffle, as people would at a table, and returns the entries made.

Used to record whole series for replay tests and for the benchmark. The trick winner is worked out here apart from
the engine on purpose, so the engine's results are checked against a second count.
"""
from __future__ import annotations

import random

from referee.cards import SPANISH_40, SPANISH_48

HAND_SIZE = 3
ORDER = ["1", "3", "12", "11", "10", "9", "8", "7", "6", "5", "4", "2"]  # R-BRISCA-1, strongest first


def winner_of(cards, trump, order=ORDER):
    """The index of the highest trump, else of the highest card of the suit led; ``order`` is strongest first."""
    trumps = [c for c in cards if c.suit == trump]
    pool = trumps or [c for c in cards if c.suit == cards[0].suit]
    return cards.index(min(pool, key=lambda c: order.index(c.rank)))


def play_with_stock(rng, hands: list, stock: list, leader: int, trump: str, order: list, events: list,
                    between=None) -> list:
    """Tricks of any card from the hand until the hands are empty; after each trick everyone draws from
    ``stock``, the winner first (Brisca, Brusquembille); then ``between(hands, stock, winner)`` may add an entry."""
    n_players = len(hands)
    while any(hands):
        seats = [(leader + i) % n_players for i in range(n_players)]
        cards = [hands[p].pop(rng.randrange(len(hands[p]))) for p in seats]
        winner = seats[winner_of(cards, trump, order)]
        events.append({"type": "trick", "cards": [c.code for c in cards]})
        if stock:
            for p in [(winner + i) % n_players for i in range(n_players)]:
                hands[p].append(stock.pop(0))
        leader = winner
        if between is not None:
            between(hands, stock, winner)
    return events


def brisca_deal(n_players: int, dealer: int, seed: int, trump_suit: str | None = None,
                exchange: bool = False) -> list:
    """The event bodies of one complete deal: ``deal`` then every trick, cards in play order. With ``exchange``,
    the first player who has won a trick and holds the 7 of trump takes a turned card above it (R-BRISCA-4)."""
    rng = random.Random(seed)
    deck = list((SPANISH_48 if n_players == 6 else SPANISH_40).cards)
    rng.shuffle(deck)
    hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(n_players)]
    turned = deck[HAND_SIZE * n_players]
    stock = deck[HAND_SIZE * n_players + 1:] + [turned]  # the turned card lies under the stock, drawn last
    trump = trump_suit or turned.suit
    events = [{"type": "deal", "trump": turned.code, "dealer": dealer}]
    won = set()

    def take_the_turned_card(hands, stock, winner):
        won.add(winner)
        seven = next(c for c in deck if c.rank == "7" and c.suit == trump)
        if not stock or stock[-1] != turned or turned.suit != trump or ORDER.index(turned.rank) > ORDER.index("7"):
            return
        for player in sorted(won):
            if seven in hands[player]:
                hands[player][hands[player].index(seven)] = turned
                stock[-1] = seven  # the 7 lies under the stock now, drawn last
                events.append({"type": "exchange", "player": player})
                return

    return play_with_stock(rng, hands, stock, (dealer + 1) % n_players, trump, ORDER, events,
                           take_the_turned_card if exchange else None)


FRENCH_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
PENALTY = {"A": 4, "K": 3, "Q": 2, "J": 1}


def brulot_deal(n_players: int, dealer: int, seed: int, trump_rule: str = "widow", full_widow: bool = False,
                reveal: bool = False):
    """One Brûlot deal played to the rules (follow suit if you can, else anything), and what an independent count
    gives: (event bodies, penalties per player, widow). ``trump_rule``: widow, dealer_last_card or none. With
    ``reveal``, a player brûlé (neither the suit led nor a trump) shows his hand after the trick (R-BRULOT-4)."""
    from referee.cards import FRENCH_52

    rng = random.Random(seed)
    deck = list(FRENCH_52.cards)
    rng.shuffle(deck)
    each = 52 // n_players
    hands = [deck[i * each:(i + 1) * each] for i in range(n_players)]
    widow = deck[each * n_players:]
    trump_card = widow[0] if widow else (hands[dealer][-1] if trump_rule == "dealer_last_card" else None)
    trump = trump_card.suit if trump_card is not None and trump_rule != "none" else None
    deal = {"type": "deal", "trump": trump_card.code if trump_card is not None else None, "dealer": dealer}
    if full_widow and widow:
        deal["widow"] = [c.code for c in widow]
    events, penalties, shown = [deal], [0] * n_players, set()
    leader = (dealer + 1) % n_players
    while any(hands):
        order = [(leader + i) % n_players for i in range(n_players)]
        cards = []
        for p in order:
            suited = [c for c in hands[p] if cards and c.suit == cards[0].suit]
            choice = rng.choice(suited or hands[p])
            hands[p].remove(choice)
            cards.append(choice)
        winner = order[winner_of(cards, trump, FRENCH_ORDER)]
        penalties[winner] += sum(PENALTY.get(c.rank, 0) for c in cards)
        events.append({"type": "trick", "cards": [c.code for c in cards]})
        leader = winner
        for p, card in zip(order, cards):
            if reveal and card.suit not in (cards[0].suit, trump) and p not in shown and hands[p]:
                shown.add(p)
                events.append({"type": "reveal", "player": p, "cards": [c.code for c in hands[p]]})
    return events, penalties, [c.code for c in widow]


# A long Brûlot table, card by card: what the load tests and the benches enter.
PLAYERS = ["Ana", "Bo", "Cy", "Di"]
LONG_SERIES = {"deals": 1000}  # a Brûlot series that never ends within a test or a bench


def brulot_deals(deals: int, seed: int, first: int = 0) -> list:
    """``deals`` whole Brûlot deals for 4 players, card by card (each a list of event bodies), dealers in turn."""
    return [brulot_deal(4, number % 4, seed * 100_000 + number, "dealer_last_card")[0]
            for number in range(first, first + deals)]


def flat(deals: list) -> list:
    return [event for deal in deals for event in deal]


PIQUET_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]


def brusquembille_deal(n_players: int, dealer: int, seed: int, turned_last: bool = False) -> list:
    """One Brusquembille deal: any card from the hand, everyone draws after each trick, the winner first; the
    turned card is drawn first (by the first trick's winner) or, with ``turned_last``, last."""
    from referee.cards import PIQUET_32

    rng = random.Random(seed)
    deck = [c for c in PIQUET_32.cards if n_players == 4 or c.code not in ("7H", "7C")]
    rng.shuffle(deck)
    hands = [deck[i * 3:(i + 1) * 3] for i in range(n_players)]
    turned, rest = deck[3 * n_players], deck[3 * n_players + 1:]
    stock = rest + [turned] if turned_last else [turned] + rest
    events = [{"type": "deal", "trump": turned.code, "dealer": dealer}]
    return play_with_stock(rng, hands, stock, (dealer + 1) % n_players, turned.suit, PIQUET_ORDER, events)


def brouc_deal(dealer: int, seed: int, announce: bool = False) -> list:
    """One Brouc deal played to the rules (R-BROUC-3: follow suit, else no trump under one in the trick unless
    nothing else is held); the dealer's last card is turned for trump (R-BROUC-1). With ``announce``, a player
    who has won a trick announces the king and queen (and jack) of a suit he holds, once a suit (R-BROUC-4)."""
    from referee.cards import PIQUET_32

    rng = random.Random(seed)
    deck = list(PIQUET_32.cards)
    rng.shuffle(deck)
    hands = [deck[i * 8:(i + 1) * 8] for i in range(4)]
    turned = hands[dealer][-1]
    trump = turned.suit
    events = [{"type": "deal", "trump": turned.code, "dealer": dealer}]
    leader, won, announced = (dealer + 1) % 4, set(), set()
    while any(hands):
        order, cards = [(leader + i) % 4 for i in range(4)], []
        for p in order:
            suited = [c for c in hands[p] if cards and c.suit == cards[0].suit]
            best = max((PIQUET_ORDER[::-1].index(c.rank) for c in cards if c.suit == trump), default=-1)
            allowed = [c for c in hands[p] if c.suit != trump or PIQUET_ORDER[::-1].index(c.rank) > best]
            choice = rng.choice(suited or allowed or hands[p])
            hands[p].remove(choice)
            cards.append(choice)
        leader = order[winner_of(cards, trump, PIQUET_ORDER)]
        events.append({"type": "trick", "cards": [c.code for c in cards]})
        won.add(leader)
        for p in sorted(won) if announce and any(hands) else ():
            for suit in "SHDC":
                shown = [c for c in hands[p] if c.suit == suit and c.rank in ("K", "Q", "J")]
                if suit not in announced and {c.rank for c in shown} >= {"K", "Q"}:
                    announced.add(suit)
                    events.append({"type": "announce", "player": p, "cards": [c.code for c in shown]})
    return events
