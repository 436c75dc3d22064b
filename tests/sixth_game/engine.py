"""Duel, a sixth game that lives only under tests/ (issue 39): a two-player trick game with a deck of its own, made to
show that a game is one folder. Its rulings are the test's own, R-TEST-1 … 4:

- R-TEST-1: twelve cards, ace, king, queen and jack of spades, hearts and diamonds (no clubs); strength ace > king >
  queen > jack in every suit; the ace takes 4 card points, the king 3, the queen 2, the jack 1: 30 in a deal.
- R-TEST-2: two players, six cards each, the whole deck dealt; the dealer's last card is turned for trump and stays
  in his hand (R-COMMON-4: it is known to be his).
- R-TEST-3: no obligation to follow suit; the highest trump wins the trick, else the highest card of the suit led
  (R-COMMON-2: the player after the dealer leads, the winner of a trick leads the next).
- R-TEST-4: a series is so many deals (the ``deals`` option, what a tournament round sets); the highest total of card
  points wins it, equal highest totals share it. A deal is won by the player who took more than half its points.

It is registered by no import: the fixture ``sixth_game`` (tests/test_sixth_game.py) calls
``referee.games.add_game(Duel)`` before the app is made, and the undo it returns after.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Deck
from referee.errors import ParseError, RuleError
from referee.games import events as ev
from referee.games.base import Table
from referee.games.options import Option
from referee.games.standing import POINTS as POINT_WORD, standing
from referee.games.statistics import Stat
from referee.games.tally import close, open_for_tally, verify_points
from referee.games.tricks import TrickDeal, TrickGame
from referee.words import said
from tests.sixth_game import printed
from tests.sixth_game.cards import DEAL_POINTS, DECK, POINTS, STRENGTH
from tests.sixth_game.declared import EVENT_EXAMPLES, EVENT_FIELDS

DEALS_WON = said("donnes gagnées", "deals won")


@dataclass
class DuelDeal(TrickDeal):
    winner: int | None = None  # R-TEST-4: who took more than half the deal's points (None: 15–15)


def parse_tally(game, table, data) -> ev.Tally:
    """A deal by its numbers: each side's card points (R-TEST-1), nothing else."""
    return ev.Tally(ev.read_numbers(data, "points", len(table.sides), "side"))


class Duel(TrickGame):
    id = "duel"
    names = said("Duel", "Duel")
    origin = said("Tests de Referee", "Referee's tests")
    flag = ""
    description = said("Jeu de plis à deux avec un jeu de 12 cartes à lui.",
                       "A two-player trick game with a 12-card deck of its own.")
    direction = said("sens des aiguilles d'une montre", "clockwise")
    event_fields, event_examples = EVENT_FIELDS, EVENT_EXAMPLES  # as the API's document declares them
    points_rule = "R-TEST-1"
    round_unit = "deals"  # a tournament round: so many deals (R-TEST-4)
    player_range = (2, 2)  # R-TEST-2
    strength = STRENGTH
    points = POINTS
    options = (
        Option("deals", "int", 2, said("Nombre de donnes de la série.", "Deals in the series."), rule="R-TEST-4",
               label=said("Nombre de donnes", "Number of deals")),
    )
    events = {"deal": ev.parse_deal, "trick": ev.parse_trick, "capture": ev.parse_capture, "tally": parse_tally}
    statistics = (Stat("deals_won", DEALS_WON, "R-TEST-4"),)
    # On paper (the printed pages ask these of every game): printed.py and templates/_sheet_print_duel.html.
    printed_summary, printed_sheet = printed.summary, printed.sheet
    blank_rows, blank_sides = printed.BLANK_ROWS, 2

    def check_options(self, options: dict, n_players: int) -> None:
        if not 1 <= options["deals"] <= 30:
            raise ParseError("bad_option", "Option {option} must be 1 or more.", option="deals")

    def deck_for(self, table: Table) -> Deck:
        return DECK  # R-TEST-1

    def turned_holder(self, table: Table) -> str:
        return "dealer"  # R-TEST-2

    def on_deal(self, table: Table, event: ev.Deal) -> None:
        self.verify_new_deal(table)
        if event.trump is None:
            raise RuleError("bad_event", "A deal starts with the card turned for trump.", rule="R-TEST-2")
        dealer = self.next_dealer(table) if event.dealer is None else event.dealer
        deal = DuelDeal(len(table.deals) + 1, dealer, 2, event.trump, event.trump.suit, card_points=[0, 0])
        deal.known[event.trump] = dealer  # R-TEST-2: the turned card stays in the dealer's hand
        table.deals.append(deal)

    def on_tally(self, table: Table, event: ev.Tally) -> None:
        deal = open_for_tally(self, table)
        verify_points(self, table, deal, event.points, "R-TEST-1")
        close(self, table, deal, event.points, {"points": list(event.points)})

    def finish_deal(self, table: Table, deal: DuelDeal) -> None:
        """R-TEST-4: the deal's points to the totals; the series ends after its deals, the highest total winning."""
        assert sum(deal.card_points) == DEAL_POINTS, deal.card_points
        deal.complete = True
        high = max(deal.card_points)
        deal.winner = deal.card_points.index(high) if 2 * high > DEAL_POINTS else None
        table.totals = [t + p for t, p in zip(table.totals, deal.card_points)]
        if len(table.deals) >= table.options["deals"]:
            best = max(table.totals)
            leaders = [s for s, t in enumerate(table.totals) if t == best]
            table.finished, table.winner = True, leaders[0] if len(leaders) == 1 else None

    def deal_fields(self, table: Table, deal: DuelDeal) -> dict:
        return {"winner": deal.winner}

    def deal_statistics(self, state: dict, deal: dict):
        """R-TEST-4: a deal won counts for its player."""
        if deal.get("winner") is not None:
            yield [deal["winner"]], "deals_won", 1

    def serialise(self, table: Table) -> dict:
        state = super().serialise(table)
        state["series"]["deals"] = table.options["deals"]
        return state

    def planned_deals(self, state: dict) -> int:
        return state["options"]["deals"]  # R-TEST-4

    def series_word(self, state: dict) -> str:
        return "highest"  # R-TEST-4: the highest total after so many deals

    def standing(self, table: Table) -> dict:
        """R-TEST-4: card points, the highest leads; equal highest totals share the series."""
        best = max(table.totals)
        return standing("points", POINT_WORD, table.totals, "R-TEST-4", finished=table.finished,
                        winners=[s for s, t in enumerate(table.totals) if t == best])
