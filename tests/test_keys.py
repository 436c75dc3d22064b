"""Keys and cookies: cookies Secure under https, HttpOnly, SameSite=Lax; a co-scorer code shown once and kept in no
cookie; a scorer (or co-scorer) renews its own link — the old one stops at once and the page moves to the new one."""
import html
import re
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

from referee import create_app
from referee.errors import Unauthorized
from tests.support.scorer import token

BRISCA = {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}


def make_app(tmp_path, public_url):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'keys.sqlite3'}", "SECRET_KEY": "test",
                      "PUBLIC_URL": public_url, "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": True})
    app.extensions["referee.ledger"].init_db()
    return app


@pytest.fixture
def https_client(tmp_path):
    return make_app(tmp_path, "https://referee.example").test_client()


@pytest.fixture
def http_client(tmp_path):
    client = make_app(tmp_path, "http://192.0.2.10:5000").test_client()
    client.set_cookie("lang", "en")
    return client


def new_table(client):
    created = client.post("/api/v1/tables", json=BRISCA).get_json()
    return created["id"], created["scorer_key"], created["viewer_key"]


def attributes(response, name: str) -> list:
    header = next(h for h in response.headers.getlist("Set-Cookie") if h.startswith(name + "="))
    return [part.strip() for part in header.split(";")[1:]]


def test_under_https_every_cookie_is_secure_httponly_and_samesite_lax(https_client):
    table_id, scorer, _ = new_table(https_client)
    session = https_client.get("/new/brisca")  # the form's CSRF token starts the session
    language = https_client.get("/lang/fr?next=/")  # the table's way of entry is the table's: no cookie (R-COMMON-6)
    assert "Set-Cookie" not in https_client.get(f"/t/{table_id}/entry/capture?key={scorer}").headers
    for response, name in ((session, "session"), (language, "lang")):
        parts = attributes(response, name)
        assert "Secure" in parts and "HttpOnly" in parts and "SameSite=Lax" in parts, (name, parts)
        assert sum(part == "Secure" for part in parts) == 1, (name, parts)


def test_over_plain_http_cookies_are_not_marked_secure_which_would_lose_them(http_client):
    table_id, scorer, _ = new_table(http_client)
    for response, name in ((http_client.get("/new/brisca"), "session"), (http_client.get("/lang/fr?next=/"), "lang")):
        parts = attributes(response, name)
        assert "Secure" not in parts and "HttpOnly" in parts and "SameSite=Lax" in parts, (name, parts)


def session_of(client) -> dict:
    app = client.application
    cookie = client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value) if cookie else {}


def test_a_co_scorer_code_is_shown_once_and_kept_in_no_cookie(http_client):
    client = http_client
    table_id, scorer, _ = new_table(client)
    page = client.get(f"/t/{table_id}/share?key={scorer}").get_data(as_text=True)
    shown = client.post(f"/t/{table_id}/keys/coscorer?key={scorer}", data={"csrf_token": token(page), "confirm": "yes"})
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"
    text = shown.get_data(as_text=True)
    link = rf'http://192\.0\.2\.10:5000/t/{table_id}\?key=([A-Za-z0-9_-]+)"'
    code = re.search(link, text.split("A second scorer")[1]).group(1)
    assert "It is shown only now: Referee does not keep it." in text
    assert client.application.extensions["referee.ledger"].authorize(table_id, code, write=True) == "coscorer"
    assert set(session_of(client)) == {"csrf_token"}  # the signed cookie holds the form token, nothing else
    assert all(code not in c.value for c in [client.get_cookie("session")] if c)
    again = client.get(f"/t/{table_id}/share?key={scorer}").get_data(as_text=True)
    assert code not in again and "Show a co-scorer code" in again
    restored = client.get(f"/t/{table_id}/keys/coscorer?key={scorer}")  # the address reopened: the share page
    assert restored.status_code == 303 and restored.headers["Location"] == f"/t/{table_id}/share?key={scorer}"
    headers = {"Authorization": f"Bearer {code}"}
    assert client.post(f"/api/v1/tables/{table_id}/events", json={"type": "deal", "trump": "11E"},
                       headers=headers).status_code == 201


def renew(client, table_id, key, confirm=True):
    page = client.get(f"/t/{table_id}/share?key={key}").get_data(as_text=True)
    data = {"csrf_token": token(page), **({"confirm": "yes"} if confirm else {})}
    return client.post(f"/t/{table_id}/keys/own?key={key}", data=data)


def test_the_scorer_renews_the_scorer_key_the_old_one_stops_at_once_and_the_page_moves_to_the_new_one(http_client):
    client = http_client
    table_id, old, viewer = new_table(client)
    headers = {"Authorization": f"Bearer {old}"}
    assert client.post(f"/api/v1/tables/{table_id}/events", json={"type": "deal", "trump": "11E"},
                       headers=headers).status_code == 201
    response = renew(client, table_id, old)
    assert response.status_code == 303
    target = urlsplit(response.headers["Location"])
    query = parse_qs(target.query)
    new = query["key"][0]
    assert target.path == f"/t/{table_id}/share" and query["renewed"] == ["own"] and new != old
    assert client.get(f"/api/v1/tables/{table_id}?key={old}").status_code == 401
    assert client.get(f"/t/{table_id}?key={old}").status_code == 401
    assert client.post(f"/api/v1/tables/{table_id}/undo", headers=headers).status_code == 401
    page = client.get(response.headers["Location"], headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ("Your new link is below and in this page's address: keep it (bookmark it). The old one no longer works."
            in html.unescape(page))
    assert f'href="http://192.0.2.10:5000/t/{table_id}?key={new}"' in page
    assert f'href="/t/{table_id}?key={new}"' in page  # "Back to the score" with the new key
    ledger = client.application.extensions["referee.ledger"]
    assert ledger.authorize(table_id, new, write=True) == "scorer"
    assert ledger.authorize(table_id, viewer) == "viewer"  # the viewer link is untouched
    assert client.post(f"/api/v1/tables/{table_id}/undo", headers={"Authorization": f"Bearer {new}"}).status_code == 200
    assert ledger.state(table_id)["version"] == 0


def test_renewing_needs_the_box_ticked_and_changes_nothing_without_it(http_client):
    client = http_client
    table_id, scorer, _ = new_table(client)
    response = renew(client, table_id, scorer, confirm=False)
    assert response.status_code == 303 and "renewed=unconfirmed-own" in response.headers["Location"]
    page = client.get(response.headers["Location"], headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Tick the box first: the present link stops working." in page
    assert client.application.extensions["referee.ledger"].authorize(table_id, scorer, write=True) == "scorer"


def test_a_co_scorer_renews_its_own_link_and_leaves_the_scorers_alone(http_client):
    client = http_client
    table_id, scorer, viewer = new_table(client)
    ledger = client.application.extensions["referee.ledger"]
    co = ledger.new_key(table_id, "coscorer")
    response = renew(client, table_id, co)
    fresh = parse_qs(urlsplit(response.headers["Location"]).query)["key"][0]
    assert client.get(f"/api/v1/tables/{table_id}?key={co}").status_code == 401
    assert ledger.authorize(table_id, fresh, write=True) == "coscorer"  # still the co-scorer's (R-COMMON-8)
    assert ledger.authorize(table_id, scorer, write=True) == "scorer"
    assert client.post(f"/t/{table_id}/keys/own?key={viewer}", data={"confirm": "yes"}).status_code == 400  # no CSRF
    page = client.get(f"/t/{table_id}/share?key={scorer}").get_data(as_text=True)
    refused = client.post(f"/t/{table_id}/keys/own?key={viewer}", data={"csrf_token": token(page), "confirm": "yes"})
    assert refused.status_code == 403 and ledger.authorize(table_id, viewer) == "viewer"


def test_a_key_renewed_twice_at_once_is_renewed_once(ledger):
    """Two phones tap "New link" together with the same old key: one gets the new key, the other a 401."""
    state, scorer, _ = ledger.create_table("brisca", ["Ana", "Bo"])
    results, barrier = [], threading.Barrier(2)

    def tap():
        barrier.wait()
        try:
            results.append(ledger.renew_own_key(state["id"], scorer))
        except Unauthorized as error:
            results.append(error.code)

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 2 and results.count("bad_key") == 1
    fresh = next(r for r in results if r != "bad_key")
    assert ledger.authorize(state["id"], fresh, write=True) == "scorer"
    with pytest.raises(Unauthorized):
        ledger.authorize(state["id"], scorer)


def test_renewing_a_key_while_other_tables_are_written_never_fails(ledger):
    """SQLite: the renewal writes first, so it waits for other writers instead of answering "database is locked"."""
    from tests.support.simulate import brisca_deal

    mine, key, _ = ledger.create_table("brisca", ["Ana", "Bo"])
    others = [ledger.create_table("brisca", ["Ana", "Bo", "Cy", "Di"], {"wins_needed": 7})[0]["id"] for _ in range(4)]
    failures, stop = [], threading.Event()

    def score(table_id, seed):
        try:
            for event in brisca_deal(4, 0, seed)[:8]:
                if stop.is_set():
                    return
                ledger.append(table_id, event)
        except Exception as error:  # noqa: BLE001 - any failure is the finding
            failures.append(repr(error))

    writers = [threading.Thread(target=score, args=(table_id, seed)) for seed, table_id in enumerate(others)]
    for writer in writers:
        writer.start()
    renewed = 0
    try:
        for _ in range(40):
            key = ledger.renew_own_key(mine["id"], key)
            renewed += 1
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    assert failures == [] and renewed == 40
    assert ledger.authorize(mine["id"], key, write=True) == "scorer"
