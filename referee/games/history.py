"""A table's log replayed step by step (issue 27, R-COMMON-8: the table's history, what a table looks at when it
disagrees): each event in force with what it left behind — the deal it belongs to, that deal's points after it, the
winner of the trick it was, and the series' standing after it. Pure: the events as the ledger stores them in, the
steps out, through the one replay loop (``Game.replay_from``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """What an event in force left: ``deal`` (its number; None before the first deal) and its ``dealer``,
    ``points`` (that deal's points per side after it), ``complete`` (the deal over with it), ``winner`` (a trick's
    winner, a player index), ``standing`` (the series' standing after it, ``referee/games/standing.py``)."""

    deal: int | None
    dealer: int | None
    points: tuple | None
    complete: bool
    winner: int | None
    standing: dict


def steps(game, players: list, options: dict, dealer: int, bodies: list) -> list:
    """One ``Step`` per body (the events in force, in order), as the table's replay makes them."""
    table = game.new_table(players, options, dealer)
    found = []

    def seen(event, body) -> None:  # told after each event, on the table stepped in place
        deal = table.current
        doc = game.serialise_deal(table, deal) if deal is not None else None
        tricks = (doc or {}).get("tricks") or []  # a trick game's deal: its tricks so far
        winner = tricks[-1].get("winner") if event.type == "trick" and tricks else None
        doc = doc or {}
        points = tuple(doc["points"]) if doc.get("points") else None
        found.append(Step(doc.get("number"), doc.get("dealer"), points, bool(doc.get("complete")), winner,
                          game.standing(table)))

    game.replay_from(table, bodies, on_event=seen, checkpoint=False)
    return found
