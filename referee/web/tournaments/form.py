"""Reading the new-tournament form: entrants typed, pasted or from a CSV file, the rounds' plan, the VP table.

Pure functions of the form's fields (no Flask): the page (``pages.py``) turns them into the API's body
(docs/api.md, "Tournaments") and shows what it could not read as a sentence.
"""
from __future__ import annotations

import csv
import io
import re

from referee.tournament.store import DEFAULT_HANDS, MAX_ENTRANTS, MOVEMENTS  # noqa: F401 (the pages' too)
from referee.web.tournaments.common import ROUND_UNIT

MAX_ROUNDS = 30  # rows the form offers (the API takes up to store.MAX_ROUNDS)
PAIR = re.compile(r"\s*(?:&|\+|/|;|\t)\s*")
HEADER = re.compile(r"^(names?|players?|pairs?|entrants?|joueurs?|joueuses?|noms?|paires?|équipes?|teams?)\s*\d*$",
                    re.I)
# "over 1500 20 0": the last row, in any of the site's languages (more than, más de, més de, oltre, mais de, über)
OVER = re.compile(r"over|more|plus|au-del|>|\bet\b|más|mas\b|més|oltre|mais|über|uber|mehr", re.I)


def entrants_from_text(text: str) -> list[list[str]]:
    """One entrant a line: "Ana & Bo" (or "Ana + Bo", "Ana / Bo", "Ana; Bo", a tab between) is a pair, "Ana" one
    player. Empty lines are left out."""
    found = []
    for line in text.splitlines():
        names = [n.strip() for n in PAIR.split(line.strip()) if n.strip()]
        if names:
            found.append(names)
    return found


def entrants_from_csv(raw: bytes) -> list[list[str]]:
    """A spreadsheet's export: one entrant a row, a name a cell (or "Ana & Bo" in one cell); a first row of
    headings ("Player 1", "Joueur 2", "Names"…) is left out. Commas or semicolons, UTF-8 (with or without BOM)."""
    text = raw.decode("utf-8-sig", errors="replace")
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    found = []
    for i, row in enumerate(csv.reader(io.StringIO(text), dialect)):
        cells = [c.strip() for c in row if c.strip()]
        if i == 0 and cells and all(HEADER.match(c) for c in cells):
            continue
        names = [n for cell in cells for n in (x.strip() for x in PAIR.split(cell)) if n]
        if names:
            found.append(names)
    return found


def read_plan(movements: list[str], lengths: list[str], game: str) -> list[dict]:
    """The rounds' plan as the API takes it: a movement and, for Buraco, the hands of a round (deals for Brûlot and
    Brusquembille; Brisca and Brouc play a series a round). A length left empty is the game's own."""
    unit = ROUND_UNIT.get(game)
    plan = []
    for i, movement in enumerate(movements[:MAX_ROUNDS]):
        row = {"movement": movement if movement in MOVEMENTS else "mitchell"}
        raw = (lengths[i] if i < len(lengths) else "").strip()
        if unit and re.fullmatch(r"[0-9]{1,3}", raw) and int(raw) > 0:
            row[unit] = int(raw)
        plan.append(row)
    return plan


def read_vp_rows(text: str) -> list:
    """A VP table typed a row a line, as the shared file writes it or shorter: "0 – 50 10 10", "50 10 10" (up to 50
    MP of difference: 10 and 10), "over 1500 20 0" or "20 0" (the last row: any difference). Raises ValueError with
    the line it cannot read."""
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        numbers = [int(n) for n in re.findall(r"[0-9]+", line)]
        if OVER.search(line) and len(numbers) >= 2 or len(numbers) == 2:
            rows.append([None, numbers[-2], numbers[-1]])
        elif len(numbers) in (3, 4):
            rows.append([numbers[-3], numbers[-2], numbers[-1]])
        else:
            raise ValueError(line.strip())
    return rows


def default_plan(game: str) -> list[dict]:
    """A common evening: a Mitchell round, then two Danish ones (3 hands a round at Buraco) — a plan any number of
    pairs can play (a second Mitchell round needs three tables or more: two tables have one round without a repeat
    meeting)."""
    unit = ROUND_UNIT.get(game)
    length = {"hands": DEFAULT_HANDS} if unit == "hands" else {}
    return [{"movement": "mitchell", **length}, {"movement": "danish", **length}, {"movement": "danish", **length}]
