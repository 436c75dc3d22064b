"""Once per form (issue 24, item 5): every form that makes something — the set-up, the tournament, the rematch, an
import — makes it once, however many times it is posted (a double tap, a resent post, the second arriving while the
first is being stored), and every answer leads the phone to the same thing with its key. The new record's id and
keys are derived from the form's own id, what it asks for and the app's secret (referee/store/once.py), so a repeat finds
the row the primary key let in. On SQLite and PostgreSQL (the ``ledger`` and ``client_on_each_database`` fixtures),
through the ledger, the pages, the API and a browser."""
import re

import pytest
from sqlmodel import Session, func, select

from referee.errors import Conflict
from referee.store import Ledger, Once
from referee.store.records import RematchRecord, TableRecord, TournamentRecord
from referee.tournament.store import Tournaments
from referee.web.services import status_of
from tests.support.api import check
from tests.support.browser import new_phone
from tests.support.limits import assert_rate_limited, limited_app
from tests.support.scorer import token
from tests.support.series import finished
from tests.support.waiting import together

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]
PAIRS = [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]
PLAN = [{"movement": "mitchell", "hands": 3}]


def at_once(count_, call) -> list:
    """Each thread's answer, or the Conflict it raised."""
    return together(count_, call, (Conflict,))


def count(engine, record) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(record)).one()


def one_answer(answers: list) -> tuple:
    """Every answer is the same record with the same keys: (its id, writer key, viewer key); one made it (201)."""
    assert sorted(a.status for a in answers) == [200] * (len(answers) - 1) + [201], answers
    made = {(state["id"], writer, viewer) for state, writer, viewer in answers}
    assert len(made) == 1, made
    return made.pop()


# --- the ledger and the store ------------------------------------------------------------------------------

def test_a_form_posted_five_times_at_once_makes_one_table_and_each_answer_has_its_keys(ledger):
    once = Once(b"secret", "form-1")
    table_id, scorer, viewer = one_answer(at_once(5, lambda: ledger.create_table("brisca", PLAYERS4, once=once)))
    assert count(ledger.engine, TableRecord) == 1 and len(table_id) == 11 and len(scorer) == len(viewer) == 32
    assert ledger.authorize(table_id, scorer, write=True) == "scorer" and ledger.authorize(table_id, viewer) == "viewer"
    again = ledger.create_table("brisca", PLAYERS4, once=once)  # the form resent later: the same table, its keys
    assert again.status == 200 and (again[0]["id"], again[1], again[2]) == (table_id, scorer, viewer)


def test_the_same_form_asking_for_something_else_makes_that_and_no_form_id_makes_a_table_each_time(ledger):
    once = Once(b"secret", "form-1")
    first = ledger.create_table("brisca", PLAYERS4, once=once)
    mended = ledger.create_table("brisca", ["Ana", "Bo", "Cy", "Dina"], once=once)  # Back, a name mended, Create
    other = ledger.create_table("brisca", PLAYERS4, once=Once(b"secret", "form-2"))
    plain = [ledger.create_table("brisca", PLAYERS4) for _ in range(2)]
    assert [made.status for made in (first, mended, other, *plain)] == [201] * 5
    assert len({made[0]["id"] for made in (first, mended, other, *plain)}) == 5
    assert Once(b"another secret", "form-1").mint("table", {}) != Once(b"secret", "form-1").mint("table", {})


def test_a_form_whose_table_had_its_key_renewed_opens_nothing_more(ledger):
    once = Once(b"secret", "form-1")
    state, scorer, _ = ledger.create_table("brisca", PLAYERS4, once=once)
    ledger.renew_own_key(state["id"], scorer)
    with pytest.raises(Conflict) as refused:
        ledger.create_table("brisca", PLAYERS4, once=once)
    assert refused.value.code == "made_before" and status_of(refused.value) == 409
    assert refused.value.message == ("This form already made its table, and that table's link has been renewed "
                                     "since: ask whoever renewed it for the new one.")
    assert count(ledger.engine, TableRecord) == 1


def test_an_import_sent_five_times_at_once_makes_one_table(ledger):
    state, _, _ = ledger.create_table("brisca", PLAYERS4)
    ledger.append(state["id"], {"type": "deal", "trump": "1O"})
    setup, events = ledger.record_of(state["id"]), ledger.events(state["id"])
    once = Once(b"secret", "import-1")
    table_id, scorer, _ = one_answer(at_once(5, lambda: ledger.import_table(setup, events, once=once)))
    assert count(ledger.engine, TableRecord) == 2 and ledger.state(table_id)["version"] == 1
    assert [e["type"] for e in ledger.events(table_id)] == ["deal"]
    assert ledger.authorize(table_id, scorer, write=True) == "scorer"


def test_a_tournament_form_posted_five_times_at_once_makes_one_tournament(ledger):
    store, once = Tournaments(ledger), Once(b"secret", "form-t")
    answers = at_once(5, lambda: store.create("buraco", "Club evening", PAIRS, PLAN, once=once))
    tournament_id, director, viewer = one_answer(answers)
    assert count(ledger.engine, TournamentRecord) == 1
    assert store.authorize(tournament_id, director, write=True) == "director"
    assert store.authorize(tournament_id, viewer) == "viewer"
    assert len(store.state(tournament_id)["entrants"]) == 4


# --- the pages ---------------------------------------------------------------------------------------------

@pytest.fixture
def csrf_client(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def set_up_form(client, game="brisca") -> dict:
    page = client.get(f"/new/{game}").get_data(as_text=True)
    form_id = re.search(r'<input type="hidden" name="form_id" value="([0-9a-f]{32})">', page).group(1)
    return {"csrf_token": token(page), "form_id": form_id, "player": PLAYERS4, "dealer": "0", "op": "create"}


def test_the_set_up_form_posted_twice_makes_one_table_and_both_answers_lead_to_it_with_its_key(csrf_client, app):
    form = set_up_form(csrf_client)
    answers = [csrf_client.post("/new/brisca", data=form) for _ in range(2)]
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    assert re.fullmatch(r"/t/[\w-]{11}\?key=[\w-]{32}", answers[0].headers["Location"])
    htmx = [csrf_client.post("/new/brisca", data=form, headers={"HX-Request": "true"}) for _ in range(2)]
    assert [(a.status_code, a.headers["HX-Redirect"]) for a in htmx] == [(204, answers[0].headers["Location"])] * 2
    assert count(app.extensions["referee.ledger"].engine, TableRecord) == 1
    page = csrf_client.get(answers[1].headers["Location"])  # the second answer's key opens the scorer's page
    assert page.status_code == 200 and "Ana" in page.get_data(as_text=True)


def test_the_set_up_form_keeps_its_id_while_it_is_changed_and_a_new_page_gets_another(csrf_client):
    form = set_up_form(csrf_client)
    changed = csrf_client.post("/new/brisca", data={**form, "op": "add"}).get_data(as_text=True)
    assert f'name="form_id" value="{form["form_id"]}"' in changed
    refused = csrf_client.post("/new/brisca", data={**form, "player": ["Ana", "Bo", "Cy"]}).get_data(as_text=True)
    assert f'name="form_id" value="{form["form_id"]}"' in refused  # nothing made: the same form, mended
    assert set_up_form(csrf_client)["form_id"] != form["form_id"]


def test_a_form_changed_after_it_made_its_table_makes_another_one(csrf_client, app):
    form = set_up_form(csrf_client)
    first = csrf_client.post("/new/brisca", data=form).headers["Location"]
    mended = csrf_client.post("/new/brisca", data={**form, "player": ["Ana", "Bo", "Cy", "Dina"]})
    assert mended.status_code == 303 and mended.headers["Location"] != first
    assert count(app.extensions["referee.ledger"].engine, TableRecord) == 2


def test_the_set_up_form_posted_from_two_phones_at_once_makes_one_table(client_on_each_database):
    app = client_on_each_database.application
    app.config["WTF_CSRF_ENABLED"] = False
    form = {"form_id": "f" * 32, "player": PLAYERS4, "dealer": "0", "op": "create"}
    answers = at_once(4, lambda: app.test_client().post("/new/brisca", data=form))
    assert [a.status_code for a in answers] == [303] * 4
    assert len({a.headers["Location"] for a in answers}) == 1
    assert count(app.extensions["referee.ledger"].engine, TableRecord) == 1


def test_the_tournament_form_posted_twice_makes_one_tournament(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    page = client.get("/tournaments/new").get_data(as_text=True)
    form_id = re.search(r'name="form_id" value="([0-9a-f]{32})"', page).group(1)
    form = {"op": "create", "game": "buraco", "name": "Club evening", "form_id": form_id, "vp": "burraco_3",
            "entrants": "\n".join(" & ".join(pair) for pair in PAIRS), "movement": ["mitchell"], "length": ["3"]}
    answers = [client.post("/tournaments/new", data=form, content_type="multipart/form-data") for _ in range(2)]
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    assert re.fullmatch(r"/tournaments/[\w-]{11}\?key=[\w-]{32}", answers[0].headers["Location"])
    assert count(app.extensions["referee.ledger"].engine, TournamentRecord) == 1
    assert client.get(answers[1].headers["Location"]).status_code == 200


def test_the_rematch_form_posted_twice_makes_one_rematch_and_both_land_on_it(app):
    app.config["WTF_CSRF_ENABLED"] = False
    ledger = app.extensions["referee.ledger"]
    old_id, scorer, _, _ = finished(ledger)
    client = app.test_client()
    answers = [client.post(f"/t/{old_id}/rematch?key={scorer}") for _ in range(2)]
    new_id = ledger.state(old_id)["rematch"]
    assert [(a.status_code, a.headers["Location"]) for a in answers] == [(303, f"/t/{new_id}?key={scorer}")] * 2
    assert count(ledger.engine, TableRecord) == 2 and count(ledger.engine, RematchRecord) == 1


# --- the API -----------------------------------------------------------------------------------------------

def test_an_import_with_its_idempotency_key_sent_twice_makes_one_table(client_on_each_database):
    client = client_on_each_database
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": PLAYERS4}).get_json()
    export = client.get(f"/api/v1/tables/{created['id']}/export.json?key={created['viewer_key']}").get_json()
    key = {"Idempotency-Key": "import-of-the-evening"}
    answers = at_once(3, lambda: client.application.test_client().post("/api/v1/import", json=export, headers=key))
    assert sorted(a.status_code for a in answers) == [200, 200, 201]
    for answer in answers:
        check(answer, "post", "/api/v1/import", answer.status_code)
    bodies = [a.get_json() for a in answers]
    assert len({(b["id"], b["scorer_key"], b["viewer_key"], b["scorer_url"]) for b in bodies}) == 1
    assert count(client.application.extensions["referee.ledger"].engine, TableRecord) == 2
    assert client.post("/api/v1/import", json=export).status_code == 201  # no key: a table of its own
    assert count(client.application.extensions["referee.ledger"].engine, TableRecord) == 3


def test_a_table_and_a_tournament_with_their_idempotency_key_are_made_once(client):
    key = {"Idempotency-Key": "4c1e3a"}
    body = {"game": "brisca", "players": PLAYERS4}
    tables = [client.post("/api/v1/tables", json=body, headers=key) for _ in range(2)]
    assert [t.status_code for t in tables] == [201, 200] and tables[0].get_json() == tables[1].get_json()
    check(tables[1], "post", "/api/v1/tables", 200)
    body = {"game": "buraco", "name": "Club evening", "entrants": PAIRS, "rounds": PLAN}
    made = [client.post("/api/v1/tournaments", json=body, headers=key) for _ in range(2)]
    assert [t.status_code for t in made] == [201, 200]
    check(made[1], "post", "/api/v1/tournaments", 200)
    assert [t.get_json()["director_key"] for t in made] == [made[0].get_json()["director_key"]] * 2
    bad = client.post("/api/v1/tables", json=body, headers={"Idempotency-Key": "x" * 129})
    assert bad.status_code == 422 and bad.get_json()["error"] == {
        "code": "bad_idempotency_key", "message": "Idempotency-Key is a text of 1 to 128 printable characters.",
        "max": 128}


# --- what a repeated form counts ---------------------------------------------------------------------------

def test_a_set_up_form_posted_again_counts_no_table_of_the_limit(tmp_path):
    """A refused creation counts nothing (test_limits.py); nor does a form posted again that made nothing more."""
    app = limited_app(tmp_path, RATELIMIT_TABLES="2 per hour")
    client = app.test_client()
    client.set_cookie("lang", "en")
    form = set_up_form(client)
    assert [client.post("/new/brisca", data=form).status_code for _ in range(4)] == [303] * 4  # one table
    assert client.post("/new/brisca", data=set_up_form(client)).status_code == 303  # the second
    assert_rate_limited(client.post("/new/brisca", data=set_up_form(client)), api=False)
    assert count(app.extensions["referee.ledger"].engine, TableRecord) == 2


# --- in a browser: a double tap --------------------------------------------------------------------------

@pytest.mark.parametrize("js", [True, False], ids=["htmx", "no-javascript"])
def test_a_double_tap_on_create_makes_one_table(browser, server, tmp_path, js):
    context, page, _phone, problems = new_phone(browser, locale="fr-CH", js=js)
    page.goto(f"{server.url}/new/brisca")
    for i, name in enumerate(PLAYERS4):
        page.fill(f"#player-{i}", name)
    page.dblclick("button[name=op][value=create]")  # two taps: without JavaScript the second post replaces the first
    # Both answers lead to the same table; the second navigation may abort the first (ERR_ABORTED on a loaded
    # machine), so the test waits for the address the page ends on, not for one navigation's own event.
    from playwright.sync_api import expect
    expect(page).to_have_url(re.compile(r"/t/[\w-]+\?"), timeout=15000)
    page.wait_for_load_state("networkidle")
    ledger = Ledger(server.env["DATABASE_URL"])
    with Session(ledger.engine) as session:
        tables = session.exec(select(TableRecord.id)).all()
    ledger.engine.dispose()
    assert tables == [page.url.split("/t/")[1].split("?")[0]]
    assert "Ana" in page.inner_text("main") and problems == []
    context.close()
