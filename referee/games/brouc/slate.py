"""Brouc's slate and coches as pure functions: tens (R-BROUC-6), the end of a partie (R-BROUC-7), la cape and its
declarations (R-BROUC-8), and what a member's page counts of them (``STATISTICS``, ``deal_statistics``;
referee/games/statistics.py). Each result carries a sentence in French and English for the scoreboard's "why"."""
from __future__ import annotations

from referee.errors import msg
from referee.games.standing import COCHES
from referee.games.statistics import Stat, side_players
from referee.words import said

OUT = 31  # R-BROUC-7: "30 + 1", 301 points
CAPE_COCHES = 2  # R-BROUC-8
PARTIE_COCHES = 1  # R-BROUC-7
DECLARED_COCHES = {"cape_dehors": 3, "cape_dehors_pas_dedouble": 4}  # R-BROUC-8
DEHORS_FROM = 19  # R-BROUC-8: the declaring side has 19 or more on the slate
PAS_DEDOUBLE_UP_TO = 14  # R-BROUC-8: the other side has 14 or less


def tens(points: int) -> int:
    """R-BROUC-6: units 0-4 down, 5-9 up ("sur le point", 5, rounds up for both sides): 44 -> 4, 46 -> 5, 55 -> 6."""
    whole, units = divmod(points, 10)
    return whole + (1 if units >= 5 else 0)


def tens_why(points: int) -> dict:
    value = tens(points)
    if points % 10 == 5:
        return said("{points} points, sur le point : {value}", "{points} points, on the point: {value}",
                    points=points, value=value)
    if points % 10 < 5:
        return said("{points} points, arrondi vers le bas : {value}", "{points} points, rounded down: {value}",
                    points=points, value=value)
    return said("{points} points, arrondi vers le haut : {value}", "{points} points, rounded up: {value}",
                points=points, value=value)


def unwritten_why(points: int) -> dict:
    """R-BROUC-8b: an undeclared cape is paid in coches; the deal's card points are not written on the slate."""
    return said("{points} points, cape non demandée : pas écrits sur l'ardoise (payée en coches)",
                "{points} points, undeclared cape: not written on the slate (paid in coches)", points=points)


def announce_points(ranks: set, trump: bool) -> int:
    """R-BROUC-4 and R-BROUC-5: king and queen 20, with the jack 30, doubled in trump."""
    base = 30 if "J" in ranks else 20
    return base * 2 if trump else base


def marriages_in(cards: list, trump_suit: str) -> list:
    """R-BROUC-5: each suit whose king and queen (and maybe jack) lie in one trick: (suit, ranks, points)."""
    found = []
    for suit in dict.fromkeys(c.suit for c in cards):
        ranks = {c.rank for c in cards if c.suit == suit}
        if {"K", "Q"} <= ranks:
            held = [r for r in ("K", "Q", "J") if r in ranks]
            found.append((suit, held, announce_points(set(held), suit == trump_suit)))
    return found


def partie_over(slate: list) -> int | None:
    """R-BROUC-7, checked at the end of a deal: the losing side, or None while the partie goes on (nobody out, or
    both out with equal slates: one more deal)."""
    out = [side for side, value in enumerate(slate) if value >= OUT]
    if not out:
        return None
    if len(out) == 1:
        return 1 - out[0]
    if slate[0] == slate[1]:
        return None
    return 0 if slate[0] < slate[1] else 1


def declaration_refusal(call: str, slate: list, side: int) -> tuple | None:
    """Why ``side`` may not make ``call`` with this slate (R-BROUC-8), as (code, template, fields), or None."""
    if slate[side] < DEHORS_FROM:
        return ("declare_not_dehors", msg("La cape et dehors needs 19 or more on the slate; this side has {value}."),
                {"value": slate[side]})
    if call == "cape_dehors_pas_dedouble" and slate[1 - side] > PAS_DEDOUBLE_UP_TO:
        return ("declare_dedouble", msg("Pas dédoublé needs the other side at 14 or less; it has {value}."),
                {"value": slate[1 - side]})
    return None


def cape_outcome(declaration: dict | None, cape_side: int | None) -> dict | None:
    """Who takes coches for a cape or a declaration (R-BROUC-8): {loser, coches, ends_partie, reason, rule}."""
    if declaration is not None:
        coches = DECLARED_COCHES[declaration["call"]]
        side = declaration["side"]
        if cape_side == side:
            return {"loser": 1 - side, "coches": coches, "ends_partie": True, "came_true": True, "rule": "R-BROUC-8",
                    "reason": said("Cape demandée et réussie : {coches} coches au camp adverse.",
                                   "Cape declared and made: {coches} coches to the other side.", coches=coches)}
        return {"loser": side, "coches": coches, "ends_partie": True, "came_true": False, "rule": "R-BROUC-8",
                "reason": said("Cape demandée mais manquée : les {coches} coches vont au camp qui l'a demandée.",
                               "Cape declared but missed: the {coches} coches go to the declaring side.",
                               coches=coches)}
    if cape_side is not None:
        return {"loser": 1 - cape_side, "coches": CAPE_COCHES, "ends_partie": False, "came_true": True,
                "rule": "R-BROUC-8b",
                "reason": said("La cape : {coches} coches au camp qui n'a fait aucun pli ; les points des "
                               "cartes ne s'écrivent pas, les annonces restent ; mariages sur table annulés.",
                               "La cape: {coches} coches to the side that took no trick; the card points are "
                               "not written, the announces stay; table marriages cancelled.", coches=CAPE_COCHES)}
    return None


STATISTICS = (Stat("capes", said("capes", "capes"), "R-BROUC-8"),
              Stat("coches", COCHES, "R-BROUC-7"))


def deal_statistics(state: dict, deal: dict):
    """One complete deal's counts: la cape made (R-BROUC-8, 8b: a side took all eight tricks, declared or not; a
    declaration that did not come true is no cape), for each player of that side; the coches the deal gave each side
    (R-BROUC-7, 8: a partie lost, a cape, a declaration), for each of its players, which add up to the series' coches.
    A deal entered by its piles or its numbers says its cape and its declaration too, and counts them."""
    cape = deal.get("cape")
    if cape is not None and cape["came_true"]:
        yield side_players(state, 1 - cape["loser"]), "capes", 1
    for side, coches in enumerate(deal.get("coches") or ()):
        if coches:
            yield side_players(state, side), "coches", coches
