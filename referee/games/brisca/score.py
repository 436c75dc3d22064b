"""Brisca's deal and series results, as pure functions of the points (R-BRISCA-6, R-BRISCA-7, R-BRISCA-8), and what
a member's page counts of them (``STATISTICS``, ``deal_statistics``; referee/games/statistics.py).

Each result carries the ruling that gave it and a sentence in French and English, for the scoreboard's "why".
"""
from __future__ import annotations

from referee.games.standing import DEALS_WON
from referee.games.statistics import Stat, side_players
from referee.words import said

HALF = 60
DOUBLE_OVER = 100
MEXICAN_LIMIT = 11
ROTATION_DEALS = 4


def _outcome(winner, wins, counted, rule, fr, en, **values) -> dict:
    """A result and its reason; ``fr`` and ``en`` are templates of ``values`` (the English one is a msgid)."""
    return {"winner": winner, "wins": wins, "counted": counted, "rule": rule, "reason": said(fr, en, **values)}


def deal_outcome(options: dict, points: list, last_trick_side: int | None) -> dict:
    """Who won a deal of two sides with ``points`` (summing to 120), and how many deal wins it is worth."""
    if options["mexican_11"]:  # R-BRISCA-8
        low = [s for s, p in enumerate(points) if p <= MEXICAN_LIMIT]
        if not low:
            return _outcome(None, 0, True, "R-BRISCA-8", "Aucun camp n'a 11 points ou moins : partie nulle.",
                            "No side took 11 points or fewer: a draw.")
        side = low[0]
        return _outcome(side, 1, True, "R-BRISCA-8", "{points} points, 11 ou moins : partie gagnée.",
                        "{points} points, 11 or fewer: the deal is won.", points=points[side])
    if points[0] == points[1]:  # 60–60, R-BRISCA-6 tie_rule
        rule = options["tie_rule"]
        if rule == "replay":
            return _outcome(None, 0, False, "R-BRISCA-6", "60–60 : la donne ne compte pas, on la rejoue.",
                            "60–60: the deal does not count and is replayed.")
        if rule == "last_trick":
            return _outcome(last_trick_side, 1, True, "R-BRISCA-6", "60–60 : gagnée par le camp du dernier pli.",
                            "60–60: won by the side that took the last trick.")
        return _outcome(None, 0, True, "R-BRISCA-6", "60–60 : partie nulle.", "60–60: a draw.")
    side = 0 if points[0] > HALF else 1
    if options["double_over_100"] and points[side] > DOUBLE_OVER:
        return _outcome(side, 2, True, "R-BRISCA-6", "{points} points, plus de 100 : compte pour deux.",
                        "{points} points, more than 100: counts as two wins.", points=points[side])
    return _outcome(side, 1, True, "R-BRISCA-6", "{points} points, plus de 60 : partie gagnée.",
                    "{points} points, more than 60: the deal is won.", points=points[side])


def series_result(options: dict, wins: list, totals: list, counted: int) -> tuple:
    """(finished, winner side or None) after a deal."""
    if options["trump_rotation"]:  # R-BRISCA-7: four deals, most wins, ties broken by total points
        if counted < ROTATION_DEALS:
            return False, None
        ranking = sorted(range(len(wins)), key=lambda s: (wins[s], totals[s]), reverse=True)
        first, second = ranking[0], ranking[1]
        tied = (wins[first], totals[first]) == (wins[second], totals[second])
        return True, None if tied else first
    for side, count in enumerate(wins):  # R-BRISCA-6 wins_needed
        if count >= options["wins_needed"]:
            return True, side
    return False, None


STATISTICS = (Stat("deals_won", DEALS_WON, "R-BRISCA-6"),
              Stat("sixty_sixty", said("donnes à 60–60", "60–60 deals"), "R-BRISCA-6"))


def deal_statistics(state: dict, deal: dict):
    """One complete deal's counts (R-BRISCA-6): a deal won, for each player of the side its outcome names (a win
    worth two over 100 is one deal; a 60–60 won by the last trick is won); a 60–60, the card points split 60 to 60,
    for every player, whatever the tie rule made of it (a draw, the last trick's, or a deal that does not count). The
    outcome and the points are the same whether the deal was entered card by card, by its piles or by its numbers."""
    winner = (deal.get("outcome") or {}).get("winner")
    if winner is not None:
        yield side_players(state, winner), "deals_won", 1
    if list(deal["points"]) == [HALF, HALF]:
        yield range(len(state["players"])), "sixty_sixty", 1
