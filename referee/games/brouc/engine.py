"""Brouc (Valais, jass family): seed 003, rulings R-BROUC-1 … 8b.

Four players in two sides, 32 cards, trump the dealer's turned last card (it stays in his hand). Following suit,
not trumping while holding the suit led and not under-trumping depend on hidden hands: they are checked by revoke
detection (R-COMMON-4, R-BROUC-3). The slate counts tens; a partie ends at 31 with a coche; la cape and its
declarations give more coches (slate.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import FRENCH_SUITS, PIQUET_32
from referee.errors import ParseError, RuleError, msg
from referee.games import events as ev
from referee.games.base import Table, register
from referee.games.brouc.declared import EVENT_EXAMPLES, EVENT_FIELDS
from referee.games.brouc.slate import (DECLARED_COCHES, PARTIE_COCHES, STATISTICS, announce_points,
                                       cape_outcome, deal_statistics, declaration_refusal, marriages_in,
                                       partie_over, tens, tens_why, unwritten_why)
from referee.games.brouc import numbers, printed
from referee.games.options import Option
from referee.games.standing import COCHES, SLATE, measure, standing
from referee.games.tally import close, open_for_tally, verify_points
from referee.games.trick_deal import Absence, Flag, TrickDeal, record_absence, show_cards
from referee.games.tricks import TrickGame
from referee.words import Words, said

STRENGTH_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")  # R-BROUC-2: strength follows points
STRENGTH = {rank: len(STRENGTH_ORDER) - i for i, rank in enumerate(STRENGTH_ORDER)}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}  # R-BROUC-2: 120 in a deal, no last-trick bonus
SUITS = "SHDC"


def _both(fr: str, en: str) -> Words:
    return said(fr, en)


@dataclass
class BroucTable(Table):
    coches: list = field(default_factory=lambda: [0, 0])
    parties: list = field(default_factory=list)  # each ended partie: deals, final slate, loser, coches, reason


@dataclass
class BroucDeal(TrickDeal):
    announces: list = field(default_factory=list)
    marriages: list = field(default_factory=list)
    declaration: dict | None = None
    cape: dict | None = None
    slate: list = field(default_factory=lambda: [0, 0])
    slate_why: list = field(default_factory=list)
    coches: list = field(default_factory=lambda: [0, 0])
    partie_end: dict | None = None
    with_piles: list = field(default_factory=list)  # BroucNumbers entered with the captured piles


@register
class Brouc(TrickGame):
    id = "brouc"
    names = _both("Brouc", "Brouc")
    board_parts = True  # its board draws the open deal's parts alone (board_part "open", _board_brouc.html)
    event_fields, event_examples = EVENT_FIELDS, EVENT_EXAMPLES  # as the API's document declares them
    origin = _both("Valais (Suisse)", "Valais (Switzerland)")
    flag = "ch-vs"
    description = _both("Jass valaisan à quatre, l'ardoise en dizaines, les annonces, les mariages sur table et la cape.",
                        "Four-handed Valais jass: a slate kept in tens, announces, table marriages and la cape.")
    direction = _both("sens inverse des aiguilles d'une montre", "counter-clockwise")
    player_range = (4, 4)
    strength = STRENGTH
    points = POINTS
    # R-COMMON-6: a pile says nothing of the announces, mariages and cape (R-BROUC-4, 5, 8): entered with it
    pile_fields = numbers.FIELDS
    points_rule = "R-BROUC-2"
    # on paper (printed.py): the rule summary's part, the score sheet and its blank rows
    printed_summary, printed_sheet, blank_rows = printed.summary, printed.sheet, 22
    printed_extent, printed_room = printed.extent, printed.room  # the slate
    numbers_tally = numbers.sheet_tally  # announces, mariages and cape beside the card points
    piles_carry = said(" (annonces, mariages et cape compris)", " (announces, mariages and cape included)")
    flag_titles = {**TrickGame.flag_titles, "under_trump": msg("Under-trump")}  # R-BROUC-3
    options = (
        Option("coches_to_lose", "int", 0, _both(
            "Nombre de coches qui font perdre la soirée (0 : on compte sans fin).",
            "Coches that lose the evening (0: keep counting)."), rule="R-BROUC-7",
            label=_both("Coches qui font perdre la soirée", "Coches that lose the evening"),
            words={0: _both("aucune, on compte sans fin", "none, keep counting")}),
        Option("scorer_side", "int", 0, _both(
            "Le camp du marqueur, dessiné à droite de l'ardoise.", "The scorer's side, drawn on the slate's right."),
            (0, 1), "R-BROUC-6", label=_both("Camp du marqueur", "The scorer's side"),
            words={0: _both("joueurs 1 et 3", "players 1 and 3"), 1: _both("joueurs 2 et 4", "players 2 and 4")}),
    )
    events = {"deal": ev.parse_deal, "trick": ev.parse_trick, "capture": numbers.parse_capture,
              "announce": ev.parse_announce, "declare": ev.parse_declare, "tally": numbers.parse_tally}
    statistics = STATISTICS  # capes and coches (R-BROUC-7, 8; slate.py)
    deal_statistics = staticmethod(deal_statistics)

    def sides(self, n_players: int, options: dict) -> list:
        return [[0, 2], [1, 3]]  # R-BROUC-1, R-COMMON-3: partners opposite

    def make_table(self, players, options, dealer) -> BroucTable:
        return BroucTable(self.id, players, self.sides(4, options), options, dealer)

    def check_options(self, options: dict, n_players: int) -> None:
        if options["coches_to_lose"] < 0:
            raise ParseError("bad_option", "Option {option} must be 0 or more, not {value}.",
                             option="coches_to_lose", value=options["coches_to_lose"])

    def deck_for(self, table: Table):
        return PIQUET_32  # R-BROUC-1

    def next_dealer(self, table: BroucTable) -> int:
        """R-BROUC-8: the dealer moves on after every deal, except after a declared cape."""
        if not table.deals:
            return table.first_dealer
        last = table.deals[-1]
        return last.dealer if last.declaration is not None else (last.dealer + 1) % 4

    # --- deal ---------------------------------------------------------------------------------------------
    def on_deal(self, table: BroucTable, event: ev.Deal) -> None:
        self.verify_new_deal(table)
        if event.trump is None:
            raise RuleError("bad_event", "A Brouc deal starts with the dealer's turned last card.", rule="R-BROUC-1")
        dealer = self.next_dealer(table) if event.dealer is None else event.dealer
        deal = BroucDeal(len(table.deals) + 1, dealer, 4, event.trump, event.trump.suit, card_points=[0, 0])
        deal.known[event.trump] = dealer  # R-BROUC-1: the turned card stays in the dealer's hand (turned_holder)
        table.deals.append(deal)

    def turned_holder(self, table: Table) -> str:
        return "dealer"  # R-BROUC-1

    # --- tricks: table marriages and revoke detection -----------------------------------------------------
    def after_trick(self, table: BroucTable, deal: BroucDeal, trick) -> None:
        number = len(deal.tricks)
        side = table.side_of(trick.winner)
        found = marriages_in(trick.cards, deal.trump_suit)
        for suit, ranks, points in found:  # R-BROUC-5: to the side winning the trick, taken from the other
            deal.marriages.append({"trick": number, "suit": suit, "cards": [r + suit for r in ranks],
                                   "points": points, "side": side})
        led, trump = trick.cards[0].suit, deal.trump_suit
        for i, card in enumerate(trick.cards[1:], start=1):
            player = trick.player_of(i, 4)
            if card.suit == led:
                continue
            name = table.players[player]
            params = {"name": name, "suit": FRENCH_SUITS[led].names["en"], "suit_code": led, "trick": number}
            if card.suit == trump and led != trump and self.under_trumps(trick.cards[:i], card, trump) \
                    and not any(s == trump and card.rank in ranks for s, ranks, _ in found):
                # R-BROUC-3: allowed only holding nothing but lower trumps. One watch for the one fault: any
                # non-trump (the suit led included) or a trump above the best one in the trick proves it.
                best = max(STRENGTH[c.rank] for c in trick.cards[:i] if c.suit == trump)
                flag = Flag("under_trump", player, number, msg("{name} under-trumped in trick {trick}: allowed only "
                            "holding nothing but lower trumps."), "R-BROUC-3", {"name": name, "trick": number})
                deal.flags.append(flag)
                higher = frozenset(c for c in PIQUET_32.cards if c.suit == trump and STRENGTH[c.rank] > best)
                record_absence(deal, Absence(player, frozenset(s for s in SUITS if s != trump), number, "revoke",
                                             "R-BROUC-3", msg("{name} under-trumped in trick {trick} while holding "
                                                              "another card, as {proof_card} shows."),
                                             {"name": name, "trick": number}, replaces=flag, cards=higher))
                continue
            record_absence(deal, Absence(player, frozenset(led), number, "revoke", "R-BROUC-3", msg(
                "{name} did not follow {suit} in trick {trick}, yet held {proof_card}."), params))

    @staticmethod
    def under_trumps(before: list, card, trump: str) -> bool:
        return any(c.suit == trump and STRENGTH[c.rank] > STRENGTH[card.rank] for c in before)

    # --- announces (R-BROUC-4) ----------------------------------------------------------------------------
    def verify_announce(self, table: BroucTable, event: ev.Announce) -> int:
        deal = self.open_deal(table)
        player = event.player
        if not deal.tricks:
            raise RuleError("announce_first_card", "An announce is never made with the first card of a deal.",
                            rule="R-BROUC-4", player=player)
        if all(t.winner != player for t in deal.tricks):
            raise numbers.refuse_no_trick(table, player)
        cards = list(event.cards)
        ranks = numbers.announce_shape(cards, player)
        held = [c for c, p in deal.known.items() if p == player and c not in deal.played and c not in cards]
        left = self.hand_size(table, deal)  # R-COMMON-4: a hand holds 8 cards less those played
        if len(held) + len(cards) > left:
            raise numbers.refuse_too_many(table, player, left)
        for earlier in deal.announces:  # R-BROUC-8b: an announce is never extended, each card announced once
            if set(earlier["shown"]) < set(cards):
                raise RuleError("announce_extended", "The king and queen of {suit} were already announced: an "
                                "announce cannot be extended with the jack; each card is announced once.",
                                rule="R-BROUC-8b", card=next(c for c in cards if c not in earlier["shown"]).code,
                                player=player, suit=FRENCH_SUITS[cards[0].suit].names["en"],
                                suit_code=cards[0].suit)
        shown = {c for a in deal.announces for c in a["shown"]}
        for card in cards:
            if card in deal.played:
                raise RuleError("card_already_played", "{card} was already played: it is no longer in the hand.",
                                rule="R-BROUC-4", card=card.code, player=player)
            holder = deal.known.get(card)
            if holder is not None and holder != player:
                raise RuleError("card_in_other_hand", "{card} is known to be in {holder}'s hand.", rule="R-BROUC-4",
                                card=card.code, player=player, holder=table.players[holder])
            numbers.verify_not_announced(card, shown, player)
        return announce_points(ranks, cards[0].suit == deal.trump_suit)

    def on_announce(self, table: BroucTable, event: ev.Announce) -> None:
        points = self.verify_announce(table, event)
        deal, side = table.current, table.side_of(event.player)
        deal.announces.append({"player": event.player, "side": side, "cards": [c.code for c in event.cards],
                               "points": points, "tens": points // 10, "after_trick": len(deal.tricks),
                               "shown": list(event.cards)})
        show_cards(deal, event.player, event.cards)  # known in that hand; proves an earlier revoke (R-COMMON-4b)
        table.totals[side] += points // 10  # R-BROUC-6: announces count from the moment they are made

    # --- la cape declared (R-BROUC-8) ---------------------------------------------------------------------
    def verify_declare(self, table: BroucTable, event: ev.Declare) -> None:
        deal = self.open_deal(table)
        if deal.declaration is not None:
            raise RuleError("declare_twice", "La cape was already declared in this deal.", rule="R-BROUC-8",
                            player=event.player)
        if deal.captures is not None or not 6 <= len(deal.tricks) <= 7:
            raise RuleError("declare_wrong_time", "La cape is declared with the second-to-last card: after trick 6 "
                            "and before trick 8 is entered.", rule="R-BROUC-8", player=event.player)
        side = table.side_of(event.player)
        if self.lost_a_trick(table, deal, side):
            raise RuleError("declare_trick_lost", "{name}'s side has lost a trick in this deal: la cape can no "
                            "longer be declared.", rule="R-BROUC-8b", player=event.player,
                            name=table.players[event.player])
        refusal = declaration_refusal(event.call, table.totals, side)
        if refusal:
            code, template, fields = refusal
            raise RuleError(code, template, rule="R-BROUC-8", player=event.player, **fields)

    @staticmethod
    def lost_a_trick(table: BroucTable, deal: BroucDeal, side: int) -> bool:
        return any(table.side_of(t.winner) != side for t in deal.tricks)

    def on_declare(self, table: BroucTable, event: ev.Declare) -> None:
        self.verify_declare(table, event)
        table.current.declaration = {"player": event.player, "side": table.side_of(event.player),
                                     "call": event.call, "coches": DECLARED_COCHES[event.call]}

    # --- a deal without its tricks: piles or numbers ------------------------------------------------------
    def capture_extras(self, table: BroucTable, deal: BroucDeal, event) -> None:
        if event.extras:
            if event.extras.declare and (deal.declaration or any(n.declare for n in deal.with_piles)):
                raise RuleError("declare_twice", "La cape was already declared in this deal.", rule="R-BROUC-8")
            deal.with_piles.append(event.extras)

    def verify_captures(self, table: BroucTable, deal: BroucDeal, event) -> None:
        """R-COMMON-6: the announces, mariages sur table and declaration entered with the piles."""
        given = numbers.BroucNumbers(tuple(a for n in deal.with_piles for a in n.announces),
                                     tuple(m for n in deal.with_piles for m in n.marriages),
                                     next((n.declare for n in deal.with_piles if n.declare), None))
        points = [self.points_in(pile) for pile in deal.captures]
        numbers.verify(table, deal, given, points, self.cape_side(table, deal), deal.captures)
        numbers.write_announces(table, deal, given)

    def on_tally(self, table: BroucTable, event: ev.Tally) -> None:
        deal, given = open_for_tally(self, table), event.extras
        verify_points(self, table, deal, event.points, "R-BROUC-2")
        numbers.verify_cape(table, list(event.points), given.cape)
        numbers.verify(table, deal, given, list(event.points), given.cape, None)
        numbers.write_announces(table, deal, given)
        close(self, table, deal, event.points, {"points": list(event.points), **numbers.as_entered(given)})

    @staticmethod
    def cape_side(table: BroucTable, deal: BroucDeal) -> int | None:
        """R-BROUC-8: the side that took every trick, as the tricks, the piles or the numbers say."""
        if deal.tally is not None:
            return deal.tally["cape"]
        winners = {table.side_of(t.winner) for t in deal.tricks}
        if deal.captures is not None:
            winners = {s for s, pile in enumerate(deal.captures) if pile}
        return winners.pop() if len(winners) == 1 else None

    # --- end of a deal ------------------------------------------------------------------------------------
    def finish_deal(self, table: BroucTable, deal: BroucDeal) -> None:
        assert sum(deal.card_points) == 120, deal.card_points
        deal.complete = True
        cape_side = self.cape_side(table, deal)
        deal.cape = cape_outcome(deal.declaration, cape_side)
        cancelled = cape_side is not None  # R-BROUC-8: a cape cancels the deal's table marriages
        announce = [sum(a["tens"] for a in deal.announces if a["side"] == s) for s in (0, 1)]
        married = [0, 0]
        for marriage in deal.marriages:
            marriage["cancelled"] = cancelled
            if not cancelled:
                won = marriage["side"]
                married[won] += marriage["points"] // 10
                married[1 - won] -= marriage["points"] // 10
        # R-BROUC-8b: an undeclared cape is paid by its coches alone; its card points are not written
        unwritten = cape_side is not None and deal.declaration is None
        card_tens = [0 if unwritten else tens(p) for p in deal.card_points]
        deal.slate = [card_tens[s] + announce[s] + married[s] for s in (0, 1)]
        deal.slate_why = [{"card_points": points, "card_tens": card_tens[s],
                           "rounding": unwritten_why(points) if unwritten else tens_why(points),
                           "announces": announce[s], "marriages": married[s],
                           "rule": "R-BROUC-8b" if unwritten else "R-BROUC-6"}
                          for s, points in enumerate(deal.card_points)]
        table.totals = [table.totals[s] + card_tens[s] + married[s] for s in (0, 1)]  # announces are in already
        self.give_coches(table, deal)

    def give_coches(self, table: BroucTable, deal: BroucDeal) -> None:
        given = [0, 0]
        if deal.cape is not None:
            given[deal.cape["loser"]] += deal.cape["coches"]
        if deal.cape is not None and deal.cape["ends_partie"]:
            loser, reason = deal.cape["loser"], deal.cape["reason"]
        else:
            loser = partie_over(table.totals)  # R-BROUC-7
            reason = said("Dehors à 31 : une coche au perdant.", "Out at 31: one coche to the loser.")
            if loser is not None:
                given[loser] += PARTIE_COCHES
        table.coches = [c + g for c, g in zip(table.coches, given)]
        deal.coches = given
        if loser is not None:
            deal.partie_end = {"loser": loser, "slate": list(table.totals), "reason": reason}
            first = table.parties[-1]["last_deal"] + 1 if table.parties else 1
            table.parties.append({"first_deal": first, "last_deal": deal.number, "slate": list(table.totals),
                                  "loser": loser, "coches": given[loser]})
            table.totals = [0, 0]  # R-BROUC-7: the slates start again from 0
        limit = table.options["coches_to_lose"]
        if limit and max(table.coches) >= limit:
            table.finished = True
            table.winner = None if table.coches[0] == table.coches[1] else table.coches.index(min(table.coches))

    # --- output -------------------------------------------------------------------------------------------

    def more_actions(self, table: BroucTable, deal: BroucDeal) -> list:
        actions = ["announce"] if deal.tricks else []
        if deal.declaration is None and 6 <= len(deal.tricks) <= 7 and self.players_for(table, "declare"):
            actions.append("declare")
        return actions

    def players_for(self, table: BroucTable, action: str) -> list:
        deal = table.current
        if action == "announce" and deal is not None:
            return sorted({t.winner for t in deal.tricks})
        if action == "declare" and deal is not None:  # R-BROUC-8, 8b: at 19 or more, every trick won so far
            return [p for p in range(4) if not self.lost_a_trick(table, deal, table.side_of(p))
                    and declaration_refusal("cape_dehors", table.totals, table.side_of(p)) is None]
        return super().players_for(table, action)

    def serialise(self, table: BroucTable) -> dict:
        state = super().serialise(table)
        state["series"].update(coches=list(table.coches), parties=list(table.parties),
                               coches_to_lose=table.options["coches_to_lose"] or None)
        state["first_dealer"] = table.first_dealer
        return state

    def side_order(self, state: dict) -> list:
        """R-BROUC-6: the scorer's side on the slate's right, the other side on its left."""
        return [1 - state["options"]["scorer_side"], state["options"]["scorer_side"]]

    def series_word(self, state: dict) -> str:
        return "slate"  # R-BROUC-6, 7: the slate in tens, out at 31

    def standing(self, table: BroucTable) -> dict:
        """R-BROUC-6, 7: the partie's slate in tens leads (the higher goes out first), the evening's coches beside it
        (R-BROUC-7, 8: the fewer the better); once the evening is over, its coches alone say who won it."""
        if table.finished:
            return standing("coches", COCHES, table.coches, "R-BROUC-7", finished=True, winners=[table.winner],
                            lowest_leads=True)
        return standing("slate", SLATE, table.totals, "R-BROUC-6", finished=False,
                        beside=[measure("coches", COCHES, table.coches, "R-BROUC-7")])

    def trick_fields(self, deal: BroucDeal, number: int) -> dict:
        return {"marriages": [m for m in deal.marriages if m["trick"] == number]}

    def deal_fields(self, table: BroucTable, deal: BroucDeal) -> dict:
        return {"slate": list(deal.slate), "slate_why": deal.slate_why,
                "announces": [{k: v for k, v in a.items() if k != "shown"} for a in deal.announces],
                "marriages": deal.marriages, "declaration": deal.declaration, "cape": deal.cape,
                "coches": list(deal.coches), "partie_end": deal.partie_end}
