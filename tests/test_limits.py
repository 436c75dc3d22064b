"""Rate limits: tables created and imports per client address, wrong keys per address and table. Answered 429 with
Retry-After and the contract's error body; a club behind one address still creates an evening's tables with the
default limits, and a guesser among its phones never stops their right keys."""
import json
import re
import urllib.error
import urllib.request

import pytest

from tests.support.limits import assert_rate_limited, limited_app
from tests.support.scorer import token
from tests.support.server import Server
from tests.support.burraco import VP_ROWS

CLUB = {"REMOTE_ADDR": "198.51.100.7"}  # a club's one public address (its phones behind NAT)
OTHER = {"REMOTE_ADDR": "203.0.113.9"}
BRISCA = {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}


def create(client, who=CLUB, body=BRISCA):
    return client.post("/api/v1/tables", json=body, environ_base=who)


def test_an_evening_of_50_tables_from_one_address_passes_and_the_101st_table_of_the_hour_waits(tmp_path):
    """The defaults: 100 tables an hour from one address (an evening of 50 tables, each made twice over)."""
    client = limited_app(tmp_path).test_client()
    assert [create(client).status_code for _ in range(100)] == [201] * 100
    assert_rate_limited(create(client))
    assert create(client, OTHER).status_code == 201  # counted per address


def test_table_creation_answers_429_with_retry_after_and_the_contracts_body(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_TABLES="3 per hour").test_client()
    assert [create(client).status_code for _ in range(3)] == [201, 201, 201]
    response = create(client)
    wait = assert_rate_limited(response)
    assert 3500 <= wait <= 3600
    message = response.get_json()["error"]["message"]
    assert message == f"Too many tables created from this address: try again in {wait} s."


def test_a_refused_creation_counts_nothing(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_TABLES="2 per hour").test_client()
    for _ in range(5):
        assert create(client, body={"game": "brisca", "players": ["Ana"]}).status_code == 422
    assert [create(client).status_code for _ in range(2)] == [201, 201]
    assert_rate_limited(create(client))


def test_the_set_up_form_counts_its_tables_with_the_api_and_its_seat_changes_not_at_all(tmp_path):
    app = limited_app(tmp_path, RATELIMIT_TABLES="2 per hour")
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    client.set_cookie("lang", "en")
    page = client.get("/new/brisca", environ_base=CLUB).get_data(as_text=True)
    form = {"csrf_token": token(page), "player": ["Ana", "Bo", "Cy", "Di"], "dealer": "0"}
    for _ in range(5):  # adding and removing seats: not a table
        assert client.post("/new/brisca", data={**form, "op": "add"}, environ_base=CLUB).status_code == 200
    assert client.post("/new/brisca", data={**form, "op": "create"}, environ_base=CLUB).status_code == 303
    assert create(client).status_code == 201
    refused = client.post("/new/brisca", data={**form, "op": "create"}, environ_base=CLUB)
    assert_rate_limited(refused, api=False)
    text = refused.get_data(as_text=True)
    assert refused.mimetype == "text/html"
    assert "Too many tables were created from this address: try again in 60 minutes." in text


def test_imports_have_their_own_count(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_IMPORTS="2 per hour").test_client()
    created = create(client).get_json()
    export = client.get(f"/api/v1/tables/{created['id']}/export.json?key={created['viewer_key']}").get_json()
    assert [client.post("/api/v1/import", json=export, environ_base=CLUB).status_code for _ in range(2)] == [201, 201]
    response = client.post("/api/v1/import", json=export, environ_base=CLUB)
    assert_rate_limited(response)
    assert response.get_json()["error"]["message"].startswith("Too many imports from this address")
    assert client.post("/api/v1/import", json=export, environ_base=OTHER).status_code == 201
    assert create(client).status_code == 201  # imports do not use up the tables' count


def test_200_wrong_keys_from_one_address_never_stop_its_right_keys(tmp_path):
    """The defaults (60 wrong keys a minute per address and table): a guesser at the club's address is answered 429
    past the limit; the scorer's entry and the viewer's look from that address pass, as does a guess at another
    table (counted apart) or from another address."""
    client = limited_app(tmp_path).test_client()
    created = create(client).get_json()
    table, scorer, viewer = created["id"], created["scorer_key"], created["viewer_key"]
    guesses = [client.get(f"/api/v1/tables/{table}?key=guess{i}", environ_base=CLUB).status_code for i in range(200)]
    assert guesses == [401] * 60 + [429] * 140
    entry = client.post(f"/api/v1/tables/{table}/events", json={"type": "deal", "trump": "11E"},
                        headers={"Authorization": f"Bearer {scorer}"}, environ_base=CLUB)
    assert entry.status_code == 201 and entry.get_json()["state"]["version"] == 1
    assert client.get(f"/api/v1/tables/{table}?key={viewer}", environ_base=CLUB).status_code == 200
    page = client.get(f"/t/{table}?key={viewer}", environ_base=CLUB, headers={"Accept-Language": "en"})
    assert page.status_code == 200 and "Ana" in page.get_data(as_text=True)
    poll = client.get(f"/t/{table}/live?key={viewer}&since=0", headers={"HX-Request": "true"}, environ_base=CLUB)
    assert poll.status_code == 200 and b"Ana" in poll.data
    assert client.get(f"/t/{table}/screen?key={viewer}", environ_base=CLUB).status_code == 200
    guessed = client.get(f"/api/v1/tables/{table}?key=guess", environ_base=CLUB)
    wait = assert_rate_limited(guessed)
    assert wait <= 60 and guessed.get_json()["error"]["message"] == (
        f"Too many wrong keys from this address: try again in {wait} s.")
    other_table = create(client).get_json()["id"]
    assert client.get(f"/api/v1/tables/{other_table}?key=guess", environ_base=CLUB).status_code == 401  # per table
    assert client.get(f"/api/v1/tables/{table}?key=guess", environ_base=OTHER).status_code == 401  # per address


def test_past_the_limit_every_wrong_key_of_the_table_waits_on_every_door(tmp_path):
    """Pages, forms, prints and polls count their wrong keys with the API's; past the limit each answers 429 (a page
    in words), the right keys still pass."""
    app = limited_app(tmp_path, RATELIMIT_KEY_GUESSES="4 per minute")
    client = app.test_client()
    client.set_cookie("lang", "en")
    created = create(client).get_json()
    table, scorer, viewer = created["id"], created["scorer_key"], created["viewer_key"]
    doors = [client.get(f"/t/{table}?key=a", environ_base=CLUB),
             client.get(f"/t/{table}/share", environ_base=CLUB),  # no key at all: a guess too
             client.get(f"/t/{table}/sheet?key=c", environ_base=CLUB),
             client.post(f"/api/v1/tables/{table}/undo", headers={"Authorization": "Bearer d"}, environ_base=CLUB)]
    assert [door.status_code for door in doors] == [401, 401, 401, 401]
    page = client.get(f"/t/{table}?key=e", environ_base=CLUB)
    assert_rate_limited(page, api=False)
    assert "Too many wrong keys from this address: try again in 1 minute." in page.get_data(as_text=True)
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    poll = client.get(f"/t/{table}/live?key=f&since=0", headers={"HX-Request": "true"}, environ_base=CLUB)
    assert_rate_limited(poll, api=False)  # not 286: a poll guesses no faster than the API
    assert client.get(f"/t/{table}?key={scorer}", environ_base=CLUB).status_code == 200
    assert client.get(f"/t/{table}/share?key={scorer}", environ_base=CLUB).status_code == 200
    assert client.get(f"/t/{table}/live?key={viewer}", environ_base=CLUB).status_code == 200
    assert client.get(f"/api/v1/tables/{table}/export.csv?key={viewer}", environ_base=CLUB).status_code == 200
    assert client.get("/static/referee.css", environ_base=CLUB).status_code == 200


def test_a_tournaments_wrong_keys_are_counted_per_tournament_and_its_keys_still_open_it(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_KEY_GUESSES="3 per minute").test_client()
    made = client.post("/api/v1/tournaments", environ_base=CLUB, json={
        "game": "buraco", "name": "Mardi", "entrants": [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]],
        "rounds": [{"movement": "mitchell", "hands": 2}], "vp_table": VP_ROWS}).get_json()
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    assert client.post(f"/api/v1/tournaments/{tid}/rounds", headers={"Authorization": f"Bearer {director}"},
                       environ_base=CLUB).status_code == 201
    wrong = [client.get(f"/api/v1/tournaments/{tid}?key=x", environ_base=CLUB),
             client.get(f"/tournaments/{tid}/standings?key=y", environ_base=CLUB),
             client.get(f"/tournaments/{tid}/tables/1?key=z", environ_base=CLUB)]  # a table card's page
    assert [response.status_code for response in wrong] == [401, 401, 401]
    assert_rate_limited(client.get(f"/api/v1/tournaments/{tid}?key=x", environ_base=CLUB))
    assert_rate_limited(client.get(f"/tournaments/{tid}/live?key=y", headers={"HX-Request": "true"},
                                   environ_base=CLUB), api=False)
    assert client.get(f"/api/v1/tournaments/{tid}?key={director}", environ_base=CLUB).status_code == 200
    assert client.get(f"/tournaments/{tid}/standings?key={viewer}", environ_base=CLUB).status_code == 200
    assert client.get(f"/tournaments/{tid}?key={director}", environ_base=CLUB).status_code == 200
    table = create(client).get_json()["id"]
    assert client.get(f"/api/v1/tables/{table}?key=x", environ_base=CLUB).status_code == 401  # its own count


def test_the_wrong_keys_count_is_kept_in_flask_limiters_storage(tmp_path):
    """The count lives where RATELIMIT_STORAGE_URI says (redis://… shares it between servers): here memory://,
    and clearing the limiter's storage forgives the guesses."""
    app = limited_app(tmp_path, RATELIMIT_KEY_GUESSES="2 per minute")
    client = app.test_client()
    table = create(client).get_json()["id"]
    assert [client.get(f"/api/v1/tables/{table}?key=x", environ_base=CLUB).status_code for _ in range(3)] == [
        401, 401, 429]
    limiter = app.extensions["referee.limiter"]
    counted = [key for key in limiter.storage.storage if f"keys/{CLUB['REMOTE_ADDR']}/table:{table}" in key]
    assert len(counted) == 1 and limiter.storage.get(counted[0]) == 3
    limiter.reset()
    assert client.get(f"/api/v1/tables/{table}?key=x", environ_base=CLUB).status_code == 401


def test_wrong_keys_are_not_limited_when_the_limits_are_off(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_ENABLED=False, RATELIMIT_KEY_GUESSES="1 per minute").test_client()
    table = create(client).get_json()["id"]
    assert [client.get(f"/api/v1/tables/{table}?key=x", environ_base=CLUB).status_code for _ in range(5)] == [401] * 5


def test_a_live_view_whose_key_was_revoked_stops_polling_and_counts_once(tmp_path):
    """htmx stops polling on 286 (and swaps nothing): a TV left on an old viewer link never locks a club out."""
    client = limited_app(tmp_path, RATELIMIT_KEY_GUESSES="3 per minute").test_client()
    created = create(client).get_json()
    table, viewer = created["id"], created["viewer_key"]
    client.application.extensions["referee.ledger"].new_key(table, "viewer")
    poll = client.get(f"/t/{table}/live?key={viewer}&since=0", headers={"HX-Request": "true"}, environ_base=CLUB)
    assert poll.status_code == 286 and poll.headers["HX-Reswap"] == "none" and poll.data == b""
    assert client.get(f"/t/{table}/live?key={viewer}", environ_base=CLUB).status_code == 401  # a page: 401
    assert client.get(f"/api/v1/tables/{table}?key=x", environ_base=CLUB).status_code == 401
    assert_rate_limited(client.get(f"/api/v1/tables/{table}?key=y", environ_base=CLUB))  # 286 + 401 + 401 = 3


def test_limits_off_through_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("FLASK_RATELIMIT_ENABLED", "false")
    monkeypatch.setenv("FLASK_RATELIMIT_TABLES", "1 per hour")
    client = limited_app(tmp_path).test_client()
    assert client.application.config["RATELIMIT_ENABLED"] is False
    assert [create(client).status_code for _ in range(3)] == [201] * 3


def test_behind_a_proxy_each_forwarded_address_has_its_own_count(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_TABLES="1 per hour", PROXY_FIX_X_FOR=1).test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    first = {"X-Forwarded-For": "198.51.100.7"}
    assert client.post("/api/v1/tables", json=BRISCA, headers=first, environ_base=proxy).status_code == 201
    assert client.post("/api/v1/tables", json=BRISCA, headers=first, environ_base=proxy).status_code == 429
    second = {"X-Forwarded-For": "203.0.113.9"}
    assert client.post("/api/v1/tables", json=BRISCA, headers=second, environ_base=proxy).status_code == 201


@pytest.mark.server  # a real server process of its own
def test_a_served_process_reads_its_limits_from_flask_variables(tmp_path):
    """The real server (``flask serve``) with FLASK_RATELIMIT_* in its environment, over HTTP."""
    server = Server(tmp_path / "served.sqlite3")
    server.env.update(FLASK_RATELIMIT_ENABLED="true", FLASK_RATELIMIT_TABLES="2 per hour",
                      FLASK_RATELIMIT_STORAGE_URI="memory://",
                      WEB_CONCURRENCY="1")  # memory:// counts per worker process: one process, one count
    server.start()
    try:
        statuses, last = [], None
        for _ in range(3):
            request = urllib.request.Request(server.url + "/api/v1/tables", data=json.dumps(BRISCA).encode(),
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    statuses.append(response.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
                last = error
        assert statuses == [201, 201, 429]
        assert 3500 <= int(last.headers["Retry-After"]) <= 3600
        assert json.loads(last.read())["error"]["code"] == "rate_limited"
    finally:
        server.kill()


@pytest.mark.parametrize("setting", ["RATELIMIT_TABLES", "RATELIMIT_IMPORTS", "RATELIMIT_KEY_GUESSES"])
def test_the_readme_states_the_default_limits(setting):
    from pathlib import Path

    from referee.web.serving.limits import DEFAULTS
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert re.search(rf"`FLASK_{setting}`[^\n]*`{re.escape(DEFAULTS[setting])}`", readme), setting


def test_an_entry_pays_no_app_wide_limit_check_and_the_views_limits_still_count(tmp_path):
    """Referee's limits are on their views (each checks its own when called): with no app-wide limit set,
    Flask-Limiter's check of every request is left out (issue 40: 0.1 ms an entry), and the tables' limit still
    counts."""
    app = limited_app(tmp_path, RATELIMIT_TABLES="2 per hour")
    limiter = app.extensions["referee.limiter"]
    assert not [hook for hook in app.before_request_funcs.get(None, []) if getattr(hook, "__self__", None) is limiter]
    client = app.test_client()
    created = create(client).get_json()
    entry = {"type": "deal", "trump": "4O"}
    answer = client.post(f"/api/v1/tables/{created['id']}/events", json=entry, environ_base=CLUB,
                         headers={"Authorization": f"Bearer {created['scorer_key']}"})
    assert answer.status_code == 201 and answer.get_json()["state"]["version"] == 1
    assert create(client).status_code == 201
    assert_rate_limited(create(client))


def test_an_app_wide_limit_an_operator_sets_is_checked_on_every_request(tmp_path):
    """FLASK_RATELIMIT_DEFAULT (Flask-Limiter's own setting) keeps its check of every request."""
    client = limited_app(tmp_path, RATELIMIT_DEFAULT="3 per minute").test_client()
    assert [client.get("/api/v1/games", environ_base=CLUB).status_code for _ in range(3)] == [200] * 3
    assert_rate_limited(client.get("/api/v1/games", environ_base=CLUB))
    assert client.get("/api/v1/games", environ_base=OTHER).status_code == 200
