"""A national evening on paper and in files (issue 40): 300 pairs of Burraco on 150 tables. The table cards of the
round are one page of 25 sheets of six cards, each card with its own QR code of its own table's link; the standings
of the 300 pairs and the round's 150 results hold every row in the CSV, the .xlsx and the printed page.

Round 1 (Mitchell, 3 hands, the burraco_3 VP table): North–South win every hand 600 – 110 at the odd tables (MP 1800 –
330, VP 19 – 1), East–West at the even ones (R-TOURN-1: a round's result is the VP table's, R-BURACO-6: 3 hands)."""
import csv
import io
import re
from html import unescape

import pytest
from openpyxl import load_workbook

from tests.support.deals import HAND_TO_EW, HAND_TO_NS

TABLES = 150
PAIRS = [[f"N{i:03d}", f"S{i:03d}"] for i in range(1, 2 * TABLES + 1)]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def seated(client):
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "National evening", "entrants": PAIRS,
                                                    "rounds": [{"movement": "mitchell", "hands": 3}] * 2}).get_json()
    state = client.post(f"/api/v1/tournaments/{made['id']}/rounds?key={made['director_key']}").get_json()
    assert len(state["rounds"][0]["tables"]) == TABLES
    return made["id"], made["director_key"], made["viewer_key"], state["rounds"][0]["tables"]


def test_r_tourn_cards_of_150_tables_are_25_sheets_of_six_each_with_its_own_qr_code(client, app):
    tid, key, _, tables = seated(client)
    page = client.get(f"/tournaments/{tid}/cards?key={key}").get_data(as_text=True)
    sheets = page.split('<div class="card-sheet">')[1:]
    assert [sheet.count('<section class="table-card">') for sheet in sheets] == [6] * 25
    assert page.count('<section class="table-card">') == TABLES and page.count("<svg") == TABLES
    numbers = [int(n) for n in re.findall(r'<span class="card-word">Table</span> (\d+)</h1>', page)]
    assert numbers == list(range(1, TABLES + 1))
    links = re.findall(r'aria-label="QR code of (http://[^"]+)"', page)
    cards = {card["number"]: card["key"] for card in app.extensions["referee.tournaments"].cards(tid)}
    assert [unescape(link).split("/", 3)[3] for link in links] == [f"tournaments/{tid}/tables/{n}?key={cards[n]}"
                                                                   for n in range(1, TABLES + 1)]
    assert "Print this page: 25 sheets of A4, six tables a sheet; cut along the dashed lines." in unescape(page)
    # Mitchell (R-TOURN-1): North–South pair n at table n, East–West pair 150 + n
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert "Table 1 North N001 East N151 South S001 West S151" in words
    assert "Table 150 North N150 East N300 South S150 West S300" in words


def test_r_tourn_1_the_standings_of_300_pairs_and_a_rounds_150_results_export_and_print_whole(client, app):
    tid, key, viewer, tables = seated(client)
    ledger = app.extensions["referee.ledger"]
    cards = {card["number"]: card["key"] for card in app.extensions["referee.tournaments"].cards(tid)}
    for table in tables:
        assert ledger.authorize(table["table_id"], cards[table["number"]], write=True) == "scorer"
        for body in (HAND_TO_NS if table["number"] % 2 else HAND_TO_EW) * 3:
            ledger.append(table["table_id"], body)
    assert client.post(f"/tournaments/{tid}/rounds/1/close?key={key}").status_code == 303
    winners = {n - 1 if n % 2 else TABLES + n - 1 for n in range(1, TABLES + 1)}  # entrant indexes

    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{tid}/standings.csv?key={key}").get_data(
        as_text=True))))
    assert len(rows) == 1 + 2 * TABLES and sorted(int(r[1]) for r in rows[1:]) == list(range(2 * TABLES))
    assert [(r[0], r[3], r[4]) for r in rows[1:]] == [("1", "19", "1800")] * TABLES + [("151", "1", "330")] * TABLES
    assert {int(r[1]) for r in rows[1:TABLES + 1]} == winners
    book = load_workbook(io.BytesIO(client.get(f"/tournaments/{tid}/standings.xlsx?key={key}").data))
    sheet = list(book.active.iter_rows(values_only=True))
    assert len(sheet) == 1 + 2 * TABLES and [list(map(str, r[:5])) for r in sheet[1:]] == [r[:5] for r in rows[1:]]

    results = list(csv.reader(io.StringIO(client.get(f"/tournaments/{tid}/rounds/1/results.csv?key={key}")
                                          .get_data(as_text=True))))
    assert len(results) == 1 + TABLES and [int(r[0]) for r in results[1:]] == list(range(1, TABLES + 1))
    assert [(r[3], r[4], r[5], r[6]) for r in results[1:]] == [("1800", "330", "19", "1"), ("330", "1800", "1", "19")
                                                               ] * (TABLES // 2)
    book = load_workbook(io.BytesIO(client.get(f"/tournaments/{tid}/rounds/1/results.xlsx?key={key}").data))
    sheet = list(book.active.iter_rows(values_only=True))
    assert len(sheet) == 1 + TABLES and [r[0] for r in sheet[1:]] == list(range(1, TABLES + 1))
    assert [r[3:7] for r in sheet[1:]] == [(1800, 330, 19, 1), (330, 1800, 1, 19)] * (TABLES // 2)

    printed = client.get(f"/tournaments/{tid}/print?key={viewer}").get_data(as_text=True)
    ranking, round_results = printed.split("Round 1 · Mitchell", 1)
    assert len(re.findall(r"<tr", ranking)) == 1 + 2 * TABLES  # the heading and every pair
    for n in (1, 150, 300):
        assert f"N{n:03d} &amp; S{n:03d}" in ranking
    assert len(re.findall(r"<tr", round_results)) == 1 + TABLES  # the heading and every table
