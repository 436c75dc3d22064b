"""What the load tests share (memory, key renewal, kill -9): a server process on loopback on SQLite or PostgreSQL,
a small HTTP client that keeps its connection and its cookies, its resident memory, and long legal logs."""
from __future__ import annotations

import http.client
import json
import os
import re
import time
import urllib.parse

import pytest

from tests.support.env import need
from tests.support.server import Server
from tests.support.simulate import LONG_SERIES, PLAYERS, brulot_deal

PLAYERS4 = PLAYERS


def database_url(kind: str, tmp_path) -> str:
    """A fresh database: an SQLite file, or the PostgreSQL of TEST_DATABASE_URL emptied."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'load.sqlite3'}"
    url = os.environ.get("TEST_DATABASE_URL")
    need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    from referee.store import Ledger

    ledger = Ledger(url)
    ledger.drop_all()
    ledger.engine.dispose()
    return url


def server_on(url: str, tmp_path, **env) -> Server:
    """A server (not started) on ``url``, rate limits off (they are not what these tests look at)."""
    server = Server(tmp_path / "unused.sqlite3")
    server.env.update({"DATABASE_URL": url, "FLASK_RATELIMIT_ENABLED": "false", **env})
    return server


def memory_kb(pid: int, field: str = "VmRSS") -> int:
    """A process's resident memory (``VmRSS``) or its peak (``VmHWM``) in kB, from ``/proc/<pid>/status``."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise LookupError(field)


# The server closes a kept-alive connection idle this long (gevent_worker: REFEREE_KEEPALIVE_SECONDS, 30 s): a phone
# idle longer opens a new one first, as a browser does, rather than send into a connection being closed.
IDLE_SECONDS = 20


class Client:
    """One phone: a kept-alive connection to the server and its session cookie. Answers (status, body)."""

    def __init__(self, url: str, timeout: float = 30):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.connection = None
        self.answered = 0.0  # when the connection's last answer came (time.monotonic)
        self.cookies: dict = {}

    def request(self, method: str, path: str, body=None, key: str | None = None, form: dict | None = None):
        headers = {}
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            data, headers["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
        else:
            data = None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.connection is not None and time.monotonic() - self.answered > IDLE_SECONDS:
            self.close()  # the server may be closing it: never a request into a connection it has let go
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        self.answered = time.monotonic()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        if response.getheader("Content-Type", "").startswith("application/json"):
            return response.status, json.loads(content)
        return response.status, content.decode("utf-8", "replace")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def create(self, game: str = "brulot", players=PLAYERS4, options=None) -> dict:
        status, created = self.request("POST", "/api/v1/tables", {"game": game, "players": players,
                                                                  "options": options or {}})
        assert status == 201, created
        return created

    def csrf_token(self, path: str) -> str:
        """The form token of a page (and the session cookie that goes with it)."""
        status, page = self.request("GET", path)
        assert status == 200, page
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"', page)
        if found is None:
            pytest.fail(f"no csrf_token on {path}")
        return found.group(1) or found.group(2)


def brulot_log(events: int, seed: int = 0) -> list:
    """``events`` legal Brûlot entries for 4 players, deal after deal (a table made with ``{"deals": 1000}``)."""
    log, deal = [], 0
    while len(log) < events:
        log += brulot_deal(4, deal % 4, seed * 10_000 + deal, "dealer_last_card")[0]
        deal += 1
    return log[:events]


