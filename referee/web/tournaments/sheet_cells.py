"""The cells of a spreadsheet's first sheet, read by python-calamine in a process of its own.

``spreadsheets.py`` runs this file as ``python -I sheet_cells.py ROWS COLUMNS``, the .xlsx or .ods file on its
standard input; it writes one JSON object on its standard output: ``{"rows": n, "columns": n}`` when the sheet is
larger than ROWS or COLUMNS, else ``{"cells": [[…], …]}``, the sheet's rows from its first (row 1 is ``cells[0]``,
trailing empty cells left out), each cell a text (cut at CUT characters), a number, ``true``/``false``, ``null``
(empty) or ``{"date": "2024-05-01"}`` (a date, a time or a duration, as ISO writes it).

Why a process of its own: calamine (Rust) sizes its memory from what the file says — the count of shared strings a
.xlsx announces, the rectangle from its first cell to its last — and an allocation it cannot make aborts the whole
process, no Python exception raised: a .xlsx of 18 KB announcing four billion strings, or holding two cells a million
rows apart, ends the process it is read in. Here that is this process alone, held to MEMORY bytes and SECONDS of CPU;
the form then says that the file cannot be read, and the server's worker goes on serving its other connections.

The standard library and python_calamine only: this file runs alone (``-I``: no environment, no user site, not its
own folder on the path) and imports nothing of Referee.
"""
import io
import json
import sys

from python_calamine import CalamineWorkbook, SheetTypeEnum, SheetVisibleEnum

MEMORY = 512 * 1024 * 1024
SECONDS = 5
CUT = 200  # a name is at most 40 characters: the start of a longer text is enough to say so
MAX_OUTPUT = 4 * 1024 * 1024  # bytes of JSON: more is not a list of entrants (exit 3)


def limit() -> None:
    try:
        import resource
    except ImportError:  # not on this system (Windows): the parent's timeout still holds
        return
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (SECONDS, SECONDS))


def cell(value):
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value[:CUT]
    if isinstance(value, (bool, int, float)):
        return value
    return {"date": value.isoformat() if hasattr(value, "isoformat") else str(value)}


def first_sheet(book):
    """The first visible worksheet (a workbook's hidden sheets and chart sheets are not a list of names)."""
    for index, meta in enumerate(book.sheets_metadata):
        if meta.visible == SheetVisibleEnum.Visible and meta.typ == SheetTypeEnum.WorkSheet:
            return book.get_sheet_by_index(index)
    return book.get_sheet_by_index(0)


def read(raw: bytes, max_rows: int, max_columns: int) -> dict:
    sheet = first_sheet(CalamineWorkbook.from_filelike(io.BytesIO(raw)))
    if sheet.end is None:
        return {"cells": []}
    rows, columns = sheet.end[0] + 1, sheet.end[1] + 1
    if rows > max_rows or columns > max_columns:
        return {"rows": rows, "columns": columns}
    cells = []
    for row in sheet.to_python(skip_empty_area=False):
        kept = [cell(value) for value in row]
        while kept and kept[-1] is None:
            kept.pop()
        cells.append(kept)
    return {"cells": cells}


def main() -> int:
    limit()
    max_rows, max_columns = int(sys.argv[1]), int(sys.argv[2])
    out = json.dumps(read(sys.stdin.buffer.read(), max_rows, max_columns), ensure_ascii=False).encode()
    if len(out) > MAX_OUTPUT:
        return 3
    sys.stdout.buffer.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
