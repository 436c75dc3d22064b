"""Control characters (U+0000–U+001F, U+007F) in a query, raw or %-encoded: every route of the app's URL map, with
real ids and keys, each query parameter the views read (and one they do not), is answered 400 with a sentence (the
contract's error body under /api/), never a 5xx; ``/lang/<code>?next=`` goes back only to a local path of the site
(``referee/web/services.py``: ``printable_query``; ``referee/web/i18n.py``: ``switch``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.fuzzing import assert_error_shape
from tests.support.burraco import VP_ROWS

ENGLISH = {"Accept-Language": "en"}
SENTENCE = ("This address holds an invisible control character (a line break, a tab) that no link of this site has: "
            "check the link and try again.")
# Every query parameter a view reads (the test below holds the list to the code), and one none reads.
PARAMS = ["key", "lang", "next", "since", "view", "renewed", "full", "done", "mode", "pending", "hands", "side",
          "player", "closed_by", "meld", "at", "v", "v0", "v1", "x", "pick", "club", "form", "q", "status",
          "unknown_one"]
# As they reach QUERY_STRING: %-encoded, and raw (a client that sends the bytes as they are).
BAD = ["%0D%0A", "%00", "%7F", "%09", "/%0d%0aX", "a%1Fb", "\r\n", "\x00", "\x7f"]
CONTROL_NAMES = ["a%00b=1", "%0D%0A=1", "\x7f=1"]


@pytest.fixture
def real(client):
    """A Brisca table with a deal entered and a tournament with its first round seated: ids and keys that open."""
    table = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    assert client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "deal", "trump": "11E"},
                       headers={"Authorization": f"Bearer {table['scorer_key']}"}).status_code == 201
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Mardi", "entrants": [
        ["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]], "rounds": [{"movement": "mitchell", "hands": 2}],
        "vp_table": VP_ROWS})
    tournament = made.get_json()
    assert client.post(f"/api/v1/tournaments/{tournament['id']}/rounds",
                       headers={"Authorization": f"Bearer {tournament['director_key']}"}).status_code == 201
    return table, tournament


def routes(app, table: dict, tournament: dict) -> list:
    """(method, path, key) for every rule of the URL map, its arguments filled with real values."""
    values = {"table_id": table["id"], "tournament_id": tournament["id"], "number": "1", "index": "0",
              "game_id": "brisca", "mode": "trick", "which": "viewer", "code": "fr", "filename": "referee.css"}
    found = []
    for rule in app.url_map.iter_rules():
        path = rule.rule
        for name in rule.arguments:
            value = ("svg" if "/qr/" in path else "viewer") if name == "kind" else values.get(name, "x")  # a new one
            path = re.sub(rf"<(?:\w+:)?{name}>", value, path)
        key = tournament["director_key"] if "tournament_id" in rule.arguments else table["scorer_key"]
        found += [(method, path, key) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    return found


def assert_refused(response, path: str) -> None:
    assert response.status_code == 400, (path, response.status_code)
    if path.startswith("/api/"):
        error = assert_error_shape(response)
        assert error["code"] == "control_character" and error["message"] == SENTENCE, error
    else:
        assert response.mimetype == "text/html" and SENTENCE in response.get_data(as_text=True).replace(
            "&#39;", "'"), path
    assert "Location" not in response.headers


def test_every_query_parameter_of_every_get_route_with_a_control_character_is_400(app, client, real):
    table, tournament = real
    for method, path, key in routes(app, table, tournament):
        if method != "GET":
            continue
        for name in PARAMS:
            for bad in BAD:
                value = key + bad if name == "key" else bad
                query = f"key={key}&{name}={value}" if name != "key" else f"key={value}"
                assert_refused(client.get(path, query_string=query, headers=ENGLISH), f"{path}?{query!r}")
        for query in CONTROL_NAMES:  # in a parameter's name
            assert_refused(client.get(path, query_string=f"key={key}&{query}", headers=ENGLISH), path)


def test_a_post_with_a_control_character_in_its_query_is_400_before_its_form_is_read(app, client, real):
    table, tournament = real
    for method, path, key in routes(app, table, tournament):
        if method == "POST":
            for bad in ("%0D%0A", "%00"):
                response = client.post(path, query_string=f"key={key}&since={bad}", headers=ENGLISH,
                                       data={"key": key, "player": "Ana"})
                assert_refused(response, path)


def test_an_htmx_request_gets_the_sentence_in_its_header_too(client, real):
    table, _ = real
    response = client.get(f"/t/{table['id']}/live", query_string=f"key={table['viewer_key']}&since=%00",
                          headers={"HX-Request": "true", **ENGLISH})
    assert response.status_code == 400 and response.headers["Referee-Refusal"].startswith("This%20address")


def test_the_sentence_is_said_in_the_pages_language(client):
    response = client.get("/", query_string="x=%0A", headers={"Accept-Language": "fr"})
    assert response.status_code == 400
    assert "Cette adresse contient un caractère de contrôle invisible" in response.get_data(as_text=True)


@pytest.mark.parametrize("query", ["next=/%0d%0aX", "next=/%0d%0aSet-Cookie:%20x=1", "next=%00", "next=/t/%7F",
                                   "next=/\r\nX", "next=/%09"])
def test_a_language_switch_whose_next_holds_a_control_character_is_400(client, query):
    response = client.get("/lang/fr", query_string=query, headers=ENGLISH)
    assert_refused(response, "/lang/fr")
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example", "evil",
                                    "javascript:alert(1)", "/t/\u2028x", "/t/\u0085x"])
def test_a_language_switch_goes_home_unless_next_is_a_local_path(client, target):
    response = client.get("/lang/fr", query_string={"next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "lang=fr" in response.headers["Set-Cookie"]


def test_a_language_switch_goes_back_to_a_local_path(client):
    response = client.get("/lang/de", query_string={"next": "/t/abc?key=k&mode=trick"})
    assert response.status_code == 303 and response.headers["Location"] == "/t/abc?key=k&mode=trick"


def test_the_params_listed_here_are_every_query_parameter_the_views_read():
    """A view that reads a new query parameter (``request.args``, or the scorer's and numbers screen's ``values``)
    is fuzzed here once it is listed above."""
    web = Path(__file__).resolve().parents[1] / "referee" / "web"
    source = "\n".join(path.read_text() for path in web.rglob("*.py"))
    entries = "\n".join((web / "tables" / name).read_text() for name in ("views.py", "sheet.py"))  # read_entry's
    read = set(re.findall(r"request\.args\.get\(\"(\w+)\"", source) + re.findall(r"values\.get\(\"(\w+)\"", entries))
    assert read and read <= set(PARAMS), sorted(read - set(PARAMS))
