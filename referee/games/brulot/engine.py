"""Brûlot (Québec): seed 000, rulings R-BRULOT-1 … 6. A penalty game: the lowest total wins.

The widow is out of play (R-BRULOT-1); trump is the suit of its top card (with 4 players, no widow: the dealer's
last card), or none with the option `no_trump` (R-BRULOT-2). Following suit depends on hidden hands: revoke
detection (R-COMMON-4). A player who plays neither the suit led nor a trump is brûlé (R-BRULOT-4): once his shown
hand is entered, his plays are checked against it and refused when illegal. A deal may also be entered by its numbers
(``tally``: each player's penalties, tally.py); both ways end in the same scoring (``score_deal``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import FRENCH_52, FRENCH_SUITS
from referee.errors import ParseError, RuleError, msg
from referee.games import events as ev
from referee.games.base import Table, register
from referee.games.brulot import printed
from referee.games.brulot.declared import EVENT_EXAMPLES, EVENT_FIELDS
from referee.games.brulot.tally import known_widow, parse_tally, sheet_tally, side_penalties, verify_penalties
from referee.games.options import Option
from referee.games.standing import PENALTY_POINTS, standing
from referee.games.statistics import Stat, side_players
from referee.games.tally import close, open_for_tally
from referee.games.trick_deal import Absence, TrickDeal, record_absence, show_cards
from referee.games.tricks import TrickGame
from referee.words import Words, said

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")  # R-BRULOT-3, high to low
STRENGTH = {rank: len(RANKS) - i for i, rank in enumerate(RANKS)}
PENALTY_RANKS = ("A", "K", "Q", "J")  # R-BRULOT-5: A 4, K 3, Q 2, J 1 by default
STATISTICS = (Stat("brules", said("fois brûlé", "times brûlé"), "R-BRULOT-4"),
              Stat("clean_deals", said("donnes propres", "clean deals"), "R-BRULOT-5"))


def _both(fr: str, en: str) -> Words:
    return said(fr, en)


def widow_size(n_players: int) -> int:
    return 52 - 52 // n_players * n_players  # R-BRULOT-1: 3 -> 1, 4 -> 0, 5 -> 2, 6 -> 4


@dataclass
class BrulotTable(Table):
    winners: list = field(default_factory=list)  # equal lowest totals share the win (R-BRULOT-6)


@dataclass
class BrulotDeal(TrickDeal):
    widow: list = field(default_factory=list)  # the widow cards known (the top one at least)
    brule: dict = field(default_factory=dict)  # player -> trick where he became brûlé
    shown: dict = field(default_factory=dict)  # player -> cards of the hand he showed
    penalties: list = field(default_factory=list)  # per side, before the clean-deal bonus
    check: dict | None = None


@register
class Brulot(TrickGame):
    id = "brulot"
    names = _both("Brûlot", "Brûlot")
    board_parts = True  # its board draws the open deal's parts alone (board_part "open", _board_brulot.html)
    event_fields, event_examples = EVENT_FIELDS, EVENT_EXAMPLES  # as the API's document declares them
    origin = _both("Québec", "Québec")
    flag = "ca-qc"
    description = _both("Jeu de plis québécois où l'on évite les as, rois, dames et valets : le plus bas gagne.",
                        "Québec trick game where you avoid aces, kings, queens and jacks: lowest score wins.")
    direction = _both("sens des aiguilles d'une montre", "clockwise")
    penalty_points = True  # R-BRULOT-6: the points are penalties, the lowest total wins
    numbers_fields = "players"  # R-BRULOT-5: penalties per player
    points_rule = "R-BRULOT-5"
    # on paper (printed.py): the rule summary's part, the score sheet and its blank rows
    printed_summary, printed_sheet, printed_extent = printed.summary, printed.sheet, printed.extent
    blank_rows, blank_sides = 15, 6  # a column per player, six at most
    numbers_tally = sheet_tally  # penalties per player
    deals_a_widow = True  # R-BRULOT-1: the widow, set aside at the deal
    round_unit = "deals"  # a tournament round: so many deals (R-BRULOT-6)
    player_range = (3, 6)
    strength = STRENGTH
    options = (
        # One trump question, one option (R-BRULOT-2): "no trump at 4 players" (the former `trump_without_widow:
        # none`) is `no_trump` at a 4-player table, the only one it spoke of; legacy_options reads it so.
        Option("no_trump", "bool", False, _both(
            "Aucune donne n'a d'atout (à 4, le donneur ne montre pas sa dernière carte).",
            "No deal has a trump (with 4, the dealer shows no last card)."), rule="R-BRULOT-2",
               label=_both("Sans atout", "No trump")),
        Option("penalties", "ints", [4, 3, 2, 1], _both(
            "Pénalités de l'as, du roi, de la dame et du valet.", "Penalties of the ace, king, queen and jack."),
            rule="R-BRULOT-5", label=_both("Pénalités : as, roi, dame, valet", "Penalties: ace, king, queen, jack")),
        Option("clean_deal_bonus", "int", 0, _both(
            "Points retirés à qui ne prend aucune carte de pénalité dans une donne.",
            "Points taken off whoever takes no penalty card in a deal."), rule="R-BRULOT-5",
            label=_both("Bonus de la donne propre", "Clean-deal bonus"), words={0: _both("aucun", "none")}),
        Option("partnership", "bool", False, _both(
            "À 4 ou 6, les partenaires additionnent leurs pénalités.", "With 4 or 6, partners add their penalties."),
            rule="R-BRULOT-6", label=_both("Partenaires, à 4 ou 6", "Partners, with 4 or 6")),
        Option("deals", "int", 0, _both(
            "Nombre de donnes (0 : une par joueur, chacun donne une fois).",
            "Number of deals (0: one per player, everyone deals once)."), rule="R-BRULOT-6",
            label=_both("Nombre de donnes", "Number of deals"),
            words={0: _both("une par joueur", "one per player")}),
    )
    events = {"deal": ev.parse_deal, "trick": ev.parse_trick, "capture": ev.parse_capture,
              "reveal": ev.parse_reveal, "tally": parse_tally}
    statistics = STATISTICS  # a member's page (referee/games/statistics.py)

    def legacy_options(self, given: dict, n_players: int) -> dict:
        """A table stored, exported or asked for with `trump_without_widow` (before it was one with `no_trump`):
        "none" plays a 4-player table without trump, "dealer_last_card" is the rule itself (R-BRULOT-2)."""
        if "trump_without_widow" not in given:
            return given
        given = dict(given)
        value = given.pop("trump_without_widow")
        if value not in ("dealer_last_card", "none"):
            raise ParseError("bad_option", "Option {option} must be {allowed}, not {value}.",
                             option="trump_without_widow", allowed="one of dealer_last_card, none", value=repr(value))
        if value == "none" and n_players == 4 and given.get("no_trump", False) is False:
            given["no_trump"] = True
        return given

    def check_options(self, options: dict, n_players: int) -> None:
        if len(options["penalties"]) != 4:
            raise ParseError("bad_option", "Option {option} gives four penalties: ace, king, queen, jack.",
                             option="penalties")
        if options["partnership"] and n_players not in (4, 6):
            raise ParseError("bad_option", "Partnership is played by 4 or 6 players, not {count}.",
                             option="partnership", count=n_players)
        if options["deals"] < 0 or options["clean_deal_bonus"] < 0:
            raise ParseError("bad_option", "Option {option} must be 0 or more.", option="deals")

    def sides(self, n_players: int, options: dict) -> list:
        if options.get("partnership"):  # R-COMMON-3: {0,2} {1,3} at 4; {0,3} {1,4} {2,5} at 6
            half = n_players // 2 if n_players == 6 else 2
            return [list(range(s, n_players, half)) for s in range(half)]
        return [[p] for p in range(n_players)]

    def make_table(self, players, options, dealer) -> BrulotTable:
        return BrulotTable(self.id, players, self.sides(len(players), options), options, dealer)

    def deck_for(self, table: Table):
        return FRENCH_52  # R-BRULOT-1

    def points_for(self, table: Table) -> dict:
        return dict(zip(PENALTY_RANKS, table.options["penalties"]))

    def tricks_per_deal(self, table: Table, deal: TrickDeal) -> int:
        return 52 // len(table.players)

    # --- deal (R-BRULOT-1, 2) -----------------------------------------------------------------------------
    def on_deal(self, table: BrulotTable, event: ev.Deal) -> None:
        self.verify_new_deal(table)
        n, options = len(table.players), table.options
        size = widow_size(n)
        dealer = self.next_dealer(table) if event.dealer is None else event.dealer
        if event.widow and len(set(event.widow)) != len(event.widow):
            twice = next(c for c in event.widow if event.widow.count(c) > 1)
            raise RuleError("card_twice", "{card} is entered twice in the widow.", rule="R-BRULOT-1", card=twice.code)
        widow = list(dict.fromkeys(event.widow or ([event.trump] if size and event.trump else [])))
        if size and event.trump and event.trump not in widow:
            widow.insert(0, event.trump)
        if len(widow) > size or (event.widow and len(event.widow) != size):
            raise RuleError("bad_widow", "With {n} players the widow holds {size} cards.", rule="R-BRULOT-1", n=n,
                            size=size)
        no_trump = options["no_trump"]
        if event.trump is None and not no_trump:
            raise RuleError("bad_event", msg("Enter the card turned for trump: the widow's top card.") if size
                            else msg("Enter the dealer's last card, shown for trump."), rule="R-BRULOT-2")
        if event.trump is not None and size == 0 and no_trump:
            raise RuleError("bad_event", "No card is turned at this table: there is no trump.", rule="R-BRULOT-2")
        deal = BrulotDeal(len(table.deals) + 1, dealer, n, event.trump,
                          None if no_trump else event.trump.suit, card_points=[0] * len(table.sides), widow=widow)
        deal.out_of_play.update(widow)  # R-BRULOT-1: widow cards are out of play
        if size == 0 and event.trump is not None:
            deal.known[event.trump] = dealer  # R-BRULOT-2: the dealer's shown last card stays in his hand
        table.deals.append(deal)

    def turned_card(self, table: Table) -> str:
        n, options = len(table.players), table.options
        if widow_size(n) == 0:
            return "none" if options["no_trump"] else "required"
        return "optional" if options["no_trump"] else "required"

    def hidden_out_of_play(self, table: Table, deal: BrulotDeal) -> int:
        return widow_size(len(table.players)) - len(deal.widow)

    def numbers_bounds(self, table: Table) -> dict:
        """The players' penalties (R-BRULOT-5): one takes at most the penalty cards in play, all together ``low`` to
        ``high``, the unknown widow cards holding at most the highest penalty cards left and at least none."""
        deal = table.current
        if deal is None:
            return {}
        values = sorted((self.points_in([c], table) for c in deal.cards_out(self.deck_for(table))), reverse=True)
        high = sum(values)
        return {"most": high, "total": high, "step": 1, "rule": self.points_rule,
                "low": high - sum(values[:self.hidden_out_of_play(table, deal)]), "high": high}

    # --- plays: revoke detection and the brûlé rule (R-BRULOT-3, 4) ---------------------------------------
    def verify_play(self, table, deal: BrulotDeal, player, card, number, before) -> None:
        shown = deal.shown.get(player)
        if shown is None:
            return
        left = [c for c in shown if c not in deal.played and c not in before]
        if card not in left:
            raise RuleError("not_in_shown_hand", "{name} is brûlé and showed his hand: {card} is not in it.",
                            rule="R-BRULOT-4", card=card.code, player=player, name=table.players[player])
        if before and card.suit != before[0].suit and any(c.suit == before[0].suit for c in left):
            raise RuleError("must_follow", "{name} showed {suit} in his hand and must follow suit.",
                            rule="R-BRULOT-4", card=card.code, player=player, name=table.players[player],
                            suit=FRENCH_SUITS[before[0].suit].names["en"], suit_code=before[0].suit)

    def after_trick(self, table: BrulotTable, deal: BrulotDeal, trick) -> None:
        number, led, trump = len(deal.tricks), trick.cards[0].suit, deal.trump_suit
        for i, card in enumerate(trick.cards[1:], start=1):
            player = trick.player_of(i, len(table.players))
            if card.suit == led:
                continue
            if card.suit != trump:  # neither the suit led nor a trump: brûlé, he must show his hand
                deal.brule.setdefault(player, number)
            params = {"name": table.players[player], "suit": FRENCH_SUITS[led].names["en"], "suit_code": led,
                      "trick": number}
            record_absence(deal, Absence(player, frozenset(led), number, "revoke", "R-BRULOT-3", msg(
                "{name} did not follow {suit} in trick {trick}, yet held {proof_card}."), params))

    def on_reveal(self, table: BrulotTable, event) -> None:
        deal = self.open_deal(table)
        player, name = event.player, table.players[event.player]
        if player not in deal.brule:
            raise RuleError("not_brule", "{name} is not brûlé: only a brûlé player shows his hand.",
                            rule="R-BRULOT-4", player=player, name=name)
        if player in deal.shown:
            raise RuleError("reveal_twice", "{name} already showed his hand.", rule="R-BRULOT-4", player=player,
                            name=name)
        left = self.hand_size(table, deal)
        if len(set(event.cards)) != left:
            raise RuleError("reveal_wrong_count", "{name} holds {left} cards now, not {count}.", rule="R-BRULOT-4",
                            player=player, name=name, left=left, count=len(set(event.cards)))
        for card in event.cards:
            holder = deal.known.get(card)
            if card in deal.played or card in deal.out_of_play or (holder is not None and holder != player):
                raise RuleError("card_not_in_hand", "{card} cannot be in {name}'s hand.", rule="R-BRULOT-4",
                                card=card.code, player=player, name=name)
        for card, holder in deal.known.items():
            if holder == player and card not in deal.played and card not in event.cards:
                raise RuleError("shown_hand_incomplete", "{card} is known to be in {name}'s hand: the shown hand "
                                "must hold it.", rule="R-BRULOT-4", card=card.code, player=player, name=name)
        show_cards(deal, player, event.cards)  # a shown card may prove an earlier revoke (R-COMMON-4b)
        deal.shown[player] = list(dict.fromkeys(event.cards))

    # --- a deal by its numbers (contract "tally"; R-COMMON-6, R-BRULOT-5) ---------------------------------
    def on_tally(self, table: BrulotTable, event: ev.Tally) -> None:
        deal = open_for_tally(self, table)
        numbers, size = event.extras, widow_size(len(table.players))
        widow = known_widow(table, deal, numbers.widow, size)  # R-BRULOT-1
        verify_penalties(table, self.deck_for(table), self.points_for(table), widow, size - len(widow),
                         numbers.penalties)  # R-BRULOT-5: what the deal holds, less the widow's
        deal.widow = widow
        deal.out_of_play.update(widow)
        close(self, table, deal, side_penalties(table, numbers.penalties),  # R-BRULOT-6: partners add theirs
              {"penalties": list(numbers.penalties),
               "widow": None if numbers.widow is None else [c.code for c in numbers.widow]})

    # --- scoring (R-BRULOT-5, 6) --------------------------------------------------------------------------
    def finish_deal(self, table: BrulotTable, deal: BrulotDeal) -> None:
        whole = 4 * sum(table.options["penalties"])  # R-BRULOT-5: 40 with the default values
        taken = sum(deal.card_points)
        if deal.tally is None:  # card by card or pile by pile: after the last trick, the unplayed cards are the widow
            rest = [c for c in self.deck_for(table).cards if c not in deal.played and c not in deal.out_of_play]
            deal.widow = deal.widow + rest
            deal.out_of_play.update(rest)
            widow = self.points_in(deal.widow, table)
            assert taken + widow == whole, (taken, widow)
        else:  # by its numbers: the widow holds what nobody took (its known cards were checked in tally.py)
            widow = whole - taken
        self.score_deal(table, deal, widow, whole)

    @staticmethod
    def score_deal(table: BrulotTable, deal: BrulotDeal, widow: int, whole: int) -> None:
        """One scoring for every way a deal is entered: the clean-deal bonus (R-BRULOT-5), totals, the series end
        (R-BRULOT-6). ``deal.card_points`` holds each side's penalties."""
        deal.check = {"taken": sum(deal.card_points), "widow": widow, "deck": whole, "rule": "R-BRULOT-5"}
        deal.penalties = list(deal.card_points)
        bonus = table.options["clean_deal_bonus"]
        deal.card_points = [p - bonus if p == 0 and bonus else p for p in deal.penalties]
        deal.complete = True
        table.totals = [t + p for t, p in zip(table.totals, deal.card_points)]
        planned = table.options["deals"] or len(table.players)
        if len(table.deals) >= planned:  # R-BRULOT-6: lowest total wins, equal lowest share
            low = min(table.totals)
            table.winners = [s for s, t in enumerate(table.totals) if t == low]
            table.finished, table.winner = True, table.winners[0] if len(table.winners) == 1 else None

    # --- output -------------------------------------------------------------------------------------------

    def deal_statistics(self, state: dict, deal: dict):
        """One complete deal's counts. Brûlé (R-BRULOT-4): each player who became brûlé in it, as its tricks show; a
        deal entered by its piles or by its numbers does not say who became brûlé, so it counts none. A clean deal
        (R-BRULOT-5): for each player of a side that took no penalty card (its penalties 0, before the clean-deal
        bonus, whether the table gives one or not), whichever way the deal was entered: its numbers say it."""
        for player in deal.get("brule") or {}:
            yield [int(player)], "brules", 1
        for side, penalties in enumerate(deal.get("penalties") or ()):
            if penalties == 0:
                yield side_players(state, side), "clean_deals", 1

    def more_actions(self, table: BrulotTable, deal: BrulotDeal) -> list:
        return ["reveal"] if any(p not in deal.shown for p in deal.brule) else []

    def players_for(self, table: BrulotTable, action: str) -> list:
        if action == "reveal" and table.current is not None:
            return [p for p in table.current.brule if p not in table.current.shown]
        return super().players_for(table, action)

    def serialise(self, table: BrulotTable) -> dict:
        state = super().serialise(table)
        state["series"].update(winners=list(table.winners), deals=table.options["deals"] or len(table.players),
                               lowest_wins=True)
        return state

    def planned_deals(self, state: dict) -> int:
        """R-BRULOT-6: so many deals (one per player by default)."""
        return state["series"]["deals"]

    def series_word(self, state: dict) -> str:
        return "deals"  # R-BRULOT-6: so many deals, the lowest total wins

    def standing(self, table: BrulotTable) -> dict:
        """R-BRULOT-6: penalty points, the lowest total leads; equal lowest totals share the win."""
        return standing("penalty_points", PENALTY_POINTS, table.totals, "R-BRULOT-6", finished=table.finished,
                        winners=table.winners, lowest_leads=True)

    def deal_fields(self, table: BrulotTable, deal: BrulotDeal) -> dict:
        return {"widow": [c.code for c in deal.widow], "penalties": list(deal.penalties), "check": deal.check,
                "brule": {str(p): t for p, t in deal.brule.items()},
                "shown": {str(p): [c.code for c in cards] for p, cards in deal.shown.items()}}
