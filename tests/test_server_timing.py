"""Every answer says the app's own time (issue 40, ``referee/web/serving/server_timing.py``): ``Server-Timing:
app;dur=<ms>``, read by ``bench/entries.py`` to tell a tap's server time from its round trip."""
from __future__ import annotations

import pytest

from referee.web.serving.server_timing import server_ms


def test_a_page_an_api_answer_and_a_refusal_each_say_the_apps_time(client):
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]})
    assert created.status_code == 201
    table = created.get_json()
    answers = [created, client.get("/"), client.get(f"/t/{table['id']}?key={table['scorer_key']}"),
               client.get("/api/v1/tables/nope-nope", headers={"Authorization": "Bearer x"})]
    assert [answer.status_code for answer in answers] == [201, 200, 200, 404]
    for answer in answers:
        (header,) = answer.headers.getlist("Server-Timing")
        assert header.startswith("app;dur=")
        assert 0 < server_ms(header) < 60_000


@pytest.mark.parametrize(("header", "expected"), [
    ("app;dur=3.25", 3.25), ("db;dur=1, app;desc=\"app\";dur=4.5", 4.5), ("db;dur=1", None), (None, None),
    ("app", None)])
def test_the_apps_time_is_read_from_a_header_as_browsers_write_it(header, expected):
    assert server_ms(header) == expected
