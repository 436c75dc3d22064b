"""Trick-taking mechanics shared by Brisca, Brouc, Brûlot and Brusquembille.

Who leads (R-COMMON-2), who wins a trick from trump and rank order, what the app knows of the cards (played,
known to be in a hand, out of play, still out: R-COMMON-4), captured-card entry (R-COMMON-6), the hook for revoke
detection (R-COMMON-4; what a deal holds and the revoke watch: ``trick_deal.py``), and what the numbers screen's
fields add up to (R-COMMON-5).
"""
from __future__ import annotations

from referee.cards import Card
from referee.errors import RuleError, msg
from referee.games.base import Game, Table
from referee.games.trick_deal import Trick, TrickDeal, check_revoke


# Refusals of one card that the phone also says while offline (static/offline-rules.js, in the page's language).
CARD_REFUSALS = {
    "card_out_of_play": msg("{card} is out of play in this deal; {name} cannot play it."),
    "card_in_other_hand": msg("{card} is known to be in {holder}'s hand, so {name} cannot play it."),
    "last_card_known": msg("{name}'s last card is known: it is {held_card}, not {card}."),  # R-COMMON-4
    "hand_known": msg("Every card {name} still holds is known, and {card} is not one of them."),
}


def trick_winner(cards: list, trump_suit: str | None, strength: dict) -> int:
    """Index in ``cards`` (play order) of the winning card: the highest trump if any trump was played, else the
    highest card of the suit led; ``strength`` maps a rank to its power, higher wins."""
    led = cards[0].suit
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit == top.suit:
            if strength[card.rank] > strength[top.rank]:
                best = i
        elif card.suit == trump_suit:
            best = i
        # a card of another suit than the best one (and not a trump) never wins
    assert cards[best].suit in (led, trump_suit)
    return best


class TrickGame(Game):
    """A game played in tricks. Subclasses give ``strength``, ``points``, ``deck_for`` and the deal hooks."""

    plays_tricks = True
    strength: dict = {}
    points: dict = {}
    hand_limit: int | None = None  # a drawing game's hand while the stock lasts; None: the whole deal is dealt
    stock_refusal: str | None = None  # the sentence refusing the card on the stock (``under_stock``)
    flag_titles: dict = {"revoke": msg("Revoke")}  # a flag's code in a word or two, for the status bar's line

    def deck_for(self, table: Table):
        raise NotImplementedError

    def entered(self, deal: TrickDeal) -> bool:
        return bool(deal.tricks or deal.captures)  # a trick, or a pile (R-COMMON-6)

    def tricks_per_deal(self, table: Table, deal: TrickDeal) -> int:
        return (self.deck_for(table).size - len(deal.out_of_play)) // len(table.players)

    def points_in(self, cards, table: Table | None = None) -> int:
        points = self.points_for(table) if table is not None else self.points
        return sum(points.get(c.rank, 0) for c in cards)

    def points_for(self, table: Table) -> dict:
        """Points per rank at this table (a game whose values are an option overrides it)."""
        return self.points

    # --- hooks --------------------------------------------------------------------------------------------
    def verify_play(self, table: Table, deal: TrickDeal, player: int, card: Card, number: int, before: list) -> None:
        """Game-specific refusals for one card of trick ``number``; ``before`` are the cards played before it."""

    def after_trick(self, table: Table, deal: TrickDeal, trick: Trick) -> None:
        """Game-specific consequences of a recorded trick (drawing, revoke watch, table marriages…)."""

    def finish_deal(self, table: Table, deal: TrickDeal) -> None:
        """Scores a deal whose cards are all accounted for."""
        raise NotImplementedError

    # --- the trick entry ----------------------------------------------------------------------------------
    def open_deal(self, table: Table) -> TrickDeal:
        deal = table.current
        if deal is None or deal.complete:
            raise RuleError("no_deal", "No deal is in progress: enter the deal (its turned card) first.",
                            rule="R-COMMON-2")
        return deal

    def open_for_tricks(self, table: Table) -> TrickDeal:
        deal = self.open_deal(table)
        if deal.captures is not None:
            raise RuleError("entry_mixed", "This deal is being entered as captured cards; finish it that way.",
                            rule="R-COMMON-6")
        return deal

    def verify_trick(self, table: Table, cards: list) -> TrickDeal:
        deal = self.open_for_tricks(table)
        if len(cards) != len(table.players):
            raise self.wrong_size(table, cards)
        self.verify_cards(table, deal, cards)
        return deal

    def verify_partial(self, table: Table, cards: list) -> None:
        """The first cards of a trick being tapped in, checked before the trick is whole."""
        deal = self.open_for_tricks(table)
        if len(cards) > len(table.players):
            raise self.wrong_size(table, cards)
        self.verify_cards(table, deal, cards)

    @staticmethod
    def wrong_size(table: Table, cards: list) -> RuleError:
        return RuleError("wrong_trick_size", "A trick holds {n} cards, one per player; this one has {count}.",
                         rule="R-COMMON-4", n=len(table.players), count=len(cards))

    def held_elsewhere(self, table: Table, deal: TrickDeal, player: int) -> dict:
        """Cards ``player`` cannot play because the app knows where they are: card -> reason (a player index,
        "stock", or "not_held": his hand is wholly known and the card is not in it, R-COMMON-4)."""
        held = {card: holder for card, holder in deal.known.items() if holder != player}
        stock = self.under_stock(deal)
        if stock is not None:
            held[stock] = "stock"
        hand = self.known_hand(table, deal, player)
        if hand is not None:
            held.update((card, "not_held") for card in deal.cards_out(self.deck_for(table))
                        if card not in hand and card not in held)
        return held

    # --- what the app knows of a hand (R-COMMON-4) --------------------------------------------------------
    def hand_size(self, table: Table, deal: TrickDeal) -> int:
        """The cards each player holds as the next trick begins: those dealt and drawn, less those played. A
        drawing game refills every hand to ``hand_limit`` while its stock lasts; the last tricks empty them."""
        left = self.tricks_per_deal(table, deal) - len(deal.tricks)
        return left if self.hand_limit is None else min(self.hand_limit, left)

    def known_hand(self, table: Table, deal: TrickDeal, player: int) -> list | None:
        """R-COMMON-4: every card ``player`` still holds, when the app knows as many of his cards (drawn in sight,
        shown, turned) as he holds; else None."""
        held = [card for card, holder in deal.known.items() if holder == player]  # a card played leaves ``known``
        if not held or len(held) < self.hand_size(table, deal):
            return None
        return [card for card in deal.cards_out(self.deck_for(table)) if card in held]  # in the deck's order

    def verify_known_hand(self, table: Table, deal: TrickDeal, player: int, card: Card) -> None:
        """R-COMMON-4, R-COMMON-5: a player whose cards are all known plays one of them, or the entry is refused."""
        hand = self.known_hand(table, deal, player)
        if hand is None or card in hand:
            return
        last = {"held_card": hand[0].code} if len(hand) == 1 else {}
        raise RuleError("card_not_in_known_hand", CARD_REFUSALS["last_card_known" if last else "hand_known"],
                        rule="R-COMMON-4", card=card.code, player=player, name=table.players[player],
                        held=[c.code for c in hand], **last)

    def under_stock(self, deal: TrickDeal) -> Card | None:
        """The card that lies on or under the stock, in sight, and that nobody may play before it is drawn."""
        return None

    def turned_holder(self, table: Table) -> str | None:
        """Where the card turned for trump goes as a deal starts, for the phone that starts one offline: "dealer"
        (it stays in his hand), "stock" (drawn later: ``turned_draw``), or None (the phone need not know)."""
        return None

    def turned_draw(self, table: Table) -> tuple | None:
        """Who draws the card turned for trump, in a game where it is drawn from the stock: (after which trick,
        the drawer's seat from that trick's winner). None where it is not drawn."""
        return None

    def verify_cards(self, table: Table, deal: TrickDeal, cards: list) -> None:
        """Checks the first cards of the next trick, in play order (R-COMMON-4); the picker asks after each tap."""
        n = len(table.players)
        number = len(deal.tricks) + 1
        seen = set()
        for i, card in enumerate(cards):
            player = (deal.leader + i) % n
            name = table.players[player]
            if card in seen:
                raise RuleError("card_twice", "{card} is entered twice in this trick.", rule="R-COMMON-4",
                                card=card.code, player=player)
            seen.add(card)
            if card in deal.played:
                where = next(t for t, trick in enumerate(deal.tricks, 1) if card in trick.cards)
                raise RuleError("card_already_played", "{card} was already played in trick {trick} (entered here "
                                "for {name}).", rule="R-COMMON-4", card=card.code, player=player, trick=where,
                                name=name)
            if card in deal.out_of_play:
                raise RuleError("card_out_of_play", CARD_REFUSALS["card_out_of_play"], rule="R-COMMON-4",
                                card=card.code, player=player, name=name)
            holder = deal.known.get(card)
            if holder is not None and holder != player:
                raise RuleError("card_in_other_hand", CARD_REFUSALS["card_in_other_hand"], rule="R-COMMON-4",
                                card=card.code, player=player, holder=table.players[holder], name=name)
            self.verify_play(table, deal, player, card, number, cards[:i])
            self.verify_known_hand(table, deal, player, card)

    def on_trick(self, table: Table, event) -> None:
        deal = self.verify_trick(table, event.cards)
        win_index = trick_winner(event.cards, deal.trump_suit, self.strength)
        leader = deal.leader
        trick = Trick(leader, list(event.cards), (leader + win_index) % len(table.players),
                      self.points_in(event.cards, table))
        for i, card in enumerate(trick.cards):
            check_revoke(deal, trick.player_of(i, len(table.players)), card)
        deal.tricks.append(trick)
        deal.played.update(trick.cards)
        for card in trick.cards:
            deal.known.pop(card, None)
        deal.card_points[table.side_of(trick.winner)] += trick.points
        self.after_trick(table, deal, trick)
        if not deal.complete and len(deal.tricks) == self.tricks_per_deal(table, deal):
            self.finish_deal(table, deal)

    # --- captured cards (R-COMMON-6) ----------------------------------------------------------------------
    def on_capture(self, table: Table, event) -> None:
        deal = self.open_deal(table)
        n_sides, side = len(table.sides), event.side
        if deal.tricks:
            raise RuleError("entry_mixed", "Tricks were entered for this deal; captured cards replace trick entry, "
                            "they cannot be mixed with it.", rule="R-COMMON-6")
        if not 0 <= side < n_sides:
            raise RuleError("bad_side", "There is no side {side}; sides are 0 to {last}.", rule="R-COMMON-6",
                            side=side, last=n_sides - 1)
        piles = deal.captures or [None] * n_sides
        if piles[side] is not None:
            raise RuleError("capture_twice", "The pile of side {side} was already entered; undo it to change it.",
                            rule="R-COMMON-6", side=side)
        in_play = set(deal.cards_out(self.deck_for(table)))
        taken = {c for pile in piles if pile for c in pile}
        seen = set()
        for card in event.cards:
            if card in seen or card in taken:
                raise RuleError("card_twice", "{card} is entered in two piles or twice in one.",
                                rule="R-COMMON-6", card=card.code)
            if card not in in_play:
                raise RuleError("card_out_of_play", "{card} was not in play in this deal.", rule="R-COMMON-6",
                                card=card.code)
            seen.add(card)
        n = len(table.players)
        if len(event.cards) % n:
            raise RuleError("bad_capture", "A pile holds whole tricks of {n} cards; {count} cards is not a whole "
                            "number of tricks.", rule="R-COMMON-6", n=n, count=len(event.cards))
        self.capture_extras(table, deal, event)
        piles[side] = list(event.cards)
        missing = [i for i, pile in enumerate(piles) if pile is None]
        spare = self.hidden_out_of_play(table, deal)
        if len(missing) == 1 and not spare:  # R-COMMON-6: the last side's pile is what remains
            rest = in_play - taken - seen
            piles[missing[0]] = [c for c in self.deck_for(table).cards if c in rest]
        deal.captures = piles
        if all(pile is not None for pile in piles):
            leftover = in_play - {c for pile in piles for c in pile}
            if len(leftover) != spare:
                raise RuleError("bad_capture", "{count} cards are in no pile, and {spare} are out of play.",
                                rule="R-COMMON-6", count=len(leftover), spare=spare)
            deal.out_of_play.update(leftover)
            in_play -= leftover
            self.verify_captures(table, deal, event)
            deal.card_points = [self.points_in(pile, table) for pile in piles]
            deal.played.update(in_play)
            self.finish_deal(table, deal)

    def hidden_out_of_play(self, table: Table, deal: TrickDeal) -> int:
        """Cards out of play the app does not know yet (a widow not entered): then every pile is entered."""
        return 0

    def capture_extras(self, table: Table, deal: TrickDeal, event) -> None:
        """What a pile's entry carries beside the cards (a game that takes more keeps it for verify_captures)."""

    def verify_captures(self, table: Table, deal: TrickDeal, event) -> None:
        """Last checks once every pile is known (a game may need more from the capture entry)."""

    # --- the numbers screen ------------------------------------------------------------------------------
    def numbers_whole(self, table: Table) -> int | None:
        """The card points in play (R-COMMON-5), known unless cards out of play are not (a widow: Brûlot's
        R-BRULOT-1, then the sum is a range, ``numbers_bounds``)."""
        deal = table.current
        if deal is None or self.hidden_out_of_play(table, deal):
            return None
        return self.points_in(deal.cards_out(self.deck_for(table)), table)

    def numbers_bounds(self, table: Table) -> dict:
        """A side's card points and all of them: the deal's (120 in Brisca, R-BRISCA-1; Brouc, R-BROUC-2;
        Brusquembille, R-BRUSQ-3); the card values' ruling cited under a field that passes them."""
        if table.current is None:
            return {}
        whole = self.numbers_whole(table)
        return {"most": whole, "total": whole, "step": 1, "rule": self.points_rule}

    # --- output -------------------------------------------------------------------------------------------
    def next_action(self, table: Table) -> dict:
        if table.finished:
            return {"action": "none", "player": None}
        deal = table.current
        if deal is None or deal.complete:
            return {"action": "deal", "player": self.next_dealer(table)}
        return {"action": "trick", "player": deal.leader}

    def possible(self, table: Table) -> list:
        deal = table.current
        if table.finished:
            return []
        if deal is None or deal.complete:
            return ["deal"]
        if deal.captures is not None:
            return ["capture"]
        fresh = [] if deal.tricks else ["capture"] + (["tally"] if "tally" in self.events else [])
        return ["trick"] + fresh + self.more_actions(table, deal)

    def more_actions(self, table: Table, deal: TrickDeal) -> list:
        """The game's own entries possible now, beside tricks and captured piles."""
        return []

    def serialise_deal(self, table: Table, deal: TrickDeal) -> dict:
        doc = {
            "number": deal.number, "dealer": deal.dealer, "trump": deal.trump.code if deal.trump else None,
            "trump_suit": deal.trump_suit, "complete": deal.complete,
            "tricks": [{"leader": t.leader, "cards": [c.code for c in t.cards], "winner": t.winner,
                        "points": t.points, **self.trick_fields(deal, n)} for n, t in enumerate(deal.tricks, 1)],
            "points": list(deal.card_points), "flags": [f.to_dict() for f in deal.flags],
            "known": {c.code: p for c, p in sorted(deal.known.items())},
            "captures": [[c.code for c in pile] if pile is not None else None for pile in deal.captures]
            if deal.captures is not None else None,
            "entry": deal.entry, "tally": deal.tally,
        }
        doc.update(self.deal_fields(table, deal))
        return doc

    def trick_fields(self, deal: TrickDeal, number: int) -> dict:
        return {}

    def deal_fields(self, table: Table, deal: TrickDeal) -> dict:
        """The game's own fields of a deal, beside the contract's."""
        return {}
