"""What a deal of tricks holds (R-COMMON-2, 4, 6): its tricks, who leads, the cards played, known to be in a hand
or out of play, its captured piles or its numbers; and the revoke watch (R-COMMON-4): a play that proves a player held
no card of some suits is remembered (``Absence``), and a later card that contradicts it flags the earlier trick
(``Flag``). The mechanics that play them are ``tricks.py``'s ``TrickGame``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import Card


@dataclass
class Trick:
    leader: int
    cards: list
    winner: int
    points: int

    def player_of(self, index: int, n_players: int) -> int:
        return (self.leader + index) % n_players


@dataclass
class Flag:
    """A suspicious or proven irregularity, stored with the deal; it never blocks entry (R-COMMON-4).
    ``template`` is an English sentence with ``{fields}`` (a msgid of the catalogues), filled from ``params``."""

    code: str
    player: int
    trick: int | None
    template: str
    rule: str
    params: dict = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)

    def to_dict(self) -> dict:
        return {"code": self.code, "player": self.player, "trick": self.trick, "message": self.message,
                "rule": self.rule, "template": self.template, "params": dict(self.params)}


@dataclass
class Absence:
    """What a play proved: ``player`` held no card of ``suits`` when trick ``trick`` was played. A later card of
    those suits from him raises the flag; ``replaces`` is a flag already raised that the proof turns into it."""

    player: int
    suits: frozenset
    trick: int
    code: str
    rule: str
    template: str
    params: dict = field(default_factory=dict)
    replaces: Flag | None = None
    cards: frozenset = frozenset()  # particular cards he was proved not to hold, beside whole suits

    def proved_by(self, card: Card) -> bool:
        return card.suit in self.suits or card in self.cards

    def raise_flag(self, deal, proof: Card) -> Flag:
        params = {**self.params, "proof_card": proof.code}
        if self.replaces is not None:
            self.replaces.code, self.replaces.template, self.replaces.params = self.code, self.template, params
            return self.replaces
        flag = Flag(self.code, self.player, self.trick, self.template, self.rule, params)
        deal.flags.append(flag)
        return flag


@dataclass
class TrickDeal:
    number: int
    dealer: int
    n_players: int
    trump: Card | None
    trump_suit: str | None
    tricks: list = field(default_factory=list)
    played: set = field(default_factory=set)
    known: dict = field(default_factory=dict)  # card -> player known to hold it (R-COMMON-4)
    out_of_play: set = field(default_factory=set)  # cards no one may play in this deal (a widow, say)
    captures: list | None = None  # one pile per side when the deal is entered as captured cards
    card_points: list = field(default_factory=list)  # per side, from the cards taken
    flags: list = field(default_factory=list)
    absences: list = field(default_factory=list)
    complete: bool = False
    tally: dict | None = None  # the numbers as entered, when the deal was entered by its numbers (tally.py)

    @property
    def entry(self) -> str:
        """How the deal was entered: "tricks" (card by card), "capture" (piles) or "tally" (by its numbers)."""
        return "tally" if self.tally is not None else "capture" if self.captures is not None else "tricks"

    @property
    def leader(self) -> int:
        """R-COMMON-2: the player after the dealer leads the first trick, the winner of a trick the next one."""
        if self.tricks:
            return self.tricks[-1].winner
        return (self.dealer + 1) % self.n_players

    def cards_out(self, deck) -> list:
        """Cards of the deck in play and not yet played, in deck order."""
        return [c for c in deck.cards if c not in self.played and c not in self.out_of_play]


def record_absence(deal: TrickDeal, absence: Absence) -> Flag | None:
    """Remembers what a play proved; if a card already known in that hand contradicts it, the flag is raised now."""
    for card, holder in deal.known.items():
        if holder == absence.player and absence.proved_by(card) and card not in deal.played:
            return absence.raise_flag(deal, card)
    deal.absences.append(absence)
    return None


def show_cards(deal: TrickDeal, player: int, cards) -> list:
    """R-COMMON-4, R-COMMON-4b: cards a player shows (an announce, a revealed hand, a claim) are known to be in his
    hand from now on, and they prove at once any earlier revoke they contradict, as a play would."""
    raised = []
    for card in cards:
        raised += check_revoke(deal, player, card)
        deal.known[card] = player
    return raised


def check_revoke(deal: TrickDeal, player: int, card: Card) -> list:
    """R-COMMON-4: a card from ``player`` of a suit he was proved not to hold flags the earlier trick (once)."""
    raised = []
    for absence in list(deal.absences):
        if absence.player == player and absence.proved_by(card):
            raised.append(absence.raise_flag(deal, card))
            deal.absences.remove(absence)
    return raised
