"""An export imports back whatever its size: the import has its own body limit (IMPORT_MAX_BYTES, sized to a long
log), every other body keeps the small one, and the export's state is not needed to import it."""
import json
import uuid

import pytest

from tests.support.simulate import brulot_deal

EVENTS = 300
ENTRY_LIMIT = 64 * 1024  # what every other body may weigh
OWN = ("id", "revision", "rematch", "rematch_of")  # what differs between a table and its imported copy


@pytest.fixture
def client(client_on_each_database):
    return client_on_each_database


def long_table(client, count: int = EVENTS) -> tuple:
    """A Brûlot evening of ``count`` entries, each sent as the pages send it (with a client_event_id), one of them
    undone and entered again on the way (the export keeps the withdrawn one; the import leaves it out)."""
    created = client.post("/api/v1/tables", json={"game": "brulot", "players": ["Ana", "Bo", "Cy", "Di"],
                                                  "options": {"deals": 100}}).get_json()
    table_id, headers = created["id"], {"Authorization": f"Bearer {created['scorer_key']}"}
    url = f"/api/v1/tables/{table_id}/events"
    posted, deal = 0, 0
    while posted < count:
        for event in brulot_deal(4, deal % 4, seed=deal, trump_rule="dealer_last_card")[0]:
            if posted == count:
                break
            body = {**event, "client_event_id": str(uuid.uuid4())}
            assert client.post(url, json=body, headers=headers).status_code == 201, (posted, body)
            posted += 1
            if posted == 5:  # undone, then entered again
                assert client.post(f"/api/v1/tables/{table_id}/undo", headers=headers).status_code == 200
                body["client_event_id"] = str(uuid.uuid4())
                assert client.post(url, json=body, headers=headers).status_code == 201
        deal += 1
    return table_id, created["viewer_key"]


def same(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in OWN}


def test_an_export_of_a_300_event_table_imports_back_to_the_same_state(client):
    table_id, viewer = long_table(client)
    exported = client.get(f"/api/v1/tables/{table_id}/export.json?key={viewer}")
    assert exported.status_code == 200
    doc = exported.get_json()
    assert len(doc["events"]) == EVENTS + 1 and [e["withdrawn"] for e in doc["events"]].count(True) == 1
    assert doc["state"]["version"] == EVENTS
    assert len(exported.data) > ENTRY_LIMIT  # more than any other body may weigh: refused 413 before
    imported = client.post("/api/v1/import", data=exported.data, content_type="application/json")
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert same(copy["state"]) == same(doc["state"])
    again = client.get(f"/api/v1/tables/{copy['id']}?key={copy['viewer_key']}").get_json()
    assert same(again) == same(doc["state"]) and again["version"] == EVENTS
    assert [e["type"] for e in client.get(f"/api/v1/tables/{copy['id']}/events?key={copy['viewer_key']}")
            .get_json()["events"]] == [e["type"] for e in doc["events"] if not e["withdrawn"]]


def test_the_import_does_not_need_the_exports_state(client):
    table_id, viewer = long_table(client, 30)
    doc = client.get(f"/api/v1/tables/{table_id}/export.json?key={viewer}").get_json()
    without = {k: v for k, v in doc.items() if k != "state"}
    imported = client.post("/api/v1/import", json=without)
    assert imported.status_code == 201 and same(imported.get_json()["state"]) == same(doc["state"])
    garbled = dict(doc, state={"version": -1, "deals": "anything"})
    assert same(client.post("/api/v1/import", json=garbled).get_json()["state"]) == same(doc["state"])


def test_an_import_is_refused_past_its_own_limit_and_every_other_body_past_64_kb(client):
    app = client.application
    limit = app.config["IMPORT_MAX_BYTES"]
    assert limit == 8 * 1024 * 1024
    filler = {"type": "trick", "cards": ["AS", "KS", "QS", "JS"], "note": "x" * 100}
    big_log = json.dumps({"format": "referee-export/1", "table": {"game": "brulot", "players": ["Ana", "Bo", "Cy"]},
                          "events": [filler] * (2 * 1024 * 1024 // 140)})  # a log of ~2 MB: 15,000 entries
    assert len(big_log) > 2 * 1024 * 1024
    read = client.post("/api/v1/import", data=big_log, content_type="application/json")
    assert read.status_code == 422 and read.get_json()["error"]["code"] != "request_entity_too_large"
    app.config["IMPORT_MAX_BYTES"] = 1024 * 1024
    refused = client.post("/api/v1/import", data=big_log, content_type="application/json")
    assert refused.status_code == 413
    assert refused.get_json()["error"]["code"] == "request_entity_too_large"
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo"]}).get_json()
    body = json.dumps({"type": "deal", "trump": "1O", "note": "x" * ENTRY_LIMIT})
    entry = client.post(f"/api/v1/tables/{created['id']}/events", data=body, content_type="application/json",
                        headers={"Authorization": f"Bearer {created['scorer_key']}"})
    assert entry.status_code == 413 and entry.get_json()["error"]["code"] == "request_entity_too_large"
    small = client.post("/api/v1/tables", data=json.dumps({"game": "brisca", "players": ["Ana", "Bo"],
                                                           "x": "y" * ENTRY_LIMIT}), content_type="application/json")
    assert small.status_code == 413
