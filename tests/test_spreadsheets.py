"""Issue 27, entrants from a spreadsheet and the exports as .xlsx, through Flask's test client with exact values.

A .xlsx (made here with openpyxl) and a .ods (made here with odfpy) of 24 pairs create the same tournament as the
pasted list; the kind of a file is read from its content, never from its name; a row that cannot be an entrant is
left out with one warning naming it, and nothing is created until the list is checked; a file that is not a list,
one that python-calamine cannot size (read in its own process: ``referee/web/tournaments/sheet_cells.py``) and one
too large or too long are refused with a sentence. The standings and a round's results as .xlsx, read back with
python-calamine, hold the CSV's values; a name that looks like a formula comes back as the text it is.
"""
import csv
import datetime
import io
import re
import zipfile
from html import unescape

import openpyxl
import pytest
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P
from python_calamine import CalamineWorkbook

from referee.web.tournaments.spreadsheets import cell_text, kind_of, read_upload
from tests.support.deals import HAND_TO_EW, HAND_TO_NS, PAIRS
from tests.support.burraco import VP_ROWS

FIRST = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu", "Mo", "Ned", "Oz", "Pia",
         "Quim", "Rut", "Sol", "Tea", "Ugo", "Vera", "Wim", "Xena", "Yago", "Zoe", "Abel", "Bea", "Ciro", "Dora",
         "Eloi", "Fina", "Gil", "Hana", "Iker", "Jana", "Kai", "Lola", "Marc", "Nora", "Otto", "Pau", "Rai", "Sara",
         "Teo", "Uma", "Vito", "Wanda"]
PAIRS_24 = [f"{FIRST[i]} & {FIRST[i + 1]}" for i in range(0, 48, 2)]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # the CSRF token is checked by the browser test's real forms
    return app


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def xlsx_file(rows) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def ods_file(rows) -> bytes:
    """A .ods spreadsheet made by odfpy: a text, a number, a date or TRUE/FALSE a cell."""
    doc = OpenDocumentSpreadsheet()
    table = Table(name="Entrants")
    for row in rows:
        line = TableRow()
        for value in row:
            if isinstance(value, bool):
                cell = TableCell(valuetype="boolean", booleanvalue=str(value).lower())
            elif isinstance(value, (int, float)):
                cell = TableCell(valuetype="float", value=value)
            elif isinstance(value, datetime.date):
                cell = TableCell(valuetype="date", datevalue=value.isoformat())
            else:
                cell = TableCell(valuetype="string")
            if value is not None:
                cell.addElement(P(text=str(value)))
            line.addElement(cell)
        table.addElement(line)
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.write(out)
    return out.getvalue()


def post_form(client, entrants="", file=None, name="pairs.xlsx", headers=None):
    form = {"op": "create", "game": "buraco", "name": "Club evening", "entrants": entrants, "vp": "burraco_3",
            "movement": ["mitchell", "danish"], "length": ["3", "3"]}
    if file is not None:
        form["entrants_file"] = (io.BytesIO(file), name)
    return client.post("/tournaments/new", data=form, content_type="multipart/form-data", headers=headers or {})


def refusal(response) -> str:
    found = re.search(r'class="refusal"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    return unescape(found.group(1)).strip() if found else ""


def warnings(response) -> list:
    found = re.search(r'<div class="warning" id="entrants-warnings"[^>]*>(.*?)</div>',
                      response.get_data(as_text=True), re.S)
    if not found:
        return []
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", part)).split())
            for part in re.findall(r"<(?:p|li)>(.*?)</(?:p|li)>", found.group(1), re.S)]


def listed(response) -> str:
    found = re.search(r'<textarea id="t-entrants"[^>]*>(.*?)</textarea>', response.get_data(as_text=True), re.S)
    return unescape(found.group(1))


def made(client, response) -> dict:
    assert response.status_code == 303, refusal(response) or warnings(response)
    tid = re.fullmatch(r"/tournaments/([\w-]+)\?key=[\w-]+", response.headers["Location"]).group(1)
    return client.application.extensions["referee.tournaments"].state(tid)


def same(state) -> tuple:
    return state["game"], state["name"], state["plan"], state["vp_table"], [e["names"] for e in state["entrants"]]


# --- entrants from a file -------------------------------------------------------------------------------------

def test_issue_27_a_xlsx_and_an_ods_of_24_pairs_make_the_same_tournament_as_the_pasted_list(client):
    pasted = made(client, post_form(client, entrants="\n".join(PAIRS_24)))
    assert [e["names"] for e in pasted["entrants"]] == [p.split(" & ") for p in PAIRS_24]
    sheet = xlsx_file([["Player 1", "Player 2"]] + [p.split(" & ") for p in PAIRS_24])
    from_xlsx = made(client, post_form(client, file=sheet, name="pairs.xlsx"))
    rows = [[p] for p in PAIRS_24[:12]] + [[None], []] + [[p] for p in PAIRS_24[12:]]  # "Ana & Bo" a cell, a gap
    from_ods = made(client, post_form(client, file=ods_file([["Pairs"]] + rows), name="pairs.ods"))
    assert same(from_xlsx) == same(from_ods) == same(pasted)
    assert len(from_xlsx["entrants"]) == 24


def test_issue_27_the_kind_of_file_is_read_from_its_content_not_its_name(client):
    sheet = xlsx_file([[p] for p in PAIRS])
    assert kind_of(sheet) == "xlsx" and kind_of(ods_file([["Ana"]])) == "ods" and kind_of(b"Ana,Bo\n") == "csv"
    assert same(made(client, post_form(client, file=sheet, name="pairs.csv")))[4] == [p.split(" & ") for p in PAIRS]
    as_csv = "\n".join(PAIRS).encode()
    assert same(made(client, post_form(client, file=as_csv, name="pairs.xlsx")))[4] == [p.split(" & ") for p in PAIRS]


def test_issue_27_numbers_in_cells_become_their_text_without_dot_zero():
    assert [cell_text(v) for v in (7, 7.0, 2.5, -3.0, 1e16, None, "Ana")] == ["7", "7", "2.5", "-3", "1" + "0" * 16,
                                                                              "", "Ana"]
    rows = [["Player 1", "Player 2"], [1, "Ana"], [2.0, "Bo"], [12, 3.5]]
    assert read_upload(xlsx_file(rows), "n.xlsx") == ([["1", "Ana"], ["2", "Bo"], ["12", "3.5"]], [])
    assert read_upload(ods_file(rows), "n.ods") == ([["1", "Ana"], ["2", "Bo"], ["12", "3.5"]], [])


FAULTS = {  # a row that cannot be an entrant -> its one warning
    "names": (["Xa", "Xb", "Xc"], "Row 5 has 3 names (Xa, Xb, Xc): an entrant is a pair or one player."),
    "long": (["Xa", "X" * 45], "Row 5: “" + "X" * 40 + "…” is longer than 40 characters."),
    "control": (["Xa", "Xb\nXc"], "Row 5: “Xb Xc” holds a line break: write one name a cell."),
    "date": (["Xa", datetime.date(2024, 5, 1)], "Row 5: a cell holds a date or a time (2024-05-01), not a name."),
    "truth": (["Xa", True], "Row 5: a cell holds TRUE, not a name."),
}


@pytest.mark.parametrize("kind, fault", [(kind, fault) for kind in ("xlsx", "ods", "csv") for fault in FAULTS
                                         if kind != "csv" or fault not in ("date", "truth")])  # a CSV's cells: texts
def test_issue_27_a_row_it_cannot_read_gives_one_warning_naming_it_and_nothing_is_made(client, kind, fault):
    bad, said = FAULTS[fault]
    rows = [["Player 1", "Player 2"]] + [p.split(" & ") for p in PAIRS_24[:3]] + [bad] + [
        p.split(" & ") for p in PAIRS_24[3:]]
    if kind == "csv":
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        file = out.getvalue().encode()
    else:
        file = (xlsx_file if kind == "xlsx" else ods_file)(rows)
    response = post_form(client, file=file, name=f"pairs.{kind}")
    assert response.status_code == 200 and "Location" not in response.headers and refusal(response) == ""
    assert warnings(response) == ["1 row of the file was left out; the list above holds the others. Check it, then "
                                  "create the tournament.", said]
    assert listed(response) == "\n".join(PAIRS_24)
    state = made(client, post_form(client, entrants=listed(response)))  # the list, checked, created
    assert [e["names"] for e in state["entrants"]] == [p.split(" & ") for p in PAIRS_24]


def test_issue_27_the_form_lists_twenty_warnings_then_counts_the_others(client):
    rows = [["Xa", "Xb", f"Xc{i}"] for i in range(25)] + [["Ana", "Bo"], ["Cy", "Di"]]
    entrants, unread = read_upload(xlsx_file(rows), "many.xlsx")
    assert entrants == [["Ana", "Bo"], ["Cy", "Di"]] and [u.row for u in unread] == list(range(1, 26))
    said = warnings(post_form(client, file=xlsx_file(rows), name="many.xlsx"))
    assert said[0] == ("25 rows of the file were left out; the list above holds the others. Check it, then create "
                       "the tournament.")
    assert said[1:] == [f"Row {n} has 3 names (Xa, Xb, Xc{n - 1}): an entrant is a pair or one player."
                        for n in range(1, 21)] + ["… and 5 more rows."]


@pytest.mark.parametrize("file, name, said", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.png",
     "“photo.png” is not a list Referee can read: choose a .xlsx, .ods or .csv file, one entrant a row."),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504, "old.xls",
     "“old.xls” is an old Excel file (.xls) or has a password: save it as .xlsx or .ods, without a password, and "
     "choose it again."),
    (b"PK\x03\x04broken", "cut.xlsx",
     "“cut.xlsx” cannot be read: it may be damaged. Save it again as .xlsx, .ods or .csv and choose it again."),
])
def test_issue_27_a_file_that_is_no_list_is_refused_with_a_sentence(client, file, name, said):
    response = post_form(client, entrants="\n".join(PAIRS), file=file, name=name)
    assert response.status_code == 200 and refusal(response) == said
    assert listed(response) == "\n".join(PAIRS)  # what was typed is kept


def zipped(files: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_issue_27_a_zip_that_is_no_spreadsheet_is_refused(client):
    letter = zipped({"[Content_Types].xml": '<Types><Override PartName="/word/document.xml" ContentType="application/'
                     'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
                     "word/document.xml": "<w:document/>"})
    text = zipped({"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<office:document/>"})
    for file, name in ((letter, "letter.docx"), (text, "letter.odt")):
        assert refusal(post_form(client, file=file, name=name)) == (
            f"“{name}” is not a list Referee can read: choose a .xlsx, .ods or .csv file, one entrant a row.")


def rewritten(sheet: bytes, change) -> bytes:
    """A .xlsx with its parts changed by ``change(name, data) -> data``."""
    source = zipfile.ZipFile(io.BytesIO(sheet))
    return zipped({name: change(name, source.read(name)) for name in source.namelist()})


def test_issue_27_a_file_calamine_cannot_size_is_refused_and_the_server_goes_on(client):
    """calamine trusts the sizes a file announces; an allocation it cannot make aborts the process reading it. Read
    in its own process, the file is refused with a sentence and this one goes on."""
    sheet = xlsx_file([["Ana", "Bo"], ["Cy", "Di"]])
    far = rewritten(sheet, lambda name, data: data.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" '
                                                           b't="inlineStr"><is><t>x</t></is></c></row></sheetData>')
                    if name == "xl/worksheets/sheet1.xml" else data)
    rows = b'<row><c t="inlineStr"><is><t>A</t></is></c></row>' * 20000
    wide = b"<row>" + b'<c t="inlineStr"><is><t>A</t></is></c>' * 20000 + b"</row>"
    unsized = rewritten(sheet, lambda name, data: re.sub(rb"<sheetData>.*</sheetData>",
                                                         b"<sheetData>" + rows + wide + b"</sheetData>", data)
                        if name == "xl/worksheets/sheet1.xml" else data)
    assert len(far) < 64 * 1024 and len(unsized) < 64 * 1024
    for file in (far, unsized):
        assert refusal(post_form(client, file=file, name="big.xlsx")) == (
            "“big.xlsx” cannot be read: it may be damaged. Save it again as .xlsx, .ods or .csv and choose it again.")
    assert same(made(client, post_form(client, file=sheet)))[4] == [["Ana", "Bo"], ["Cy", "Di"]]


def test_issue_27_a_sheet_of_more_than_2000_rows_or_100_columns_is_refused(client):
    long = xlsx_file([[f"P{i}"] for i in range(2001)])
    assert refusal(post_form(client, file=long, name="long.xlsx")) == (
        "“long.xlsx” has 2001 rows; a list of entrants has at most 2000: keep only the entrants' rows.")
    wide = ods_file([["Ana"] + [None] * 100 + ["x"]])
    assert refusal(post_form(client, file=wide, name="wide.ods")) == (
        "“wide.ods” has 102 columns; a list of entrants has at most 100: keep only the names' columns.")


def test_issue_27_a_file_larger_than_the_upload_limit_gets_the_form_and_a_sentence(client):
    big = b"Ana,Bo\n" * 10000  # 70 KB: the whole form is held to 64 KiB (MAX_CONTENT_LENGTH)
    response = post_form(client, file=big, name="big.csv")
    said = "The file is larger than the form takes (64 KiB): keep only the list of entrants in it and choose it again."
    assert response.status_code == 413 and refusal(response) == said
    assert 'id="t-entrants-file"' in response.get_data(as_text=True)
    swapped = post_form(client, file=big, name="big.csv", headers={"HX-Request": "true"})
    assert swapped.status_code == 200 and refusal(swapped) == said  # htmx swaps a 200 in place


# --- the exports as .xlsx --------------------------------------------------------------------------------------

def evening(client):
    """8 pairs, round 1 played in full: every North-South pair wins its three hands 600 – 110 (MP 1800 – 330, VP
    19 – 1), except table 4, where East-West win the three. The director's key and the viewer's."""
    response = post_form(client, entrants="\n".join(PAIRS))
    tid, key = re.fullmatch(r"/tournaments/([\w-]+)\?key=([\w-]+)", response.headers["Location"]).groups()
    app = client.application
    assert client.post(f"/tournaments/{tid}/rounds?key={key}").status_code == 303
    store, ledger = app.extensions["referee.tournaments"], app.extensions["referee.ledger"]
    keys = {card["number"]: card["key"] for card in store.cards(tid)}
    for table in store.state(tid)["rounds"][0]["tables"]:
        for hand in [HAND_TO_EW if table["number"] == 4 else HAND_TO_NS] * 3:
            for body in hand:
                ledger.append(table["table_id"], body)
    assert keys and client.post(f"/tournaments/{tid}/rounds/1/close?key={key}").status_code == 303
    viewer = store.viewer_key(tid)
    return tid, key, viewer


def read_xlsx(response) -> list:
    """A workbook's first sheet as python-calamine reads it, each cell the text the CSV writes."""
    sheet = CalamineWorkbook.from_filelike(io.BytesIO(response.get_data())).get_sheet_by_index(0)
    return [[cell_text(value) for value in row] for row in sheet.to_python()]


def read_csv(response) -> list:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True), newline="")))


STANDINGS = [["rank", "entrant", "names", "vp", "mp", "mp_difference", "played", "penalties"]] + [
    [rank, entrant, names, vp, mp, difference, "1", "0"] for rank, entrant, names, vp, mp, difference in (
        ("1", "0", "Ana & Bo", "19", "1800", "1470"), ("1", "1", "Cy & Di", "19", "1800", "1470"),
        ("1", "2", "Ed & Flo", "19", "1800", "1470"), ("1", "7", "Oz & Pia", "19", "1800", "1470"),
        ("5", "3", "Gus & Hal", "1", "330", "-1470"), ("5", "4", "Ida & Jo", "1", "330", "-1470"),
        ("5", "5", "Kim & Lu", "1", "330", "-1470"), ("5", "6", "Mo & Ned", "1", "330", "-1470"))]
RESULTS = [["table", "north_south", "east_west", "mp_north_south", "mp_east_west", "vp_north_south", "vp_east_west",
            "status", "series_unit", "series_north_south", "series_east_west"],  # R-COMMON-7: not signed; 7b: unit
           ["1", "Ana & Bo", "Ida & Jo", "1800", "330", "19", "1", "to_confirm", "points", "1800", "330"],
           ["2", "Cy & Di", "Kim & Lu", "1800", "330", "19", "1", "to_confirm", "points", "1800", "330"],
           ["3", "Ed & Flo", "Mo & Ned", "1800", "330", "19", "1", "to_confirm", "points", "1800", "330"],
           ["4", "Gus & Hal", "Oz & Pia", "330", "1800", "1", "19", "to_confirm", "points", "330", "1800"]]


def test_issue_27_the_standings_and_a_rounds_results_as_xlsx_hold_the_csvs_exact_values(client):
    tid, key, viewer = evening(client)
    for path, filename, expected in (("standings", f"tournament-{tid}", STANDINGS),
                                     ("rounds/1/results", f"tournament-{tid}-round-1", RESULTS)):
        as_csv = client.get(f"/tournaments/{tid}/{path}.csv?key={viewer}")
        as_xlsx = client.get(f"/tournaments/{tid}/{path}.xlsx?key={viewer}")
        assert as_csv.status_code == as_xlsx.status_code == 200
        assert as_csv.mimetype == "text/csv" and as_xlsx.mimetype == XLSX
        assert as_xlsx.headers["Content-Disposition"] == f'attachment; filename="{filename}.xlsx"'
        assert as_csv.headers["Content-Disposition"] == f'attachment; filename="{filename}.csv"'
        assert read_csv(as_csv) == read_xlsx(as_xlsx) == expected
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/tournaments/{tid}/standings.xlsx?key={key}").get_data()))
    sheet = book.active
    assert sheet.title == "standings" and [c.value for c in sheet[2]] == [1, 0, "Ana & Bo", 19, 1800, 1470, 1, 0]
    assert [c.data_type for c in sheet[6]] == ["n", "n", "s", "n", "n", "n", "n", "n"]  # -1470: a number, not a text


def test_issue_27_the_xlsx_exports_ask_the_csvs_key_and_a_round_that_is(client):
    tid, key, viewer = evening(client)
    for path in ("standings.xlsx", "rounds/1/results.xlsx", "rounds/1/results.csv"):
        assert client.get(f"/tournaments/{tid}/{path}").status_code == 401
        assert client.get(f"/tournaments/{tid}/{path}?key=wrong").status_code == 401
    assert client.get(f"/tournaments/{tid}/rounds/2/results.xlsx?key={viewer}").status_code == 404
    assert client.get(f"/tournaments/{tid}/rounds/2/results.csv?key={viewer}").status_code == 404
    standings = client.get(f"/tournaments/{tid}/standings?key={viewer}").get_data(as_text=True)
    assert f'href="/tournaments/{tid}/standings.xlsx?key={viewer}" download>XLSX</a>' in standings
    printed = client.get(f"/tournaments/{tid}/print?key={viewer}").get_data(as_text=True)
    assert f'href="/tournaments/{tid}/rounds/1/results.xlsx?key={viewer}" download>XLSX</a>' in printed
    assert f'href="/tournaments/{tid}/rounds/1/results.csv?key={viewer}" download>CSV</a>' in printed


def test_issue_27_a_name_that_looks_like_a_formula_comes_back_as_text(client):
    names = ["=1+1", "+2", "-3", "@SUM(A1)", "Ana & Bo"]
    made_ = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": names[:4],
                                                     "rounds": [{"movement": "round_robin", "hands": 1}],
                                                     "vp_table": VP_ROWS})
    assert made_.status_code == 201
    tid, director, viewer = (made_.get_json()[k] for k in ("id", "director_key", "viewer_key"))
    assert client.post(f"/tournaments/{tid}/rounds?key={director}").status_code == 303
    standings = client.get(f"/tournaments/{tid}/standings.xlsx?key={viewer}")
    assert sorted(row[2] for row in read_xlsx(standings)[1:]) == sorted(names[:4])
    sheet = openpyxl.load_workbook(io.BytesIO(standings.get_data())).active
    cells = [row[2] for row in sheet.iter_rows(min_row=2)]
    assert sorted(c.value for c in cells) == sorted(names[:4])
    assert all(c.data_type == "s" and c.quotePrefix for c in cells)  # a text, kept a text when edited
    results = read_xlsx(client.get(f"/tournaments/{tid}/rounds/1/results.xlsx?key={viewer}"))
    assert sorted(n for row in results[1:] for n in row[1:3]) == sorted(names[:4])
    assert all(row[3:] == ["", "", "", "", "waiting", "", "", ""] for row in results[1:])  # nothing entered: no result yet
    raw = zipfile.ZipFile(io.BytesIO(standings.get_data())).read("xl/worksheets/sheet1.xml")
    assert b"<f>" not in raw  # no formula anywhere in the sheet
