"""Every CSV Referee writes, read back as a spreadsheet would read it: split on ``,`` (the file's own separator)
every cell is the name as typed or neutralised (an apostrophe before a formula character); split on ``;`` (French and
other European spreadsheets) no cell starts a formula either (``referee/web/shared/csv_files.py``)."""
import csv
import io

import pytest

from referee.web.shared.csv_files import FORMULA, NUMBER, cell, csv_text
from tests.support.scorer import token
from tests.support.burraco import VP_ROWS

# As typed -> as the file's cell reads under ",": the apostrophe stands before every formula character a reader
# could see at a cell's start (the name's start, or past a separator, spaces and quotes).
NAMES = {
    "A;=1+1": "A;'=1+1", "B,+2": "B,'+2", 'C"-3': 'C"-3', "@D": "'@D", "=E": "'=E", "+F": "'+F", "-G": "'-G",
    'H;"=1': "H;\"'=1", "I; -2": "I; '-2", 'J"": K': 'J"": K', "Ana & Bo": "Ana & Bo", "=1+1;@x,-y": "'=1+1;'@x,'-y",
}


def cells(text: str, delimiter: str) -> list:
    return [value for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) for value in row]


def starts_no_formula(text: str) -> None:
    """Read with either separator, no cell starts with a formula character (past any spaces and quotes a reader
    may drop), a plain number (``-1470``) aside."""
    for delimiter in (",", ";"):
        for value in cells(text, delimiter):
            if not NUMBER.fullmatch(value):
                assert value.lstrip(' "')[:1] not in FORMULA, (delimiter, value)


def test_a_tables_export_csv_holds_the_names_as_typed_or_neutralised(client):
    names = list(NAMES)
    for pair in (names[i:i + 2] for i in range(0, len(names), 2)):  # two-player Brisca: one side a name
        made = client.post("/api/v1/tables", json={"game": "brisca", "players": pair}).get_json()
        assert client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "deal", "trump": "11E"},
                           headers={"Authorization": f"Bearer {made['scorer_key']}"}).status_code == 201
        exported = client.get(f"/api/v1/tables/{made['id']}/export.csv?key={made['viewer_key']}")
        assert exported.mimetype == "text/csv"
        text = exported.get_data(as_text=True)
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert rows == [["deal", "side", "players", "points", "slate", "complete"],
                        ["1", "0", NAMES[pair[0]], "0", "", "False"], ["1", "1", NAMES[pair[1]], "0", "", "False"]]
        starts_no_formula(text)


def test_a_four_player_sides_names_are_neutralised_where_a_reader_could_split(client):
    made = client.post("/api/v1/tables", json={"game": "brisca", "players": ["A;=1+1", "B", "-C", "D"]}).get_json()
    client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "deal", "trump": "11E"},
                headers={"Authorization": f"Bearer {made['scorer_key']}"})
    text = client.get(f"/api/v1/tables/{made['id']}/export.csv?key={made['viewer_key']}").get_data(as_text=True)
    assert [row[2] for row in csv.reader(io.StringIO(text, newline=""))][1:] == ["A;'=1+1 & -C", "B & D"]
    assert '1,0,"A;\'=1+1 & -C",0,,False\r\n' in text  # quoted: it holds a ";"
    starts_no_formula(text)


def test_a_tournaments_standings_csv_holds_the_names_as_typed_or_neutralised(client):
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": list(NAMES),
                                                    "rounds": [{"movement": "round_robin", "hands": 1}],
                                                    "vp_table": VP_ROWS})
    assert made.status_code == 201
    tournament = made.get_json()
    exported = client.get(f"/tournaments/{tournament['id']}/standings.csv?key={tournament['viewer_key']}")
    assert exported.mimetype == "text/csv"
    text = exported.get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["rank", "entrant", "names", "vp", "mp", "mp_difference", "played", "penalties"]
    assert [row[2] for row in rows[1:]] == list(NAMES.values())
    assert all(row[3:] == ["0", "0", "0", "0", "0"] for row in rows[1:])
    starts_no_formula(text)


def test_a_played_tournaments_negative_numbers_stay_numbers():
    text = csv_text(["rank", "names", "mp_difference"], [[5, "Gus & Hal", "-1470"], [1, "-1470 & Bo", -3.5]])
    assert text == "rank,names,mp_difference\r\n5,Gus & Hal,-1470\r\n1,'-1470 & Bo,-3.5\r\n"


@pytest.mark.parametrize("typed, written, read", [
    ("X\n=1", "\"X\n'=1\"", "X\n'=1"), ("X\r\n-1", "\"X\r\n'-1\"", "X\r\n'-1"), ("\t=1", "\"'\t'=1\"", "'\t'=1"),
    ("a\rb", '"a\rb"', "a\rb"), ('"=1', "\"\"\"'=1\"", "\"'=1"), ("  +1", "  '+1", "  '+1"), ("", "", ""),
    (None, "", ""), (True, "True", "True"), (12, "12", "12"), (-3.5, "-3.5", "-3.5"),
])
def test_the_writer_guards_line_breaks_and_tabs_names_can_never_hold(typed, written, read):
    assert cell(typed) == written
    text = csv_text(["deal", "name", "points"], [[1, typed, -2]])
    assert cells(text, ",") == ["deal", "name", "points", "1", read, "-2"]
    starts_no_formula(text)


@pytest.mark.parametrize("name", ["X\n=1", "Ana\r", "Bo\tCy", "D\x00", "E\x7f"])
def test_a_name_with_a_control_character_is_refused_at_entry_with_its_sentence(client, name):
    table = client.post("/api/v1/tables", json={"game": "brisca", "players": [name, "Zoe"]})
    assert table.status_code == 422
    assert table.get_json()["error"]["message"] == "A player's name is at most 40 printable characters."
    tournament = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": [
        name, "Zoe", "Yan", "Xia"], "rounds": [{"movement": "round_robin", "hands": 1}], "vp_table": VP_ROWS})
    assert tournament.status_code == 422 and tournament.get_json()["error"]["code"] == "bad_entrants"


def test_the_set_up_form_refuses_a_name_with_a_line_break(csrf_client):
    csrf_client.set_cookie("lang", "en")
    page = csrf_client.get("/new/brisca").get_data(as_text=True)
    refused = csrf_client.post("/new/brisca", data={"csrf_token": token(page), "player": ["X\n=1", "Zoe"],
                                                    "dealer": "0", "op": "create"})
    assert refused.status_code == 200 and "Location" not in refused.headers  # the form again, with the sentence
    assert "A player&#39;s name is at most 40 printable characters." in refused.get_data(as_text=True)
