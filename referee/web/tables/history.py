"""A table's history (issue 27, R-COMMON-8), ``/t/<id>/history`` with any key of the table: every entry in order with
its time, whose key made it and its reason; a withdrawn entry struck through, with when, by whom and why; the deals
replayed step by step (each trick, meld or tally with the deal's points after it, and the series' standing where it
moved: ``referee/games/history.py``). What a table looks at when it disagrees; it prints as it reads."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import render_template

from referee.games import get_game
from referee.games.history import Step, steps
from referee.models import entered
from referee.web.services import ledger, request_key
from referee.web.tables import bp


@dataclass
class Line:
    """One entry of the log as the page shows it: its document (``EventRecord.to_dict``), the event as entered,
    and, when in force, what it left (``step``) and whether the series' standing moved with it."""

    doc: dict
    body: dict
    step: Step | None = None
    moved: bool = False

    @property
    def time(self) -> str:
        """When it was entered, "hh:mm" in UTC (static/local-time.js writes it in the phone's own time)."""
        return self.doc["at"][11:16]

    @property
    def withdrawn_time(self) -> str:
        return (self.doc.get("withdrawn_at") or "")[11:16]


@dataclass
class Section:
    """The entries of one deal (``deal`` None: before the first one), its deal event's body once known."""

    deal: int | None
    opening: dict | None = None
    lines: list = field(default_factory=list)


def sections(game, setup: dict, log: list) -> list:
    """The log in deals: an entry in force goes with the deal it belongs to, a withdrawn one where it was made."""
    in_force = [doc for doc in log if not doc["withdrawn"]]
    made = dict(zip((doc["seq"] for doc in in_force), steps(game, setup["players"], setup["options"],
                                                             setup["dealer"], [entered(doc) for doc in in_force])))
    found, values = [Section(None)], None
    for doc in log:
        line = Line(doc, entered(doc), made.get(doc["seq"]))
        if line.step is not None:
            if line.step.deal != found[-1].deal:
                found.append(Section(line.step.deal))
            if doc["type"] == "deal":
                found[-1].opening = line.body
            line.moved = values is not None and line.step.standing["values"] != values
            values = line.step.standing["values"]
        found[-1].lines.append(line)
    return [s for s in found if s.lines]


@bp.get("/t/<table_id>/history")
def history(table_id):
    key = request_key()
    role, setup, log = ledger().history(table_id, key)
    game = get_game(setup["game"])
    table = game.new_table(setup["players"], setup["options"], setup["dealer"])
    sides = [{"name": " & ".join(setup["players"][p] for p in side), "players": list(side)} for side in table.sides]
    return render_template("history.html", game=game, key=key, role=role, table_id=table_id, setup=setup,
                           sides=sides, sections=sections(game, setup, log),
                           withdrawn=sum(1 for doc in log if doc["withdrawn"]))
