"""A table's log replayed step by step (issue 27, R-COMMON-8: the table's history, what a table looks at when it
disagrees): each event in force with what it left behind — the deal it belongs to, that deal's points after it, the
winner of the trick it was, and the series' standing after it — and what a withdrawn event gave while it was in
force. Pure: the events as the ledger stores them in, the steps out, through the one replay loop
(``Game.replay_from``)."""
from __future__ import annotations

from dataclasses import dataclass

from referee.errors import RefereeError


@dataclass(frozen=True)
class Step:
    """What an event left: ``deal`` (its number; None before the first deal) and its ``dealer``, ``points`` (that
    deal's points per side after it), ``complete`` (the deal over with it), ``winner`` (a trick's winner, a player
    index), ``standing`` (the series' standing after it, ``referee/games/standing.py``)."""

    deal: int | None
    dealer: int | None
    points: tuple | None
    complete: bool
    winner: int | None
    standing: dict


def step_of(game, table, event_type: str) -> Step:
    """What ``table`` holds just after an event of ``event_type``."""
    deal = table.current
    doc = game.serialise_deal(table, deal) if deal is not None else {}
    tricks = doc.get("tricks") or []  # a trick game's deal: its tricks so far
    winner = tricks[-1].get("winner") if event_type == "trick" and tricks else None
    points = tuple(doc["points"]) if doc.get("points") else None
    return Step(doc.get("number"), doc.get("dealer"), points, bool(doc.get("complete")), winner, game.standing(table))


def steps(game, players: list, options: dict, dealer: int, bodies: list) -> list:
    """One ``Step`` per body (the events in force, in order), as the table's replay makes them."""
    table = game.new_table(players, options, dealer)
    found = []
    game.replay_from(table, bodies, on_event=lambda event, body: found.append(step_of(game, table, event.type)),
                     checkpoint=False)
    return found


def step_after(game, players: list, options: dict, dealer: int, bodies: list) -> Step | None:
    """What the last of ``bodies`` left, replayed from a new table: a withdrawn event with the events in force when
    it was entered before it. None when the replay refuses them (an import's log that was never entered so)."""
    if not bodies:
        return None
    try:
        table, _ = game.replay_from(game.new_table(players, options, dealer), bodies, checkpoint=False)
    except RefereeError:
        return None
    return step_of(game, table, bodies[-1].get("type"))
