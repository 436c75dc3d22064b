"""Brusquembille (18th-century France): seed 004, rulings R-BRUSQ-1 … 5.

No obligation to follow (R-BRUSQ-2), a stock to draw from with the turned card drawn first (or last), card points
as in Brisca's family (R-BRUSQ-3), and the jetons: aces and tens move jetons between the players as each trick is
won or trumped (R-BRUSQ-4). The evening's jetons are settled in the fewest payments.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from referee.cards import PIQUET_32, Card, piquet_30
from referee.errors import ParseError, RuleError, msg
from referee.games import events as ev
from referee.games.base import Table, register
from referee.games.brusquembille.declared import EVENT_EXAMPLES, EVENT_FIELDS
from referee.games.settle import settle
from referee.games.brusquembille import numbers, printed
from referee.games.options import Option
from referee.games.standing import JETON_WORD, measure, standing, toward
from referee.games.statistics import Stat
from referee.games.tally import close, open_for_tally, verify_points
from referee.games.trick_deal import Flag, TrickDeal
from referee.games.tricks import TrickGame
from referee.words import Words, said

STRENGTH_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")  # R-BRUSQ-1
STRENGTH = {rank: len(STRENGTH_ORDER) - i for i, rank in enumerate(STRENGTH_ORDER)}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}  # R-BRUSQ-3: 120 in a deal
JETONS = {"A": 2, "10": 1}  # R-BRUSQ-4: the brusquembilles
HAND_SIZE = 3
STATISTICS = (Stat("jetons_won", said("jetons gagnés", "jetons won"), "R-BRUSQ-4"),
              Stat("jetons_lost", said("jetons perdus", "jetons lost"), "R-BRUSQ-4"))


@lru_cache(maxsize=16)
def deck_without(removed: tuple):
    return piquet_30(list(removed))


def _both(fr: str, en: str) -> Words:
    return said(fr, en)


@dataclass
class BrusqTable(Table):
    jetons: list = field(default_factory=list)  # balance per player, zero-sum


@dataclass
class BrusqDeal(TrickDeal):
    stock: int = 0
    turned_drawn: bool = False
    movements: list = field(default_factory=list)
    jetons: list = field(default_factory=list)  # this deal's balance per player
    with_piles: list | None = None  # the brusquembilles entered with the captured piles, if any were


def movements_of(trick_cards: list, players: list, winner: int, trump: str, side_of, sides) -> list:
    """R-BRUSQ-4 for one trick: each ace or ten either earns (its side won), is trumped (coupé: a non-trump losing
    to a trump) and pays, or moves nothing. ``players[i]`` played ``trick_cards[i]``."""
    won_by, winning = side_of(winner), trick_cards[players.index(winner)]
    found = []
    for player, card in zip(players, trick_cards):
        jetons = JETONS.get(card.rank)
        if not jetons:
            continue
        side = side_of(player)
        opponents = [p for s, members in enumerate(sides) if s != side for p in members]
        if side == won_by:
            kind = "won"
        elif card.suit != trump and winning.suit == trump:
            kind = "coupe"
        else:
            continue
        found.append({"player": player, "card": card.code, "kind": kind, "jetons": jetons,
                      "opponents": opponents, "by": winning.code})
    return found


@register
class Brusquembille(TrickGame):
    id = "brusquembille"
    names = _both("Brusquembille", "Brusquembille")
    board_parts = True  # its board draws the open deal's parts alone (board_part "open", _board_brusquembille.html)
    event_fields, event_examples = EVENT_FIELDS, EVENT_EXAMPLES  # as the API's document declares them
    origin = _both("France, XVIIIe siècle", "France, 18th century")
    flag = "fr"
    description = _both("Jeu de plis à la pioche où les as et les dix, les brusquembilles, font passer des jetons.",
                        "A drawing trick game where aces and tens, the brusquembilles, move jetons around.")
    direction = _both("sens des aiguilles d'une montre", "clockwise")
    pile_fields = ("brusquembilles",)
    points_rule = "R-BRUSQ-3"
    # on paper (printed.py): the rule summary's part, the score sheet and its blank rows
    printed_summary, printed_sheet, printed_extent = printed.summary, printed.sheet, printed.extent
    blank_rows, blank_sides = 12, 5  # a column per player, five at most
    numbers_tally = numbers.sheet_tally  # the brusquembilles beside the card points
    numbers_outcomes = numbers.OUTCOMES  # R-BRUSQ-4: a brusquembille's row cycles won, trumped, beaten
    round_unit = "deals"  # a tournament round: so many deals (R-BRUSQ-5)
    piles_carry = said(" (jetons compris)", " (jetons included)")  # R-COMMON-6: a pile says nothing of its jetons
    player_range = (3, 5)
    strength = STRENGTH
    points = POINTS
    jetons = JETONS
    hand_limit = HAND_SIZE  # R-BRUSQ-2: three cards in hand while the stock lasts
    flag_titles = {**TrickGame.flag_titles, "captured_entry": msg("Piles without the brusquembilles")}  # R-COMMON-6
    stock_refusal = msg("{card} is the turned card on the stock: nobody has drawn it yet.")
    options = (
        Option("removed", "cards", ["7H", "7C"], _both(
            "À 3 ou 5 joueurs, les deux sept retirés : un rouge et un noir.",
            "With 3 or 5 players, the two sevens removed: one red, one black."), rule="R-BRUSQ-1",
            label=_both("Sept retirés, à 3 ou 5", "Sevens removed, with 3 or 5"), offer=("7H", "7D", "7S", "7C")),
        Option("turned_card_last", "bool", False, _both(
            "La carte retournée est tirée en dernier (sinon le gagnant du premier pli la prend).",
            "The turned card is drawn last (otherwise the first trick's winner takes it)."), rule="R-BRUSQ-2",
            label=_both("Carte retournée tirée en dernier", "Turned card drawn last")),
        Option("jeton_value", "number", 1, _both(
            "Valeur d'un jeton en argent.", "What one jeton is worth in money."), rule="R-BRUSQ-4",
            label=_both("Valeur d'un jeton", "Value of a jeton")),
        Option("target_points", "int", 0, _both(
            "Points qui gagnent la série (0 : la série se joue en un nombre de donnes).",
            "Points that win the series (0: the series is a number of deals)."), rule="R-BRUSQ-5",
            label=_both("Points pour gagner la série", "Points to win the series"),
            words={0: _both("aucun, on joue un nombre de donnes", "none, a number of deals")}),
        Option("deals", "int", 5, _both(
            "Nombre de donnes de la série quand on ne joue pas aux points.",
            "Deals in the series when not playing to a target."), rule="R-BRUSQ-5",
            label=_both("Nombre de donnes", "Number of deals")),
    )
    events = {"deal": ev.parse_deal, "trick": ev.parse_trick, "capture": numbers.parse_capture,
              "tally": numbers.parse_tally}
    statistics = STATISTICS  # a member's page (referee/games/statistics.py)

    def check_options(self, options: dict, n_players: int) -> None:
        removed = options["removed"]
        deck = piquet_30(removed)  # two different sevens, or a bad_option
        colours = {PIQUET_32.parse(code).suit in "HD" for code in removed}
        if colours != {True, False}:
            raise ParseError("bad_option", "The two sevens removed are one red and one black, not {removed}.",
                             option="removed", removed=", ".join(removed))
        options["removed"] = sorted(c.code for c in PIQUET_32.cards if c not in deck)
        if options["deals"] < 1 or options["target_points"] < 0:
            raise ParseError("bad_option", "Option {option} must be 1 or more.", option="deals")

    def sides(self, n_players: int, options: dict) -> list:
        if n_players == 4:  # R-BRUSQ-1, R-COMMON-3
            return [[0, 2], [1, 3]]
        return [[p] for p in range(n_players)]

    def make_table(self, players, options, dealer) -> BrusqTable:
        return BrusqTable(self.id, players, self.sides(len(players), options), options, dealer,
                          jetons=[0] * len(players))

    def deck_for(self, table: Table):
        return PIQUET_32 if len(table.players) == 4 else deck_without(tuple(table.options["removed"]))  # R-BRUSQ-1

    # --- deal and the stock (R-BRUSQ-2) -------------------------------------------------------------------
    def on_deal(self, table: BrusqTable, event: ev.Deal) -> None:
        self.verify_new_deal(table)
        if event.trump is None:
            raise RuleError("bad_event", "A deal starts with the card turned for trump.", rule="R-BRUSQ-2")
        n = len(table.players)
        dealer = self.next_dealer(table) if event.dealer is None else event.dealer
        table.deals.append(BrusqDeal(len(table.deals) + 1, dealer, n, event.trump, event.trump.suit,
                                     card_points=[0] * len(table.sides), jetons=[0] * n,
                                     stock=self.deck_for(table).size - HAND_SIZE * n))

    def turned_draw(self, table: Table) -> tuple:
        """R-BRUSQ-2: the first trick's winner draws the turned card first; with ``turned_card_last`` it is the last
        card of the stock, drawn after the last refill by the player before that trick's winner."""
        if table.options["turned_card_last"]:
            return self.deck_for(table).size // len(table.players) - HAND_SIZE, -1
        return 1, 0

    def verify_play(self, table, deal: BrusqDeal, player, card, number, before) -> None:
        if card == self.under_stock(deal):
            raise RuleError("card_on_stock", self.stock_refusal, rule="R-BRUSQ-2", card=card.code, player=player)

    def under_stock(self, deal: BrusqDeal) -> Card | None:
        return None if deal.turned_drawn else deal.trump  # R-BRUSQ-2: laid on the stock until it is drawn

    def turned_holder(self, table: Table) -> str:
        return "stock"  # R-BRUSQ-2

    def after_trick(self, table: BrusqTable, deal: BrusqDeal, trick) -> None:
        n = len(table.players)
        if deal.stock > 0:  # everyone draws one card, the winner first
            deal.stock -= n
            after, seat = self.turned_draw(table)
            if not deal.turned_drawn and len(deal.tricks) == after:
                deal.known[deal.trump] = (trick.winner + seat) % n
                deal.turned_drawn = True
        players = [trick.player_of(i, n) for i in range(n)]
        number = len(deal.tricks)
        for move in movements_of(trick.cards, players, trick.winner, deal.trump_suit, table.side_of, table.sides):
            move["trick"] = number
            self.move_jetons(table, deal, move)

    @staticmethod
    def move_jetons(table: BrusqTable, deal: BrusqDeal, move: dict) -> None:
        """R-BRUSQ-4: the deal's and the evening's balances, as each trick is won (or as the numbers say)."""
        sign = 1 if move["kind"] == "won" else -1
        for balance in (deal.jetons, table.jetons):
            balance[move["player"]] += sign * move["jetons"] * len(move["opponents"])
            for other in move["opponents"]:
                balance[other] -= sign * move["jetons"]
        deal.movements.append(move)

    # --- a deal without its tricks: piles or numbers ------------------------------------------------------
    def capture_extras(self, table: BrusqTable, deal: BrusqDeal, event) -> None:
        if event.extras is not None:
            deal.with_piles = (deal.with_piles or []) + list(event.extras)

    def verify_captures(self, table: BrusqTable, deal: BrusqDeal, event) -> None:
        if deal.with_piles is not None:  # R-COMMON-6: the brusquembilles entered with the piles
            given = tuple(deal.with_piles)
            numbers.verify(self, table, deal, given, [self.points_in(p) for p in deal.captures], deal.captures)
            for move in numbers.movements(self, table, deal, given):
                self.move_jetons(table, deal, move)

    def on_tally(self, table: BrusqTable, event: ev.Tally) -> None:
        deal = open_for_tally(self, table)
        verify_points(self, table, deal, event.points, "R-BRUSQ-3")
        numbers.verify(self, table, deal, event.extras, list(event.points), None)
        for move in numbers.movements(self, table, deal, event.extras):
            self.move_jetons(table, deal, move)
        close(self, table, deal, event.points, {"points": list(event.points),
                                                "brusquembilles": numbers.as_entered(event.extras)})

    # --- scoring and series (R-BRUSQ-3, 5) ----------------------------------------------------------------
    def finish_deal(self, table: BrusqTable, deal: BrusqDeal) -> None:
        assert sum(deal.card_points) == 120, deal.card_points
        deal.complete = True
        if deal.captures is not None and deal.with_piles is None:  # R-COMMON-6: piles alone do not say who
            deal.flags.append(Flag("captured_entry", None, None, msg(  # played each ace and ten
                "Entered as captured piles without the brusquembilles: no jeton moved in this deal."), "R-COMMON-6"))
        table.totals = [t + p for t, p in zip(table.totals, deal.card_points)]
        target = table.options["target_points"]
        if (target and max(table.totals) >= target) or (not target and len(table.deals) >= table.options["deals"]):
            best = max(table.totals)
            leaders = [s for s, t in enumerate(table.totals) if t == best]
            table.finished, table.winner = True, leaders[0] if len(leaders) == 1 else None

    # --- output -------------------------------------------------------------------------------------------

    def deal_statistics(self, state: dict, deal: dict):
        """One complete deal's jetons (R-BRUSQ-4), from its movements: what each player received and what he paid.
        An ace or a ten won earns its player its jetons from each opponent (each of them pays them); one coupé costs
        its player its jetons to each opponent (each of them receives them). A deal entered by its numbers, or by
        its piles with the brusquembilles, counts the outcomes entered; piles without them moved no jeton."""
        for move in deal.get("movements") or ():
            each, opponents = move["jetons"], move["opponents"]
            won, lost = ("jetons_won", "jetons_lost") if move["kind"] == "won" else ("jetons_lost", "jetons_won")
            yield [move["player"]], won, each * len(opponents)
            yield opponents, lost, each

    def serialise(self, table: BrusqTable) -> dict:
        state = super().serialise(table)
        value = table.options["jeton_value"]
        state["jetons"] = list(table.jetons)
        state["money"] = [j * value for j in table.jetons]
        state["settlement"] = [{"from": a, "to": b, "jetons": j, "amount": j * value} for a, b, j in
                               settle(table.jetons)]
        state["series"].update(target_points=table.options["target_points"] or None,
                               deals=None if table.options["target_points"] else table.options["deals"])
        return state

    def planned_deals(self, state: dict) -> int:
        """So many deals, unless the series runs to a target of points."""
        return 0 if state["series"]["target_points"] else state["series"]["deals"]

    def standing(self, table: BrusqTable) -> dict:
        """R-BRUSQ-5: card points, the highest leads, equal highest totals share the series; the jetons beside them,
        per side (R-BRUSQ-4)."""
        target = table.options["target_points"]
        best = max(table.totals)
        return standing("points", toward(target), table.totals, "R-BRUSQ-5",
                        finished=table.finished, winners=[s for s, t in enumerate(table.totals) if t == best],
                        beside=[measure("jetons", JETON_WORD, [sum(table.jetons[p] for p in side) for side in
                                                               table.sides], "R-BRUSQ-4")])

    def deal_fields(self, table: BrusqTable, deal: BrusqDeal) -> dict:
        return {"stock": deal.stock, "jetons": list(deal.jetons), "movements": deal.movements}
