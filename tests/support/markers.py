"""Markers (registered in pyproject.toml) given from what a test uses, so that no test has to say it: the browser
fixture → ``browser``; a real server process (the ``server`` fixture, a module's ``server_module``, schemathesis'
``api_server``) → ``server``; a parametrisation on PostgreSQL (the ``ledger``, ``app_on_each_database`` and
``fuzz_app`` fixtures, ``database_url("postgresql", …)`` tests) or test_backup's ``pg_url`` → ``postgres``. Tests that start a server
themselves or are slow say so with ``pytestmark`` or a decorator."""
import pytest

BROWSER_FIXTURES = {"browser"}
SERVER_FIXTURES = {"server", "server_module", "api_server"}
POSTGRES_FIXTURES = {"pg_url"}
# ``fast`` (``make test-fast``, under 90 s on two cores): the engines, the ledger, the API, the tournaments' rules and
# store, the scorer's forms through Flask's client and the house's walls; never a browser, a server or a slow test.
FAST_MODULES = {
    "test_base", "test_brisca", "test_brisca_score", "test_brouc", "test_brouc_slate", "test_brulot",
    "test_brulot_tally", "test_brusquembille", "test_buraco", "test_buraco_hands", "test_buraco_tally", "test_cards",
    "test_events", "test_facts", "test_tricks", "test_tally", "test_standing", "test_recorded", "test_movements",
    "test_victory_points", "test_standings", "test_ledger", "test_draft", "test_incremental", "test_once",
    "test_tournament_store", "test_api", "test_tournament_api", "test_keys", "test_log_own_fields", "test_rematch",
    "test_openapi", "test_scorer_indexes", "test_pages", "test_sheet", "test_layers", "test_no_game_branches",
    "test_template_folders", "test_template_lines", "test_history", "test_clubs_api", "test_clubs_pages",
    "test_game_statistics", "test_club_import", "test_printed_defaults", "test_architecture_doc",
}  # tests/test_backup.py: pg_dump and pg_restore on the test database


def mark_by_fixtures(item) -> None:
    used = set(getattr(item, "fixturenames", ()))
    if used & BROWSER_FIXTURES:
        item.add_marker(pytest.mark.browser)
    if used & SERVER_FIXTURES:
        item.add_marker(pytest.mark.server)
    callspec = getattr(item, "callspec", None)
    if used & POSTGRES_FIXTURES or callspec is not None and "postgresql" in map(str, callspec.params.values()):
        item.add_marker(pytest.mark.postgres)
    if item.module.__name__.rpartition(".")[2] in FAST_MODULES and not any(
            item.get_closest_marker(name) for name in ("browser", "server", "slow")):
        item.add_marker(pytest.mark.fast)
