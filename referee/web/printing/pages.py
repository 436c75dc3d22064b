"""Printable pages: the one-page rule summary of a game (for a table's options), and score sheets shaped like each
game's own (a blank one, or a table's filled with its numbers: ``printing/sheets.py``), each asked of the game
(``Game.printed_summary``, ``printed_sheet``)."""
from __future__ import annotations

import math

from flask import render_template

from referee.games import get_game
from referee.summaries import summary
from referee.web.i18n import lang
from referee.web.printing import bp
from referee.web.printing.sheets import sheet_model
from referee.web.services import ledger, request_key


# A4 less print.css's @page margins (12 mm top and bottom, 14 mm each side), in points.
PAGE_WIDTH, PAGE_HEIGHT = 182 / 25.4 * 72, 273 / 25.4 * 72
# The type sizes a summary or a sheet may take (print.css: .fs-95 … .fs-150), never under 9 pt (R: readable at the
# table).
SIZES = (95, 100, 105, 110, 115, 120, 125, 130, 135, 140, 150)
CHAR = 0.5  # DejaVu Serif's mean advance, in em
LINE = 1.35  # print.css's line height


def _lines(text: str, size: float, indent: float = 0.0) -> int:
    """How many lines a paragraph takes at ``size`` points, ``indent`` em from the left edge."""
    per_line = (PAGE_WIDTH - indent * size) / (CHAR * size)
    return max(1, math.ceil(len(text) * 1.08 / per_line))


def summary_height(doc: dict, language: str, size: float) -> float:
    """The printed height of a summary at ``size`` points, in points: every block's lines and spacing in em, as
    print.css lays them out (h1 1.7 em, h2 1.2 em with their margins, items 0.35 em apart)."""
    game = doc["game"]
    em = 1.7 * 1.25 + 0.4 + 1.4  # the title and the space under it, the three headings' rules
    em += _lines(game.description[language] + " " + game.direction[language] + " " * 40, size) * LINE + 0.6
    em += 3 * (1.2 * 1.3 + 1.1)
    chips = "".join(f"{v['label'][language]} = {v['points']}" + " " * 8 for v in doc["values"])
    em += _lines(chips, size / 1.15) * 1.9 * 1.15
    em += sum(_lines(i[language] + " " + i["rule"], size, 1.6) * LINE + 0.35 for i in doc["items"])
    em += sum(_lines(f"{o['label'][language]}: {o['value'][language]} ({o['default'][language]}) — "
                     f"{o['help'][language]} {o['rule'] or ''}", size, 1.6) * LINE + 0.35 for o in doc["every"])
    em += LINE + 1.0  # the footer
    return em * size


def largest(fits) -> int:
    """The largest of SIZES at which ``fits(size)``, else the smallest."""
    return next((size for size in reversed(SIZES) if fits(size)), SIZES[0])


def fit(doc: dict, language: str) -> str:
    """The largest type size at which the summary still fills no more than its single page."""
    return f"fs-{largest(lambda size: summary_height(doc, language, size / 10) <= PAGE_HEIGHT * 0.94)}"


def _summary_page(doc: dict, **context):
    return render_template("summary.html", summary=doc, fit=fit(doc, lang()), sizes=SIZES, **context)


@bp.get("/rules/<game_id>")
def rules(game_id):
    return _summary_page(summary(get_game(game_id).id))


@bp.get("/t/<table_id>/rules")
def table_rules(table_id):
    ledger().authorize(table_id, request_key())
    state = ledger().state(table_id)
    return _summary_page(summary(state["game"], state["options"]), state=state)


def _sheet_page(game, state: dict | None):
    """A score sheet, blank or filled, in the type size its rows leave room for (the page then fits it exactly)."""
    model = sheet_model(game, state)
    size = largest(lambda s: (8 + model["lines"] * 2.4) * s / 10 <= PAGE_HEIGHT * 0.9
                   and model["width"] * s / 10 <= PAGE_WIDTH)
    rulings = ", ".join(r for r in summary(game.id)["rulings"] if r != "R-COMMON")
    return render_template("sheet.html", state=state, game=game, sheet=model, fit=f"fs-{size}", sizes=SIZES,
                           rulings=rulings)


@bp.get("/t/<table_id>/sheet")
def sheet(table_id):
    ledger().authorize(table_id, request_key())
    state = ledger().state(table_id)
    return _sheet_page(get_game(state["game"]), state)


@bp.get("/sheet/<game_id>")
def blank_sheet(game_id):
    return _sheet_page(get_game(game_id), None)
