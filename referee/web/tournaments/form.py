"""Reading the new-tournament form: entrants typed, pasted or from a file's rows, the rounds' plan, the VP table.

Pure functions of the form's fields (no Flask): the page (``pages.py``) turns them into the API's body
(docs/api.md, "Tournaments") and shows what it could not read as a sentence. A file's rows come from a CSV here, or
from a .xlsx or .ods sheet (``spreadsheets.py``); both are read into entrants by the same rules
(``entrants_from_rows``).
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace

from referee.errors import ParseError
from referee.games.base import MAX_NAME
from referee.tournament.store import DEFAULT_HANDS, MAX_ENTRANTS, MOVEMENTS, round_unit  # noqa: F401 (the pages' too)

FORM_ROUNDS = 30  # rounds the form offers (the API takes up to checks.MAX_ROUNDS)
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


@dataclass(frozen=True)
class Unread:
    """A row of a file left out: its number (from 1, as the spreadsheet numbers it), why — ``names`` (three names
    or more), ``long`` (a name over MAX_NAME characters), ``control`` (a line break or another control character
    in a name), ``date`` (a date, a time or a duration), ``truth`` (a TRUE/FALSE cell) — and what it holds."""
    row: int
    why: str
    shown: str
    count: int = 0

    def warning(self) -> ParseError:
        """Its sentence (a ParseError never raised: the page translates it as it does a refusal)."""
        if self.why == "names":
            return ParseError("row_names", "Row {row} has {count} names ({names}): an entrant is a pair or one "
                              "player.", row=self.row, count=self.count, names=self.shown)
        if self.why == "long":
            return ParseError("row_long_name", "Row {row}: “{name}” is longer than {max} characters.", row=self.row,
                              name=self.shown, max=MAX_NAME)
        if self.why == "control":
            return ParseError("row_control", "Row {row}: “{name}” holds a line break: write one name a cell.",
                              row=self.row, name=self.shown)
        if self.why == "truth":
            return ParseError("row_truth", "Row {row}: a cell holds {value}, not a name.", row=self.row,
                              value=self.shown)
        return ParseError("row_date", "Row {row}: a cell holds a date or a time ({value}), not a name.",
                          row=self.row, value=self.shown)


def csv_rows(raw: bytes) -> list[list[str]]:
    """A CSV file's rows of cells: commas, semicolons or tabs, UTF-8 (with or without BOM)."""
    text = raw.decode("utf-8-sig", errors="replace")
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return list(csv.reader(io.StringIO(text), dialect))


def entrants_from_rows(rows: list) -> tuple[list[list[str]], list[Unread]]:
    """A spreadsheet's rows (a CSV's, or a sheet's: ``spreadsheets.py``): one entrant a row, a name a cell (or
    "Ana & Bo" in one cell); a first row of headings ("Player 1", "Joueur 2", "Names"…) is left out, and so are
    empty rows. A cell is a text, or an ``Unread`` (a date, TRUE/FALSE) that leaves its row out. The entrants, and
    the rows left out, each once."""
    found, unread, first = [], [], True
    for number, row in enumerate(rows, 1):
        odd = next((cell for cell in row if isinstance(cell, Unread)), None)
        cells = [cell.strip() for cell in row if isinstance(cell, str) and cell.strip()]
        if odd is None and not cells:
            continue
        if first and odd is None and all(HEADER.match(cell) for cell in cells):
            first = False
            continue
        first = False
        names = [n for cell in cells for n in (x.strip() for x in PAIR.split(cell)) if n]
        odd = odd or row_fault(names)
        if odd is not None:
            unread.append(replace(odd, row=number))
        elif names:
            found.append(names)
    return found, unread


def row_fault(names: list[str]) -> Unread | None:
    """Why these names cannot be one entrant (the store's rule, ``tournament/checks.py``), or None."""
    if len(names) > 2:
        return Unread(0, "names", cut(", ".join(names)), len(names))
    for name in names:
        if len(name) > MAX_NAME:
            return Unread(0, "long", cut(name, MAX_NAME))
        if not name.isprintable():
            return Unread(0, "control", cut(" ".join("".join(c if c.isprintable() else " " for c in name).split())))
    return None


def cut(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most].rstrip() + "…"


def read_plan(movements: list[str], lengths: list[str], game: str) -> list[dict]:
    """The rounds' plan as the API takes it: a movement and, for Buraco, the hands of a round (deals for Brûlot and
    Brusquembille; Brisca and Brouc play a series a round). A length left empty is the game's own."""
    unit = round_unit(game)
    plan = []
    for i, movement in enumerate(movements[:FORM_ROUNDS]):
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
    unit = round_unit(game)
    length = {"hands": DEFAULT_HANDS} if unit == "hands" else {}
    return [{"movement": "mitchell", **length}, {"movement": "danish", **length}, {"movement": "danish", **length}]
