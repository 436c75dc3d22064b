"""The log keeps every field an event was entered with (docs/api.md, "The log"): an extension's own ``at`` (where the
run takes its cards, R-BURACO-7) has the name of the log's ``at`` (when the event was stored). The log's ``at`` keeps
its meaning for every event, and the extension's own comes in ``own``; an export imports back with the extension where
it was laid, so that the imported table's state is the original's. On SQLite and on PostgreSQL."""
import re

import pytest

OWN = ("id", "revision", "rematch", "rematch_of")  # what differs between a table and its imported copy
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")

# A Buraco hand: a run of diamonds extended at its start (4♦) and at its end (8♦), one extension at the start undone
# and entered again, the pot taken, then the count.
HAND = [{"type": "deal", "dealer": 0},
        {"type": "meld", "side": 0, "cards": ["5D", "6D", "7D"]},
        {"type": "extend", "side": 0, "meld": 0, "cards": ["4D"], "at": "start"},
        "undo",
        {"type": "extend", "side": 0, "meld": 0, "cards": ["4D"], "at": "start"},
        {"type": "extend", "side": 0, "meld": 0, "cards": ["8D"], "at": "end"},
        {"type": "extend", "side": 0, "meld": 0, "cards": ["9D"]},  # at left out: the end
        {"type": "meld", "side": 1, "cards": ["KS", "KH", "KC"]},
        {"type": "pot", "side": 0},
        {"type": "count", "closed_by": None, "hands": [["QH"], [], ["2C"], []]}]


@pytest.fixture
def client(client_on_each_database):
    return client_on_each_database


def buraco_table(client) -> dict:
    created = client.post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"]}).get_json()
    headers = {"Authorization": f"Bearer {created['scorer_key']}"}
    for body in HAND:
        if body == "undo":
            answer = client.post(f"/api/v1/tables/{created['id']}/undo", headers=headers)
            assert answer.status_code == 200
        else:
            answer = client.post(f"/api/v1/tables/{created['id']}/events", json=body, headers=headers)
            assert answer.status_code == 201, answer.get_json()
    return created


def log(client, table: dict) -> list:
    answer = client.get(f"/api/v1/tables/{table['id']}/events?key={table['viewer_key']}")
    assert answer.status_code == 200
    return answer.get_json()["events"]


def test_r_buraco_7_the_log_gives_an_extensions_place_in_own_and_every_events_at_is_when_it_was_stored(client):
    events = log(client, buraco_table(client))
    assert all(STAMP.fullmatch(e["at"]) for e in events), [e["at"] for e in events]
    assert all(STAMP.fullmatch(e["withdrawn_at"]) for e in events if e["withdrawn"])
    assert all(e["withdrawal"] == {"at": e["withdrawn_at"], "by": "scorer"} for e in events if e["withdrawn"])
    assert {e["by"] for e in events} == {"scorer"}  # R-COMMON-8: whose key made it
    without_stamps = [{k: v for k, v in e.items() if k not in ("at", "withdrawn_at", "by", "withdrawal")}
                      for e in events]
    assert without_stamps == [
        {"seq": 1, "type": "deal", "dealer": 0, "withdrawn": False},
        {"seq": 2, "type": "meld", "side": 0, "cards": ["5D", "6D", "7D"], "withdrawn": False},
        {"seq": 3, "type": "extend", "side": 0, "meld": 0, "cards": ["4D"], "own": {"at": "start"}, "withdrawn": True},
        {"seq": 4, "type": "extend", "side": 0, "meld": 0, "cards": ["4D"], "own": {"at": "start"}, "withdrawn": False},
        {"seq": 5, "type": "extend", "side": 0, "meld": 0, "cards": ["8D"], "own": {"at": "end"}, "withdrawn": False},
        {"seq": 6, "type": "extend", "side": 0, "meld": 0, "cards": ["9D"], "withdrawn": False},
        {"seq": 7, "type": "meld", "side": 1, "cards": ["KS", "KH", "KC"], "withdrawn": False},
        {"seq": 8, "type": "pot", "side": 0, "withdrawn": False},
        {"seq": 9, "type": "count", "closed_by": None, "hands": [["QH"], [], ["2C"], []], "withdrawn": False}]


def test_r_buraco_7_an_export_imports_back_with_the_extension_at_the_start_and_the_same_state(client):
    table = buraco_table(client)
    exported = client.get(f"/api/v1/tables/{table['id']}/export.json?key={table['viewer_key']}").get_json()
    original = exported["state"]
    assert original["deals"][0]["melds"]["0"][0]["cards"] == ["4D", "5D", "6D", "7D", "8D", "9D"]
    imported = client.post("/api/v1/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = client.get(f"/api/v1/tables/{copy['id']}?key={copy['viewer_key']}").get_json()
    strip = lambda state: {k: v for k, v in state.items() if k not in OWN}  # noqa: E731
    assert strip(copy["state"]) == strip(again) == strip(original)
    assert again["deals"][0]["melds"]["0"][0]["cards"] == ["4D", "5D", "6D", "7D", "8D", "9D"]
    # R-BURACO-6: Ana & Cy 4♦…7♦ 20 + 8♦ 9♦ 20, Q♥ -10 and 2♣ -20 left: 10; Bo & Di K♠ K♥ K♣ 30, no pot -100: -70.
    assert again["totals"] == original["totals"] == [10, -70]
    # The copy's log holds the events in force, each as it was entered (its extensions' places in own).
    assert [(e["type"], e.get("own")) for e in log(client, copy)] == [
        ("deal", None), ("meld", None), ("extend", {"at": "start"}), ("extend", {"at": "end"}), ("extend", None),
        ("meld", None), ("pot", None), ("count", None)]
    csv = [client.get(f"/api/v1/tables/{t['id']}/export.csv?key={t['viewer_key']}").get_data(as_text=True)
           for t in (table, copy)]
    assert csv[0] == csv[1] == "deal,side,players,points,slate,complete\r\n1,0,Ana & Cy,10,,True\r\n" \
                               "1,1,Bo & Di,-70,,True\r\n"


def test_r_buraco_7_an_export_written_before_own_still_imports(client):
    """An export written before the log gave ``own`` (every ``at`` the log's time) imports back as it did: its
    extensions at the end, where its log put them."""
    created = client.post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo"]}).get_json()
    headers = {"Authorization": f"Bearer {created['scorer_key']}"}
    for body in ({"type": "deal", "dealer": 0}, {"type": "meld", "side": 0, "cards": ["5D", "6D", "7D"]},
                 {"type": "extend", "side": 0, "meld": 0, "cards": ["8D"], "at": "end"}):
        assert client.post(f"/api/v1/tables/{created['id']}/events", json=body, headers=headers).status_code == 201
    exported = client.get(f"/api/v1/tables/{created['id']}/export.json?key={created['viewer_key']}").get_json()
    assert exported["events"][2].pop("own") == {"at": "end"}
    imported = client.post("/api/v1/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["state"]["deals"][0]["melds"]["0"][0]["cards"] == ["5D", "6D", "7D", "8D"]


@pytest.mark.parametrize("own", [["at", "start"], "start", 3])
def test_an_import_whose_own_is_no_object_is_refused_with_a_sentence_and_stores_nothing(client, own):
    table = buraco_table(client)
    exported = client.get(f"/api/v1/tables/{table['id']}/export.json?key={table['viewer_key']}").get_json()
    exported["events"][3]["own"] = own
    before = client.get(f"/api/v1/tables/{table['id']}?key={table['viewer_key']}").get_json()
    answer = client.post("/api/v1/import", json=exported)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == {"code": "bad_import", "message": "An import is an export of Referee: its "
                                          "table and its events.", "field": "own"}
    assert client.get(f"/api/v1/tables/{table['id']}?key={table['viewer_key']}").get_json() == before
