"""A club's import is whole (R-CLUB-1, the contract's "Clubs and players"; issue 38, items 7 and 15): one transaction,
so a refused file, a server killed in the middle or the same form sent twice leaves no club or one whole club; a
number JSON does not have and an entry time that cannot be read, or cannot be true, are refused with a sentence
naming the table and the entry. On SQLite and PostgreSQL. The server tests (a real process killed mid-import, a
double send, its memory) are in tests/test_club_import_server.py."""
from __future__ import annotations

import html
import io
import json
import re
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import text
from referee.web.services import status_of

from tests.support.clubs import bearer, club_export


@pytest.fixture
def forms(app_on_each_database):
    """The app on each database, its forms posted as a browser would (the CSRF token aside)."""
    app_on_each_database.config["WTF_CSRF_ENABLED"] = False
    client = app_on_each_database.test_client()
    client.set_cookie("lang", "en")  # the sentences below in the catalogues' own language
    return client


def send(client, raw: bytes, form_id: str = "i" * 32):
    return client.post("/clubs/import", data={"file": (io.BytesIO(raw), "club.json"), "form_id": form_id},
                       content_type="multipart/form-data")


def counts(client) -> tuple:
    """(clubs, members, tables, events) stored."""
    return client.application.extensions["referee.ledger"].read(lambda connection: tuple(
        connection.execute(text(f"select count(*) from {name}")).scalar()
        for name in ("clubs", "club_members", "tables", "events")))


def refusal(answer) -> str:
    found = re.search(r'class="refusal"[^>]*>(.*?)</', answer.get_data(as_text=True), re.S)
    assert found, answer.get_data(as_text=True)[:500]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def with_points(doc: dict, table: int, entry: int, value) -> bytes:
    """The file with ``value`` (written as JSON text, as is) in place of the first points of one entry."""
    doc["tables"][table - 1]["events"][entry - 1]["points"] = [424242, 50]
    return json.dumps(doc).replace("424242", value, 1).encode()


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_json_does_not_have_is_refused_naming_the_table_and_the_entry_r_club_1(forms, value):
    """Python's parser reads NaN and Infinity (and 1e999 as infinity); JSON has none of them."""
    answer = send(forms, with_points(club_export(3), 2, 4, value))
    assert answer.status_code == 422
    assert refusal(answer) == f"Table 2, entry 4: {value} is not a number JSON has."
    assert counts(forms) == (0, 0, 0, 0)


def test_a_number_json_does_not_have_outside_the_tables_is_refused_r_club_1(forms):
    doc = club_export(1)
    doc["club"]["season"] = 424242
    answer = send(forms, json.dumps(doc).replace("424242", "NaN").encode())
    assert answer.status_code == 422 and refusal(answer) == "This file holds NaN, which is not a number JSON has."
    assert counts(forms) == (0, 0, 0, 0)


def at(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize("time, code, sentence", [
    ("yesterday evening", "bad_time", "Table 3, entry 5: its time yesterday evening cannot be read."),
    (None, "bad_time", "Table 3, entry 5: its time null cannot be read."),
    (17, "bad_time", "Table 3, entry 5: its time 17 cannot be read."),
    ("9999-12-31T00:00:00Z", "time_in_future", "Table 3, entry 5: its time 9999-12-31T00:00:00Z is in the future."),
    ("0001-01-01T00:00:00Z", "time_too_old",
     "Table 3, entry 5: its time 0001-01-01T00:00:00Z is before 2026-01-01, older than any Referee export."),
    ("2025-12-31T23:59:59Z", "time_too_old",
     "Table 3, entry 5: its time 2025-12-31T23:59:59Z is before 2026-01-01, older than any Referee export."),
], ids=["words", "null", "a-number", "year-9999", "year-1", "a-second-before-2026"])
def test_an_entry_time_unreadable_or_untrue_is_refused_naming_the_table_and_the_entry_r_club_1(forms, time, code,
                                                                                                 sentence):
    """Before, an unreadable time became "now" without a word, and 9999-12-31 counted the series in every season."""
    doc = club_export(4)
    doc["tables"][2]["events"][4]["at"] = time
    answer = send(forms, json.dumps(doc).encode())
    assert answer.status_code == 422 and refusal(answer) == sentence
    assert counts(forms) == (0, 0, 0, 0)
    with pytest.raises(Exception) as refused:  # the store itself, as any caller meets it
        forms.application.extensions["referee.clubs"].import_club(doc)
    assert (refused.value.code, status_of(refused.value)) == (code, 422)
    assert counts(forms) == (0, 0, 0, 0)


def test_a_time_in_the_future_by_a_future_minute_is_refused_and_within_the_skew_taken_r_club_1(forms):
    """A few minutes of clock skew (5) are taken; 2026-01-01 itself is the first day an export can hold."""
    now = datetime.now(timezone.utc)
    doc = club_export(2)
    doc["tables"][1]["events"][5]["at"] = at(now + timedelta(minutes=6))
    answer = send(forms, json.dumps(doc).encode())
    assert answer.status_code == 422 and refusal(answer).endswith("is in the future.")
    doc["tables"][1]["events"][5]["at"] = at(now + timedelta(minutes=2))
    doc["tables"][0]["events"][0]["at"] = "2026-01-01T00:00:00Z"
    assert send(forms, json.dumps(doc).encode()).status_code == 303
    assert counts(forms) == (1, 4, 2, 12)


def test_a_refusal_at_the_last_table_stores_nothing_of_the_ones_before_r_club_1(forms):
    """The tables are stored one by one in the import's one transaction: the last one's refusal takes them all back."""
    doc = club_export(30)
    doc["tables"][-1]["events"][3]["points"] = [70]  # one side's points of two: no Brisca deal (R-BRISCA-6)
    answer = send(forms, json.dumps(doc).encode())
    assert answer.status_code == 422
    assert counts(forms) == (0, 0, 0, 0)


def test_the_same_form_sent_again_answers_its_one_whole_club_another_file_another_r_club_1(forms):
    raw = json.dumps(club_export(40)).encode()
    first, again = send(forms, raw), send(forms, raw)
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert counts(forms) == (1, 4, 40, 240)
    club_id, key = re.fullmatch(r"/clubs/([\w-]+)\?key=([\w-]+)", first.headers["Location"]).groups()
    state = forms.get(f"/api/v1/clubs/{club_id}", headers=bearer(key)).json
    assert len(state["tables"]) == 40 and all(t["finished"] for t in state["tables"])
    other = club_export(41)
    assert send(forms, json.dumps(other).encode()).headers["Location"] != first.headers["Location"]
    assert counts(forms) == (2, 8, 81, 486)
