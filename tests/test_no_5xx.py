"""What issue 14 found answering 500, each as it was sent, now refused in the contract's shape (API) or with a
sentence on the page (forms); then every route of the app with ids, keys and values no table has. On SQLite and on
PostgreSQL (TEST_DATABASE_URL), which refuses a NUL in text where SQLite stores it."""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import get_game
from referee.web.shared.requests import JSON_DEPTH
from tests.support.fuzzing import assert_error_shape, seat_tables

pytestmark = pytest.mark.slow  # fuzzing: every route, every odd value, tens of seconds

ENGLISH = {"Accept-Language": "en"}
NESTED = "[" * 1000 + "]" * 1000  # 2 KB that once took the JSON parser past Python's stack


def create(client, game="brisca", players=("Ana", "Bo")):
    response = client.post("/api/v1/tables", json={"game": game, "players": list(players)})
    assert response.status_code == 201
    return response.get_json()


def post_event(client, table, body):
    return client.post(f"/api/v1/tables/{table['id']}/events", json=body,
                       headers={"Authorization": f"Bearer {table['scorer_key']}"})


def json_endpoints(table) -> list:
    return ["/api/v1/tables", "/api/v1/import", f"/api/v1/tables/{table['id']}/events",
            f"/api/v1/tables/{table['id']}/undo"]


def test_deeply_nested_json_is_refused_on_every_json_endpoint(fuzz_app):
    client = fuzz_app.test_client()
    table = create(client)
    for path in json_endpoints(table):
        for headers in ({}, {"Authorization": f"Bearer {table['scorer_key']}"}):
            response = client.post(path, data=NESTED, content_type="application/json", headers=headers)
            if headers or "/tables/" not in path:  # with its key, or where none is needed: the body is read
                assert response.status_code == 422, path
                assert assert_error_shape(response) == {"code": "bad_json", "message": "The body is not valid JSON."}
            else:
                assert response.status_code == 401 and assert_error_shape(response)["code"] == "key_required"
    assert post_event(client, table, {"type": "deal", "trump": "1O"}).status_code == 201  # the table still works


def test_json_nested_deeper_than_the_limit_is_refused_and_the_limit_itself_is_read(fuzz_app):
    client = fuzz_app.test_client()
    table = create(client)

    def nested(depth):  # an object whose "cards" field is lists in lists: ``depth`` levels in all
        return '{"type": "trick", "cards": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    too_deep = client.post(f"/api/v1/tables/{table['id']}/events", data=nested(JSON_DEPTH + 1),
                           content_type="application/json", headers={"Authorization": f"Bearer {table['scorer_key']}"})
    assert too_deep.status_code == 422
    assert assert_error_shape(too_deep) == {"code": "bad_json", "depth": JSON_DEPTH, "message":
                                            f"The body nests lists and objects more than {JSON_DEPTH} deep."}
    at_limit = client.post(f"/api/v1/tables/{table['id']}/events", data=nested(JSON_DEPTH),
                           content_type="application/json", headers={"Authorization": f"Bearer {table['scorer_key']}"})
    assert at_limit.status_code == 422 and assert_error_shape(at_limit)["code"] != "bad_json"  # the engine's turn


@pytest.mark.parametrize("body, content_type", [
    (b'{"game": "brisca", "players": ["Ana", "Bo"], "dealer": NaN}', "application/json"),
    (b'{"game": "brisca", "players": ["Ana", "Bo"], "dealer": Infinity}', "application/json"),
    (b'{"game": "brisca", "players": ["Ana", "Bo"], "dealer": ' + b"9" * 5000 + b"}", "application/json"),
    (b'{"game": "brisca", "players": ["\\ud800", "Bo"]}', "application/json"),
    (b'{"game": "brisca", "players": ["\xff\xfe", "Bo"]}', "application/json"),
    (b'{"game": "brisca", "players": ["Ana", "Bo"]', "application/json"),
    (b'', "application/json"),
    (b'["brisca"]', "application/json"),
    (b'{"game": "brisca", "players": ["Ana", "Bo"]}', "text/plain"),
])
def test_bodies_that_are_not_a_json_object_are_refused(fuzz_app, body, content_type):
    response = fuzz_app.test_client().post("/api/v1/tables", data=body, content_type=content_type)
    assert response.status_code == 422 and assert_error_shape(response)["code"] == "bad_json"


@pytest.mark.parametrize("options, status", [(False, 422), (0, 422), ("", 422), ([], 422), ([1], 422), (None, 201),
                                             ({}, 201)])
def test_options_that_are_not_an_object_are_refused(fuzz_app, options, status):
    """Schemathesis found ``"options": false`` taken as no options (201): only an object, or null, is."""
    response = fuzz_app.test_client().post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo"],
                                                                   "options": options})
    assert response.status_code == status
    if status == 422:
        assert assert_error_shape(response) == {"code": "bad_option",
                                                "message": "Options must be an object of name: value."}


def test_a_body_over_the_size_limit_is_413_in_the_contract_shape(fuzz_app):
    body = json.dumps({"game": "brisca", "players": ["Ana", "Bo"], "pad": "x" * (1 << 20)})
    response = fuzz_app.test_client().post("/api/v1/tables", data=body, content_type="application/json")
    assert response.status_code == 413 and assert_error_shape(response)["code"] == "request_entity_too_large"


def test_undo_takes_no_body_or_an_object(fuzz_app):
    client = fuzz_app.test_client()
    table = create(client)
    assert post_event(client, table, {"type": "deal", "trump": "1O"}).status_code == 201
    headers = {"Authorization": f"Bearer {table['scorer_key']}"}
    assert client.post(f"/api/v1/tables/{table['id']}/undo", headers=headers).status_code == 200
    assert client.post(f"/api/v1/tables/{table['id']}/undo", json=[1], headers=headers).status_code == 422


def test_a_buraco_count_whose_melds_are_not_lists_is_422(fuzz_app):
    client = fuzz_app.test_client()
    table = create(client, "buraco", ("Ana", "Bo", "Cy", "Di"))
    assert post_event(client, table, {"type": "deal"}).status_code == 201
    for melds in ([1, 2], [[1], 2], "AS", [["AS", "2S"]], [[["AS"], 7]]):
        response = post_event(client, table, {"type": "count", "hands": [[], [], [], []], "melds": melds})
        assert response.status_code == 422, melds
        assert assert_error_shape(response)["code"] in ("bad_event", "unknown_card"), melds
    events = client.get(f"/api/v1/tables/{table['id']}/events?key={table['viewer_key']}").get_json()["events"]
    assert [e["type"] for e in events] == ["deal"]  # nothing stored


def scorer_page(client, table, **query):
    return client.get(f"/t/{table['id']}", query_string={"key": table["scorer_key"], **query}, headers=ENGLISH)


def refusal_on(response) -> str:
    page = response.get_data(as_text=True)
    start = page.index('<p class="refusal" role="alert">') + len('<p class="refusal" role="alert">')
    return page[start:page.index("</p>", start)]


def test_a_buraco_card_tapped_outside_a_meld_is_a_sentence(fuzz_app):
    client = fuzz_app.test_client()
    table = create(client, "buraco", ("Ana", "Bo", "Cy", "Di"))
    for started in (False, True):
        response = client.post(f"/t/{table['id']}/tap", data={"key": table["scorer_key"], "card": "4D"},
                               headers=ENGLISH)
        assert response.status_code == 200
        assert refusal_on(response) == "Buraco has no tricks: a card is tapped into a meld or a hand."
        if not started:
            assert post_event(client, table, {"type": "deal"}).status_code == 201


@pytest.mark.parametrize("game, players, card", [("brisca", ("Ana", "Bo"), "1O"),
                                                 ("brouc", ("Ana", "Bo", "Cy", "Di"), "AS"),
                                                 ("brulot", ("Ana", "Bo", "Cy"), "AS"),
                                                 ("brusquembille", ("Ana", "Bo", "Cy"), "AS")])
@pytest.mark.parametrize("mode", ["meld", "extend", "count", "replace"])
def test_buracos_modes_on_another_game_fall_back_to_its_own(fuzz_app, game, players, card, mode):
    """A tap in a mode the game has not is read as a card of the trick (the picker's default); a save in it is
    refused with a sentence; the page in it is the game's own page. Nothing is stored by any of them."""
    client = fuzz_app.test_client()
    table = create(client, game, players)
    assert post_event(client, table, {"type": "deal", "trump": card}).status_code == 201
    form = {"key": table["scorer_key"], "mode": mode, "card": "7" + card[-1], "meld": "0", "pending": "",
            "hands": "", "player": "0"}
    tapped = client.post(f"/t/{table['id']}/tap", data=form)
    assert tapped.status_code == 303 and "mode=" not in tapped.headers["Location"]
    form["pending"] = "7" + card[-1]  # the table's trick under way now, as its page shows it
    assert f'name="pending" value="{form["pending"]}"' in scorer_page(client, table).get_data(as_text=True)
    saved = client.post(f"/t/{table['id']}/save", data=form, headers=ENGLISH)
    assert saved.status_code == 200
    assert refusal_on(saved) == "This form is damaged: load the page again and enter it again."
    undone = client.post(f"/t/{table['id']}/undo", data=form)
    assert undone.status_code == 303
    page = scorer_page(client, table, mode=mode, meld="0", pending="7" + card[-1])
    assert page.status_code == 200 and 'class="picker' in page.get_data(as_text=True)
    state = client.get(f"/api/v1/tables/{table['id']}?key={table['viewer_key']}").get_json()
    assert state["version"] == 1


@pytest.mark.parametrize("path", ["/api/v1/tables/x%00", "/api/v1/tables/x%00/events", "/t/x%00/live", "/t/x%00",
                                  "/api/v1/tables/" + "a" * 40, "/t/%C3%A9t%C3%A9", "/t/a%20b/share",
                                  "/api/v1/tables/x%00/export.json", "/t/x%00/qr/viewer.svg"])
def test_a_table_id_no_table_can_have_is_404(fuzz_app, path):
    response = fuzz_app.test_client().get(path, headers=ENGLISH)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert assert_error_shape(response)["code"] == "table_not_found"
    else:
        assert "There is no table" in response.get_data(as_text=True)


@pytest.mark.parametrize("event_id", ["x" * 129, "x\x00", "\x00", "a\nb"])
@pytest.mark.parametrize("endpoint", ["deal", "undo", "tap"])
def test_a_form_id_too_long_or_with_a_nul_is_a_sentence_and_stores_nothing(fuzz_app, event_id, endpoint):
    client = fuzz_app.test_client()
    table = create(client)
    if endpoint != "deal":
        assert post_event(client, table, {"type": "deal", "trump": "1O"}).status_code == 201
    response = client.post(f"/t/{table['id']}/{endpoint}", headers=ENGLISH,
                           data={"key": table["scorer_key"], "card": "1O", "event_id": event_id})
    assert response.status_code == 200
    assert refusal_on(response) == "This form is damaged: load the page again and enter it again."
    events = client.get(f"/api/v1/tables/{table['id']}/events?key={table['viewer_key']}").get_json()["events"]
    assert len(events) == (0 if endpoint == "deal" else 1) and not any(e["withdrawn"] for e in events)


def test_a_form_id_of_128_characters_is_stored_once(fuzz_app):
    client = fuzz_app.test_client()
    table = create(client)
    form = {"key": table["scorer_key"], "card": "1O", "event_id": "é" * 128}
    assert client.post(f"/t/{table['id']}/deal", data=form).status_code == 303
    assert client.post(f"/t/{table['id']}/deal", data=form).status_code == 303  # the same form again: a retry
    events = client.get(f"/api/v1/tables/{table['id']}/events?key={table['viewer_key']}").get_json()["events"]
    assert [(e["type"], e["client_event_id"]) for e in events] == [("deal", "é" * 128)]


ODD = ["x%00", "%00", "a" * 40, "%C3%A9", "..", "-", "a%20b", "%ED%A0%80"]


def test_every_route_answers_odd_ids_keys_and_values_without_a_5xx(fuzz_app):
    """Each rule of the app's URL map, in each of its methods, with real and impossible ids, each kind of key and
    odd query values. Errors under /api/ are in the contract's shape."""
    client = fuzz_app.test_client()
    table = create(client)
    assert post_event(client, table, {"type": "deal", "trump": "1O"}).status_code == 201
    values = {"table_id": [table["id"], *ODD], "game_id": ["brisca", "buraco", *ODD], "mode": ["trick", *ODD],
              "kind": ["viewer", "coscorer", "svg", "png", *ODD], "which": ["viewer", "self", *ODD],
              "code": ["fr", "en", *ODD], "filename": ["referee.css", *ODD]}
    keys = [table["scorer_key"], table["viewer_key"], "", "nope", "x\x00"]
    queries = [{"since": "x\x00", "view": "screen", "next": "/\\\\evil"}, {"since": "99999999999", "mode": "count",
               "pending": "1O.1O.zz", "hands": "~~", "v": "1.2.3", "x": "~" * 50}]
    for rule in fuzz_app.url_map.iter_rules():
        names = sorted(rule.arguments)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for i in range(max(len(values.get(n, ["x"])) for n in names) if names else 1):
                path_values = {n: values.get(n, ["x"])[i % len(values.get(n, ["x"]))] for n in names}
                path = rule.rule
                for name, value in path_values.items():
                    path = path.replace(f"<{name}>", value).replace(f"<path:{name}>", value)
                for key in keys:
                    for query in queries:
                        response = client.open(path, method=method, query_string={"key": key, **query},
                                               data={"key": key, **query} if method == "POST" else None)
                        assert response.status_code < 500, (method, path, key, query, response.status_code)
                        if path.startswith("/api/") and response.status_code >= 400:
                            assert_error_shape(response)



def test_every_export_imports_back_within_the_depth_limit(fuzz_app):
    """The JSON depth limit leaves room for the deepest body Referee writes: an export of each game at each stage
    (its state included) is read and imported back."""
    client = fuzz_app.test_client()
    for seat in seat_tables(client):
        export = client.get(f"/api/v1/tables/{seat.id}/export.json?key={seat.viewer_key}").get_json()
        again = client.post("/api/v1/import", json=export)
        assert again.status_code == 201, (seat.game, seat.stage, again.get_json())
        assert again.get_json()["state"]["deals"] == export["state"]["deals"]


FIELDS = ["type", "at", "brusquembilles", "burracos", "call", "cape", "card", "cards", "closed_by", "dealer",
          "declare", "hands", "last_trick", "meld", "melds", "penalties", "player", "points", "side", "sides", "teams",
          "trump", "widow", "announces", "marriages", "outcome", "pot", "pots", "hand", "taken", "expected_version",
          "expected_revision", "client_event_id"]


def json_values(cards):
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.sampled_from([10**20, -10**20, 2**31]),
                        st.floats(allow_nan=False), st.sampled_from(cards), st.sampled_from(FIELDS), st.text(max_size=8))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)), max_leaves=12)


# Entries each game takes, beside those the seated tables' logs hold: the fuzzer changes one part of one of them.
TEMPLATES = {
    "brisca": [{"type": "claim", "player": 0, "cards": ["1O", "3O"]}, {"type": "exchange", "player": 1}],
    "brouc": [{"type": "announce", "player": 1, "cards": ["KH", "QH"]},
              {"type": "declare", "player": 0, "call": "cape_dehors"},
              {"type": "tally", "points": [100, 57], "cape": None, "declare": None,
               "announces": [{"player": 0, "cards": ["KH", "QH"]}], "marriages": [{"side": 1, "cards": ["KC", "QC"]}]}],
    "brulot": [{"type": "reveal", "player": 0, "cards": ["2S", "3S"]},
               {"type": "tally", "penalties": [10, 10, 16], "widow": ["AS"]}],
    "brusquembille": [{"type": "tally", "points": [60, 10, 50],
                       "brusquembilles": [{"card": "AH", "player": 0, "outcome": "won"}]}],
    "buraco": [{"type": "count", "closed_by": 0, "hands": [["3C"], [], [], []],
                "melds": [[["3H", "4H", "5H"]], [["9S", "9D", "9C"]]]},
               {"type": "replace", "side": 0, "meld": 0, "card": "5H"}, {"type": "pot", "side": 1},
               {"type": "tally", "closed_by": 0, "teams": [{"laid": 200, "hand": 10, "burracos": {"pure": 1},
                                                            "pot": True}, {"laid": 50, "hand": 30}]}],
}


def logged(client, seats) -> dict:
    """The entries the seated tables were brought to their stages with, by game (valid bodies to start from)."""
    found = {game: list(bodies) for game, bodies in TEMPLATES.items()}
    for seat in seats:
        events = client.get(f"/api/v1/tables/{seat.id}/events?key={seat.viewer_key}").get_json()["events"]
        found[seat.game] += [{k: v for k, v in e.items() if k not in ("seq", "at", "withdrawn", "withdrawn_at")}
                             for e in events]
    return found


def parts(value, path=()):
    """Every place in a JSON value, as the path of keys and indexes that leads there."""
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from parts(child, (*path, key))


def changed(value, path, new, delete=False):
    """A copy of ``value`` with the part at ``path`` replaced by ``new`` (or taken out)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    if delete and not rest:
        del copy[head]
    else:
        copy[head] = changed(copy[head], rest, new, delete)
    return copy


@st.composite
def event_bodies(draw, seats, known):
    seat = draw(st.sampled_from(seats))
    game = get_game(seat.game)
    if draw(st.booleans()):  # a body the game takes, one part of it changed, taken out or added
        body = dict(draw(st.sampled_from(known[seat.game])))
        path = draw(st.sampled_from(list(parts(body))[1:]))
        how = draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "add":
            return seat, {**body, draw(st.sampled_from(FIELDS)): draw(json_values(seat.cards))}
        return seat, changed(body, path, draw(json_values(seat.cards)), delete=how == "delete")
    body = draw(st.dictionaries(st.sampled_from(FIELDS), json_values(seat.cards), max_size=6))
    body["type"] = draw(st.one_of(st.sampled_from(sorted(game.events)), st.sampled_from(sorted(game.events)),
                                  st.text(max_size=6)))
    return seat, body


def test_no_event_body_answers_5xx(fuzz_app):
    """Every game's events, fields named as the parsers name them, holding any JSON value (lists in lists, dicts,
    numbers too big for a database column, cards of the table's deck): refused 422 or stored, never a 5xx."""
    client = fuzz_app.test_client()
    seats = seat_tables(client)
    known = logged(client, seats)

    @settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")), deadline=None, database=None,
              derandomize=not os.environ.get("FUZZ_RANDOM"),
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(event_bodies(seats, known))
    def post(drawn):
        seat, body = drawn
        response = client.post(f"/api/v1/tables/{seat.id}/events", json=body,
                               headers={"Authorization": f"Bearer {seat.scorer_key}"})
        assert response.status_code in (200, 201, 409, 422), (body, response.get_json())
        if response.status_code >= 400:
            assert_error_shape(response)
        else:  # stored: the table still reads and replays
            assert client.get(f"/api/v1/tables/{seat.id}?key={seat.viewer_key}").status_code == 200

    post()
