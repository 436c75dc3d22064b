"""Fixtures in the manner of the Flask tutorial: an app on a fresh SQLite file per test, its client, a ledger
on each database we support, and a real server process for tests that need one (contract, SIGKILL, browser); the
hooks that mark each test by what it uses (browser, server, postgres, slow) and give each xdist worker its own
PostgreSQL database. What test modules import lives in tests/support/, never here."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from referee import create_app
from referee.store import Ledger
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, WatchedBrowser
from tests.support.env import need
from tests.support.fuzzing import DATABASES, database_url, make_app
from tests.support.isolation import own_database
from tests.support.markers import mark_by_fixtures
from tests.support.server import Server


def pytest_configure(config):
    """Under xdist each worker (gw0, gw1, …) has its own PostgreSQL database, made from TEST_DATABASE_URL's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and os.environ.get("TEST_DATABASE_URL"):
        os.environ["TEST_DATABASE_URL"] = own_database(os.environ["TEST_DATABASE_URL"], worker)


def pytest_collection_modifyitems(config, items):
    for item in items:
        mark_by_fixtures(item)



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
def app_on_each_database(request, tmp_path):
    """The app on a new SQLite file, then on the PostgreSQL test database emptied (TEST_DATABASE_URL)."""
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
    yield app
    ledger.engine.dispose()


@pytest.fixture
def client_on_each_database(app_on_each_database):
    """The app's test client on a new SQLite file, then on the PostgreSQL test database emptied (TEST_DATABASE_URL)."""
    return app_on_each_database.test_client()


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


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "server.sqlite3").start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def server_module(request, tmp_path_factory):
    """One server process for a whole test module (its browser tests share it), on a SQLite file of its own."""
    name = request.module.__name__.rpartition(".")[2]
    srv = Server(tmp_path_factory.mktemp(name) / f"{name}.sqlite3").start()
    yield srv
    srv.kill()


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
        yield WatchedBrowser(browser)  # every page's console errors fail its test (no_console_error)
        browser.close()


@pytest.fixture(autouse=True)
def no_console_error(request):
    """A test with the browser fails on any console error or uncaught exception of a page it opened (a CSP violation
    is one: an inline style refused), unless it ``allow``-ed it (tests/support/browser.py, ``WatchedBrowser``)."""
    if "browser" not in request.fixturenames:
        yield
        return
    watched = request.getfixturevalue("browser")
    watched.unexpected()  # what an earlier test's pages said after it ended is not this test's
    yield
    found = watched.unexpected()
    if found:
        pytest.fail("The pages reported console errors:\n" + "\n".join(found), pytrace=False)


@pytest.fixture(params=DATABASES)
def fuzz_app(request, tmp_path):
    """The fuzzers' app (tests/support/fuzzing.py) on a new SQLite file, then on the PostgreSQL test database."""
    app = make_app(database_url(request.param, tmp_path))
    yield app
    app.extensions["referee.ledger"].engine.dispose()


@pytest.fixture
def csrf_client(app):
    """The app's client with the form token checked, as a browser posts the page's own forms."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The app served from this process, so a test can change the engine's data and print again."""
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('print') / 'p.sqlite3'}",
                      "SECRET_KEY": "test", "TESTING": True})
    app.extensions["referee.ledger"].init_db()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
