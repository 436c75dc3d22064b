"""Brisca (Spain / Catalonia): seed 001, rulings R-BRISCA-1 … 9.

The turned card lies under the stock and is drawn last (R-BRISCA-2); the app follows the stock's size trick by
trick, so it knows when the exchange (R-BRISCA-4) and the claim (R-BRISCA-5) are possible and who drew the turned
card. There is no obligation to follow (R-BRISCA-3), so Brisca raises no revoke flags.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import SPANISH_40, SPANISH_48, Card
from referee.errors import RuleError, msg
from referee.games import events as ev
from referee.games.base import Table, register
from referee.games.brisca import printed
from referee.games.brisca.declared import EVENT_EXAMPLES, EVENT_FIELDS
from referee.games.brisca.score import STATISTICS, deal_outcome, deal_statistics, series_result
from referee.games.options import Option
from referee.games.standing import CARD_POINTS, DEALS_WON, ON_POINTS, measure, standing
from referee.games.tally import close, open_for_tally, typed_points, verify_points
from referee.games.trick_deal import TrickDeal
from referee.games.tricks import TrickGame
from referee.words import Words, said

# R-BRISCA-1: strength high to low, and card points (120 in a deal).
STRENGTH_ORDER = ("1", "3", "12", "11", "10", "9", "8", "7", "6", "5", "4", "2")
STRENGTH = {rank: len(STRENGTH_ORDER) - i for i, rank in enumerate(STRENGTH_ORDER)}
POINTS = {"1": 11, "3": 10, "12": 4, "11": 3, "10": 2}
DEAL_POINTS = 120
HAND_SIZE = 3
# R-BRISCA-7: the trump suits in turn (oros/focs, copas/porrons, espadas/falçs, bastos/bolets).
ROTATION = ("O", "C", "E", "B")
# R-BRISCA-4: which card of trump is exchanged for the turned card, by the turned card's rank.
SEVEN_TAKES = ("1", "3", "12", "11", "10", "9", "8")
TWO_TAKES = ("4", "5", "6", "7")


@dataclass
class BriscaTable(Table):
    wins: list = field(default_factory=list)
    counted: int = 0  # deals that counted (R-BRISCA-6 `replay` does not count a 60–60 deal)


@dataclass
class BriscaDeal(TrickDeal):
    stock: int = 0  # cards left to draw, the turned card included
    bottom: Card | None = None  # the card under the stock, drawn last: the turned card, or the one exchanged for it
    exchange: dict | None = None
    claim: dict | None = None
    last_trick_side: int | None = None
    outcome: dict | None = None


def _both(fr: str, en: str) -> Words:
    return said(fr, en)


@register
class Brisca(TrickGame):
    id = "brisca"
    names = _both("Brisca", "Brisca")
    board_parts = True  # its board draws the open deal's parts alone (board_part "open", _board_brisca.html)
    event_fields, event_examples = EVENT_FIELDS, EVENT_EXAMPLES  # as the API's document declares them
    origin = _both("Espagne, Catalogne", "Spain, Catalonia")
    flag = "es"  # static/flags/es.svg
    description = _both("Jeu de plis espagnol à 40 cartes avec une pioche ; l'as et le trois valent le plus.",
                        "Spanish 40-card trick game with a drawing stock; aces and threes count most.")
    direction = _both("sens inverse des aiguilles d'une montre", "counter-clockwise")
    points_rule = "R-BRISCA-1"  # the card values
    # on paper (printed.py): the rule summary's part, the score sheet and its blank rows
    printed_summary, printed_sheet, blank_rows = printed.summary, printed.sheet, 16
    player_range = (2, 6)
    hand_limit = HAND_SIZE  # R-BRISCA-2: three cards in hand while the stock lasts
    stock_refusal = msg("{card} lies under the stock and is drawn last: nobody can play it yet.")
    strength = STRENGTH
    points = POINTS
    options = (
        Option("tie_rule", "choice", "draw", _both(
            "À 60–60 : nul, gagné par le dernier pli, ou donne rejouée.",
            "At 60–60: a draw, won by the last trick, or the deal is replayed."),
            ("draw", "last_trick", "replay"), "R-BRISCA-6", label=_both("À 60–60", "At 60–60"),
            words={"draw": _both("partie nulle", "draw"), "last_trick": _both("au dernier pli", "to the last trick"),
                   "replay": _both("donne rejouée", "deal replayed")}),
        Option("double_over_100", "bool", False, _both(
            "Une victoire à plus de 100 points compte double.", "A win with more than 100 points counts as two."),
            rule="R-BRISCA-6", label=_both("Victoire double au-delà de 100", "Double win over 100")),
        Option("wins_needed", "int", 3, _both(
            "Nombre de parties gagnées pour remporter la série.", "Deal wins that take the series."),
            (3, 5, 7), "R-BRISCA-6", label=_both("Parties gagnées pour la série", "Deal wins for the series")),
        Option("trump_rotation", "bool", False, _both(
            "Quatre donnes, atout fixé tour à tour : oros, copas, espadas, bastos.",
            "Four deals, trump fixed in turn: oros, copas, espadas, bastos."), rule="R-BRISCA-7",
            label=_both("Atout tournant, en quatre donnes", "Trump in turn, over four deals")),
        Option("mexican_11", "bool", False, _both(
            "Règle mexicaine : gagne le camp qui ne fait pas plus de 11 points.",
            "Mexican rule: the side taking no more than 11 points wins."), rule="R-BRISCA-8",
            label=_both("Règle mexicaine : 11 points ou moins", "Mexican rule: 11 points or fewer")),
        Option("exchange_requires", "choice", "player", _both(
            "Pour échanger l'atout retourné, il faut avoir gagné un pli : soi-même, son camp, ou rien.",
            "To exchange the turned trump one must have won a trick: oneself, one's side, or nothing."),
            ("player", "side", "nothing"), "R-BRISCA-4", label=_both("Échange de l'atout retourné",
                                                                    "Exchanging the turned trump"),
            words={"player": _both("après un pli gagné par le joueur", "after a trick won by the player"),
                   "side": _both("après un pli gagné par son camp", "after a trick won by the side"),
                   "nothing": _both("même sans pli gagné", "even before winning a trick")}),
    )
    events = {"deal": ev.parse_deal, "trick": ev.parse_trick, "capture": ev.parse_capture,
              "exchange": ev.parse_exchange, "claim": ev.parse_claim, "tally": ev.parse_points_tally}
    statistics = STATISTICS  # deals won and 60–60s (R-BRISCA-6, score.py)
    deal_statistics = staticmethod(deal_statistics)

    def player_counts(self) -> tuple:
        return (2, 4, 6)  # R-BRISCA-2

    def sides(self, n_players: int, options: dict) -> list:
        # R-BRISCA-2, R-COMMON-3: alone at 2, partners opposite at 4 and 6.
        return [list(range(s, n_players, 2)) for s in range(2)]

    def make_table(self, players, options, dealer) -> BriscaTable:
        return BriscaTable(self.id, players, self.sides(len(players), options), options, dealer, wins=[0, 0])

    def deck_for(self, table: Table):
        return SPANISH_48 if len(table.players) == 6 else SPANISH_40  # R-BRISCA-1

    def turned_card(self, table: Table) -> str:
        return "optional" if table.options["trump_rotation"] else "required"

    def fixed_trump(self, table: BriscaTable) -> str | None:
        return ROTATION[table.counted % 4] if table.options["trump_rotation"] else None

    # --- deal ---------------------------------------------------------------------------------------------
    def on_deal(self, table: BriscaTable, event: ev.Deal) -> None:
        self.verify_new_deal(table)
        fixed = self.fixed_trump(table)
        if event.trump is None and fixed is None:
            raise RuleError("bad_event", "A Brisca deal starts with the turned trump card.", rule="R-BRISCA-2")
        n = len(table.players)
        deck = self.deck_for(table)
        deal = BriscaDeal(len(table.deals) + 1, self.next_dealer(table) if event.dealer is None else event.dealer,
                          n, event.trump, fixed or event.trump.suit, card_points=[0, 0],
                          stock=deck.size - HAND_SIZE * n, bottom=event.trump)
        table.deals.append(deal)

    def turned_draw(self, table: Table) -> tuple:
        """R-BRISCA-2: the card under the stock is the last drawn, once every hand is refilled for the last time
        (after trick 7 of 10 at four), by the player before that trick's winner."""
        return self.deck_for(table).size // len(table.players) - HAND_SIZE, -1

    def verify_play(self, table, deal: BriscaDeal, player, card, number, before) -> None:
        if card == self.under_stock(deal):
            raise RuleError("card_under_stock", self.stock_refusal, rule="R-BRISCA-2", card=card.code, player=player)

    def under_stock(self, deal: BriscaDeal) -> Card | None:
        return deal.bottom if deal.stock > 0 else None  # R-BRISCA-2: under the stock, drawn last

    def turned_holder(self, table: Table) -> str:
        return "stock"  # R-BRISCA-2

    def after_trick(self, table, deal: BriscaDeal, trick) -> None:
        n = len(table.players)
        if deal.stock > 0:  # R-BRISCA-2: everyone draws one card, the winner first
            deal.stock -= n
            after, seat = self.turned_draw(table)
            if len(deal.tricks) == after and deal.bottom is not None:  # the card under the stock, drawn last
                deal.known[deal.bottom] = (trick.winner + seat) % n
        deal.last_trick_side = table.side_of(trick.winner)

    # --- exchange (R-BRISCA-4) ----------------------------------------------------------------------------
    def exchange_card(self, deal: BriscaDeal, player: int, offered: Card | None) -> Card:
        """The 7 or 2 of trump that ``player`` gives for the card under the stock, or a refusal saying why."""
        if deal.exchange is not None:
            raise RuleError("exchange_twice", "The turned card was already exchanged in this deal: only once per "
                            "deal.", rule="R-BRISCA-4", player=player)
        if deal.stock == 0 or deal.bottom is None:
            raise RuleError("exchange_too_late", "The stock is empty: the exchange had to come before the last "
                            "draw.", rule="R-BRISCA-4", player=player)
        turned = deal.bottom
        if turned.suit != deal.trump_suit:
            raise RuleError("exchange_impossible", "The turned card {card} is not a trump this deal.",
                            rule="R-BRISCA-4", card=turned.code, player=player)
        if turned.rank in SEVEN_TAKES:
            wanted = Card("7", deal.trump_suit, True)
        elif turned.rank in TWO_TAKES:
            wanted = Card("2", deal.trump_suit, True)
        else:
            raise RuleError("exchange_impossible", "The turned card is {card}: nothing can be exchanged for the 2.",
                            rule="R-BRISCA-4", card=turned.code, player=player)
        if offered is not None and offered != wanted:
            if offered.rank == "7" and offered.suit == deal.trump_suit:
                why = msg("The turned card {turned_card} does not outrank the 7: only the 2 of trump takes it.")
            elif offered.rank == "2" and offered.suit == deal.trump_suit:
                why = msg("The turned card {turned_card} outranks the 7: it is taken with the 7 of trump, not the 2.")
            else:
                why = msg("Only the 7 or the 2 of trump is exchanged, not {card}.")
            raise RuleError("exchange_wrong_card", why, rule="R-BRISCA-4", card=offered.code, player=player,
                            turned_card=turned.code)
        return wanted

    def verify_exchange(self, table: BriscaTable, event: ev.Exchange) -> Card:
        deal = self.open_deal(table)
        player = event.player
        wanted = self.exchange_card(deal, player, event.card)
        if wanted in deal.played:
            raise RuleError("card_already_played", "{card} was already played: nobody holds it to exchange.",
                            rule="R-BRISCA-4", card=wanted.code, player=player)
        holder = deal.known.get(wanted)
        if holder is not None and holder != player:
            raise RuleError("card_in_other_hand", "{card} is known to be in {holder}'s hand.", rule="R-BRISCA-4",
                            card=wanted.code, player=player, holder=table.players[holder])
        need = table.options["exchange_requires"]
        winners = {t.winner for t in deal.tricks}
        if need == "side":
            winners = {p for w in winners for p in table.sides[table.side_of(w)]}
        if need != "nothing" and player not in winners:
            why = (msg("{name} cannot exchange yet: their side has not won a trick in this deal.") if need == "side"
                   else msg("{name} cannot exchange yet: they have not won a trick in this deal."))
            raise RuleError("exchange_needs_trick", why, rule="R-BRISCA-4", player=player,
                            name=table.players[player])
        return wanted

    def can_exchange(self, table: BriscaTable, player: int) -> bool:
        try:
            self.verify_exchange(table, ev.Exchange(player))
        except RuleError:
            return False
        return True

    def on_exchange(self, table: BriscaTable, event: ev.Exchange) -> None:
        wanted = self.verify_exchange(table, event)
        deal = table.current
        deal.exchange = {"player": event.player, "gave": wanted.code, "took": deal.bottom.code,
                         "after_trick": len(deal.tricks)}
        deal.known[deal.bottom] = event.player  # the app now knows who holds the old turned card
        deal.known.pop(wanted, None)
        deal.bottom = wanted

    # --- claim (R-BRISCA-5) -------------------------------------------------------------------------------
    def verify_claim(self, table: BriscaTable, event: ev.Claim) -> list:
        deal = self.open_for_tricks(table)
        player = event.player
        if deal.stock > 0:
            raise RuleError("claim_too_early", "A claim comes only once the stock is empty.", rule="R-BRISCA-5",
                            player=player)
        left = self.tricks_per_deal(table, deal) - len(deal.tricks)
        if left not in (2, 3):
            raise RuleError("claim_wrong_time", "A claim is made with three or two cards in each hand; each hand "
                            "holds {left} now.", rule="R-BRISCA-5", player=player, left=left)
        if len(event.cards) != left or len(set(event.cards)) != left:
            raise RuleError("claim_wrong_count", "With {left} cards in each hand the claim shows the {left} highest "
                            "trumps still out, not {count} cards.", rule="R-BRISCA-5", player=player, left=left,
                            count=len(event.cards))
        side = table.side_of(player)
        for card in event.cards:
            if card.suit != deal.trump_suit:
                raise RuleError("claim_not_trump", "{card} is not a trump.", rule="R-BRISCA-5",
                                card=card.code, player=player)
            if card in deal.played:
                raise RuleError("card_already_played", "{card} was already played.", rule="R-BRISCA-5",
                                card=card.code, player=player)
            holder = deal.known.get(card)
            if holder is not None and table.side_of(holder) != side:
                raise RuleError("card_in_other_hand", "{card} is known to be in {holder}'s hand.", rule="R-BRISCA-5",
                                card=card.code, player=player, holder=table.players[holder])
        out = deal.cards_out(self.deck_for(table))
        trumps = sorted((c for c in out if c.suit == deal.trump_suit), key=lambda c: -STRENGTH[c.rank])
        for card in trumps[:left]:
            if card not in event.cards:
                raise RuleError("claim_not_highest", "{card} is a higher trump still out: the claim must show the "
                                "{left} highest trumps.", rule="R-BRISCA-5", card=card.code, player=player, left=left)
        return out

    def on_claim(self, table: BriscaTable, event: ev.Claim) -> None:
        out = self.verify_claim(table, event)
        deal = table.current
        side = table.side_of(event.player)
        points = self.points_in(out)
        deal.claim = {"player": event.player, "side": side, "cards": [c.code for c in event.cards],
                      "taken": [c.code for c in out], "points": points}
        deal.card_points[side] += points
        deal.played.update(out)
        deal.last_trick_side = side
        self.finish_deal(table, deal)

    # --- captured cards -----------------------------------------------------------------------------------
    def verify_captures(self, table, deal: BriscaDeal, event: ev.Capture) -> None:
        if event.last_trick is not None:
            deal.last_trick_side = event.side if event.last_trick else 1 - event.side
        self.need_last_trick(table, [self.points_in(pile) for pile in deal.captures], deal.last_trick_side)

    # --- a deal by its numbers ----------------------------------------------------------------------------
    def on_tally(self, table: BriscaTable, event: ev.Tally) -> None:
        deal = open_for_tally(self, table)
        verify_points(self, table, deal, event.points, "R-BRISCA-1")
        self.need_last_trick(table, list(event.points), event.last_trick)
        deal.last_trick_side = event.last_trick
        close(self, table, deal, event.points, {"points": list(event.points), "last_trick": event.last_trick})

    def numbers_tally(self, sheet, whole: int | None, table) -> dict:
        """The numbers sheet's card points and the side that took the last trick (R-BRISCA-6's ``last_trick``)."""
        last = sheet.rows("l")
        return {**typed_points(sheet, whole), "last_trick": int(last[0][1][0]) if last else None}

    @staticmethod
    def need_last_trick(table: BriscaTable, points: list, last_trick_side: int | None) -> None:
        """R-BRISCA-6 `last_trick`: a 60–60 entered without the cards needs to know who took the last trick."""
        options = table.options
        if points == [60, 60] and options["tie_rule"] == "last_trick" and not options["mexican_11"] \
                and last_trick_side is None:
            raise RuleError("last_trick_needed", "60–60 is decided by the last trick at this table: say which "
                            "side took it.", rule="R-BRISCA-6")

    # --- scoring (R-BRISCA-6, 7, 8) -----------------------------------------------------------------------
    def finish_deal(self, table: BriscaTable, deal: BriscaDeal) -> None:
        points = deal.card_points
        assert sum(points) == DEAL_POINTS, points
        deal.outcome = deal_outcome(table.options, points, deal.last_trick_side)
        deal.complete = True
        if deal.outcome["counted"]:
            table.counted += 1
            table.totals = [t + p for t, p in zip(table.totals, points)]
            if deal.outcome["winner"] is not None:
                table.wins[deal.outcome["winner"]] += deal.outcome["wins"]
        table.finished, table.winner = series_result(table.options, table.wins, table.totals, table.counted)

    # --- output -------------------------------------------------------------------------------------------

    def players_for(self, table: BriscaTable, action: str) -> list:
        if action == "exchange":
            return [p for p in range(len(table.players)) if self.can_exchange(table, p)]
        return super().players_for(table, action)

    def more_actions(self, table: BriscaTable, deal: BriscaDeal) -> list:
        actions = []
        if any(self.can_exchange(table, p) for p in range(len(table.players))):
            actions.append("exchange")
        left = self.tricks_per_deal(table, deal) - len(deal.tricks)
        if deal.stock == 0 and left in (2, 3):
            actions.append("claim")
        return actions

    def serialise(self, table: BriscaTable) -> dict:
        state = super().serialise(table)
        state["series"].update(wins=list(table.wins), counted_deals=table.counted,
                               wins_needed=None if table.options["trump_rotation"] else table.options["wins_needed"])
        return state

    def summed_deals(self, state: dict, deals: list) -> dict:
        """R-BRISCA-6: a deal that does not count adds no points; a deal won adds its wins (two over 100)."""
        points, wins = [0] * len(state["sides"]), [0] * len(state["sides"])
        for deal in deals:
            outcome = deal.get("outcome") or {}
            if deal.get("complete") and outcome.get("counted", True):
                for side, value in enumerate(deal.get("points") or ()):
                    points[side] += value
            if outcome.get("winner") is not None:
                wins[outcome["winner"]] += outcome.get("wins", 1)
        return {"points": points, "wins": wins}

    def planned_deals(self, state: dict) -> int:
        """R-BRISCA-7: the trump rotation plays four deals, one trump suit each."""
        return 4 if state["options"]["trump_rotation"] else 0

    def series_word(self, state: dict) -> str:
        return "rotation" if state["options"]["trump_rotation"] else "wins"  # R-BRISCA-7, R-BRISCA-6

    def standing(self, table: BriscaTable) -> dict:
        """R-BRISCA-6: the series counts deals won, the card points only say who won each deal; R-BRISCA-7: with
        the trump rotation most deal wins leads, the total card points breaking a tie."""
        rotation = table.options["trump_rotation"]
        return standing("deals_won", DEALS_WON, table.wins, "R-BRISCA-7" if rotation else "R-BRISCA-6",
                        finished=table.finished, winners=[table.winner], tiebreak=table.totals if rotation else None,
                        decided_by=ON_POINTS if rotation else None,
                        beside=[measure("card_points", CARD_POINTS, table.totals, "R-BRISCA-1", headline=False)])

    def deal_fields(self, table: BriscaTable, deal: BriscaDeal) -> dict:
        return {"stock": deal.stock, "under_stock": deal.bottom.code if deal.bottom and deal.stock else None,
                "exchange": deal.exchange, "claim": deal.claim, "outcome": deal.outcome,
                "why": self.points_why(table, deal)}

    def points_why(self, table: BriscaTable, deal: BriscaDeal) -> list:
        """Per side, where its card points came from (R-BRISCA-1): tricks won, a captured pile, a claim."""
        parts = [[] for _ in table.sides]
        for number, trick in enumerate(deal.tricks, 1):
            parts[table.side_of(trick.winner)].append({"trick": number, "points": trick.points})
        if deal.tally is not None:
            return [{"rule": "R-BRISCA-1", "parts": [{"numbers": p}]} for p in deal.card_points]
        for side, pile in enumerate(deal.captures or []):
            if pile is not None:
                parts[side].append({"pile": len(pile), "points": self.points_in(pile)})
        if deal.claim:
            parts[deal.claim["side"]].append({"claim": deal.claim["player"], "points": deal.claim["points"]})
        return [{"rule": "R-BRISCA-1", "parts": side_parts} for side_parts in parts]
