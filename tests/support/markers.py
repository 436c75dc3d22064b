"""Markers (registered in pyproject.toml) given from what a test uses, so that no test has to say it: the browser
fixture → ``browser``; a real server process (the ``server`` fixture, a module's ``server_module``, schemathesis'
``api_server``) → ``server``; a parametrisation on PostgreSQL (the ``ledger``, ``client_on_each_database`` and
``fuzz_app`` fixtures, ``database_url("postgresql", …)`` tests) or test_backup's ``pg_url`` → ``postgres``. Tests that start a server
themselves or are slow say so with ``pytestmark`` or a decorator."""
import pytest

BROWSER_FIXTURES = {"browser"}
SERVER_FIXTURES = {"server", "server_module", "api_server"}
POSTGRES_FIXTURES = {"pg_url"}  # tests/test_backup.py: pg_dump and pg_restore on the test database


def mark_by_fixtures(item) -> None:
    used = set(getattr(item, "fixturenames", ()))
    if used & BROWSER_FIXTURES:
        item.add_marker(pytest.mark.browser)
    if used & SERVER_FIXTURES:
        item.add_marker(pytest.mark.server)
    callspec = getattr(item, "callspec", None)
    if used & POSTGRES_FIXTURES or callspec is not None and "postgresql" in map(str, callspec.params.values()):
        item.add_marker(pytest.mark.postgres)
