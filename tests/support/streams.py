"""The streams' tests' own: ``patient_streams``; a stream of server-sent events read over HTTP from a served app, in a thread of its own: each event (a dict of
its fields; a comment line: ``{"event": ":"}``; the stream's end: None) queued with the moment it came."""
import http.client
import json
import queue
import threading
import time
from urllib.parse import urlsplit

import pytest

from referee.web.serving import live_streams


@pytest.fixture
def patient_streams(monkeypatch):
    """A page's "alive" and an API stream's comment ten minutes apart: an event a test awaits comes before them or
    the test fails, and two streams read side by side send the same events whatever the machine's load (a generous
    deadline; how soon is the bench's to say). A test module takes it with ``pytestmark = usefixtures(…)``."""
    monkeypatch.setattr(live_streams, "ALIVE_SECONDS", 600.0)
    monkeypatch.setattr(live_streams, "COMMENT_SECONDS", 600.0)


class Reader:
    def __init__(self, url: str, path: str, headers: dict | None = None):
        where = urlsplit(url)
        self.connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
        self.connection.request("GET", path, headers=headers or {})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.worker = self.response.getheader("X-Referee-Worker")  # REFEREE_WORKER_HEADER set: who holds it
        self.events: queue.Queue = queue.Queue()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.body = self.response.read()

    def _read(self) -> None:
        said: dict = {}
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                line = line.decode().rstrip("\n")
                if not line:
                    if said:
                        self.events.put((time.monotonic(), said))
                    said = {}
                elif line.startswith(":"):
                    self.events.put((time.monotonic(), {"event": ":"}))
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    said[field] = said[field] + "\n" + value if field == "data" and field in said else value
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed by the test
            pass
        self.events.put((time.monotonic(), None))

    def until(self, wanted, timeout: float = 60.0) -> tuple:
        """(when, event) of the first event ``wanted`` takes (None: the stream's end), waiting ``timeout`` at most (a
        generous deadline: how soon is the bench's to say)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no such event in time")
            try:
                when, said = self.events.get(timeout=left)
            except queue.Empty:
                raise AssertionError("no such event in time") from None
            if wanted(said):
                return when, said
            if said is None:
                raise AssertionError("the stream ended first")

    def close(self) -> None:
        self.connection.close()


def revision_of(said: dict | None) -> int | None:
    """The revision an event tells: an API state's, or a page event's id (its stamp: revision[-trick])."""
    if not said:
        return None
    if said.get("event") == "state":
        return json.loads(said["data"])["revision"]
    if said.get("event") == "live" and said.get("id"):
        return int(said["id"].split("-")[0])
    return None
