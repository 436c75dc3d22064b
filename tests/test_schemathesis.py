"""Schemathesis against a running server's own /api/v1/openapi.json: requests made from the document (those it
allows and those it does not), with a scorer key, a viewer key and no key, on tables of every game with a deal
under way as well as on ids no table has. No answer is a 5xx; every error is in the contract's shape. On SQLite and
on PostgreSQL (TEST_DATABASE_URL). Bounded: EXAMPLES per kind of key and database, a few seconds each."""
from __future__ import annotations

import json
import os
import urllib.request

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tests.support.fuzzing import DATABASES, SNAKE, database_url, empty_database
from tests.support.server import Server

pytestmark = pytest.mark.slow  # schemathesis against a running server, every kind of key and database

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "150"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("FUZZ_RANDOM"),
                    database=None, suppress_health_check=list(HealthCheck))
GAMES = {"brisca": 2, "brouc": 4, "brulot": 3, "brusquembille": 3, "buraco": 4}


def call(url: str, body: dict | None = None, key: str | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module", params=DATABASES)
def api_server(request, tmp_path_factory):
    """A real server on loopback (``flask serve``), rate limits off, with a table of each game dealt."""
    tmp = tmp_path_factory.mktemp("schemathesis")
    server = Server(tmp / "server.sqlite3")
    if request.param == "postgresql":
        url = database_url("postgresql", tmp)
        empty_database(url)
        server.env["DATABASE_URL"] = url
    server.env["FLASK_RATELIMIT_ENABLED"] = "false"
    server.start()
    tables = []
    for game, n in GAMES.items():
        made = call(server.url + "/api/v1/tables", {"game": game, "players": [f"P{i}" for i in range(n)]})
        trump = None if game == "buraco" else ("1O" if game == "brisca" else "AS")
        call(f"{server.url}/api/v1/tables/{made['id']}/events", {"type": "deal", "trump": trump}, made["scorer_key"])
        tables.append(made)
    yield server, tables
    server.kill()


def assert_answered(case, response) -> None:
    """No 5xx; an error is JSON in the contract's shape: {"error": {"code": snake_case, "message": text}}."""
    where = f"{case.method} {case.formatted_path} {case.query} {case.headers} {str(case.body)[:300]}"
    assert response.status_code < 500, f"{response.status_code} on {where}: {response.text[:300]}"
    if response.status_code >= 400:
        assert response.headers.get("content-type", [""])[0].startswith("application/json"), where
        error = response.json().get("error")
        assert isinstance(error, dict) and SNAKE.fullmatch(error.get("code", "")), (where, response.text[:300])
        assert isinstance(error.get("message"), str) and error["message"], (where, response.text[:300])


@pytest.mark.parametrize("role", ["scorer", "viewer", "none"])
def test_no_request_the_openapi_document_describes_answers_5xx(api_server, role):
    server, tables = api_server
    # the live streams never end by themselves (a request read whole would wait for ever): tests/test_streams*.py
    schema = schemathesis.openapi.from_url(server.url + "/api/v1/openapi.json").exclude(path_regex="/stream$")
    strategies = []
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        strategies.append(schema.as_strategy(mode))  # any table id, any key the document allows
        for table in tables:
            key = {"scorer": table["scorer_key"], "viewer": table["viewer_key"]}.get(role)
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            strategies.append(schema.as_strategy(mode, path_parameters={"table_id": table["id"]}, headers=headers))

    @SETTINGS
    @given(st.one_of(strategies))
    def request(case):
        assert_answered(case, case.call(base_url=server.url, timeout=10))

    request()
    assert server.process.poll() is None  # the server lived through it
