"""Every CSV file Referee writes (a table's ``export.csv``, a tournament's ``standings.csv``): one writer, safe to
open in a spreadsheet whichever separator it splits on.

- **Quoted where a reader could split.** A cell that holds a separator (``,`` or ``;``: a spreadsheet in French and
  other European locales splits on ``;``), a quote, a tab or a line break is written between quotes, its quotes
  doubled (RFC 4180). Other cells are written bare, as ``csv.QUOTE_MINIMAL`` would: an ordinary name or number reads
  the same in every program, and the files stay what they were for them. (``QUOTE_ALL`` would be as safe against
  splitting, but it cannot be chosen per cell in Python 3.11 and would turn the numbers into quoted text for some
  readers.)
- **No cell starts a formula.** Quotes do not protect a file read with the other separator: ``A;=1+1`` in a file
  split on ``,`` is one quoted cell, yet a spreadsheet splitting on ``;`` sees the cell ``=1+1``. So every place a
  reader might start a cell inside a text — its start, and after a separator or a line break, past any spaces and
  quotes — that holds a formula character (``= + - @``, tab, carriage return) gets an apostrophe before it, the
  spreadsheets' mark of text: ``A;'=1+1``. A plain number (``-1470``) is a number, never a formula, and is left as
  it is. Names cannot hold a line break or any control character at all (``Game.new_table`` and the tournaments'
  entrants ask ``str.isprintable``); the writer guards against them all the same.
"""
from __future__ import annotations

import re

from flask import Response

SPLITS = frozenset(",;\t\r\n")  # where a reader, whichever its separator, may start a new cell
QUOTED = SPLITS | {'"'}  # a cell holding any of these is written between quotes
FORMULA = frozenset("=+-@\t\r")  # what a spreadsheet may read as the start of a formula
SKIPPED = frozenset(' "')  # what a reader may drop before a cell's first character
NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]+)?")
LINE_END = "\r\n"


def neutralised(text: str) -> str:
    """``text`` with an apostrophe before every formula character a reader could see at the start of a cell."""
    out, at_start = [], True
    for char in text:
        if at_start and char in FORMULA:
            out.append("'")
        out.append(char)
        at_start = char in SPLITS or (at_start and char in SKIPPED)
    return "".join(out)


def cell(value) -> str:
    """One cell as written in the file: a number bare, a text neutralised and quoted where it must be."""
    if value is None:
        return ""
    text = str(value)
    if isinstance(value, (bool, int, float)) or NUMBER.fullmatch(text):
        return text
    text = neutralised(text)
    if any(char in QUOTED for char in text):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(header: list, rows: list) -> str:
    """The header row, then the rows, each line ended by CRLF (RFC 4180, as ``csv.writer`` writes)."""
    return "".join(",".join(cell(value) for value in row) + LINE_END for row in [header, *rows])


def csv_download(header: list, rows: list, filename: str) -> Response:
    """A CSV file to download: its header row, then the rows."""
    response = Response(csv_text(header, rows), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
