"""The rematch (series flow): once a series is over, one tap starts a new table with the same players, options and
keys and the next dealer, and every view of the old table is led to it. On SQLite and PostgreSQL (the ``ledger``
fixture), through the ledger, the JSON API and the pages."""
import json

import pytest
from sqlalchemy import inspect
from sqlmodel import Session, select

from referee import create_app
from referee.errors import Forbidden, RuleError, Unauthorized
from referee.store.records import RematchRecord, TableRecord
from tests.support.ledgers import at_once
from tests.support.scorer import token
from tests.support.series import BRISCA_DEAL, FINISHED as SERIES, finished

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]


def tables_of(ledger) -> int:
    with Session(ledger.engine) as session:
        return len(session.exec(select(TableRecord.id)).all())


# --- the ledger --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(SERIES))
def test_a_rematch_has_the_same_players_options_and_keys_and_the_next_dealer(ledger, game):
    players, options, _, _, _, next_dealer = SERIES[game]
    old_id, scorer, viewer, old = finished(ledger, game)
    status, new = ledger.rematch(old_id)
    assert status == 201 and new["id"] != old_id and len(new["id"]) == 11
    assert new["game"] == game and new["players"] == players and new["options"] == old["options"]
    assert {name: new["options"][name] for name in options} == options
    assert new["version"] == 0 and new["deals"] == [] and new["series"]["finished"] is False
    assert new["next"] == {"action": "deal", "player": next_dealer}
    assert (new["rematch"], new["rematch_of"]) == (None, old_id)
    after = ledger.state(old_id)
    assert (after["rematch"], after["rematch_of"]) == (new["id"], None)
    assert after["revision"] == old["revision"] + 1  # what the live views poll: they learn of it
    assert {k: v for k, v in after.items() if k not in ("revision", "rematch")} == \
        {k: v for k, v in old.items() if k not in ("revision", "rematch")}
    assert ledger.authorize(new["id"], scorer, write=True) == "scorer"
    assert ledger.authorize(new["id"], viewer) == "viewer"
    with pytest.raises(Forbidden):
        ledger.authorize(new["id"], viewer, write=True)
    _, first = ledger.append(new["id"], SERIES[game][3][0])  # the first deal, by the next dealer
    assert first["deals"][0]["dealer"] == next_dealer


def test_the_same_rematch_asked_again_answers_200_with_the_same_table(ledger):
    old_id, _, _, _ = finished(ledger)
    status, new = ledger.rematch(old_id)
    tables = tables_of(ledger)
    again, same = ledger.rematch(old_id)
    assert (status, again) == (201, 200) and same["id"] == new["id"] and tables_of(ledger) == tables == 2
    assert ledger.state(old_id)["revision"] == 7  # 6 entries, one rematch; the retry changed nothing


def test_rematches_asked_at_once_make_one_table(ledger):
    old_id, _, _, _ = finished(ledger)
    assert sorted(at_once(5, lambda: ledger.rematch(old_id))) == [200, 200, 200, 200, 201]
    assert tables_of(ledger) == 2
    with Session(ledger.engine) as session:
        links = session.exec(select(RematchRecord)).all()
    assert [(link.old_id, link.new_id) for link in links] == [(old_id, ledger.state(old_id)["rematch"])]


def test_no_rematch_while_the_series_is_on(ledger):
    state, _, _ = ledger.create_table("brisca", PLAYERS4)
    for body in BRISCA_DEAL * 2:
        _, state = ledger.append(state["id"], body)
    with pytest.raises(RuleError) as refused:
        ledger.rematch(state["id"])
    assert (refused.value.code, refused.value.message) == \
        ("series_not_finished", "The series is not over yet: a rematch starts when it is.")
    after = ledger.state(state["id"])
    assert after["revision"] == 4 and after["rematch"] is None and tables_of(ledger) == 1


def test_a_co_scorer_key_and_a_renewed_viewer_key_go_on_to_the_rematch(ledger):
    old_id, scorer, viewer, _ = finished(ledger)
    coscorer = ledger.new_key(old_id, "coscorer")
    renewed = ledger.new_key(old_id, "viewer")
    _, new = ledger.rematch(old_id)
    assert ledger.authorize(new["id"], coscorer, write=True) == "coscorer"  # R-COMMON-8 tells them apart
    assert ledger.authorize(new["id"], renewed) == "viewer"
    with pytest.raises(Unauthorized):
        ledger.authorize(new["id"], viewer)  # replaced before the rematch: it opens neither table
    assert ledger.new_key(new["id"], "viewer") != renewed  # each table's keys are its own from then on
    assert ledger.authorize(old_id, renewed) == "viewer"
    assert ledger.authorize(new["id"], scorer, write=True) == "scorer"


def test_a_rematch_of_the_rematch_chains(ledger):
    old_id, _, _, _ = finished(ledger)
    _, second = ledger.rematch(old_id)
    for body in BRISCA_DEAL * 3:
        ledger.append(second["id"], body)
    _, third = ledger.rematch(second["id"])
    middle = ledger.state(second["id"])
    assert (middle["rematch_of"], middle["rematch"]) == (old_id, third["id"])
    assert ledger.state(old_id)["rematch"] == second["id"]
    assert third["rematch_of"] == second["id"] and third["next"] == {"action": "deal", "player": 0}  # 2, 3, 0 dealt


def test_a_database_made_before_rematches_gains_their_table_and_keeps_its_data(ledger):
    old_id, scorer, _, old = finished(ledger)
    RematchRecord.__table__.drop(ledger.engine)  # as a file made before this feature
    assert "rematches" not in inspect(ledger.engine).get_table_names()
    ledger.init_db()  # make db / flask init-db / serve: create_all adds the missing table only
    assert "rematches" in inspect(ledger.engine).get_table_names()
    assert ledger.state(old_id)["totals"] == old["totals"] == [210, 150]
    assert ledger.rematch(old_id)[0] == 201


# --- the JSON API, on both databases ------------------------------------------------------------------------

@pytest.fixture
def api(ledger):
    """A Flask client whose app stores in the ``ledger`` fixture's database (SQLite, then PostgreSQL)."""
    app = create_app({"TESTING": True, "DATABASE_URL": ledger.url, "SECRET_KEY": "test"})
    yield app.test_client()
    app.extensions["referee.ledger"].engine.dispose()


def bearer(key):
    return {"Authorization": f"Bearer {key}"}


def created(client, bodies):
    made = client.post("/api/v1/tables", json={"game": "brisca", "players": PLAYERS4, "dealer": 2}).get_json()
    for body in bodies:
        assert client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                           headers=bearer(made["scorer_key"])).status_code == 201
    return made["id"], made["scorer_key"], made["viewer_key"]


def test_api_rematch_answers_201_then_200_with_the_same_table(api):
    old_id, scorer, viewer = created(api, BRISCA_DEAL * 3)
    first = api.post(f"/api/v1/tables/{old_id}/rematch", headers=bearer(scorer))
    body = first.get_json()
    assert first.status_code == 201 and set(body) == {"id", "scorer_url", "viewer_url", "state"}
    new_id = body["id"]
    assert first.headers["Location"] == f"/api/v1/tables/{new_id}"
    assert body["scorer_url"] == f"http://localhost/t/{new_id}?key={scorer}"
    assert body["viewer_url"] == f"http://localhost/t/{new_id}?key={viewer}"
    state = body["state"]
    assert state["id"] == new_id and state["players"] == PLAYERS4 and state["version"] == 0
    assert state["options"] == {"tie_rule": "draw", "double_over_100": False, "wins_needed": 3,
                                "trump_rotation": False, "mexican_11": False, "exchange_requires": "player"}
    assert state["next"] == {"action": "deal", "player": 1} and state["rematch_of"] == old_id
    again = api.post(f"/api/v1/tables/{old_id}/rematch?key={scorer}")
    assert again.status_code == 200 and again.get_json()["id"] == new_id
    assert again.get_json()["scorer_url"] == body["scorer_url"]
    old = api.get(f"/api/v1/tables/{old_id}?key={viewer}").get_json()
    assert (old["rematch"], old["rematch_of"], old["series"]["finished"]) == (new_id, None, True)
    assert api.get(f"/api/v1/tables/{new_id}", headers=bearer(viewer)).get_json()["rematch_of"] == old_id
    deal = api.post(f"/api/v1/tables/{new_id}/events", json={"type": "deal", "trump": "1O"}, headers=bearer(scorer))
    assert deal.status_code == 201 and deal.get_json()["state"]["deals"][0]["dealer"] == 1


def test_api_rematch_refusals(api):
    old_id, scorer, viewer = created(api, BRISCA_DEAL * 2)
    early = api.post(f"/api/v1/tables/{old_id}/rematch", headers=bearer(scorer))
    assert early.status_code == 422 and early.get_json() == {"error": {
        "code": "series_not_finished", "message": "The series is not over yet: a rematch starts when it is."}}
    for body in BRISCA_DEAL:
        api.post(f"/api/v1/tables/{old_id}/events", json=body, headers=bearer(scorer))
    for headers, status, code in [(bearer(viewer), 403, "read_only_key"), ({}, 401, "key_required"),
                                  (bearer("not-a-key"), 401, "bad_key")]:
        answer = api.post(f"/api/v1/tables/{old_id}/rematch", headers=headers)
        assert (answer.status_code, answer.get_json()["error"]["code"]) == (status, code)
    missing = api.post("/api/v1/tables/nosuchtable/rematch", headers=bearer(scorer))
    assert (missing.status_code, missing.get_json()["error"]["code"]) == (404, "table_not_found")
    assert api.get(f"/api/v1/tables/{old_id}?key={viewer}").get_json()["rematch"] is None


def test_the_live_poll_of_the_old_table_tells_of_the_rematch(api):
    old_id, scorer, viewer = created(api, BRISCA_DEAL * 3)
    seen = api.get(f"/api/v1/tables/{old_id}?key={viewer}").get_json()["revision"]
    assert api.get(f"/t/{old_id}/live?key={viewer}&since={seen}").status_code == 204
    new_id = api.post(f"/api/v1/tables/{old_id}/rematch", headers=bearer(scorer)).get_json()["id"]
    poll = api.get(f"/t/{old_id}/live?key={viewer}&since={seen}")
    assert poll.status_code == 200 and f"since={seen + 1}".encode() in poll.data
    assert json.loads(poll.headers["HX-Trigger"]) == {"referee:rematch": {"url": f"/t/{new_id}?key={viewer}"}}
    screen = api.get(f"/t/{old_id}/live?key={viewer}&since={seen}&view=screen")
    assert json.loads(screen.headers["HX-Trigger"]) == {
        "referee:rematch": {"url": f"/t/{new_id}/screen?key={viewer}"}}
    assert api.get(f"/t/{old_id}/live?key={viewer}&since={seen + 1}").status_code == 204
    assert "HX-Trigger" not in api.get(f"/t/{new_id}/live?key={viewer}&since=0").headers


def test_the_openapi_document_describes_the_rematch(api):
    doc = api.get("/api/v1/openapi.json").get_json()
    post = doc["paths"]["/api/v1/tables/{table_id}/rematch"]["post"]
    assert {"200", "201", "401", "403", "404", "422"} <= set(post["responses"])  # and the errors of every call
    assert post["responses"]["201"]["content"]["application/json"]["schema"]["required"] == \
        ["id", "scorer_url", "viewer_url", "state"]
    state = doc["components"]["schemas"]["State"]
    assert state["properties"]["rematch"]["type"] == state["properties"]["rematch_of"]["type"] == ["string", "null"]
    assert "rematch" not in state["required"] and "rematch_of" not in state["required"]


# --- the pages ----------------------------------------------------------------------------------------------

@pytest.fixture
def pages(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def test_the_scorer_taps_rematch_and_lands_on_the_new_scorer_page(pages):
    old_id, scorer, viewer = created(pages, BRISCA_DEAL * 2)
    before = pages.get(f"/t/{old_id}?key={scorer}").get_data(as_text=True)
    assert 'class="rematch"' not in before  # the series is on: no button yet
    for body in BRISCA_DEAL:
        pages.post(f"/api/v1/tables/{old_id}/events", json=body, headers=bearer(scorer))
    page = pages.get(f"/t/{old_id}?key={scorer}").get_data(as_text=True)
    assert f'action="/t/{old_id}/rematch?key={scorer}"' in page and ">Rematch</button>" in page
    assert pages.post(f"/t/{old_id}/rematch?key={scorer}").status_code == 400  # no CSRF token: refused
    landed = pages.post(f"/t/{old_id}/rematch?key={scorer}", data={"csrf_token": token(page)})
    new_id = pages.get(f"/api/v1/tables/{old_id}?key={viewer}").get_json()["rematch"]
    assert landed.status_code == 303 and landed.headers["Location"] == f"/t/{new_id}?key={scorer}"
    new_page = pages.get(landed.headers["Location"]).get_data(as_text=True)
    assert '<span class="title-main">Deal 1</span>' in new_page and ">dealer: Bo</span>" in new_page  # Bo deals next (R-COMMON-2)
    assert 'class="rematch"' not in new_page
    tapped_twice = pages.post(f"/t/{old_id}/rematch?key={scorer}", data={"csrf_token": token(page)},
                              headers={"HX-Request": "true"})
    assert tapped_twice.status_code == 204 and tapped_twice.headers["HX-Redirect"] == f"/t/{new_id}?key={scorer}"
    old_page = pages.get(f"/t/{old_id}?key={scorer}").get_data(as_text=True)  # the scorer's back button
    assert f'<a class="button primary rematch-button" href="/t/{new_id}?key={scorer}">The rematch is on: follow ' \
           f'it</a>' in old_page and ">Rematch</button>" not in old_page


def test_the_old_viewer_page_and_big_screen_link_to_the_rematch(pages):
    old_id, scorer, viewer = created(pages, BRISCA_DEAL * 3)
    for path in (f"/t/{old_id}?key={viewer}", f"/t/{old_id}/screen?key={viewer}"):
        assert 'class="rematch' not in pages.get(path).get_data(as_text=True)  # over, but no rematch yet
    new_id = pages.post(f"/api/v1/tables/{old_id}/rematch", headers=bearer(scorer)).get_json()["id"]
    viewer_page = pages.get(f"/t/{old_id}?key={viewer}").get_data(as_text=True)
    assert f'<a class="button primary rematch-button" href="/t/{new_id}?key={viewer}" data-follow>The rematch ' \
           f'is on: follow it</a>' in viewer_page and "csrf_token" not in viewer_page
    screen = pages.get(f"/t/{old_id}/screen?key={viewer}").get_data(as_text=True)
    assert f'href="/t/{new_id}/screen?key={viewer}" data-follow>The rematch is on: follow it</a>' in screen
    assert 'class="rematch' not in pages.get(f"/t/{new_id}?key={viewer}").get_data(as_text=True)
