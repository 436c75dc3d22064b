"""Every .xlsx file Referee writes (a tournament's standings, a round's results), by openpyxl: one sheet, the
header row, then the rows — the same rows as the CSV file beside it (``csv_files.py``).

- **Numbers are numbers** (12, 10.5, -1470), so a spreadsheet sorts and adds them; every other value is a text.
- **No cell is a formula.** openpyxl writes a text that starts with ``=`` as a formula; here every text is written
  as a text cell (``data_type`` "s": the file holds it among its strings, never as a formula), and one that starts
  with a formula character (``= + - @``, tab, carriage return: ``csv_files.FORMULA``) also carries the quote prefix
  — a spreadsheet's own apostrophe, the equivalent of the CSV's ``'``, not part of the text — so that editing the
  cell in Excel or LibreOffice keeps it a text. ``=1+1`` reads back as ``=1+1``, never as 2.
"""
from __future__ import annotations

import io

from flask import Response

from referee.web.shared.csv_files import FORMULA

XLSX_MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def put(cell, value) -> None:
    if value is None:
        return
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        cell.value = value
        return
    cell.value = str(value)
    cell.data_type = "s"  # set after the value: openpyxl would keep "=…" a formula
    if cell.value[:1] in FORMULA:
        cell.quotePrefix = True


def xlsx_bytes(title: str, header: list, rows: list) -> bytes:
    """A workbook of one sheet (``title``): the header row, then the rows."""
    return xlsx_sheets([(title, header, rows)])


def xlsx_sheets(sheets: list) -> bytes:
    """A workbook of several sheets, each (title, header, rows) (a club's members, series and ratings). openpyxl is
    imported by the first download, not by every process that never makes one (some 6 MB each)."""
    from openpyxl import Workbook

    book = Workbook()
    for number, (title, header, rows) in enumerate(sheets):
        sheet = book.active if number == 0 else book.create_sheet()
        sheet.title = title[:31]  # a sheet's name is at most 31 characters
        for r, row in enumerate([header, *rows], 1):
            for c, value in enumerate(row, 1):
                put(sheet.cell(row=r, column=c), value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_download(title: str, header: list, rows: list, filename: str) -> Response:
    """A .xlsx file to download."""
    response = Response(xlsx_bytes(title, header, rows), mimetype=XLSX_MIMETYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
