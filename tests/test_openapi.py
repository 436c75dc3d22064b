"""The OpenAPI document (/api/v1/openapi.json): a valid OpenAPI 3.1 document that says what the parsers read — every
event of every game with its fields and required ones, null where null is taken — every route with its answers, and
whose schemas every answer of a whole series of each game fits (Flask's client; tests/test_contract.py does the same
against a running server)."""
import copy
import re

import pytest
from openapi_spec_validator import validate as validate_spec

from referee.errors import ParseError
from referee.games import GAMES
from referee.web.api.openapi_events import IGNORED
from tests.support.api import DOC, check, fits
from tests.support.series import FINISHED as SERIES

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]
SCHEMAS = DOC["components"]["schemas"]
EVENT_CASES = [(game, kind) for game in sorted(GAMES) for kind in sorted(GAMES[game].events)]


class Reading(dict):
    """An event body that notes every field a parser looks at."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def __contains__(self, name):
        self.read.add(name)
        return super().__contains__(name)

    def __getitem__(self, name):
        self.read.add(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        self.read.add(name)
        return super().get(name, default)


def parse(game_id: str, body: dict):
    game = GAMES[game_id]
    return game.parse_event(game.new_table(PLAYERS4), body)


def per_game(kind: str, game: str) -> dict:
    """The document's schema of ``kind`` for ``game``: its anyOf entry when several games take the event."""
    schema = SCHEMAS["Event_" + kind]
    if "anyOf" not in schema:
        assert schema["x-games"] == [game]
        return {"required": [r for r in schema["required"] if r != "type"],
                "properties": {k: v for k, v in schema["properties"].items()
                               if k not in ("type", "expected_version", "expected_revision", "client_event_id")}}
    return next(entry for entry in schema["anyOf"] if entry["x-game"] == game)


def allows_null(schema: dict) -> bool:
    kind = schema.get("type")
    return (isinstance(kind, list) and "null" in kind) or any(s.get("type") == "null" for s in schema.get("anyOf", []))


def test_the_document_is_valid_openapi_3_1_and_served_as_built(client):
    validate_spec(DOC)  # raises on any error
    assert DOC["openapi"] == "3.1.0"
    assert client.get("/api/v1/openapi.json").get_json() == DOC


def test_every_event_type_of_every_game_is_documented_with_its_games():
    for game_id, game in GAMES.items():
        assert set(GAMES[game_id].event_fields) == set(game.events), game_id
    kinds = {kind for game in GAMES.values() for kind in game.events}
    common = {"confirm", "dispute"}  # R-COMMON-7: every game's, read by referee/games/signatures.py
    assert {f"Event_{kind}" for kind in kinds | common} == {name for name in SCHEMAS if name.startswith("Event_")}
    assert all(SCHEMAS["Event_" + kind]["x-games"] == sorted(GAMES) for kind in common)
    assert {"meld", "extend", "replace", "pot", "count", "announce", "declare", "reveal"} <= kinds
    for kind in kinds:
        assert SCHEMAS["Event_" + kind]["x-games"] == sorted(g for g in GAMES if kind in GAMES[g].events)
    body = DOC["paths"]["/api/v1/tables/{table_id}/events"]["post"]["requestBody"]["content"]["application/json"]
    assert sorted(body["schema"]["discriminator"]["mapping"]) == sorted(kinds | common)


@pytest.mark.parametrize("game, kind", EVENT_CASES)
def test_the_parser_reads_exactly_the_documented_fields(game, kind):
    needed, optional = GAMES[game].event_fields[kind]
    body = Reading({"type": kind, **GAMES[game].event_examples[kind]})
    parse(game, body)  # the example is an entry the parser reads
    read = body.read - {"type"}
    assert set(needed) | set(optional) <= read
    assert read - set(needed) - set(optional) <= {name for k, name in IGNORED if k == kind}
    schema = per_game(kind, game)
    assert sorted(schema["required"]) == sorted(needed)
    assert sorted(schema["properties"]) == sorted({*needed, *optional})
    assert set(schema["properties"]) <= set(SCHEMAS["Event_" + kind]["properties"])


@pytest.mark.parametrize("game, kind", EVENT_CASES)
def test_a_required_field_left_out_or_null_is_refused_naming_it(game, kind):
    for name in GAMES[game].event_fields[kind][0]:
        for body in ({k: v for k, v in GAMES[game].event_examples[kind].items() if k != name},
                     {**GAMES[game].event_examples[kind], name: None}):
            with pytest.raises(ParseError) as refused:
                parse(game, {"type": kind, **body})
            assert refused.value.code == "bad_event" and refused.value.params["field"] == name
        assert not allows_null(SCHEMAS["Event_" + kind]["properties"][name]), (kind, name)


@pytest.mark.parametrize("game, kind", EVENT_CASES)
def test_an_optional_field_left_out_or_null_is_taken_and_documented_nullable(game, kind):
    for name in GAMES[game].event_fields[kind][1]:
        parse(game, {"type": kind, **{k: v for k, v in GAMES[game].event_examples[kind].items() if k != name}})
        parse(game, {"type": kind, **GAMES[game].event_examples[kind], name: None})
        assert allows_null(per_game(kind, game)["properties"][name]), (kind, name)


@pytest.mark.parametrize("game, kind", EVENT_CASES)
def test_each_example_fits_the_documented_event_and_is_shown(game, kind):
    body = {"type": kind, **GAMES[game].event_examples[kind]}
    request = DOC["paths"]["/api/v1/tables/{table_id}/events"]["post"]["requestBody"]["content"]
    assert fits(request["application/json"]["schema"], body) == []
    assert body in SCHEMAS["Event_" + kind]["examples"]
    for name in (*GAMES[game].event_fields[kind][0], *GAMES[game].event_fields[kind][1]):
        assert fits(SCHEMAS["Event_" + kind], {**body, name: {"x": 1}}) != [], name  # no field takes that


def test_the_control_fields_take_null_as_the_api_does(client):
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": PLAYERS4}).get_json()
    body = {"type": "deal", "trump": "4O", "expected_version": None, "expected_revision": None,
            "client_event_id": None}
    answer = client.post(f"/api/v1/tables/{created['id']}/events", json=body,
                         headers={"Authorization": "Bearer " + created["scorer_key"]})
    assert answer.status_code == 201 and answer.get_json()["state"]["version"] == 1
    for name in ("expected_version", "expected_revision", "client_event_id"):
        assert allows_null(SCHEMAS["Event_deal"]["properties"][name])
        undo = DOC["paths"]["/api/v1/tables/{table_id}/undo"]["post"]["requestBody"]["content"]
        assert allows_null(undo["application/json"]["schema"]["properties"][name])
    assert SCHEMAS["Event_deal"]["properties"]["client_event_id"]["maxLength"] == 128


def test_a_new_table_is_described_per_game_with_its_own_options():
    for game_id, game in GAMES.items():
        schema = SCHEMAS["NewTable_" + game_id]
        options = schema["properties"]["options"]["properties"]
        assert sorted(options) == sorted(o.name for o in game.options)
        for option in game.options:
            assert options[option.name]["default"] == option.default
            assert options[option.name].get("enum") == (list(option.choices) if option.choices else None)
        counts = game.player_counts()
        assert (schema["properties"]["players"]["minItems"], schema["properties"]["players"]["maxItems"]) == \
            (min(counts), max(counts))
    brisca = {"game": "brisca", "players": PLAYERS4, "options": {"tie_rule": "replay"}, "dealer": None}
    assert fits(SCHEMAS["NewTable"], brisca) == []
    assert fits(SCHEMAS["NewTable"], {**brisca, "options": {"target": 1005}}) != []  # Buraco's option


def test_every_route_under_the_api_is_documented_with_its_answers(app):
    routes = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # <table_id>, <int:number> -> {name}
            routes.setdefault(path, set()).update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    assert routes == {path: set(item) for path, item in DOC["paths"].items()}
    responses = DOC["components"]["responses"]
    assert set(responses["MethodNotAllowed"]["headers"]) == {"Allow"}
    assert set(responses["RateLimited"]["headers"]) == {"Retry-After"}
    for path, item in DOC["paths"].items():
        for method, operation in item.items():
            answers = operation["responses"]
            assert {"405", "429", "default"} <= set(answers), (path, method)
            if operation.get("security") != []:
                assert {"401", "404"} <= set(answers), (path, method)
            if method == "post":
                assert {"413", "422"} <= set(answers), (path, method)
            if method == "post" and operation.get("security") != []:
                assert "403" in answers, (path, method)


# --- every answer of a whole series of each game fits the document -----------------------------------------------


@pytest.mark.parametrize("game", sorted(SERIES))
def test_a_whole_series_of_each_game_answers_as_documented(client, game):
    players, options, dealer, bodies, _, _ = SERIES[game]
    table = "/api/v1/tables/{table_id}"
    created = check(client.post("/api/v1/tables", json={"game": game, "players": players, "options": options,
                                                        "dealer": dealer}), "post", "/api/v1/tables", 201)
    tid, key = created["id"], {"Authorization": "Bearer " + created["scorer_key"]}
    viewer = {"Authorization": "Bearer " + created["viewer_key"]}
    events = f"/api/v1/tables/{tid}/events"
    for number, body in enumerate(bodies):
        control = {"client_event_id": f"entry-{number}", "expected_version": number}
        check(client.post(events, json={**body, **control}, headers=key), "post", table + "/events", 201)
        if number == 1:  # a retry, a stale version, an undo and the entry again
            check(client.post(events, json={**body, **control}, headers=key), "post", table + "/events", 200)
            check(client.post(events, json={**body, "expected_version": 0}, headers=key), "post",
                  table + "/events", 409)
            check(client.post(f"/api/v1/tables/{tid}/undo", headers=key), "post", table + "/undo", 200)
            check(client.post(events, json=body, headers=key), "post", table + "/events", 201)
    check(client.post(events, json={"type": "no_such_event"}, headers=key), "post", table + "/events", 422)
    check(client.post(events, json=bodies[0], headers=viewer), "post", table + "/events", 403)
    state = check(client.get(f"/api/v1/tables/{tid}", headers=viewer), "get", table, 200)
    assert state["series"]["finished"] is True
    check(client.get(f"/api/v1/tables/{tid}"), "get", table, 401)
    check(client.get("/api/v1/tables/nothing-here", headers=viewer), "get", table, 404)
    check(client.get(events, headers=viewer), "get", table + "/events", 200)
    check(client.get(f"/api/v1/tables/{tid}/export.csv", headers=viewer), "get", table + "/export.csv", 200)
    export = check(client.get(f"/api/v1/tables/{tid}/export.json", headers=viewer), "get", table + "/export.json",
                   200)
    assert fits(SCHEMAS["Import"], export) == []
    copy_of = check(client.post("/api/v1/import", json=copy.deepcopy(export)), "post", "/api/v1/import", 201)
    assert copy_of["state"]["totals"] == state["totals"]
    check(client.post(f"/api/v1/tables/{tid}/rematch", headers=key), "post", table + "/rematch", 201)
    check(client.post(f"/api/v1/tables/{tid}/rematch", headers=key), "post", table + "/rematch", 200)
    check(client.get("/api/v1/games"), "get", "/api/v1/games", 200)
