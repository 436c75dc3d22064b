"""What an entry costs beyond its answer, and what a server keeps (issue 40): a write's new state is kept in the
replay cache at once and measured after its answer (``StateCache.settle``); a pooled PostgreSQL connection is tried
only after resting (``database.ping_when_idle``), and a dead one is still replaced before a request gets it; the
workers of ``serve`` share the cache's default budget."""
from __future__ import annotations

import os

import pytest

from referee.store import CACHE_MB, Ledger
from referee.store import database
from referee.store.state_cache import MEASURED_EVERY, StateCache
from referee.web.serving import share_cache
from tests.support.env import need
from tests.support.http_load import LONG_SERIES, PLAYERS4, brulot_log


def test_a_writes_state_is_kept_at_once_and_counted_once_its_answer_is_out(ledger):
    state, _, _ = ledger.create_table("brulot", PLAYERS4, LONG_SERIES)
    table_id = state["id"]
    for number, body in enumerate(brulot_log(30 + MEASURED_EVERY), 1):
        _, answer = ledger.append(table_id, body)
        if number >= 30 and ledger.cache_pending:
            break  # a walked write (its deal's start, or every MEASURED_EVERY-th of a deal): within eight of them
    assert ledger.cache_pending  # the last entry's state waits to be measured
    kept = ledger._cache.get(table_id, answer["revision"])
    assert kept is not None and ledger.state(table_id) == answer  # served from the cache meanwhile
    ledger.settle_cache()
    assert not ledger.cache_pending
    counted = ledger._cache.stats()["bytes"]
    fresh = StateCache(1 << 30)
    fresh.put(table_id, answer["revision"], kept, ledger._cache.checkpoint(table_id, answer["revision"]))
    assert counted == fresh.stats()["bytes"] and counted > 10_000  # what a measure at once would have counted


def test_a_state_measured_past_the_budget_after_its_answer_is_dropped_and_replayed_when_asked(tmp_path):
    small = Ledger(f"sqlite:///{tmp_path / 'small.sqlite3'}", cache_mb=0.02)  # 20 KiB: a few deals of Brûlot
    small.init_db()
    try:
        state, _, _ = small.create_table("brulot", PLAYERS4, LONG_SERIES)
        for body in brulot_log(120):
            _, answer = small.append(state["id"], body)
        small.settle_cache()
        assert small._cache.stats()["bytes"] <= 0.02 * 1024 * 1024 and len(small._cache) == 0
        assert small.state(state["id"]) == answer and answer["version"] == 120
    finally:
        small.engine.dispose()


def test_a_pooled_postgresql_connection_the_server_ended_is_replaced_before_a_request_gets_it(monkeypatch):
    url = os.environ.get("TEST_DATABASE_URL")
    need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    import psycopg

    store = Ledger(url)
    store.drop_all()
    store.init_db()
    try:
        state, _, _ = store.create_table("brulot", PLAYERS4, LONG_SERIES)
        with store.engine.connect() as connection:
            ended = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as other:
            assert other.execute("SELECT pg_terminate_backend(%s)", (ended,)).fetchone()[0] is True
        monkeypatch.setattr(database, "PING_AFTER_IDLE", -1.0)  # every connection has rested long enough
        store._cache.clear()  # the read goes to the database
        assert store.state(state["id"])["id"] == state["id"]
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT pg_backend_pid()").scalar() != ended
    finally:
        store.engine.dispose()


@pytest.mark.parametrize("workers, given, each", [(2, None, "32"), (1, None, "64"), (4, None, "16"), (2, "48", "48")])
def test_the_workers_share_the_caches_default_budget_unless_it_is_set(monkeypatch, workers, given, each):
    if given is None:
        monkeypatch.delenv("REFEREE_CACHE_MB", raising=False)
    else:
        monkeypatch.setenv("REFEREE_CACHE_MB", given)
    share_cache(workers)
    assert CACHE_MB == 64 and os.environ["REFEREE_CACHE_MB"] == each
