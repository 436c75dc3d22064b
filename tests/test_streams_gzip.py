"""Issue 40: a page's stream travels gzipped when the browser takes it (referee/web/serving/stream_gzip.py): the
same events as the plain stream, each compressed once for every stream, readable as they come and, once the server
ends the stream, one whole gzip member; the API's streams stay plain (tests/test_streams.py). On SQLite and
PostgreSQL."""
import gzip
import zlib

import pytest

from referee.web.serving import live_streams
from referee.web.serving.stream_gzip import HEADER, deflated
from tests.support.streams import patient_streams  # noqa: F401 — the fixture, used by every test
from tests.support.burraco import PAIRS, VP_ROWS


@pytest.fixture
def app(app_on_each_database):
    return app_on_each_database


pytestmark = pytest.mark.usefixtures("patient_streams")


def test_a_walls_stream_is_gzipped_for_a_browser_that_takes_it_and_says_what_the_plain_one_says(app):
    client = app.test_client()
    made = client.post("/api/v1/tournaments", json={"game": "buraco", "name": "Club", "entrants": PAIRS[:4],
                                                    "rounds": [{"movement": "round_robin", "hands": 2}],
                                                    "vp_table": VP_ROWS}).get_json()
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    path = f"/tournaments/{tid}/stream?key={viewer}&view=screen&since={made['state']['revision']}"
    squeezed = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br", "Accept-Language": "en"},
                          buffered=False)
    plain = client.get(path, headers={"Accept-Language": "en"}, buffered=False)
    assert squeezed.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in squeezed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
    chunks, said = iter(squeezed.response), iter(plain.response)
    reader = zlib.decompressobj(31)
    head = next(chunks)
    assert head == HEADER and reader.decompress(head) == b""
    for _ in range(2):  # the retry, then "alive": each readable as it comes
        assert reader.decompress(next(chunks)) == next(said)

    seated = client.post(f"/api/v1/tournaments/{tid}/rounds", headers={"Authorization": f"Bearer {director}"})
    assert seated.status_code == 201
    live = next(chunks)
    shown = next(said)
    assert reader.decompress(live) == shown and shown.startswith(b"event: live\n")
    assert b'class="tournament-wall"' in shown and len(live) < len(shown) / 3
    assert deflated(shown) is live  # compressed once, the same bytes for every stream

    app.extensions["referee.watcher"].close()  # the server stopping: both streams end
    rest, plain_rest = list(chunks), list(said)
    assert plain_rest == [] and len(rest) == 1  # the last block and the trailer
    whole = HEADER + deflated(f"retry: {live_streams.RETRY_MS}\n\n".encode()) + deflated(live_streams.ALIVE) + \
        live + rest[0]
    assert gzip.decompress(whole) == f"retry: {live_streams.RETRY_MS}\n\n".encode() + live_streams.ALIVE + shown
    squeezed.close()
    plain.close()
