"""A room of viewers: the live views answer an unchanged board from memory (no database query, counted on the
ledger's engine), render a change once for every viewer, see a change made through another process within the memo's
refresh, carry a validator (ETag -> 304) and travel gzip-compressed. Not timed: queries and bytes are counted."""
import gzip
import time

import pytest

from referee import create_app
from referee.store import Ledger
from tests.support.api import events, new_table
from tests.support.deals import DEAL_4P
from tests.support.queries import Queries
from tests.support.waiting import until

FOREVER = 3600.0  # the memo's rows never go stale by time in a test that counts exactly


def make_app(tmp_path, refresh):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}",
                      "SECRET_KEY": "test", "RATELIMIT_ENABLED": False, "LIVE_REFRESH_SECONDS": refresh})
    app.extensions["referee.ledger"].init_db()
    return app


@pytest.fixture
def room(tmp_path):
    app = make_app(tmp_path, FOREVER)
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    events(client, table_id, scorer, {"type": "deal", "trump": "11E"})
    revision = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()["revision"]
    return app, client, table_id, scorer, viewer, revision


def viewers(table_id, scorer, viewer):
    """Several viewers of one table: phones in French and English, a big screen, the scorer's own key."""
    return [(f"/t/{table_id}/live?key={viewer}", {"Accept-Language": "fr"}),
            (f"/t/{table_id}/live?key={viewer}", {"Accept-Language": "en"}),
            (f"/t/{table_id}/live?key={viewer}&view=screen", {"Accept-Language": "fr"}),
            (f"/t/{table_id}/live?key={scorer}", {"Accept-Language": "en"})]


def test_an_unchanged_board_is_answered_to_many_viewers_without_a_database_query(room):
    app, client, table_id, scorer, viewer, revision = room
    queries = Queries(app.extensions["referee.ledger"].engine)
    seats = viewers(table_id, scorer, viewer)
    for path, headers in seats:  # each view opens at the current revision (its page was just served)
        assert client.get(f"{path}&since={revision}", headers={**headers, "HX-Request": "true"}).status_code == 204
    read = queries.selects()  # the watched table's row, read once for all of them
    assert len(read) == 1 and read[0].startswith("SELECT tables.id, tables.revision")
    for _ in range(100):
        for path, headers in seats:
            response = client.get(f"{path}&since={revision}", headers={**headers, "HX-Request": "true"})
            assert response.status_code == 204 and response.data == b""
    assert queries.taken() == 0  # 400 polls, not one query
    assert app.extensions["referee.watch"].reads == 1


def test_a_change_is_rendered_once_for_every_viewer_then_served_from_memory(room):
    app, client, table_id, scorer, viewer, revision = room
    queries = Queries(app.extensions["referee.ledger"].engine)
    seats = viewers(table_id, scorer, viewer)
    for path, headers in seats:
        client.get(f"{path}&since={revision}", headers=headers)
    events(client, table_id, scorer, {"type": "trick", "cards": DEAL_4P[0][0]})  # through this process: seen at once
    queries.taken()
    first = [client.get(f"{path}&since={revision}", headers=headers) for path, headers in seats]
    assert [r.status_code for r in first] == [200] * 4
    assert all(f"since={revision + 1}".encode() in r.data for r in first)
    assert b"Bo, 14 points" in first[0].data and b"Donne" in first[0].data and b"Deal" in first[1].data
    assert b'class="screen"' in first[2].data and f"key={scorer}".encode() in first[3].data
    rendered = queries.taken()  # the rows read again, then one state read per view, language and key
    assert 0 < rendered <= 1 + 4 * 4
    for _ in range(50):  # every other viewer still at the old revision: the same bytes, from memory
        for (path, headers), before in zip(seats, first):
            again = client.get(f"{path}&since={revision}", headers=headers)
            assert again.status_code == 200 and again.data == before.data
    for path, headers in seats:  # and once there, nothing more to say
        assert client.get(f"{path}&since={revision + 1}", headers=headers).status_code == 204
    assert queries.taken() == 0


def test_a_change_made_by_another_process_reaches_the_viewers_at_a_refresh(tmp_path):
    app = make_app(tmp_path, 0.2)
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    revision = client.get(f"/api/v1/tables/{table_id}?key={viewer}").get_json()["revision"]
    path = f"/t/{table_id}/live?key={viewer}&since={revision}"
    assert client.get(path).status_code == 204
    other = Ledger(app.config["DATABASE_URL"])  # another worker: its write never passes through this process
    other.append(table_id, {"type": "deal", "trump": "11E"})
    other.engine.dispose()

    def changed() -> bool:  # at the memo's next refresh
        response = client.get(path)
        return response.status_code == 200 and f"since={revision + 1}".encode() in response.data

    until(changed, timeout=60, every=0.01, what="the change reaching the viewer")


def test_polls_cost_queries_by_the_clock_not_by_the_number_of_viewers(tmp_path):
    app = make_app(tmp_path, 0.25)
    client = app.test_client()
    tables = [new_table(client) for _ in range(3)]
    revisions = {t: client.get(f"/api/v1/tables/{t}?key={v}").get_json()["revision"] for t, _, v in tables}
    queries = Queries(app.extensions["referee.ledger"].engine)
    started, polls = time.monotonic(), 0
    while polls < 300 or time.monotonic() - started < 1.0:  # 300 polls at least, a second at least: time is the subject
        for table_id, _, viewer in tables:
            for _ in range(10):  # ten viewers per table
                assert client.get(f"/t/{table_id}/live?key={viewer}&since={revisions[table_id]}").status_code == 204
                polls += 1
    elapsed = time.monotonic() - started  # however long the machine took: never more than a read a quarter second
    reads = queries.selects()  # one read of every watched table's row per refresh, and one as each table is first asked
    assert 1 <= len(reads) <= elapsed / 0.25 + 1 + len(tables) and all(" IN (" in read for read in reads)


def test_a_revoked_key_stops_the_polling_within_the_refresh_even_from_another_process(tmp_path):
    app = make_app(tmp_path, 0.2)
    client = app.test_client()
    table_id, scorer, viewer = new_table(client)
    path = f"/t/{table_id}/live?key={viewer}"
    assert client.get(path, headers={"HX-Request": "true"}).status_code == 200
    other = Ledger(app.config["DATABASE_URL"])
    other.new_key(table_id, "viewer")
    other.engine.dispose()
    time.sleep(0.25)  # time is the subject: the 0.2 s refresh passes (nothing else tells the other process)
    stopped = client.get(path, headers={"HX-Request": "true"})
    assert stopped.status_code == 286 and stopped.headers["HX-Reswap"] == "none"
    assert client.get(path).status_code == 401


def test_a_key_issued_by_another_process_opens_the_live_view_at_once(room):
    app, client, table_id, scorer, viewer, revision = room
    client.get(f"/t/{table_id}/live?key={viewer}&since={revision}")
    other = Ledger(app.config["DATABASE_URL"])
    fresh = other.new_key(table_id, "viewer")
    other.engine.dispose()
    assert client.get(f"/t/{table_id}/live?key={fresh}&since={revision}").status_code == 204
    assert client.get(f"/t/{table_id}/live?key={viewer}", headers={"HX-Request": "true"}).status_code == 286


def test_the_fragment_has_a_validator_and_travels_compressed(room):
    app, client, table_id, scorer, viewer, revision = room
    path = f"/t/{table_id}/live?key={viewer}&since={revision - 1}"
    plain = client.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert plain.headers["Vary"] == "Accept-Encoding" and plain.headers["Cache-Control"] == "no-store"
    etag = plain.headers["ETag"]
    packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["ETag"] == etag
    assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data) / 2
    unchanged = client.get(path, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag
    assert "Content-Encoding" not in unchanged.headers
    events(client, table_id, scorer, {"type": "trick", "cards": DEAL_4P[0][0]})
    changed = client.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    nothing = client.get(f"/t/{table_id}/live?key={viewer}&since={revision + 1}", headers={"Accept-Encoding": "gzip"})
    assert nothing.status_code == 204 and "Content-Encoding" not in nothing.headers and nothing.data == b""


def test_pages_and_answers_travel_gzip_compressed_when_the_client_accepts_it(client):
    table_id, scorer, viewer = new_table(client)
    events(client, table_id, scorer, {"type": "deal", "trump": "11E"})
    page = client.get(f"/t/{table_id}?key={scorer}")
    packed = client.get(f"/t/{table_id}?key={scorer}", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in page.headers and packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"] and len(packed.data) < len(page.data) / 3
    assert gzip.decompress(packed.data).count(b"<html") == 1
    answer = client.post(f"/api/v1/tables/{table_id}/events", json={"type": "trick", "cards": DEAL_4P[0][0]},
                         headers={"Authorization": f"Bearer {scorer}", "Accept-Encoding": "gzip"})
    assert answer.status_code == 201 and answer.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(answer.data).startswith(b"{") and int(answer.headers["Content-Length"]) == len(answer.data)
    small = client.get("/api/v1/tables/nope", headers={"Accept-Encoding": "gzip"})  # an error: as it is
    assert small.status_code == 404 and "Content-Encoding" not in small.headers
    css = client.get("/static/live.js", headers={"Accept-Encoding": "gzip"})  # files go as they are
    assert css.status_code == 200 and "Content-Encoding" not in css.headers
    css.close()
    tiny = client.get("/lang/en?next=/", headers={"Accept-Encoding": "gzip"})  # a redirect: not a 2xx body
    assert "Content-Encoding" not in tiny.headers
