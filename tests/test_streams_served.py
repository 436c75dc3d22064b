"""The live streams of a served app (``flask serve``: two gunicorn worker processes here), on SQLite and PostgreSQL:
a change entered through the other worker than the one holding a stream reaches the API's stream and a viewer
page's stream (the watcher's read through the database: the two workers share nothing else); a
renewed key ends both, the next try is 401 and the page's poll 286. Entries alternate a trick and its undo, each a
change, until one lands on the other worker (the workers answer the ``X-Referee-Worker`` header)."""
import json
import os
import urllib.error
import urllib.request

import pytest

from referee.store import Ledger
from tests.support.api import api
from tests.support.deals import DEAL_4P
from tests.support.env import need
from tests.support.server import Server
from tests.support.streams import Reader, revision_of

pytestmark = pytest.mark.server


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(request, tmp_path_factory):
    url = None
    if request.param == "postgresql":
        url = os.environ.get("TEST_DATABASE_URL")
        need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
        emptied = Ledger(url)
        emptied.drop_all()
        emptied.engine.dispose()
    server = Server(tmp_path_factory.mktemp("streams") / "served.sqlite3", url, REFEREE_WORKER_HEADER="1").start()
    yield server, url or server.env["DATABASE_URL"]
    server.kill()


def post(server, path: str, body: dict, key: str) -> tuple:
    """(the revision the answer's state has, the worker that took it)."""
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())["state"]["revision"], answer.headers["X-Referee-Worker"]


def test_a_change_through_the_other_worker_reaches_an_api_stream_and_a_page_stream(served):
    server, _ = served
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]})
    tid, scorer, viewer = table["id"], table["scorer_key"], table["viewer_key"]
    revision, _ = post(server, f"/api/v1/tables/{tid}/events", {"type": "deal", "trump": "11E"}, scorer)
    api_stream = Reader(server.url, f"/api/v1/tables/{tid}/stream", {"Authorization": f"Bearer {viewer}"})
    page_stream = Reader(server.url, f"/t/{tid}/stream?key={viewer}&since={revision}")
    assert api_stream.status == page_stream.status == 200
    assert api_stream.response.getheader("Content-Type").startswith("text/event-stream")
    assert api_stream.response.getheader("Content-Encoding") is None
    api_stream.until(lambda e: revision_of(e) == revision)
    page_stream.until(lambda e: e and e.get("event") == "alive")
    crossed = set()  # the streams that saw a change entered through the other worker than theirs
    for attempt in range(200):
        if attempt % 2 == 0:
            revision, worker = post(server, f"/api/v1/tables/{tid}/events", {"type": "trick",
                                                                             "cards": DEAL_4P[0][0]}, scorer)
        else:
            revision, worker = post(server, f"/api/v1/tables/{tid}/undo", {}, scorer)
        for name, stream in (("api", api_stream), ("page", page_stream)):
            stream.until(lambda e, r=revision: (revision_of(e) or -1) >= r)
            if worker != stream.worker:
                crossed.add(name)
        if len(crossed) == 2:
            break
    assert crossed == {"api", "page"}, "no entry landed on the other worker"
    api_stream.close()
    page_stream.close()


def test_a_renewed_key_ends_the_streams_and_the_next_try_is_refused(served):
    server, database_url = served
    table = api(server, "/api/v1/tables", {"game": "brisca", "players": ["Ana", "Bo"]})
    tid, viewer = table["id"], table["viewer_key"]
    api_stream = Reader(server.url, f"/api/v1/tables/{tid}/stream?key={viewer}")
    page_stream = Reader(server.url, f"/t/{tid}/stream?key={viewer}&since=0")
    api_stream.until(lambda e: e and e.get("event") == "state")
    page_stream.until(lambda e: e and e.get("event") == "alive")
    other = Ledger(database_url)  # another process than either worker
    other.new_key(tid, "viewer")
    other.engine.dispose()
    api_stream.until(lambda e: e is None)  # the open streams close
    page_stream.until(lambda e: e is None)
    again = Reader(server.url, f"/api/v1/tables/{tid}/stream?key={viewer}")
    assert again.status == 401 and b'"bad_key"' in again.body
    assert Reader(server.url, f"/t/{tid}/stream?key={viewer}").status == 401
    poll = urllib.request.Request(f"{server.url}/t/{tid}/live?key={viewer}", headers={"HX-Request": "true"})
    try:
        with urllib.request.urlopen(poll, timeout=10) as answer:
            status = answer.status
    except urllib.error.HTTPError as refused:
        status = refused.code
    assert status == 286  # htmx stops polling
