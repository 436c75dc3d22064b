"""A series' statistics per player, for a club's member pages (issue 29): what each game makes worth counting, read
from the log's replayed state, never typed. Pure: no Flask, no database.

Each game says its own: ``Game.statistics``, the ``Stat`` items in the order a page shows them, and
``Game.player_statistics(state)``: for the serialised state of one table (``Game.serialise``, the dict the API
answers), one dict per player seat (as in ``state["players"]``) of each stat's key to its count in that series. The
counts are made deal by deal (``Game.deal_statistics``, summed by ``counted``):

- only complete deals count (a deal under way counts nothing yet);
- a count of a side (Brisca's deals won, Brouc's capes) counts for every player of that side, or, where the teams
  change from hand to hand (Buraco with 3 or 5 players, R-BURACO-1b), of that hand's team;
- a deal entered by its numbers (the contract's ``tally``) counts what its numbers say, and nothing of what they do
  not say (each game's ``deal_statistics`` says which); a deal entered by its captured piles likewise.

Series played and won are no game's own: a caller counts them from the state's ``series`` (``finished``, the
standing's ``winners``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.words import Words


@dataclass(frozen=True)
class Stat:
    """One count a member's page shows for a game: ``key`` (snake_case, the key of ``player_statistics``' dicts),
    ``label`` (a short plural noun phrase per language, "deals won") and ``rule``, the ruling that defines the thing
    counted."""

    key: str
    label: Words = field(compare=False)
    rule: str

    def describe(self) -> dict:
        return {"key": self.key, "label": dict(self.label), "rule": self.rule}


def side_players(state: dict, side: int) -> list:
    """The seats of a side of ``state`` (its ``sides``' players)."""
    return list(state["sides"][side]["players"])


def counted(state: dict, stats: tuple, count_deal) -> list:
    """Per player seat, each of ``stats``' keys to the sum over the complete deals of what ``count_deal(state,
    deal)`` finds in each: ``(players, key, amount)`` items, each adding ``amount`` to every one of ``players``."""
    counts = [{stat.key: 0 for stat in stats} for _ in state["players"]]
    for deal in state["deals"]:
        if not deal.get("complete"):
            continue
        for players, key, amount in count_deal(state, deal):
            for player in players:
                counts[player][key] += amount
    return counts
