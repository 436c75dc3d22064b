"""Shared scoreboards: QR codes decoded by a real decoder, live changes, keys, co-scorers, exports."""
import re
import shutil
import subprocess
from urllib.parse import urlsplit

import pytest

from tests.support.api import events, new_table
from tests.support.deals import DEAL_4P
from tests.support.env import need
from tests.support.scorer import Scorer, create


@pytest.fixture
def public_app(app):
    app.config["PUBLIC_URL"] = "http://192.0.2.10:5000"
    return app


def test_the_viewer_qr_code_decodes_to_the_viewer_link_which_opens_the_viewer_page(client, public_app, tmp_path):
    need(shutil.which("zbarimg") is not None, "zbarimg is missing (Debian zbar-tools; .ci/run installs it)")
    table_id, scorer, viewer = new_table(client)
    response = client.get(f"/t/{table_id}/qr/viewer.png?key={scorer}")
    assert response.status_code == 200 and response.mimetype == "image/png"
    png = tmp_path / "viewer.png"
    png.write_bytes(response.data)
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, check=True)
    link = decoded.stdout.strip()
    assert link == f"http://192.0.2.10:5000/t/{table_id}?key={viewer}"
    page = client.get(urlsplit(link).path + "?" + urlsplit(link).query)
    assert page.status_code == 200 and b'id="scoreboard"' in page.data and b'class="picker"' not in page.data


def test_links_in_codes_never_say_localhost(client):
    table_id, scorer, viewer = new_table(client)
    svg = client.get(f"/t/{table_id}/qr/viewer.svg?key={viewer}", base_url="http://localhost:5000")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    page = client.get(f"/t/{table_id}/share?key={scorer}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert "http://127.0.0.1" not in page and "localhost" not in page


def test_a_revoked_viewer_key_answers_401_at_once(client, csrf_app):
    scorer = create(client)
    table_id = scorer.url.split("/t/")[1].split("?")[0]
    ledger = client.application.extensions["referee.ledger"]
    old = ledger.viewer_key(table_id)
    assert client.get(f"/api/v1/tables/{table_id}?key={old}").status_code == 200
    page = client.get(f"/t/{table_id}/share?key={scorer.url.split('key=')[1]}").get_data(as_text=True)
    from tests.support.scorer import token
    response = client.post(f"/t/{table_id}/keys/viewer?key={scorer.url.split('key=')[1]}",
                           data={"csrf_token": token(page)}, follow_redirects=True)
    assert response.status_code == 200 and "the old one no longer works" in response.get_data(as_text=True)
    assert client.get(f"/api/v1/tables/{table_id}?key={old}").status_code == 401
    assert client.get(f"/t/{table_id}/live?key={old}").status_code == 401
    new = ledger.viewer_key(table_id)
    assert new != old and client.get(f"/api/v1/tables/{table_id}?key={new}").status_code == 200


@pytest.fixture
def csrf_app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def test_a_co_scorer_key_writes_and_a_new_one_revokes_it(client):
    table_id, scorer, _ = new_table(client)
    ledger = client.application.extensions["referee.ledger"]
    first = ledger.new_key(table_id, "coscorer")
    assert ledger.authorize(table_id, first, write=True) == "coscorer"  # R-COMMON-8
    second = ledger.new_key(table_id, "coscorer")
    assert client.get(f"/api/v1/tables/{table_id}?key={first}").status_code == 401
    events(client, table_id, second, {"type": "deal", "trump": "11E"})
    assert ledger.state(table_id)["version"] == 1


def test_two_co_scorers_entering_the_same_trick_one_is_stored_the_other_told(client):
    phone_a = create(client)
    phone_a.post("deal", card="11E", dealer="0")
    table_id = phone_a.url.split("/t/")[1].split("?")[0]
    ledger = client.application.extensions["referee.ledger"]
    co_key = ledger.new_key(table_id, "coscorer")
    for code in DEAL_4P[0][0][:3]:
        phone_a.tap(code)
    phone_b = Scorer(client, f"/t/{table_id}?key={co_key}")
    for code in DEAL_4P[0][0][:3]:
        phone_b.tap(code)
    assert phone_a.tap(DEAL_4P[0][0][3]).status_code == 303  # stored
    response = phone_b.tap(DEAL_4P[0][0][3])  # the same trick, on a view that is now stale
    assert response.status_code == 409
    assert "The table changed meanwhile: look at the new state and enter it again if it is still needed." \
        in phone_b.page
    assert [e["type"] for e in ledger.events(table_id)] == ["deal", "trick"]


def test_live_answers_204_until_the_table_changes(client):
    table_id, scorer, viewer = new_table(client)
    revision = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()["revision"]
    assert client.get(f"/t/{table_id}/live?key={viewer}&since={revision}").status_code == 204
    events(client, table_id, scorer, {"type": "deal", "trump": "11E"})
    response = client.get(f"/t/{table_id}/live?key={viewer}&since={revision}")
    assert response.status_code == 200 and f'since={revision + 1}'.encode() in response.data
    assert b'id="live"' in response.data and b"<html" not in response.data
    screen = client.get(f"/t/{table_id}/live?key={viewer}&since={revision}&view=screen")
    assert b'class="screen"' in screen.data


def test_big_screen_page(client):
    table_id, scorer, viewer = new_table(client)
    events(client, table_id, scorer, {"type": "deal", "trump": "11E"}, {"type": "trick", "cards": DEAL_4P[0][0]})
    page = client.get(f"/t/{table_id}/screen?key={viewer}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'class="big-screen"' in page and 'class="screen-total">0<' in page and "Deal 1" in page
    assert "→ Bo, 14" in page


def test_exports_round_trip(client):
    table_id, scorer, viewer = new_table(client)
    bodies = [{"type": "deal", "trump": "11E"}] + [{"type": "trick", "cards": c} for c, _, _ in DEAL_4P]
    events(client, table_id, scorer, *bodies[:4])
    client.post(f"/api/v1/tables/{table_id}/undo", headers={"Authorization": f"Bearer {scorer}"})
    events(client, table_id, scorer, *bodies[3:])
    exported = client.get(f"/api/v1/tables/{table_id}/export.json?key={viewer}").get_json()
    assert exported["format"] == "referee-export/1" and len(exported["events"]) == 12
    assert sum(e["withdrawn"] for e in exported["events"]) == 1
    imported = client.post("/api/v1/import", json=exported)
    assert imported.status_code == 201
    strip = lambda s: {k: v for k, v in s.items() if k not in ("id", "revision")}  # noqa: E731
    assert strip(imported.get_json()["state"]) == strip(exported["state"])
    assert imported.get_json()["state"]["totals"] == [65, 55]
    csv_text = client.get(f"/api/v1/tables/{table_id}/export.csv?key={viewer}").get_data(as_text=True)
    assert csv_text.splitlines() == ["deal,side,players,points,slate,complete", "1,0,Ana & Cy,65,,True",
                                     "1,1,Bo & Di,55,,True"]
    bad = dict(exported, events=exported["events"] + [{"type": "trick", "cards": ["1O", "1O", "1C", "1E"]}])
    before = len(client.application.extensions["referee.ledger"].events(table_id))
    assert client.post("/api/v1/import", json=bad).status_code == 422
    assert len(client.application.extensions["referee.ledger"].events(table_id)) == before


def test_a_co_scorer_code_needs_the_confirmation_and_a_reload_issues_no_other(client, csrf_app):
    scorer = create(client)
    table_id, key = scorer.url.split("/t/")[1].split("?")[0], scorer.url.split("key=")[1]
    from tests.support.scorer import token
    page = client.get(f"/t/{table_id}/share?key={key}").get_data(as_text=True)
    refused = client.post(f"/t/{table_id}/keys/coscorer?key={key}", data={"csrf_token": token(page)},
                          follow_redirects=True).get_data(as_text=True)
    assert "Tick the box first" in refused and "co-scorer" not in refused.split("<h2>A second scorer</h2>")[1][:80]
    shown = client.post(f"/t/{table_id}/keys/coscorer?key={key}", data={"csrf_token": token(page), "confirm": "yes"},
                        follow_redirects=True).get_data(as_text=True)
    code = re.search(rf'/t/{table_id}\?key=([A-Za-z0-9_-]+)"', shown.split("A second scorer")[1]).group(1)
    assert client.application.extensions["referee.ledger"].authorize(table_id, code, write=True) == "coscorer"
    again = client.get(f"/t/{table_id}/share?key={key}").get_data(as_text=True)  # a reload: shown once only
    assert code not in again
    assert client.application.extensions["referee.ledger"].authorize(table_id, code, write=True) == "coscorer"


def test_numbers_in_addresses_never_break_a_page(client):
    scorer = create(client)
    table_id, key = scorer.url.split("/t/")[1].split("?")[0], scorer.url.split("key=")[1]
    for query in ("mode=capture&side=9", "mode=capture&side=-9", "mode=claim&player=²", "mode=count&player=99",
                  "pending=ZZ", "mode=extend", "side=abc&player=" + "9" * 5000):
        assert client.get(f"/t/{table_id}?key={key}&{query}").status_code in (200, 422), query
    assert client.get(f"/t/{table_id}/live?key={key}&since=²").status_code == 200


def test_csv_export_writes_formula_like_names_as_text(client):
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": ['=HYPERLINK("x")', "Bo"]}).get_json()
    headers = {"Authorization": f"Bearer {created['scorer_key']}"}
    client.post(f"/api/v1/tables/{created['id']}/events", json={"type": "deal", "trump": "11E"}, headers=headers)
    text = client.get(f"/api/v1/tables/{created['id']}/export.csv?key={created['viewer_key']}").get_data(as_text=True)
    assert "'=HYPERLINK" in text
