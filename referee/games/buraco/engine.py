"""Buraco (Uruguay / Italy): seed 002, rulings R-BURACO-1 … 7. Not a trick game: sides lay melds, take their pot,
and the hand is counted when someone closes or the stock runs out.

Melds are checked as they are laid (the app referees a dispute at the table) or all at once at the count. With 3 or
5 players the sides are the players until one goes to the pot: he takes the 18-card pot and the others become one
team with pooled melds (R-BURACO-1b). A hand may also be entered by its numbers, as the table writes them on paper
(the ``tally`` event, tally.py); it is scored by the same ``score``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from referee.cards import BURACO_108
from referee.errors import ParseError, RuleError, msg
from referee.games.base import Game, Table, register
from referee.games.buraco import printed
from referee.games.buraco.declared import EVENT_EXAMPLES, EVENT_FIELDS
from referee.games.buraco.entries import parse_count, parse_extend, parse_meld, parse_pot, parse_replace
from referee.games.buraco.melds import BONUS, card_value, copies_taken, read_meld, third_copy
from referee.games.buraco.tally import (STATISTICS, STEP, VALUES, hand_statistics, parse_tally, sheet_tally,
                                       tally_hand)
from referee.games.events import parse_deal
from referee.games.options import Option
from referee.games.standing import standing, toward
from referee.words import Words, said

CLOSING, NO_POT = 100, 100  # R-BURACO-5


def _both(fr: str, en: str) -> Words:
    return said(fr, en)


@dataclass
class Hand:
    number: int
    dealer: int
    teams: list  # player lists: the sides, or for 3 or 5 players the teams of this hand
    melds: dict = field(default_factory=dict)  # team index -> [Meld]
    pots: dict = field(default_factory=dict)  # team index -> "11" or "18"
    lone: int | None = None  # R-BURACO-1b: the player who took the 18-card pot
    complete: bool = False
    closed_by: int | None = None
    left: list = field(default_factory=list)  # cards left per player at the count
    breakdown: list = field(default_factory=list)  # per team
    points: list = field(default_factory=list)  # per side (per player with 3 or 5)
    tally: dict | None = None  # the numbers as entered, when the hand was entered by its numbers (tally.py)

    @property
    def entry(self) -> str:
        """How the hand was entered: "melds" (melds, pots and the count) or "tally" (by its numbers)."""
        return "tally" if self.tally is not None else "melds"

    def team_of(self, player: int) -> int:
        return next(t for t, members in enumerate(self.teams) if player in members)


@register
class Buraco(Game):
    id = "buraco"
    names = _both("Buraco", "Buraco")
    event_fields, event_examples = EVENT_FIELDS, EVENT_EXAMPLES  # as the API's document declares them
    origin = _both("Uruguay, Italie", "Uruguay, Italy")
    flag = "uy"
    description = _both("Jeu de combinaisons à deux jeux : suites, séries, burracos et puits, jusqu'à 2005.",
                        "Rummy with two decks: runs, sets, burracos and pots, played to 2005.")
    direction = _both("sens inverse des aiguilles d'une montre", "counter-clockwise")
    deal_word = "hand"  # a deal is a hand (manche, R-BURACO-6)
    trick_entry = "melds"  # the trick mode lays melds (R-BURACO-3)
    numbers_fields = "melds"  # R-BURACO-4, 6: per side its melds and its cards in hand
    entry_modes = ("trick", "numbers")  # melds as laid, or the hand's numbers (R-COMMON-6)
    points_rule = "R-BURACO-4"
    # on paper (printed.py): the rule summary's part, the score sheet and its blank rows
    printed_summary, printed_sheet, blank_rows = printed.summary, printed.sheet, 10
    printed_extent, printed_room = printed.extent, printed.room  # a column per side
    numbers_tally = sheet_tally  # melds, burracos, pots and hands per side

    def numbers_bounds(self, table: Table) -> dict:
        """The card points of the two decks, every card a multiple of 5 (R-BURACO-4)."""
        return {"most": sum(VALUES), "total": sum(VALUES), "step": STEP, "rule": self.points_rule}
    round_unit = "hands"  # a tournament round: so many hands (R-BURACO-6)
    scored_by_vp_table = True  # the round's MP difference gives VP from a table (referee/tournament/scoring.py)
    tournament_first = True  # the tournament form's game until one is chosen
    player_range = (2, 5)
    options = (
        Option("target", "int", 2005, _both("Points qui terminent la série.", "Points that end the series."),
               rule="R-BURACO-6", label=_both("Points de fin de série", "Points that end the series")),
        Option("low_ace_counts_5", "bool", True, _both(
            "Un as posé en bas d'une suite (A-2-3) vaut 5.", "An ace laid low in a run (A-2-3) counts 5."),
            rule="R-BURACO-4", label=_both("As bas (A-2-3) à 5 points", "Low ace (A-2-3) counts 5")),
        Option("hands", "int", 0, _both(
            "Nombre de manches d'un tour de tournoi (0 : jusqu'aux points de fin de série).",
            "Hands in a tournament round (0: play to the points that end the series)."), rule="R-BURACO-6",
            label=_both("Manches par tour", "Hands per round"), words={0: _both("jusqu'aux points de fin de série",
                                                                               "to the points that end the series")}),
    )

    events = {"deal": parse_deal, "meld": parse_meld, "extend": parse_extend, "replace": parse_replace,
              "pot": parse_pot, "count": parse_count, "tally": parse_tally}
    statistics = STATISTICS  # burracos by class, hands closed (R-BURACO-3, 5; tally.py)
    deal_statistics = staticmethod(hand_statistics)

    def check_options(self, options: dict, n_players: int) -> None:
        if options["hands"] < 0:
            raise ParseError("bad_option", "Option {option} must be 0 or more.", option="hands")

    def sides(self, n_players: int, options: dict) -> list:
        if n_players == 4:
            return [[0, 2], [1, 3]]  # R-BURACO-1, R-COMMON-3
        return [[p] for p in range(n_players)]

    def deck_for(self, table: Table):
        return BURACO_108  # R-BURACO-1

    # --- the hand -----------------------------------------------------------------------------------------
    def on_deal(self, table: Table, event) -> None:
        if table.current is not None and not table.current.complete:
            raise RuleError("deal_in_progress", "Hand {number} is not counted yet.", rule="R-COMMON-2",
                            number=table.current.number)
        dealer = self.next_dealer(table) if event.dealer is None else event.dealer
        table.deals.append(Hand(len(table.deals) + 1, dealer, [list(s) for s in table.sides]))

    def entered(self, hand: Hand) -> bool:
        return bool(hand.melds or hand.pots)  # a meld laid or a pot taken

    def open_hand(self, table: Table) -> Hand:
        hand = table.current
        if hand is None or hand.complete:
            raise RuleError("no_deal", "No hand is in progress: start the hand first.", rule="R-COMMON-2")
        return hand

    def team(self, table: Table, hand: Hand, side: int) -> int:
        """The team whose melds a side's entry goes to (with 3 or 5 players a side is a player)."""
        if not 0 <= side < len(table.sides):
            raise RuleError("bad_side", "There is no side {side}; sides are 0 to {last}.", rule="R-BURACO-1",
                            side=side, last=len(table.sides) - 1)
        return hand.team_of(table.sides[side][0])

    def check_copies(self, hand: Hand, cards: list) -> None:
        """Two decks: two of each card and four jokers. A third copy is refused (R-BURACO-1)."""
        for card, count in copies_taken(hand, cards).items():
            if count > BURACO_108.counts[card]:
                raise third_copy(card)

    def copies_left(self, table: Table, taken=()) -> dict:
        """R-BURACO-1: how many more of each card the two decks hold beside the open hand's melds and ``taken``."""
        counted = copies_taken(table.current, taken)
        return {card: n - counted[card] for card, n in BURACO_108.counts.items()}

    def verify_another_copy(self, table: Table, taken, card) -> None:
        """R-BURACO-1: one more ``card`` beside the hand's melds and ``taken`` (cards tapped, not stored yet)."""
        if self.copies_left(table, taken).get(card, 0) <= 0:
            raise third_copy(card)

    def on_meld(self, table: Table, event) -> None:
        hand = self.open_hand(table)
        team = self.team(table, hand, event.side)
        meld = read_meld(list(event.cards))
        self.check_copies(hand, meld.cards)
        hand.melds.setdefault(team, []).append(meld)

    def the_meld(self, table: Table, hand: Hand, event) -> tuple:
        team = self.team(table, hand, event.side)
        melds = hand.melds.get(team, [])
        if not 0 <= event.meld < len(melds):
            raise RuleError("no_such_meld", "This side has no meld {index} on the table.", rule="R-BURACO-7",
                            index=event.meld)
        return team, melds

    def on_extend(self, table: Table, event) -> None:
        hand = self.open_hand(table)
        team, melds = self.the_meld(table, hand, event)
        old = melds[event.meld]
        cards = list(event.cards) + list(old.cards) if event.at == "start" else list(old.cards) + list(event.cards)
        new = read_meld(cards)
        if new.kind != old.kind:
            raise RuleError("meld_mixed", "Extending a {kind} must keep it a {kind}.", rule="R-BURACO-2",
                            kind=old.kind)
        self.check_copies(hand, list(event.cards))
        melds[event.meld] = new

    def on_replace(self, table: Table, event) -> None:
        """R-BURACO-7: the natural card takes the wild card's place; the wild moves to the run's end."""
        hand = self.open_hand(table)
        team, melds = self.the_meld(table, hand, event)
        old = melds[event.meld]
        if old.kind != "run" or old.wild is None:
            raise RuleError("nothing_to_replace", "Only a run's wild card can be replaced by its natural card.",
                            rule="R-BURACO-7")
        if event.card != old.represents:
            raise RuleError("wrong_replacement", "The wild card stands for {wanted_card}, not {card}.",
                            rule="R-BURACO-7", card=event.card.code, wanted_card=old.represents.code)
        cards = list(old.cards)
        wild = cards[old.wild]
        cards[old.wild] = event.card
        for candidate in (cards + [wild], [wild] + cards):  # the far end first, else the near end
            try:
                new = read_meld(candidate)
            except RuleError:
                continue
            if new.kind == "run":
                break
        else:
            raise RuleError("wild_cannot_move", "The run is full: its wild card has no end to go to.",
                            rule="R-BURACO-7")
        self.check_copies(hand, [event.card])
        melds[event.meld] = new

    def on_pot(self, table: Table, event) -> None:
        """R-BURACO-1, 1b: a side takes its pot once; with 3 or 5 the first takes the 18 and the others team up."""
        hand = self.open_hand(table)
        player = table.sides[event.side][0] if 0 <= event.side < len(table.sides) else None
        team = self.team(table, hand, event.side)
        if team in hand.pots:
            raise RuleError("pot_twice", "This side already took its pot.", rule="R-BURACO-1")
        n = len(table.players)
        if n in (3, 5) and hand.lone is None:
            hand.lone = player
            others = [p for p in range(n) if p != player]
            pooled = [m for t, members in enumerate(hand.teams) if t != team for m in hand.melds.get(t, [])]
            hand.teams = [[player], others]
            hand.melds = {0: hand.melds.get(team, []), 1: pooled}
            hand.pots = {0: "18"}
            return
        hand.pots[team] = "11"

    # --- the count (R-BURACO-5, 6) ------------------------------------------------------------------------
    def on_count(self, table: Table, event) -> None:
        hand = self.open_hand(table)
        n = len(table.players)
        if len(event.hands) != n:
            raise RuleError("bad_count", "The count gives the cards left for each of the {n} players.",
                            rule="R-BURACO-6", n=n)
        for side, cards_list in enumerate(event.melds or []):
            team = self.team(table, hand, side)
            for cards in cards_list:
                meld = read_meld(list(cards))
                self.check_copies(hand, meld.cards)
                hand.melds.setdefault(team, []).append(meld)
        self.check_copies(hand, [c for cards in event.hands for c in cards])
        closer = event.closed_by
        if closer is not None:
            team = hand.team_of(closer)
            missing = []
            if team not in hand.pots:
                missing.append(msg("the pot"))
            if not any(m.burraco for m in hand.melds.get(team, [])):
                missing.append(msg("a burraco"))
            if event.hands[closer]:
                missing.append(msg("no card left"))
            if missing:
                raise RuleError("cannot_close", "{name} cannot close: missing {missing}.", rule="R-BURACO-5",
                                player=closer, name=table.players[closer], missing=", ".join(missing),
                                missing_items=missing)
        hand.closed_by, hand.left = closer, [list(cards) for cards in event.hands]
        low_ace = table.options["low_ace_counts_5"]
        self.score(table, hand, [(sum(m.value(low_ace) for m in hand.melds.get(t, [])),
                                  sum(BONUS[m.burraco] for m in hand.melds.get(t, []) if m.burraco),
                                  sum(card_value(c) for p in members for c in hand.left[p]))
                                 for t, members in enumerate(hand.teams)])

    def on_tally(self, table: Table, event) -> None:
        """A hand by its numbers (R-COMMON-5: every number checked); see tally.py."""
        tally_hand(self, table, event)

    def score(self, table: Table, hand: Hand, laid: list) -> None:
        """R-BURACO-6, the one place a hand is scored, counted or tallied: ``laid`` gives per team the card
        points melded, the burraco bonuses and the card points left in its players' hands."""
        hand.breakdown = []
        for t, members in enumerate(hand.teams):
            melds, bonuses, left = laid[t]
            parts = {"melds": melds, "burracos": bonuses, "hand": -left,
                     "closing": CLOSING if hand.closed_by in members else 0,
                     "pot": 0 if t in hand.pots else -NO_POT}
            hand.breakdown.append(parts)
        team_points = [sum(parts.values()) for parts in hand.breakdown]
        if len(table.players) in (3, 5):  # R-BURACO-1b: per player; a team's points shared, rounded up
            hand.points = [team_points[hand.team_of(p)] if len(hand.teams[hand.team_of(p)]) == 1 else
                           math.ceil(team_points[hand.team_of(p)] / len(hand.teams[hand.team_of(p)]))
                           for p in range(len(table.players))]
        else:
            hand.points = team_points
        hand.complete = True
        table.totals = [t + p for t, p in zip(table.totals, hand.points)]
        rounds = table.options["hands"]  # R-BURACO-6, tournament round: so many hands, the target does not count
        if (rounds and hand.number >= rounds) or (not rounds and max(table.totals) >= table.options["target"]):
            best = max(table.totals)  # R-BURACO-6: the higher total wins; equal totals, no winner
            leaders = [s for s, t in enumerate(table.totals) if t == best]
            table.finished, table.winner = True, leaders[0] if len(leaders) == 1 else None

    # --- output -------------------------------------------------------------------------------------------
    def turned_card(self, table: Table) -> str:
        return "none"

    def next_action(self, table: Table) -> dict:
        if table.finished:
            return {"action": "none", "player": None}
        hand = table.current
        if hand is None or hand.complete:
            return {"action": "deal", "player": self.next_dealer(table)}
        return {"action": "meld", "player": None}

    def possible(self, table: Table) -> list:
        hand = table.current
        if table.finished:
            return []
        if hand is None or hand.complete:
            return ["deal"]
        return ["meld", "extend", "replace", "pot", "count"] + ([] if hand.melds or hand.pots else ["tally"])

    def planned_deals(self, state: dict) -> int:
        """R-BURACO-6: a tournament's round of so many hands."""
        return state["options"]["hands"]

    def points_target(self, state: dict) -> int | None:
        """R-BURACO-6: the target that ends the series, unless it is a round of so many hands."""
        return None if state["options"]["hands"] else state["options"]["target"]

    def series_word(self, state: dict) -> str:
        return "round" if state["options"]["hands"] else "target"  # R-BURACO-6

    def standing(self, table: Table) -> dict:
        """R-BURACO-6: the totals toward the target (or over a round of so many hands), the higher leads; equal
        totals at the end have no winner."""
        target = 0 if table.options["hands"] else table.options["target"]
        return standing("points", toward(target), table.totals, "R-BURACO-6", finished=table.finished,
                        winners=[table.winner])

    def serialise_deal(self, table: Table, hand: Hand) -> dict:
        low_ace = table.options["low_ace_counts_5"]
        doc = {"number": hand.number, "dealer": hand.dealer, "trump": None, "complete": hand.complete,
               "tricks": [], "points": list(hand.points) or [0] * len(table.sides), "flags": [],
               "melds": {str(t): [m.to_dict(low_ace) for m in melds] for t, melds in hand.melds.items()},
               "pots": {str(t): pot for t, pot in hand.pots.items()}, "closed_by": hand.closed_by,
               "entry": hand.entry, "tally": hand.tally,
               "teams": [{"players": members, "breakdown": hand.breakdown[t] if hand.breakdown else None,
                          "points": sum(hand.breakdown[t].values()) if hand.breakdown else None}
                         for t, members in enumerate(hand.teams)]}
        doc["breakdown"] = [doc["teams"][hand.team_of(side[0])]["breakdown"] for side in table.sides] \
            if hand.breakdown else None
        return doc
