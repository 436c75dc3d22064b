"""Issue 40: the pages every phone of the hall opens at once (the phones' standings and the wall, with the viewer's
key) are drawn once per revision, language and address for all of them (referee/web/tournaments/live.py,
``drawn_once``): the same body and validator to each, 304 to a phone that holds it, a new one after a change; the
director's key draws its own page (it sees what the phones do not: the standings the director hides). On SQLite and
PostgreSQL."""
from __future__ import annotations

import gzip
import re

import pytest

from tests.support.burraco import bearer, card_key, signed_tournament


@pytest.fixture
def app(app_on_each_database):
    app_on_each_database.config["WTF_CSRF_ENABLED"] = True  # the director's switch is a real form
    return app_on_each_database


def opened(client, path: str, lang: str = "en", **headers):
    client.set_cookie("lang", lang)
    return client.get(path, headers={"Accept-Encoding": "gzip", **headers})


def text(answer) -> str:
    body = answer.get_data()
    return (gzip.decompress(body) if answer.headers.get("Content-Encoding") == "gzip" else body).decode()


def revision_shown(answer) -> int:
    return int(re.search(r'since=(\d+)', text(answer)).group(1))


@pytest.mark.parametrize("page", ["standings", "screen"])
def test_a_viewers_page_is_drawn_once_per_revision_and_language_for_every_phone(app, page):
    client = app.test_client()
    tournament_id, director, viewer, state = signed_tournament(client)
    path = f"/tournaments/{tournament_id}/{page}?key={viewer}"
    first, second = opened(client, path), opened(app.test_client(), path)
    assert first.status_code == second.status_code == 200
    assert first.headers["Content-Encoding"] == "gzip"
    assert first.get_data() == second.get_data() and first.headers["ETag"] == second.headers["ETag"]
    held = opened(client, path, **{"If-None-Match": first.headers["ETag"]})
    assert held.status_code == 304 and held.get_data() == b""
    now = app.extensions["referee.tournaments"].revision(tournament_id)
    assert revision_shown(first) == now

    french = opened(client, path, "fr")
    assert french.headers["ETag"] != first.headers["ETag"] and '<html lang="fr"' in text(french)

    table = state["rounds"][0]["tables"][0]
    entered = client.post(f"/api/v1/tables/{table['table_id']}/events", json={"type": "deal", "trump": None},
                          headers=bearer(card_key(table)))
    assert entered.status_code == 201
    app.extensions["referee.standings_watch"].forget(tournament_id)  # past the revision's short memo
    later = opened(client, path, **{"If-None-Match": first.headers["ETag"]})
    assert later.status_code == 200 and revision_shown(later) == now + 1


def test_the_directors_key_draws_its_own_standings(app):
    client = app.test_client()
    tournament_id, director, viewer, _state = signed_tournament(client)
    path = f"/tournaments/{tournament_id}/standings?key={director}"
    first, second = opened(client, path), opened(app.test_client(), path)
    assert first.status_code == second.status_code == 200
    assert "ETag" not in first.headers and "ETag" not in second.headers  # drawn for it, never from the memo
    assert revision_shown(first) == app.extensions["referee.tournaments"].revision(tournament_id)
