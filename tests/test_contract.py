"""The API's contract (docs/api.md) against a running server: the shapes and status codes every client relies on —
scripts, a club's display board, the pages themselves — checked over HTTP, standard library only, with each answer
also held against the schemas of the server's own /api/v1/openapi.json. Game results are the engine tests' business.
"""
import json
import re
import sqlite3
import urllib.error
import urllib.request

import pytest

from tests.support.streams import Reader

GAME_IDS = {"brulot", "brisca", "buraco", "brouc", "brusquembille"}
PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]
URL_SAFE_128_BITS = re.compile(r"[A-Za-z0-9_-]{22,}")  # 22 URL-safe characters carry 132 bits
SNAKE = re.compile(r"[a-z][a-z0-9_]*")


@pytest.fixture(scope="module")
def server(server_module):
    """The module's one server (conftest's ``server_module``): the contract's checks share it."""
    return server_module


class Answer:
    def __init__(self, status: int, headers, raw: bytes):
        self.status, self.headers, self.raw = status, headers, raw
        self.body = json.loads(raw) if raw and headers.get_content_type() == "application/json" else None

    @property
    def error(self) -> dict:
        """The error of an error answer, after checking the contract's shape: {"error": {"code", "message", …}}."""
        assert isinstance(self.body, dict) and set(self.body) == {"error"}, self.raw[:300]
        error = self.body["error"]
        assert isinstance(error.get("code"), str) and SNAKE.fullmatch(error["code"]), error
        assert isinstance(error.get("message"), str) and error["message"].strip(), error
        return error


def call(server, method: str, path: str, body=None, key: str | None = None, raw: bytes | None = None,
         content_type: str = "application/json") -> Answer:
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Accept": "application/json"})
    if data is not None:
        request.add_header("Content-Type", content_type)
    if key:
        request.add_header("Authorization", "Bearer " + key)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as refused:
        return Answer(refused.code, refused.headers, refused.read())


@pytest.fixture(scope="module")
def document(server) -> dict:
    answer = call(server, "GET", "/api/v1/openapi.json")
    assert answer.status == 200 and answer.body["openapi"] == "3.1.0"
    return answer.body


def as_documented(document: dict, answer: Answer, method: str, path: str) -> Answer:
    """The answer fits what the document says ``method path`` answers with its status (or ``default``)."""
    answers = document["paths"][path][method]["responses"]
    said = answers.get(str(answer.status), answers["default"])
    if "$ref" in said:
        said = document["components"]["responses"][said["$ref"].rsplit("/", 1)[1]]
    schema = said["content"]["application/json"]["schema"]
    errors = [e.message for e in fits_in(document, schema, answer.body)]
    assert errors == [], (method, path, answer.status, errors[:3])
    return answer


def fits_in(document: dict, schema: dict, instance) -> list:
    from jsonschema import Draft202012Validator
    return list(Draft202012Validator({**schema, "components": document["components"]}).iter_errors(instance))


@pytest.fixture(scope="module")
def table(server) -> dict:
    answer = call(server, "POST", "/api/v1/tables", {"game": "brisca", "players": PLAYERS4})
    assert answer.status == 201
    return answer.body


def test_the_games_are_listed_with_their_names_player_counts_and_options(server, document):
    answer = as_documented(document, call(server, "GET", "/api/v1/games"), "get", "/api/v1/games")
    games = {game["id"]: game for game in answer.body["games"]}
    assert set(games) == GAME_IDS
    for game in games.values():
        assert {"id", "name", "players", "options"} <= set(game)
        low, high = game["players"]
        assert 2 <= low <= high <= 6
        for option in game["options"]:
            assert {"name", "type", "default"} <= set(option)
    assert games["brouc"]["players"] == [4, 4] and games["brisca"]["players"] == [2, 6]


def test_a_new_table_answers_its_two_keys_its_links_and_its_state(server, document, table):
    assert {"id", "scorer_key", "viewer_key", "scorer_url", "viewer_url", "state"} <= set(table)
    for key in (table["scorer_key"], table["viewer_key"]):
        assert URL_SAFE_128_BITS.fullmatch(key)
    assert table["scorer_key"] != table["viewer_key"]
    assert table["scorer_url"].endswith(f"/t/{table['id']}?key={table['scorer_key']}")
    assert table["viewer_url"].endswith(f"/t/{table['id']}?key={table['viewer_key']}")
    answer = as_documented(document, call(server, "POST", "/api/v1/tables", {"game": "buraco", "players": ["A", "B"]}),
                           "post", "/api/v1/tables")
    assert answer.status == 201 and answer.headers["Location"] == f"/api/v1/tables/{answer.body['id']}"


def test_only_a_hash_of_the_scorer_key_is_stored(server, table):
    with sqlite3.connect(server.env["DATABASE_URL"].removeprefix("sqlite:///")) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        stored = "\n".join(str(row) for name in names for row in db.execute(f'SELECT * FROM "{name}"'))
    assert table["id"] in stored and table["viewer_key"] in stored
    assert table["scorer_key"] not in stored


def test_the_state_has_every_field_the_contract_names(server, document, table):
    answer = as_documented(document, call(server, "GET", f"/api/v1/tables/{table['id']}", key=table["viewer_key"]),
                           "get", "/api/v1/tables/{table_id}")
    state = answer.body
    assert {"id", "game", "version", "players", "sides", "options", "deals", "totals", "series", "next"} <= set(state)
    assert state["id"] == table["id"] and state["game"] == "brisca" and state["players"] == PLAYERS4
    assert [side["players"] for side in state["sides"]] == [[0, 2], [1, 3]]  # R-COMMON-3: partners opposite
    assert {"finished", "winner"} <= set(state["series"]) and {"action", "player"} <= set(state["next"])
    assert set(state["options"]) == {o["name"] for o in next(g for g in call(server, "GET", "/api/v1/games").body[
        "games"] if g["id"] == "brisca")["options"]}


@pytest.mark.parametrize("case, method, status, code", [
    ("no key", "GET", 401, "key_required"),
    ("a wrong key", "GET", 401, "bad_key"),
    ("the viewer key writing", "POST", 403, "read_only_key"),
    ("an unknown table", "GET", 404, "table_not_found"),
])
def test_access_refusals_answer_their_status_and_an_error_body(server, document, table, case, method, status, code):
    key = {"no key": None, "a wrong key": "wrong-" + "x" * 30, "an unknown table": table["viewer_key"],
           "the viewer key writing": table["viewer_key"]}[case]
    table_id = "no-such-table" if case == "an unknown table" else table["id"]
    path = f"/api/v1/tables/{table_id}" + ("/events" if method == "POST" else "")
    answer = call(server, method, path, {"type": "deal", "trump": "4O"} if method == "POST" else None, key)
    documented = "/api/v1/tables/{table_id}" + ("/events" if method == "POST" else "")
    as_documented(document, answer, method.lower(), documented)
    assert answer.status == status and answer.error["code"] == code


def test_a_key_opens_the_table_in_the_address_as_in_the_header(server, table):
    answer = call(server, "GET", f"/api/v1/tables/{table['id']}?key={table['viewer_key']}")
    assert answer.status == 200 and answer.body["id"] == table["id"]


def test_entries_refusals_retries_stale_versions_undo_and_the_log(server, document):
    created = call(server, "POST", "/api/v1/tables", {"game": "brisca", "players": PLAYERS4}).body
    scorer, events = created["scorer_key"], f"/api/v1/tables/{created['id']}/events"
    path = "/api/v1/tables/{table_id}/events"

    def post(body):
        return as_documented(document, call(server, "POST", events, body, scorer), "post", path)

    answer = post({"type": "deal", "trump": "4o"})  # case-insensitive
    assert answer.status == 201 and answer.body["state"]["version"] == 1
    assert answer.body["state"]["deals"][0]["trump"] == "4O"
    refused = post({"type": "trick", "cards": ["8O", "1C", "2C", "3C"]})  # no 8 in a 40-card deck
    assert refused.status == 422 and refused.error["code"] == "unknown_card" and refused.error["card"] == "8O"
    refused = post({"type": "no_such_event"})
    assert refused.status == 422 and refused.error["code"] == "bad_event"
    trick = {"type": "trick", "cards": ["1C", "2C", "3C", "5C"], "client_event_id": "phone-1"}
    first, again = post(trick), post(trick)
    assert (first.status, again.status) == (201, 200)
    assert first.body["state"]["version"] == again.body["state"]["version"] == 2
    stale = post({"type": "trick", "cards": ["6C", "7C", "10C", "11C"], "expected_version": 1})
    assert stale.status == 409 and stale.error["code"]
    assert call(server, "GET", f"/api/v1/tables/{created['id']}", key=scorer).body["version"] == 2  # nothing stored
    undone = as_documented(document, call(server, "POST", f"/api/v1/tables/{created['id']}/undo", {}, scorer),
                           "post", "/api/v1/tables/{table_id}/undo")
    assert undone.status == 200 and undone.body["state"]["version"] == 1
    log = as_documented(document, call(server, "GET", events, key=created["viewer_key"]), "get", path).body["events"]
    assert [(e["seq"], e["type"], e["withdrawn"]) for e in log] == [(1, "deal", False), (2, "trick", True)]
    assert all({"seq", "type", "at", "withdrawn"} <= set(e) for e in log) and log[1]["cards"] == trick["cards"]
    assert log[1]["client_event_id"] == "phone-1"
    call(server, "POST", f"/api/v1/tables/{created['id']}/undo", {}, scorer)
    nothing = call(server, "POST", f"/api/v1/tables/{created['id']}/undo", None, scorer)
    assert nothing.status == 422 and nothing.error["code"]


@pytest.mark.parametrize("raw, content_type", [
    (b"{not json", "application/json"),
    (b"[1, 2]", "application/json"),
    (b'{"game": "brisca"}', "text/plain"),
])
def test_a_body_that_is_no_json_object_is_refused_in_the_same_shape(server, document, raw, content_type):
    answer = call(server, "POST", "/api/v1/tables", raw=raw, content_type=content_type)
    as_documented(document, answer, "post", "/api/v1/tables")
    assert answer.status == 422 and answer.error["code"] == "bad_json"


def test_a_body_larger_than_a_call_takes_answers_413_in_the_same_shape(server, document):
    answer = call(server, "POST", "/api/v1/tables", raw=b'{"players": "' + b"x" * 2_000_000 + b'"}')
    as_documented(document, answer, "post", "/api/v1/tables")
    assert answer.status == 413 and answer.error["code"]


def test_an_unknown_api_address_and_a_wrong_method_answer_in_the_same_shape(server, table):
    assert call(server, "GET", "/api/v1/nothing-here").error["code"] == "not_found"
    wrong = call(server, "DELETE", f"/api/v1/tables/{table['id']}", key=table["scorer_key"])
    assert wrong.status == 405 and wrong.error["code"] == "method_not_allowed"
    assert set(wrong.headers["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}
    events = call(server, "PUT", f"/api/v1/tables/{table['id']}/events", {}, table["scorer_key"])
    assert events.status == 405 and {"GET", "POST"} <= set(events.headers["Allow"].replace(" ", "").split(","))


def test_each_game_adds_its_own_fields_to_the_state(server, document):
    """Brouc's slate and coches, Brusquembille's jetons, Buraco's breakdown, Brisca's wins, Brûlot's totals."""
    def played(game, players, *bodies):
        created = call(server, "POST", "/api/v1/tables", {"game": game, "players": players}).body
        for body in bodies:
            answer = call(server, "POST", f"/api/v1/tables/{created['id']}/events", body, created["scorer_key"])
            assert answer.status == 201, answer.body
        return as_documented(document, call(server, "GET", f"/api/v1/tables/{created['id']}",
                                            key=created["viewer_key"]), "get", "/api/v1/tables/{table_id}").body

    brouc = played("brouc", PLAYERS4, {"type": "deal", "trump": "7D"}, {"type": "tally", "points": [76, 44]})
    assert brouc["deals"][0]["slate"] == [8, 4] and brouc["totals"] == [8, 4] and "coches" in brouc["series"]
    brusq = played("brusquembille", ["Ana", "Bo", "Cy"], {"type": "deal", "trump": "9S"})
    assert brusq["jetons"] == [0, 0, 0]
    buraco = played("buraco", ["Ana", "Bo"], {"type": "deal"}, {"type": "pot", "side": 0},
                    {"type": "count", "closed_by": None, "hands": [["5S"], ["KS"]]})
    assert set(buraco["deals"][0]["breakdown"][0]) == {"melds", "burracos", "hand", "closing", "pot"}
    assert [sum(b.values()) for b in buraco["deals"][0]["breakdown"]] == buraco["deals"][0]["points"] == [-5, -110]
    brisca = played("brisca", PLAYERS4, {"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]})
    assert brisca["series"]["wins"] == [1, 0]
    brulot = played("brulot", ["Ana", "Bo", "Cy", "Di"], {"type": "deal", "trump": "2H"},
                    {"type": "tally", "penalties": [4, 6, 10, 20]})
    assert brulot["totals"] == [4, 6, 10, 20]  # penalty points: the lowest wins (R-BRULOT-6)


def test_the_live_streams_say_the_state_at_once_and_each_change_and_refuse_a_wrong_key(server, document):
    created = call(server, "POST", "/api/v1/tables", {"game": "brisca", "players": PLAYERS4}).body
    table, scorer, viewer = created["id"], created["scorer_key"], created["viewer_key"]
    stream = Reader(server.url, f"/api/v1/tables/{table}/stream?key={viewer}")
    assert stream.status == 200 and stream.response.getheader("Content-Type").startswith("text/event-stream")
    _, first = stream.until(lambda e: e and e.get("event") == "state")
    assert json.loads(first["data"]) == {"version": 0, "revision": 0}
    entered = call(server, "POST", f"/api/v1/tables/{table}/events", {"type": "deal", "trump": "1O"}, scorer)
    assert entered.status == 201
    _, second = stream.until(lambda e: e and e.get("event") == "state")
    assert json.loads(second["data"]) == {"version": 1, "revision": 1}
    stream.close()
    made = call(server, "POST", "/api/v1/tournaments", {"game": "buraco", "name": "Club", "entrants": [
        ["Ana", "Bo"], ["Cy", "Di"]], "rounds": [{"movement": "round_robin"}]}).body
    tournament = Reader(server.url, f"/api/v1/tournaments/{made['id']}/stream",
                        {"Authorization": f"Bearer {made['viewer_key']}"})
    _, state = tournament.until(lambda e: e and e.get("event") == "state")
    assert set(json.loads(state["data"])) == {"revision"}
    tournament.close()
    for path in (f"/api/v1/tables/{table}/stream", f"/api/v1/tournaments/{made['id']}/stream"):
        refused = call(server, "GET", path, key="not-the-key")
        documented = path.replace(table, "{table_id}").replace(made["id"], "{tournament_id}")
        assert refused.status == 401 and refused.error["code"] == "bad_key"
        as_documented(document, refused, "get", documented)
