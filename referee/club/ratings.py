"""A club's ratings (R-CLUB-1): each finished series of a club's table is one match of OpenSkill's Plackett–Luce
model with the library's default parameters (mu 25, sigma 25/3; the ordinal mu − 3·sigma orders the ladder), one
rating per member and game, the matches taken in the order their series finished.

A match's teams are the table's sides, each made of its members (guests left out; a side without a member is left
out; a match with fewer than two sides left is not rated). Its ranks come from the series' result: the winner first
(sides that share the series: tied first), then the other sides by the game's totals (Brûlot's: lowest first),
equal totals tied. The ``openskill`` package does the arithmetic: it is the field's maintained implementation of
Weng and Lin's model (the one the issue names), so the numbers here are the ones any other client of it computes.
Pure: no Flask, no database."""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Match:
    """One finished series of a club table, as the ratings see it."""

    table: str  # the table's id
    game: str
    at: str  # when its series finished (ISO time of its last entry in force that is not a signature)
    teams: tuple  # per side kept: its members' ids (guests left out)
    ranks: tuple  # per side kept: 1 first, equal ranks tied


def ranks(found: dict) -> list:
    """Per side of a finished series (its ``report.table_figures``): its place (1 first; equal places tied), R-CLUB-1."""
    winners, totals = found["winners"], found["totals"]
    sign = 1 if found["lowest_leads"] else -1
    others = sorted({sign * totals[side] for side in range(len(totals)) if side not in winners})
    first = 2 if winners else 1
    return [1 if side in winners else first + others.index(sign * totals[side]) for side in range(len(totals))]


def match_of(table: dict, found: dict) -> Match | None:
    """The match a club table's finished series makes (``found``: its ``report.table_figures``), or None when it makes none (not
    finished, fewer than two sides with a member)."""
    if not found["finished"]:
        return None
    members = table.get("members") or []
    places = ranks(found)
    teams, kept = [], []
    for side, players in enumerate(found["sides"]):
        team = tuple(members[p] for p in players if p < len(members) and members[p])
        if team:
            teams.append(team)
            kept.append(places[side])
    if len(teams) < 2:
        return None
    return Match(table["id"], table["game"], table["finished_at"], tuple(teams), tuple(kept))


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def doc(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


START = Rating(MODEL.mu, MODEL.sigma)


class Ratings:
    """A club's ratings after its matches, and the matches they were worked out from: asked again with the same
    matches and more after them (a new series finished), it rates only the new ones; anything else (a correction
    moved an older series, a season's first day) is rated again from the start."""

    def __init__(self):
        self._matches: tuple = ()
        self._ratings: dict = {}
        self._moves: list = []

    def rate(self, matches) -> tuple:
        """(ratings, moves) after ``matches`` in order: ratings is (member, game) -> Rating; moves lists per match
        the (member, before, after) of each member rated in it."""
        matches = tuple(matches)
        if matches[:len(self._matches)] != self._matches:
            self._matches, self._ratings, self._moves = (), {}, []
        ratings, moves = dict(self._ratings), list(self._moves)
        for match in matches[len(self._matches):]:
            before = [[ratings.get((m, match.game), START) for m in team] for team in match.teams]
            teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
            after = MODEL.rate(teams, ranks=list(match.ranks))
            moved = []
            for team, old_team, new_team in zip(match.teams, before, after):
                for member, old, new in zip(team, old_team, new_team):
                    ratings[(member, match.game)] = Rating(new.mu, new.sigma)
                    moved.append((member, old, ratings[(member, match.game)]))
            moves.append(moved)
        self._matches, self._ratings, self._moves = matches, ratings, moves
        return ratings, moves
