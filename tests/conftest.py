"""Fixtures in the manner of the Flask tutorial: an app on a fresh SQLite file per test, its client, a ledger
on each database we support, and a real server process for tests that need one (contract, SIGKILL, browser)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from referee import create_app
from referee.ledger import Ledger

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI") == "true"
PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]


def need(condition: bool, reason: str) -> None:
    """Skip when something outside the project is missing here; in CI (CI=true) that is an error, never a skip."""
    if not condition:
        if IN_CI:
            pytest.fail(f"missing in CI: {reason}")
        pytest.skip(reason)


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
                      "SECRET_KEY": "test", "RATELIMIT_ENABLED": False})  # limits: tests/test_limits.py
    app.extensions["referee.ledger"].init_db()
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(params=["sqlite", "postgresql"])
def client_on_each_database(request, tmp_path):
    """The app's test client on a new SQLite file, then on the PostgreSQL test database emptied (TEST_DATABASE_URL)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'app.sqlite3'}"
    else:
        url = os.environ.get("TEST_DATABASE_URL")
        need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test", "RATELIMIT_ENABLED": False})
    ledger = app.extensions["referee.ledger"]
    if request.param == "postgresql":
        ledger.drop_all()
    ledger.init_db()
    yield app.test_client()
    ledger.engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger(request, tmp_path):
    """The ledger on SQLite (a temp file: the real thing) and on PostgreSQL when TEST_DATABASE_URL is set."""
    if request.param == "sqlite":
        store = Ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    else:
        url = os.environ.get("TEST_DATABASE_URL")
        need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
        store = Ledger(url)
        store.drop_all()
    store.init_db()
    yield store
    store.engine.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``flask --app referee serve`` in a child process, on loopback, with its own database file."""

    def __init__(self, db_path: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_path}", "PUBLIC_URL": self.url,
                    "SECRET_KEY": "test", "FLASK_RATELIMIT_ENABLED": "false"}  # every test comes from 127.0.0.1
        self.process = None

    def start(self) -> "Server":
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1", "--port",
             str(self.port)], cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60  # a loaded machine starts a server slowly
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/v1/games", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("server died: " + self.process.stderr.read().decode())
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self, sig=None) -> None:
        if self.process and self.process.poll() is None:
            if sig is None:
                self.process.terminate()
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a machine under load: the test is over, stop it for good
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "server.sqlite3").start()
    yield srv
    srv.kill()


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (never a browser download); missing in CI is an error."""
    need(Path(CHROMIUM).exists(), f"{CHROMIUM} is missing (Debian package chromium; .ci/run installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "the playwright package is not installed (make test installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()
