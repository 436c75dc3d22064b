"""The entrants of the tournament form's file: a .xlsx or .ods spreadsheet (python-calamine reads it) or a CSV.

- **The kind from the content**, never from the name alone: a zip whose ``mimetype`` is ODF's spreadsheet is a .ods,
  a zip whose ``[Content_Types].xml`` names a workbook is a .xlsx, a text without control characters is a CSV;
  anything else (an old .xls, a document, a picture) is refused with a sentence naming the file.
- **Bounded.** The whole form is held to the app's ``MAX_CONTENT_LENGTH`` (64 KiB: 413 beyond, the form shown again
  with its sentence, ``pages.py``); a sheet of more than MAX_ROWS rows or MAX_COLUMNS columns is refused with its
  sentence. calamine reads in a process of its own, held in memory and time (``sheet_cells.py`` says why): a file it
  cannot read, however it fails, is refused with a sentence.
- **Rows as the CSV's rows** (``form.entrants_from_rows``): one entrant a row, a name a cell, a first row of headings
  left out; a number is the text it reads as (``7``, never ``7.0``). A row that cannot be an entrant — a date or a
  TRUE/FALSE cell in it, three names or more, a name too long or holding a line break — is left out with one warning
  that names it (``Unread``); the page shows them all before anything is created.
"""
from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
import zipfile
from pathlib import Path

from referee.errors import ParseError
from referee.web.tournaments.form import Unread, csv_rows, entrants_from_rows

MAX_ROWS = 2000  # a list of entrants: MAX_ENTRANTS (1000) pairs, headings and gaps between them
MAX_COLUMNS = 100
READ_SECONDS = 10  # the reader's own CPU limit is 5 s (sheet_cells.SECONDS): this one is the wall clock's
CELLS = Path(__file__).with_name("sheet_cells.py")
ZIP = b"PK\x03\x04"
OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an old Excel .xls, or a .xlsx under a password
ODS = b"application/vnd.oasis.opendocument.spreadsheet"
XLSX_MAIN_PART = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
CONTROL = frozenset(range(32)) - {9, 10, 12, 13}  # no text file holds them: a binary file does
SHOWN_NAME = 60

log = logging.getLogger(__name__)


def kind_of(raw: bytes) -> str | None:
    """"xlsx", "ods", "csv", "xls" (an old Excel file or one under a password) or None, from the bytes."""
    if raw.startswith(ZIP):
        return zip_kind(raw)
    if raw.startswith(OLE2):
        return "xls"
    if not CONTROL.intersection(raw[:65536]):
        return "csv"
    return None


def zip_kind(raw: bytes) -> str | None:
    """A zip's kind from what it says it holds (OpenDocument's ``mimetype``, Office Open XML's content types)."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            names = set(archive.namelist())
            if "mimetype" in names and member(archive, "mimetype").strip() == ODS:
                return "ods"
            if "[Content_Types].xml" in names and XLSX_MAIN_PART in member(archive, "[Content_Types].xml"):
                return "xlsx"
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError):
        return "damaged"
    return None


def member(archive: zipfile.ZipFile, name: str, most: int = 65536) -> bytes:
    """A member's first bytes: never more than ``most``, whatever the archive claims."""
    with archive.open(name) as opened:
        return opened.read(most)


def read_upload(raw: bytes, filename: str) -> tuple[list, list]:
    """The entrants of an uploaded file and the rows left out (``Unread``); raises ParseError with the sentence
    when the file is not one Referee reads."""
    shown = shown_name(filename)
    kind = kind_of(raw)
    if kind == "csv":
        return entrants_from_rows(csv_rows(raw))
    if kind == "xls":
        raise ParseError("old_spreadsheet", "“{file}” is an old Excel file (.xls) or has a password: save it as .xlsx "
                         "or .ods, without a password, and choose it again.", file=shown)
    if kind in ("xlsx", "ods"):
        return entrants_from_rows([[cell_text(value) for value in row] for row in sheet_cells(raw, shown)])
    if kind == "damaged":
        raise unreadable(shown)
    raise ParseError("not_a_spreadsheet", "“{file}” is not a list Referee can read: choose a .xlsx, .ods or .csv "
                     "file, one entrant a row.", file=shown)


def sheet_cells(raw: bytes, shown: str) -> list:
    """The first sheet's rows, read by ``sheet_cells.py`` in its own process."""
    try:
        done = subprocess.run([sys.executable, "-I", str(CELLS), str(MAX_ROWS), str(MAX_COLUMNS)], input=raw,
                              capture_output=True, timeout=READ_SECONDS, check=False)
    except (subprocess.TimeoutExpired, OSError) as error:
        log.warning("spreadsheet reader: %s", error)
        raise unreadable(shown) from None
    if done.returncode != 0:
        log.warning("spreadsheet reader ended with %s: %s", done.returncode, done.stderr[-300:])
        raise unreadable(shown)
    read = json.loads(done.stdout)
    if read.get("rows", 0) > MAX_ROWS:
        raise ParseError("too_many_rows", "“{file}” has {rows} rows; a list of entrants has at most {max}: keep "
                         "only the entrants' rows.", file=shown, rows=read["rows"], max=MAX_ROWS)
    if read.get("columns", 0) > MAX_COLUMNS:
        raise ParseError("too_many_columns", "“{file}” has {columns} columns; a list of entrants has at most {max}: "
                         "keep only the names' columns.", file=shown, columns=read["columns"], max=MAX_COLUMNS)
    return read["cells"]


def unreadable(shown: str) -> ParseError:
    return ParseError("unreadable_spreadsheet", "“{file}” cannot be read: it may be damaged. Save it again as "
                      ".xlsx, .ods or .csv and choose it again.", file=shown)


def cell_text(value):
    """A sheet's cell as the CSV's cells are, a text: a number as it reads (``7``, ``2.5``: never ``7.0``), empty as
    ``""``; a date or a TRUE/FALSE cell is no name: ``Unread`` says what it holds."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return Unread(0, "truth", "TRUE" if value else "FALSE")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dict):
        return Unread(0, "date", str(value.get("date", ""))[:SHOWN_NAME])
    return str(value)


def shown_name(filename: str) -> str:
    """The file's name as a sentence shows it: its last part, printable, not too long."""
    name = "".join(c for c in filename.replace("\\", "/").rpartition("/")[2] if c.isprintable()).strip()
    return (name[:SHOWN_NAME - 1] + "…") if len(name) > SHOWN_NAME else name or "?"
