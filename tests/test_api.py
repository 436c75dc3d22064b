"""The JSON API through HTTP (Flask's client), status codes and bodies as docs/api.md fixes them."""
import re

import pytest

from tests.support.deals import DEAL_4P

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]


@pytest.fixture
def created(client):
    response = client.post("/api/v1/tables", json={"game": "brisca", "players": PLAYERS4})
    assert response.status_code == 201
    return response.get_json()


def bearer(key):
    return {"Authorization": f"Bearer {key}"}


def post(client, created, body, key=None):
    return client.post(f"/api/v1/tables/{created['id']}/events", json=body,
                       headers=bearer(key or created["scorer_key"]))


def error_of(response):
    body = response.get_json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
    return body["error"]


def test_games_lists_brisca_with_its_options(client):
    games = client.get("/api/v1/games").get_json()["games"]
    brisca = next(g for g in games if g["id"] == "brisca")
    assert brisca["players"] == [2, 6] and brisca["name"] == "Brisca"
    options = {o["name"]: o for o in brisca["options"]}
    assert options["tie_rule"] == {"name": "tie_rule", "type": "choice", "default": "draw",
                                   "choices": ["draw", "last_trick", "replay"], "rule": "R-BRISCA-6",
                                   "help": options["tie_rule"]["help"]}
    assert set(options["tie_rule"]["help"]) == {"fr", "en"}


def test_create_answers_201_with_keys_links_and_state(client, created):
    assert created["scorer_url"].endswith(f"/t/{created['id']}?key={created['scorer_key']}")
    assert created["viewer_url"].endswith(f"/t/{created['id']}?key={created['viewer_key']}")
    state = created["state"]
    assert state["id"] == created["id"] and state["version"] == 0 and state["players"] == PLAYERS4
    assert [s["players"] for s in state["sides"]] == [[0, 2], [1, 3]]
    assert state["next"] == {"action": "deal", "player": 0}


@pytest.mark.parametrize("body, code", [
    ({"game": "chess", "players": PLAYERS4}, "unknown_game"),
    ({"game": "brisca", "players": ["Ana", "Bo", "Cy"]}, "bad_players"),
    ({"game": "brisca", "players": PLAYERS4, "options": {"colour": "red"}}, "bad_option"),
    ({"game": "brisca", "players": PLAYERS4, "dealer": 4}, "bad_dealer"),
    ({"game": ["brisca"], "players": PLAYERS4}, "unknown_game"),
    ({"game": "brisca", "players": ["Ana", "Bo\x00", "Cy", "Di"]}, "bad_players"),
    ({"game": "brisca", "players": ["Ana", "B" * 41, "Cy", "Di"]}, "bad_players"),
])
def test_create_refusals_are_422(client, body, code):
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == 422 and error_of(response)["code"] == code


def test_keys_401_403_404(client, created):
    tid = created["id"]
    assert client.get(f"/api/v1/tables/{tid}").status_code == 401
    assert error_of(client.get(f"/api/v1/tables/{tid}", headers=bearer("wrong")))["code"] == "bad_key"
    assert client.get(f"/api/v1/tables/{tid}?key={created['viewer_key']}").status_code == 200
    assert client.get(f"/api/v1/tables/{tid}", headers=bearer(created["scorer_key"])).status_code == 200
    response = post(client, created, {"type": "deal", "trump": "4O"}, key=created["viewer_key"])
    assert response.status_code == 403 and error_of(response)["code"] == "read_only_key"
    assert client.post(f"/api/v1/tables/{tid}/undo", headers=bearer(created["viewer_key"])).status_code == 403
    response = client.get("/api/v1/tables/nope", headers=bearer(created["viewer_key"]))
    assert response.status_code == 404 and error_of(response)["code"] == "table_not_found"
    assert client.get(f"/api/v1/tables/{tid}/events").status_code == 401


def test_events_201_and_refusals_422(client, created):
    assert post(client, created, {"type": "deal", "trump": "11E"}).status_code == 201
    response = post(client, created, {"type": "trick", "cards": ["8O", "1C", "2C", "3C"]})
    error = error_of(response)
    assert response.status_code == 422 and error["code"] == "unknown_card" and error["card"] == "8O"
    response = post(client, created, {"type": "trick", "cards": DEAL_4P[0][0]})
    assert response.status_code == 201 and response.get_json()["state"]["version"] == 2
    response = post(client, created, {"type": "trick", "cards": ["5C", "11B", "1C", "6B"]})
    error = error_of(response)
    assert response.status_code == 422 and error == {
        "code": "card_already_played", "message": "1C was already played in trick 1 (entered here for Di).",
        "rule": "R-COMMON-4", "card": "1C", "player": 3, "trick": 1, "name": "Di"}
    response = post(client, created, {"type": "trick", "cards": ["5C", "11B", "11C"]})
    assert response.status_code == 422 and error_of(response)["code"] == "wrong_trick_size"
    for body in ({"type": "castle"}, {"type": "trick"}, {"type": "trick", "cards": "1C"}, ["trick"],
                 {"type": ["trick"]}, {"type": "trick", "cards": DEAL_4P[1][0], "client_event_id": "a\x00"},
                 {"type": "trick", "cards": DEAL_4P[1][0], "expected_version": "2"}):
        response = post(client, created, body)
        assert response.status_code == 422, body
    response = post(client, created, {"type": "trick", "cards": DEAL_4P[1][0], "pad": "x" * 70000})
    assert response.status_code == 413 and error_of(response)["code"] == "request_entity_too_large"
    response = client.post(f"/api/v1/tables/{created['id']}/events", data="type=trick",
                           headers=bearer(created["scorer_key"]))
    assert response.status_code == 422 and error_of(response)["code"] == "bad_json"
    events = client.get(f"/api/v1/tables/{created['id']}/events", headers=bearer(created["viewer_key"]))
    assert [e["type"] for e in events.get_json()["events"]] == ["deal", "trick"]


def test_retried_client_event_id_is_stored_once(client, created):
    post(client, created, {"type": "deal", "trump": "11E"})
    body = {"type": "trick", "cards": DEAL_4P[0][0], "client_event_id": "a1b2"}
    first, second = post(client, created, body), post(client, created, body)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.get_json()["state"]["version"] == second.get_json()["state"]["version"] == 2
    events = client.get(f"/api/v1/tables/{created['id']}/events", headers=bearer(created["scorer_key"]))
    assert len(events.get_json()["events"]) == 2 and events.get_json()["events"][1]["client_event_id"] == "a1b2"


def test_stale_expected_version_is_409(client, created):
    post(client, created, {"type": "deal", "trump": "11E"})
    response = post(client, created, {"type": "trick", "cards": DEAL_4P[0][0], "expected_version": 0})
    assert response.status_code == 409 and error_of(response)["code"] == "version_conflict"
    response = post(client, created, {"type": "trick", "cards": DEAL_4P[0][0], "expected_version": 1})
    assert response.status_code == 201


def test_undo_then_redo_gives_the_same_state(client, created):
    tid, key = created["id"], created["scorer_key"]
    response = client.post(f"/api/v1/tables/{tid}/undo", headers=bearer(key))
    assert response.status_code == 422 and error_of(response)["code"] == "nothing_to_undo"
    post(client, created, {"type": "deal", "trump": "11E"})
    before = post(client, created, {"type": "trick", "cards": DEAL_4P[0][0]}).get_json()["state"]
    undone = client.post(f"/api/v1/tables/{tid}/undo", headers=bearer(key))
    assert undone.status_code == 200 and undone.get_json()["state"]["deals"][0]["tricks"] == []
    after = post(client, created, {"type": "trick", "cards": DEAL_4P[0][0]}).get_json()["state"]
    strip = lambda s: {k: v for k, v in s.items() if k != "revision"}  # noqa: E731
    assert strip(after) == strip(before)
    log = client.get(f"/api/v1/tables/{tid}/events", headers=bearer(key)).get_json()["events"]
    assert [e["withdrawn"] for e in log] == [False, True, False] and "withdrawn_at" in log[1]


def test_a_whole_series_through_http(client, created):
    from tests.support.simulate import brisca_deal
    totals = [0, 0]
    for number in range(7):
        for body in brisca_deal(4, number % 4, 100 + number):
            response = post(client, created, body)
            assert response.status_code == 201, response.get_json()
        state = response.get_json()["state"]
        points = state["deals"][-1]["points"]
        assert sum(points) == 120
        totals = [t + p for t, p in zip(totals, points)] if state["deals"][-1]["outcome"]["counted"] else totals
        assert state["totals"] == totals
        if state["series"]["finished"]:
            break
    assert state["series"]["finished"] is True and max(state["series"]["wins"]) == 3
    assert state["series"]["winner"] == state["series"]["wins"].index(3)
    assert post(client, created, {"type": "deal", "trump": "4O"}).status_code == 422


def test_openapi_describes_every_api_route(app, client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    routes = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1"):
            methods = routes.setdefault(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), set())
            methods.update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    assert routes == {path: set(item) for path, item in doc["paths"].items()}
    assert {"Event_deal", "Event_trick", "Event_capture", "Event_exchange", "Event_claim"} <= \
        set(doc["components"]["schemas"])


def test_unknown_api_route_answers_json_404(client):
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/openapi.json", "/rules/brouc", "/rules/brulot",
                                  "/new/brouc", "/new/brulot"])
def test_r_common_4_flags_carry_no_penalty_so_no_revoke_penalty_option_anywhere(client, path):
    response = client.get(path)
    assert response.status_code == 200 and b"revoke_penalty" not in response.data
    assert b"revoke penalty" not in response.data.lower()


def test_a_refusal_is_said_in_the_language_the_client_names_and_in_english_otherwise(client, created):
    """docs/api.md: the sentence follows Accept-Language (static/offline.js sends the page's); code and fields stay."""
    assert post(client, created, {"type": "deal", "trump": "11E", "dealer": 0}).status_code == 201
    path = f"/api/v1/tables/{created['id']}/events"
    stale = {"type": "trick", "cards": DEAL_4P[0][0], "expected_revision": 0}
    said = {}
    for asked in (None, "en-GB,en;q=0.8", "fr-CH,fr;q=0.9", "xx", "*"):
        headers = {**bearer(created["scorer_key"]), **({"Accept-Language": asked} if asked else {})}
        said[asked] = error_of(client.post(path, json=stale, headers=headers))
    english = "The table changed meanwhile: look at the new state and enter it again if it is still needed."
    assert said[None] == said["en-GB,en;q=0.8"] == said["xx"] == said["*"] == {
        "code": "version_conflict", "message": english, "version": 1, "revision": 1}
    assert said["fr-CH,fr;q=0.9"] == {"code": "version_conflict", "version": 1, "revision": 1, "message":
                                      "La table a changé entre-temps\u00a0: regardez où elle en est et refaites la "
                                      "saisie si elle est encore nécessaire."}
    under = client.post(path, json={"type": "trick", "cards": ["11E", "1O", "2O", "3O"]},
                        headers={**bearer(created["scorer_key"]), "Accept-Language": "fr"})
    assert error_of(under) == {"code": "card_under_stock", "rule": "R-BRISCA-2", "card": "11E", "player": 1,
                               "message": "Cavalier d'espadas (falçs) est sous le talon, c'est la dernière carte "
                                          "à piocher\u00a0: personne ne peut encore la jouer."}
