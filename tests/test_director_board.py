"""The director's page at 150 tables (issue 40) through Flask's test client: the counts per status at the top
(R-COMMON-7's signed, to confirm and called; R-COMMON-7b's corrected with R-TOURN-1's arbitral; R-TOURN-1's not
played), a filter per status and a search by table number or entrant's name (plain GET, exact table numbers), the
calls to the director first; htmx's board alone; the live part's rows each with its version, only the changed
table's version moving; the director's stream sends a changed table's row whole and alone, whatever the row's
markup (the rows are the renderer's parts, never found again in its HTML). The evening: tests/support/big_round.py."""
import re

import pytest
from jinja2 import ChoiceLoader, DictLoader

from tests.support import big_round as evening
from tests.support.api import check


@pytest.fixture
def played(client):
    def post(path, body, key):
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        answer = client.post(path, json=body, headers=headers)
        assert answer.status_code in (200, 201), (path, answer.get_json())
        return answer.get_json()
    client.set_cookie("lang", "en")
    return {**evening.big_round(post), "post": post}


def page(client, made, **args):
    query = "".join(f"&{name}={value}" for name, value in args.items())
    answer = client.get(f"/tournaments/{made['id']}?key={made['director']}{query}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def counts(body: str) -> dict:
    return {group: int(n) for group, n in re.findall(r'id="count-(\w+)" class="count"[^>]*>\s*(\d+)<', body)}


def rows(body: str) -> list:
    """The table numbers of the board's rows, in the page's order."""
    return [int(n) for n in re.findall(r'<li id="table-(\d+)"', body)]


def test_r_common_7_the_board_of_150_tables_counts_each_status_and_puts_the_calls_first(client, played):
    body = page(client, played)
    assert counts(body) == {"all": 150, **evening.COUNTS}
    assert rows(body) == [41, 42, 43] + [n for n in range(1, 151) if n not in (41, 42, 43)]
    assert re.findall(r'class="table-progress status-(\w+) group-(\w+)', body)[:4] == [
        ("disputed", "called")] * 3 + [("waiting", "playing")]
    assert body.index('class="calls"') < body.index('id="board"')  # the calls' box above the board
    assert "3 calls to the director" in body and "Table 41: a pot counted twice" in body
    assert "150 tables of 150 shown." in body
    assert 'aria-current="true"><span class="label">All</span>' in body


def test_r_common_7_a_filter_per_status_shows_its_tables_only(client, played):
    for status, numbers in (("called", [41, 42, 43]), ("to_confirm", list(range(21, 31))),
                            ("signed", list(range(31, 41))), ("corrected", [44, 45, 46]), ("not_played", [])):
        body = page(client, played, status=status)
        assert rows(body) == numbers, status
        assert counts(body) == {"all": 150, **evening.COUNTS}  # the counts stay the round's
        assert f'filter-{status} current" href=' in body
    playing = rows(page(client, played, status="playing"))
    assert playing == [*range(1, 21), *range(47, 151)]
    assert rows(page(client, played, status="nonsense")) == [41, 42, 43] + [n for n in range(1, 151)
                                                                          if n not in (41, 42, 43)]
    empty = page(client, played, status="not_played")
    assert "0 tables of 150 shown." in empty and "Show every table" in empty


def test_the_search_finds_a_table_by_its_number_or_an_entrants_name(client, played):
    assert rows(page(client, played, q="12")) == [12]
    assert rows(page(client, played, q="151")) == []
    assert rows(page(client, played, q="%C3%A9lodie")) == [8, 11]  # "élodie": case and accents aside
    assert rows(page(client, played, q="M%C3%BCLLER")) == [8]
    assert rows(page(client, played, q="Pl299")) == [150]
    assert rows(page(client, played, q="Pl03", status="signed")) == [31, 32, 33, 34, 35, 36, 37, 38, 39, 40]
    assert rows(page(client, played, q="Pl035", status="signed")) == [36]
    assert rows(page(client, played, q="Pl035", status="called")) == []
    body = page(client, played, q="Pl042")
    assert rows(body) == [43] and 'value="Pl042"' in body and "1 table of 150 shown." in body


def test_htmx_asks_the_board_alone_and_the_filters_keep_the_search(client, played):
    answer = client.get(f"/tournaments/{played['id']}?key={played['director']}&status=called&q=Pl04",
                        headers={"HX-Request": "true", "HX-Target": "board"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert body.lstrip().startswith('<div id="board"') and "<html" not in body and rows(body) == [41, 42, 43]
    assert 'id="status-filter" class="status-filter" aria-label="Tables by status" hx-swap-oob="true"' in body
    assert 'status=signed&amp;q=Pl04' in body  # each filter keeps the search, the one chosen marked
    assert 'filter-called current" href=' in body and counts(body)["called"] == 3
    assert 'name="status" value="called" form="table-search"' in body


def test_r_tourn_1_closed_by_force_the_tables_with_nothing_played_count_as_not_played(client, played):
    closed = played["post"](f"/api/v1/tournaments/{played['id']}/rounds/1/close",
                            {"force": True, "reason": "The hall closes at midnight."}, played["director"])
    assert closed["closed"] is True
    body = page(client, played)
    assert counts(body) == {"all": 150, "playing": 0, "to_confirm": 20, "called": 3, "corrected": 3, "signed": 10,
                            "not_played": 114}
    assert rows(page(client, played, status="not_played")) == [*range(1, 11), *range(47, 151)]


def test_the_live_part_sends_every_row_with_its_version_and_only_the_changed_ones_move(client, played):
    live = f"/tournaments/{played['id']}/live?key={played['director']}&view=director"

    def versions():
        body = client.get(live, headers={"HX-Request": "true"}).get_data(as_text=True)
        assert len(re.findall(r'<li id="table-\d+"[^>]*hx-swap-oob="true"', body)) == 150
        found = dict(re.findall(r'<li id="table-(\d+)".*?data-v="(\w+)"', body, flags=re.S))
        return {int(n): v for n, v in found.items()}, counts(body)

    before, said = versions()
    assert said == evening.COUNTS
    table = played["tables"][46]  # table 47, waiting
    evening.hand(played["post"], table, evening.card_key(table))
    after, now = versions()
    assert [n for n in before if before[n] != after[n]] == [47]
    assert now == evening.COUNTS  # table 47 still playing: one hand of three
    check(client.get(f"/api/v1/tournaments/{played['id']}?key={played['director']}"), "get",
          "/api/v1/tournaments/{tournament_id}", 200)


def test_r_common_7_the_wall_of_300_entrants_counts_in_the_signed_or_settled_tables_only(client, played):
    wall = f"/tournaments/{played['id']}/screen?key={played['viewer']}"
    body = client.get(wall).get_data(as_text=True)
    assert len(re.findall(r'<th scope="row" class="names">', body)) == 300
    said = " ".join(re.search(r'<p class="results-in">(.*?)</p>', body, flags=re.S).group(1).split())
    assert said == ("Results in: 13 / 150 · tables 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 41, 42, 43 still to "
                    "sign")  # signed 31-40, corrected 44-45 (R-COMMON-7b), arbitral 46 (R-TOURN-1)
    table = played["tables"][20]
    for number in (0, 1):  # table 21 signed: its result is in
        played["post"](f"/api/v1/tables/{table['table_id']}/events", {"type": "confirm", "side": number},
                       evening.card_key(table))
    body = client.get(wall).get_data(as_text=True)
    assert "Results in: 14 / 150 · tables 22, 23," in " ".join(body.split())


def events_of(response):
    """A stream's events as they come: (name, data)."""
    pending = []
    for chunk in response.response:
        pending += [part for part in chunk.decode().split("\n\n") if part and not part.startswith(("retry", ":"))]
        while pending:
            lines = pending.pop(0).split("\n")
            name = next(line[7:] for line in lines if line.startswith("event: "))
            yield name, "\n".join(line[6:] for line in lines if line.startswith("data: "))


def next_live(events) -> str:
    return next(data for name, data in events if name == "live")


def director_stream(client, played) -> tuple:
    """The director's round's stream, opened at the tournament's revision: (the response, its events after
    "alive")."""
    revision = client.get(f"/api/v1/tournaments/{played['id']}?key={played['director']}").get_json()["revision"]
    response = client.get(f"/tournaments/{played['id']}/stream?key={played['director']}&since={revision}"
                          f"&view=director", buffered=False)
    assert response.status_code == 200
    events = events_of(response)
    assert next(events)[0] == "alive"
    return response, events


def hand_seen(played, events, number: int) -> str:
    """A hand entered at table ``number``: the stream's next live event."""
    table = played["tables"][number - 1]
    evening.hand(played["post"], table, evening.card_key(table))
    return next_live(events)


def test_the_directors_stream_sends_a_changed_tables_row_alone_after_its_first_event(client, played):
    response, events = director_stream(client, played)
    for number in (47, 48):
        data = hand_seen(played, events, number)
        assert 'id="live" class="round-live"' in data and 'id="count-playing" class="count" hx-swap-oob="true">' \
            '124</span>' in data
        sent = re.findall(r'<li id="table-(\d+)"', data)
        # the first event every row (the page drops those it holds), then the changed table's alone
        assert sent == ([str(n) for n in range(1, 151)] if number == 47 else ["48"])
    response.close()


ROW_TEMPLATE = "_tournament_director_row.html"
MARKUPS = {  # a row's markup changed as a template may: the stream sends the rows the renderer made, not found
    "an attribute before the id, a newline in the tag": lambda source: source.replace(
        '<li id=', '<li\n  data-table="{{ t.number }}" id='),
    "a list inside the row": lambda source: source.replace(
        '<p class="table-no">', '<ul class="seats"><li>{{ t.entrants|length }}</li></ul><p class="table-no">'),
}


@pytest.mark.parametrize("markup", MARKUPS)
def test_the_directors_stream_sends_a_changed_tables_row_whole_and_alone_whatever_its_markup(app, client, played,
                                                                                             markup):
    source = app.jinja_env.loader.get_source(app.jinja_env, ROW_TEMPLATE)[0]
    changed = MARKUPS[markup](source)
    assert changed != source
    app.jinja_env.loader = ChoiceLoader([DictLoader({ROW_TEMPLATE: changed}), app.jinja_env.loader])
    app.jinja_env.cache.clear()
    response, events = director_stream(client, played)
    for number in (47, 48):
        data = hand_seen(played, events, number)
        sent = re.findall(r'id="table-(\d+)" class="table-progress', data)
        assert sent == ([str(n) for n in range(1, 151)] if number == 47 else ["48"])
        assert data.count("<li") == data.count("</li>")  # each row whole
        assert data.count('class="table-no"') == len(sent)
    assert 'data-table="48"' in data or '<ul class="seats"><li>2</li></ul>' in data
    response.close()
