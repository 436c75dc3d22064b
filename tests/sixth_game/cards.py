"""Duel's deck and card values, read by its engine and its printed pages alike (R-TEST-1, R-TEST-2)."""
from referee.cards import Card, Deck
from referee.words import said

RANKS = ("A", "K", "Q", "J")  # R-TEST-1: the strength order, high to low
SUITS = "SHD"  # R-TEST-1: no clubs
STRENGTH = {rank: len(RANKS) - i for i, rank in enumerate(RANKS)}
POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}  # R-TEST-1
DECK = Deck("duel12", said("jeu de 12 cartes", "12-card deck"), tuple(Card(r, s) for s in SUITS for r in RANKS))
DEAL_POINTS = sum(POINTS[card.rank] for card in DECK.cards)  # R-TEST-1: 30 in a deal
HAND_SIZE = DECK.size // 2  # R-TEST-2: the whole deck dealt to the two players
