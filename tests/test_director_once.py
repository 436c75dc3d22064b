"""What the director does happens once (R-TOURN-5, issue 38 item 6): a penalty, an arbitral result, a round closed or
seated, an entrant added or withdrawn — sent twice with one ``Idempotency-Key`` (the API), posted twice from one
director's page form (the same ``form_id``: a double tap), or both at the same instant — is stored once, and the
second answers as the first did. The key is stored with the act under a primary key (``tournament_acts``), so two
posts at the same instant on SQLite and PostgreSQL store one act (``client_on_each_database``)."""
import re

import pytest
from sqlmodel import Session, func, select

from referee.store.records import TournamentActRecord
from tests.support.api import check
from tests.support.waiting import together

PAIRS = [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]
PLAN = [{"movement": "round_robin", "hands": 3}] * 3


def made(client) -> tuple:
    """A tournament of four pairs, three round-robin rounds of 3 hands: (its id, the director's headers)."""
    body = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Evening", "entrants": PAIRS,
                                                    "rounds": PLAN}).get_json()
    return body["id"], {"Authorization": f"Bearer {body['director_key']}"}


def state(client, tournament_id, headers) -> dict:
    return client.get(f"/api/v1/tournaments/{tournament_id}", headers=headers).get_json()


def vp_of(st: dict) -> dict:
    return {row["entrant"]: row["vp"] for row in st["standings"]}


def kinds(st: dict) -> list:
    return [entry["kind"] for entry in st["log"]]


def acts_stored(app) -> int:
    with Session(app.extensions["referee.ledger"].engine) as session:
        return session.exec(select(func.count()).select_from(TournamentActRecord)).one()


def seated(client, tournament_id, headers) -> None:
    assert client.post(f"/api/v1/tournaments/{tournament_id}/rounds", headers=headers).status_code == 201


# Each act: (what sets the tournament up for it, the API call, the page's form: its action and fields, what the state
# says after the act made once)
def after_penalty(st):
    assert vp_of(st) == {0: 0, 1: -3, 2: 0, 3: 0} and [p["vp"] for p in st["penalties"]] == [-3]
    assert kinds(st) == ["seated", "penalty"]


def after_arbitral(st):
    table = st["rounds"][0]["tables"][0]
    assert table["status"] == "arbitral" and table["entrants"] == [0, 3]
    assert vp_of(st) == {0: 12, 1: 0, 2: 0, 3: 8} and kinds(st) == ["seated", "arbitral"]


def after_closed(st):
    assert st["rounds"][0]["status"] == "closed" and kinds(st) == ["seated", "not_played", "not_played", "closed"]
    assert vp_of(st) == {0: 0, 1: 0, 2: 0, 3: 0}  # R-TOURN-1: nothing entered, 0 VP each


def after_seated(st):
    assert [r["number"] for r in st["rounds"]] == [1] and kinds(st) == ["seated"]


def after_withdrawn(st):
    assert [e.get("withdrawn") for e in st["entrants"]][2] is not None and kinds(st) == ["withdrawn"]


def after_added(st):
    assert [e["names"] for e in st["entrants"]][4:] == [["Ida", "Jo"]] and kinds(st) == ["added"]


ACTS = {
    "penalty": ("seat", "penalties", {"entrant": 1, "vp": -3, "reason": "Late at the table"}, 201,
                "penalty", {"entrant": "1", "vp": "3", "reason": "Late at the table", "round": ""}, after_penalty),
    "arbitral": ("seat", "rounds/1/tables/1/result", {"vp": [12, 8], "reason": "Cards shown"}, 200,
                 "arbitral", {"round": "1", "table": "1", "vp_ns": "12", "vp_ew": "8", "reason": "Cards shown"},
                 after_arbitral),
    "closed": ("seat", "rounds/1/close", {"force": True, "reason": "Time is up"}, 200,
               "rounds/1/close", {"force": "yes", "reason": "Time is up"}, after_closed),
    "seated": (None, "rounds", None, 201, "rounds", {}, after_seated),
    "withdrawn": (None, "withdrawals", {"entrant": 2}, 200, "entrants/2/withdraw", {}, after_withdrawn),
    "added": (None, "entrants", {"names": ["Ida", "Jo"]}, 201, "entrants", {"names": "Ida & Jo"}, after_added),
}


@pytest.mark.parametrize("act", ACTS)
def test_r_tourn_5_an_act_sent_twice_with_one_idempotency_key_is_stored_once_and_answered_alike(client, act):
    setup, path, body, status, _, _, after = ACTS[act]
    tournament_id, headers = made(client)
    if setup:
        seated(client, tournament_id, headers)
    keyed = {**headers, "Idempotency-Key": f"director-{act}"}
    answers = [client.post(f"/api/v1/tournaments/{tournament_id}/{path}", json=body, headers=keyed)
               for _ in range(2)]
    assert [a.status_code for a in answers] == [status, status]
    first, second = (a.get_json() for a in answers)
    assert second == first  # the same answer: nothing changed since
    documented = re.sub(r"rounds/1", "rounds/{number}", path).replace("tables/1", "tables/{table}")
    check(answers[1], "post", "/api/v1/tournaments/{tournament_id}/" + documented, status)
    after(state(client, tournament_id, headers))
    assert acts_stored(client.application) == 1


def test_r_tourn_5_without_a_key_each_penalty_is_an_act_of_its_own(client):
    _, path, body, status, _, _, _ = ACTS["penalty"]
    tournament_id, headers = made(client)
    for _ in range(2):
        assert client.post(f"/api/v1/tournaments/{tournament_id}/{path}", json=body,
                           headers=headers).status_code == status
    st = state(client, tournament_id, headers)
    assert kinds(st) == ["penalty", "penalty"] and acts_stored(client.application) == 0
    assert vp_of(st)[1] == -6


def test_r_tourn_5_one_key_for_another_penalty_is_another_act(client):
    tournament_id, headers = made(client)
    keyed = {**headers, "Idempotency-Key": "same"}
    for entrant in (1, 2, 1):
        client.post(f"/api/v1/tournaments/{tournament_id}/penalties",
                    json={"entrant": entrant, "vp": -3, "reason": "Late"}, headers=keyed)
    assert vp_of(state(client, tournament_id, headers)) == {0: 0, 1: -3, 2: -3, 3: 0}


def test_r_tourn_5_a_refused_act_stores_no_key_and_the_same_key_mended_is_stored(client):
    tournament_id, headers = made(client)
    keyed = {**headers, "Idempotency-Key": "mended"}
    refused = client.post(f"/api/v1/tournaments/{tournament_id}/penalties", json={"entrant": 1, "vp": -3},
                          headers=keyed)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "reason_required"
    assert acts_stored(client.application) == 0
    client.post(f"/api/v1/tournaments/{tournament_id}/penalties",
                json={"entrant": 1, "vp": -3, "reason": "Late"}, headers=keyed)
    assert vp_of(state(client, tournament_id, headers))[1] == -3


@pytest.mark.parametrize("act", ACTS)
def test_r_tourn_5_two_identical_calls_at_the_same_instant_store_one_act(client_on_each_database, act):
    client = client_on_each_database
    setup, path, body, status, _, _, after = ACTS[act]
    tournament_id, headers = made(client)
    if setup:
        seated(client, tournament_id, headers)
    keyed = {**headers, "Idempotency-Key": f"at-once-{act}"}
    app = client.application
    answers = together(3, lambda: app.test_client().post(f"/api/v1/tournaments/{tournament_id}/{path}", json=body,
                                                        headers=keyed))
    assert [a.status_code for a in answers] == [status] * 3
    after(state(client, tournament_id, headers))
    assert acts_stored(app) == 1


# --- the director's page --------------------------------------------------------------------------------------

def page_form(client, tournament_id, key, action: str) -> str:
    """The form id of the director's page form that posts to ``action``."""
    page = client.get(f"/tournaments/{tournament_id}?key={key}").get_data(as_text=True)
    found = re.search(r'<form[^>]*action="/tournaments/' + tournament_id + "/" + re.escape(action) +
                      r'\?key=[^"]*"[^>]*>(?:(?!</form>).)*?name="form_id" value="([0-9a-f]{32})"', page, re.S)
    assert found, action
    return found.group(1)


@pytest.mark.parametrize("act", ACTS)
def test_r_tourn_5_a_double_tap_on_the_directors_page_form_is_stored_once(client, act):
    client.application.config["WTF_CSRF_ENABLED"] = False
    setup, _, _, _, action, fields, after = ACTS[act]
    tournament_id, headers = made(client)
    key = headers["Authorization"].split()[1]
    if setup:
        seated(client, tournament_id, headers)
    form = {**fields, "form_id": page_form(client, tournament_id, key, action)}
    answers = [client.post(f"/tournaments/{tournament_id}/{action}?key={key}", data=form) for _ in range(2)]
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    after(state(client, tournament_id, headers))
    assert acts_stored(client.application) == 1
    page = client.get(answers[1].headers["Location"]).get_data(as_text=True)  # the page after it: new forms
    assert 'name="form_id"' in page and form["form_id"] not in page


def test_r_tourn_5_two_penalty_forms_posted_at_the_same_instant_from_one_page_take_3_vp(client_on_each_database):
    client = client_on_each_database
    app = client.application
    app.config["WTF_CSRF_ENABLED"] = False
    tournament_id, headers = made(client)
    key = headers["Authorization"].split()[1]
    seated(client, tournament_id, headers)
    form = {**ACTS["penalty"][5], "form_id": page_form(client, tournament_id, key, "penalty")}
    answers = together(2, lambda: app.test_client().post(f"/tournaments/{tournament_id}/penalty?key={key}",
                                                        data=form))
    assert [a.status_code for a in answers] == [303, 303]
    after_penalty(state(client, tournament_id, headers))
