"""A series' standing, the headline every screen leads with: what the series is counted in (its unit, in words), each
side's number in it, who leads (or that the sides are level) and, once the series is over, who won it (or who shares
the win). Each engine says its own (``Game.standing``): Brisca counts deals won (R-BRISCA-6, 7), Brouc the partie's
slate in tens beside the evening's coches (R-BROUC-6, 7, 8), Brûlot penalty points where the lowest leads
(R-BRULOT-6), Brusquembille card points beside the jetons (R-BRUSQ-4, 5), Buraco points toward the target
(R-BURACO-6). Pure: no Flask, no database; the pages say it in words (``referee/web/shared/headline.py``).

A standing (``series.standing`` of the state, docs/api.md):

- ``unit`` names what ``values`` count (``deals_won``, ``slate``, ``coches``, ``penalty_points``, ``points``) and
  ``label`` says it in words; ``rule`` is the ruling that counts it;
- ``order``: the sides, the leading one first (equal ones in the table's order); ``leader``: the leading side, or
  ``None`` while the first two are level; ``lowest_leads``: whether the lowest number leads;
- ``winners``: once ``finished``, the winning side, or the sides sharing the win; empty while the series is on, or
  when it ended without a winner;
- ``decided_by``: when a tie on ``values`` is broken by something else (R-BRISCA-7: the card points), that in words;
- ``beside``: other numbers per side the series keeps, each ``{unit, label, values, rule, headline}``: ``headline``
  true when the headline says them too (Brouc's coches, Brusquembille's jetons), false for a detail (Brisca's card
  points, small on the big screen).
"""
from __future__ import annotations

from referee.words import Words, said

DEALS_WON = said("donnes gagnées", "deals won")
SLATE = said("à l'ardoise", "on the slate")
COCHES = said("coches", "coches")
PENALTY_POINTS = said("points de pénalité", "penalty points")
POINTS = said("points", "points")
CARD_POINTS = said("points des cartes", "card points")
JETON_WORD = said("jetons", "jetons")  # the unit's word (brusquembille.engine.JETONS: the jetons a card moves)
ON_POINTS = said("aux points", "on points")


# What each unit is called where no standing is at hand to say it (a round's table in its tournament, R-COMMON-7b)
UNIT_WORDS = {"deals_won": DEALS_WON, "slate": SLATE, "coches": COCHES, "penalty_points": PENALTY_POINTS,
              "points": POINTS, "card_points": CARD_POINTS, "jetons": JETON_WORD}


def toward(target: int) -> Words:
    """Points toward a target (0: a series of so many deals, said elsewhere), in words."""
    return said("fin à {target}", "to {target}", target=target) if target else POINTS


def measure(unit: str, label: Words, values: list, rule: str, headline: bool = True) -> dict:
    """One number per side beside the standing's own."""
    return {"unit": unit, "label": label, "values": list(values), "rule": rule, "headline": headline}


def standing(unit: str, label: Words, values: list, rule: str, *, finished: bool, winners=(), lowest_leads=False,
             tiebreak: list | None = None, beside=(), decided_by: Words | None = None) -> dict:
    """The standing of ``values`` (one per side). ``tiebreak``: per side, what ranks sides equal on ``values``
    (R-BRISCA-7's card points), higher first; ``decided_by`` says it in words when it decides the lead."""
    sign = 1 if lowest_leads else -1
    def key(side):
        return (sign * values[side], -tiebreak[side] if tiebreak else 0, side)
    order = sorted(range(len(values)), key=key)
    winners = [w for w in winners if w is not None]
    if finished and winners:  # the series' winners first, as the engine decided them
        order = sorted(winners, key=key) + [s for s in order if s not in winners]
    top, second = (order + [None])[:2]
    ahead = second is None or key(top)[:2] != key(second)[:2]
    leader = top if ahead and not (finished and len(winners) > 1) else None
    on_points = leader is not None and second is not None and values[top] == values[second]
    return {"unit": unit, "label": label, "values": list(values), "rule": rule, "order": order, "leader": leader,
            "lowest_leads": lowest_leads, "finished": finished, "winners": winners if finished else [],
            "decided_by": decided_by if on_points else None, "beside": list(beside)}


def result_of(standing: dict) -> dict:
    """A finished series' result as a side signs it and every screen states it (R-COMMON-7b), from its standing
    (the engine's, or the state's ``series.standing``, the same shape): ``unit`` and ``label`` (what the numbers
    count, in words), ``values`` (one per side), ``winners``, and ``beside``: the other numbers the headline says
    (Brouc's coches, Brusquembille's jetons), never a detail the series is not counted in (Brisca's card points)."""
    return {"unit": standing["unit"], "label": standing["label"], "values": list(standing["values"]),
            "winners": list(standing["winners"]),
            "beside": [dict(m) for m in standing.get("beside") or () if m.get("headline")]}
