"""What the scorer's screens show, worked out from the engine's state: the card picker, whose card comes next,
the last trick. Presentation only: every rule stays in the engine."""
from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Card
from referee.web.shared.requests import number
from referee.web.tables.sheet import Sheet, fields_for

MODES = ("trick", "capture", "claim", "announce", "reveal",  # how the picker's taps are read
         "meld", "extend", "replace", "count",  # Buraco's
         "numbers")  # the deal by its numbers (sheet.py)
SHOWING = ("capture", "claim", "announce", "reveal")  # a tap takes a card, a second tap gives it back
LAYING = ("meld", "extend", "count")  # Buraco: cards in the order laid; a tap on a card taken takes it back, and its
# other copies (two decks: two of each, four jokers) are taken one at a time by a button of their own (scorer.py: lay)
CHOSEN_SIDE = ("meld", "extend", "replace")  # Buraco: a side is chosen, and stays chosen once its entry is stored
# Buraco: the count under way (its hands, who closed, the player counted) goes along a detour to lay, extend or replace
# a meld laid late, and comes back once it is stored (R-BURACO-6): ScorerInput.counting, ScorerInput.moved, ScorerInput.next_meld
EVENT_OF = {"numbers": "tally"}  # the event a mode's taps end in, where it is not named like the mode


def modes_for(game) -> tuple:
    """The modes a game's scorer may be in: those ending in one of its events, and "trick", the picker's default
    everywhere (Buraco's picker in it only says that a card is tapped into a meld)."""
    return tuple(mode for mode in MODES if mode == "trick" or EVENT_OF.get(mode, mode) in game.events)


def read_entry(values, game, table) -> "ScorerInput":
    """The entry in progress a form or an address carries (``values``), read for this table's deck and seats."""
    deck = game.deck_for(table)
    return ScorerInput.read(values, deck, len(table.players), len(table.sides),
                            fields_for(game.id, len(table.players), len(table.sides)), modes_for(game))


@dataclass(frozen=True)
class PickerCard:
    card: Card
    status: str  # free, pending, played, held, stock, not-held, out
    note: str = ""

    @property
    def code(self) -> str:
        return self.card.code


def _cards(text, deck) -> tuple:
    return tuple(deck.parse(code) for code in (text or "").split(".") if code)


@dataclass
class ScorerInput:
    """The scorer's entry in progress, carried in the page address so nothing depends on the server's memory; in the
    trick mode ``pending`` is the table's trick under way, read from the server (a form posts it back as the trick
    its page showed: the ledger refuses a tap made on another)."""

    mode: str = "trick"
    pending: tuple = ()
    side: int = 0
    player: int | None = None
    meld: int | None = None  # Buraco: the meld extended or whose wild is replaced
    at: str = "end"
    hands: tuple = ()  # Buraco's count: the cards left, per player
    closed_by: int | None = None  # Buraco's count: who closed (None: the stock ran out)
    sheet: Sheet = Sheet()  # the numbers screen's sheet in progress

    @classmethod
    def read(cls, values, deck, n_players: int = 0, n_sides: int = 0, fields: int = 0, modes=MODES) -> "ScorerInput":
        """The entry from an address or a form; a mode the game has not (``modes``) and numbers outside the table
        fall back to the defaults."""
        mode = values.get("mode") if values.get("mode") in modes else "trick"
        pending = list(_cards(values.get("pending"), deck))
        if mode not in LAYING:
            pending = list(dict.fromkeys(pending))
        hands = tuple(_cards(part, deck) for part in (values.get("hands") or "").split("~")) \
            if values.get("hands") else ()
        side = number(values.get("side"))
        player = number(values.get("player"))
        player = player if player is not None and player < (n_players or player + 1) else None
        closed_by = number(values.get("closed_by"))
        meld = number(values.get("meld"))
        if mode in ("extend", "replace") and meld is None:
            mode = "meld"
        if mode == "count" and player is None:
            player = 0
        return cls(mode, tuple(pending), side if side is not None and side < (n_sides or side + 1) else 0, player,
                   meld, "start" if values.get("at") == "start" else "end", hands[:n_players or None],
                   closed_by if closed_by is not None and closed_by < (n_players or closed_by + 1) else None,
                   Sheet.read(values, fields, n_players or 99, n_sides or 99) if mode in ("numbers", "capture")
                   else Sheet())

    def query(self) -> dict:
        """The entry as the page's address carries it. A trick's cards tapped so far are not in it: they are the
        table's trick under way, kept on the server for every phone (``Ledger.set_draft``)."""
        query = {"mode": self.mode} if self.mode != "trick" else {}
        if self.pending and self.mode != "trick":
            query["pending"] = ".".join(c.code for c in self.pending)
        if self.mode in ("capture", "meld", "extend", "replace"):
            query["side"] = self.side
        if self.player is not None and (self.mode in ("claim", "announce", "reveal", "count")
                                        or self.mode in CHOSEN_SIDE and self.counting):
            query["player"] = self.player
        if self.mode in ("extend", "replace") and self.meld is not None:
            query["meld"] = self.meld
        if self.mode == "extend" and self.at == "start":
            query["at"] = "start"
        if self.mode in ("count", *CHOSEN_SIDE) and self.hands:
            query["hands"] = self.hands_text()
        if self.mode in ("count", *CHOSEN_SIDE) and self.closed_by is not None:
            query["closed_by"] = self.closed_by
        if self.mode in ("numbers", "capture"):
            query.update(self.sheet.query())
        return query

    def with_side(self, side: int) -> "ScorerInput":
        """The same entry for another side (a pile being entered: its sheet stays)."""
        return ScorerInput(self.mode, self.pending, side, self.player, self.meld, self.at, self.hands, self.closed_by,
                     self.sheet)

    def with_sheet(self, sheet: Sheet) -> "ScorerInput":
        """The same entry with the sheet tapped on (the numbers screen, or what a pile carries beside its cards)."""
        return ScorerInput(self.mode if self.mode == "capture" else "numbers", self.pending, self.side, sheet=sheet)

    def hands_text(self) -> str:
        return "~".join(".".join(c.code for c in hand) for hand in self.hands)

    @property
    def tapped(self) -> tuple:
        """Buraco: the cards tapped so far, the hand of the player counted in the count, else the pending ones."""
        if self.mode != "count":
            return self.pending
        return self.hands[self.player] if self.player is not None and self.player < len(self.hands) else ()

    def with_tapped(self, cards, n_players: int) -> "ScorerInput":
        """Buraco: the same entry with these cards tapped (into the hand counted, or the meld being laid)."""
        if self.mode == "count":
            return self.with_hand(self.player or 0, cards, n_players)
        return self.with_pending(cards)

    @property
    def counting(self) -> bool:
        """Buraco: a count is under way, something of it tapped or chosen (a hand's cards, who closed)."""
        return bool(self.hands) or self.closed_by is not None

    def moved(self, mode: str, side: int = 0, meld: int | None = None, pending=(), at: str = "end") -> "ScorerInput":
        """Buraco: the entry another control of the screen leads to (a side's new meld, a meld's Extend or its wild
        card replaced, the count), the count under way going along: its hands, who closed and the player counted
        (R-BURACO-6). The count itself starts with the first player, or comes back where it was."""
        player = (self.player or 0) if self.counting else 0 if mode == "count" else None
        return ScorerInput(mode, tuple(pending), side, player, meld, at, self.hands, self.closed_by)

    def next_meld(self) -> "ScorerInput":
        """Once an entry is stored: Buraco's next meld of the same side, which stays chosen until the scorer picks
        another one (a meld, an extension, a replacement, an undo, a form sent twice); a meld laid late, during the
        count, leads back to the count with its hands as tapped (R-BURACO-6); else the picker afresh."""
        if self.mode in CHOSEN_SIDE and self.counting:
            return self.moved("count")
        return ScorerInput("meld", side=self.side) if self.mode in CHOSEN_SIDE else ScorerInput()

    def with_draft(self, draft: tuple, deck) -> "ScorerInput":
        """In the trick mode, the cards tapped are the table's trick under way (codes), whatever an address said."""
        return self.with_pending(deck.parse(code) for code in draft) if self.mode == "trick" else self

    def with_pending(self, pending) -> "ScorerInput":
        return ScorerInput(self.mode, tuple(pending), self.side, self.player, self.meld, self.at, self.hands,
                     self.closed_by, self.sheet)

    def with_hand(self, player: int, cards, n_players: int) -> "ScorerInput":
        hands = list(self.hands) + [()] * (n_players - len(self.hands))
        hands[player] = tuple(cards)
        return ScorerInput(self.mode, (), self.side, player, self.meld, self.at, tuple(hands), self.closed_by)


ORDERS: dict = {}  # (game, deck) -> its rows: worked out once a process, not once a tap


def card_order(game, deck) -> list:
    """The deck as rows of a suit each, strongest card first (the game's own strength order)."""
    key = (game.id, deck.id, deck.cards)
    rows = ORDERS.get(key)
    if rows is None:
        if len(ORDERS) >= 64:  # a few decks a game (Brusquembille's, by the cards removed): bounded all the same
            ORDERS.clear()
        rows = ORDERS[key] = tuple(_card_order(game, deck))
    return list(rows)


def _card_order(game, deck):
    strength = getattr(game, "strength", {}) or {}
    for suit in deck.suits:
        cards = list(dict.fromkeys(c for c in deck.cards if c.suit == suit))
        cards.sort(key=lambda c: -strength.get(c.rank, 0))
        yield cards[0].suit_info, tuple(cards)


def picker(game, table, entry: ScorerInput) -> list:
    """Rows of ``PickerCard``: what each card of the table's deck is, for the player whose card comes next."""
    deck = game.deck_for(table)
    deal = table.current
    in_deal = deal is not None and not deal.complete
    nxt = next_player(table, entry)
    held = game.held_elsewhere(table, deal, nxt) if in_deal and entry.mode == "trick" else {}
    rows = []
    for suit, cards in card_order(game, deck):
        row = []
        for card in cards:
            if card in entry.pending:
                row.append(PickerCard(card, "pending", str(entry.pending.index(card) + 1)))
            elif in_deal and card in deal.played:
                row.append(PickerCard(card, "played"))
            elif in_deal and card in deal.out_of_play:
                row.append(PickerCard(card, "out"))
            elif card in held:
                holder = held[card]
                if holder == "stock":
                    row.append(PickerCard(card, "stock"))
                elif holder == "not_held":  # R-COMMON-4: the next hand is wholly known, and not with this card
                    row.append(PickerCard(card, "not-held", table.players[nxt]))
                else:
                    row.append(PickerCard(card, "held", table.players[holder]))
            else:
                row.append(PickerCard(card, "free"))
        rows.append((suit, row))
    return rows


def next_player(table, entry: ScorerInput) -> int | None:
    deal = table.current
    if deal is None or deal.complete or entry.mode != "trick":
        return None
    return (deal.leader + len(entry.pending)) % len(table.players)


def last_trick(state: dict) -> dict | None:
    """The last trick entered in the current deal, with its number, for the "trick complete" line."""
    if not state["deals"] or not state["deals"][-1]["tricks"]:
        return None
    deal = state["deals"][-1]
    return {"number": len(deal["tricks"]), **deal["tricks"][-1]}


def seating(players: list) -> list:
    """Who sits opposite whom (R-COMMON-3), as pairs of ``players`` (names, or seats), for the set-up page."""
    n = len(players)
    if n < 4 or n % 2:
        return []
    return [(players[i], players[i + n // 2]) for i in range(n // 2)]
