"""A finished series is exported in its own unit, the one its sides sign (R-COMMON-7b): a table's CSV ends with the
series' line per side, a round's results (CSV and .xlsx) carry each table's series beside its MP and VP — a Brisca
pairs' table won 3 deals to 1 says 3 and 1 deals won, never its 270 and 210 card points."""
from __future__ import annotations

import csv
import io

from openpyxl import load_workbook

from tests.support.corrected import brisca_pairs_signed


def test_r_common_7b_a_finished_brisca_tables_csv_ends_with_its_deals_won(client):
    _tournament, _director, table_id, key = brisca_pairs_signed(client)
    rows = list(csv.reader(io.StringIO(client.get(f"/api/v1/tables/{table_id}/export.csv?key={key}")
                                       .get_data(as_text=True))))
    assert rows[0] == ["deal", "side", "players", "points", "slate", "complete"]
    assert rows[-2:] == [["series", "0", "Montse & Núria", "3", "deals_won", "True"],
                         ["series", "1", "Jordi & Pau", "1", "deals_won", "True"]]
    assert [row[3] for row in rows[1:3]] == ["70", "50"]  # a deal's own line keeps its card points


def test_r_common_7b_a_rounds_results_say_each_finished_series_in_its_unit(client):
    tournament_id, director, _table_id, _key = brisca_pairs_signed(client)
    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{tournament_id}/rounds/1/results.csv?key={director}")
                                       .get_data(as_text=True))))
    assert rows[0][-4:] == ["status", "series_unit", "series_north_south", "series_east_west"]
    assert rows[1][-4:] == ["signed", "deals_won", "3", "1"]
    book = load_workbook(io.BytesIO(client.get(f"/tournaments/{tournament_id}/rounds/1/results.xlsx?key={director}")
                                    .data))
    sheet = book.worksheets[0]
    assert [cell.value for cell in sheet[2]][-4:] == ["signed", "deals_won", 3, 1]
