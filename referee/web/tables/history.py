"""A table's history (issue 27, R-COMMON-8), ``/t/<id>/history`` with any key of the table: every entry in order with
its time, whose key made it and its reason; a withdrawn entry struck through, with when, by whom and why, and what it
had given; the deals replayed step by step (each trick, meld or tally with the deal's points after it, and the
series' standing where it moved: ``referee/games/history.py``). What a table looks at when it disagrees; it says
which table it is (its tournament, round and number, the day) and prints as it reads."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from flask import render_template
from flask_babel import format_date

from referee.games import get_game
from referee.games.history import Step, step_after, steps
from referee.store import entered
from referee.web.i18n import lang
from referee.web.services import ledger, request_key, tournaments
from referee.web.tables import bp


@dataclass
class Line:
    """One entry of the log as the page shows it: its document (``EventRecord.to_dict``), the event as entered, and
    what it left (``step``: the entry in force; a withdrawn one, what it gave while it was) and whether the series'
    standing moved with it."""

    doc: dict
    body: dict
    step: Step | None = None
    moved: bool = False
    earlier: bool = False  # a confirmation of a result the director's correction changed since (R-COMMON-7b)

    @property
    def time(self) -> str:
        """When it was entered, "hh:mm" in UTC (static/local-time.js writes it in the phone's own time)."""
        return self.doc["at"][11:16]

    @property
    def withdrawn_time(self) -> str:
        return (self.doc.get("withdrawn_at") or "")[11:16]


@dataclass
class Section:
    """The entries of one deal (``deal`` None: before the first one)."""

    deal: int | None
    lines: list = field(default_factory=list)


def _moment(iso: str | None) -> datetime | None:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")) if iso else None


def in_force_at(doc: dict, moment: datetime) -> bool:
    """Whether the entry ``doc`` was in force at ``moment`` (not withdrawn, or withdrawn after it)."""
    withdrawn = _moment(doc.get("withdrawn_at")) if doc["withdrawn"] else None
    return not doc["withdrawn"] or (withdrawn is not None and withdrawn > moment)


def sections(game, setup: dict, log: list) -> list:
    """The log in deals, in the order it was entered: an entry goes with the deal it belongs to (a withdrawn one, the
    deal it was entered in), a new section wherever the deal changes."""
    start = (game, setup["players"], setup["options"], setup["dealer"])
    in_force = [doc for doc in log if not doc["withdrawn"]]
    made = dict(zip((doc["seq"] for doc in in_force), steps(*start, [entered(doc) for doc in in_force])))
    found, values = [Section(None)], None
    for doc in log:
        line = Line(doc, entered(doc), made.get(doc["seq"]))
        if doc["withdrawn"]:  # replayed with what was in force when it was entered
            moment = _moment(doc["at"])
            line.step = step_after(*start, [entered(d) for d in log if d["seq"] < doc["seq"] and
                                            in_force_at(d, moment)] + [line.body])
        if line.step is not None and line.step.deal != found[-1].deal:
            found.append(Section(line.step.deal))
        if line.step is not None and not doc["withdrawn"]:
            line.moved = values is not None and line.step.standing["values"] != values
            values = line.step.standing["values"]
        found[-1].lines.append(line)
    last = made[in_force[-1]["seq"]].standing if in_force else None
    for line in (line for section in found for line in section.lines):
        line.earlier = earlier_signature(line.body, last)
    return [s for s in found if s.lines]


def earlier_signature(body: dict, standing: dict | None) -> bool:
    """R-COMMON-7b: a confirmation signed another result (its numbers in the series' unit, or its winners) than the
    series' result now: it was given before the director's correction and no longer counts."""
    signed = body.get("result") if body.get("type") == "confirm" else None
    if not isinstance(signed, dict) or standing is None or not standing["finished"]:
        return False
    return (list(signed.get("values") or ()) != list(standing["values"])
            or sorted(signed.get("winners") or ()) != sorted(standing["winners"]))


@bp.get("/t/<table_id>/history")
def history(table_id):
    key = request_key()
    role, setup, log = ledger().history(table_id, key)
    game = get_game(setup["game"])
    table = game.new_table(setup["players"], setup["options"], setup["dealer"])
    sides = game.side_docs(table)
    in_order = {"sides": sides, "series": {"standing": {"order": list(range(len(sides)))}}}  # points side by side
    day = format_date(_moment(log[0]["at"]), format="full") if log else None
    return render_template("history.html", game=game, key=key, role=role, table_id=table_id, setup=setup,
                           sides=sides, in_order=in_order, seat=tournaments().seat(table_id), day=day,
                           hands=game.deal_word == "hand", sections=sections(game, setup, log),
                           withdrawn=sum(1 for doc in log if doc["withdrawn"]),
                           unit=game.standing(table)["label"][lang()])
