"""A process's connections are kept (``referee/store/database.py``: ``pool_size``): more requests at once than its
pool wait for a lent connection instead of opening one for a moment and closing it when lent back, as SQLAlchemy's
default overflow did (under 50 scorers, a PostgreSQL server process forked and authenticated for most entries)."""
from __future__ import annotations

import threading

from sqlalchemy import event

from referee.store.database import POOL_SIZE, connect, pool_size


def test_more_users_at_once_than_the_pool_open_no_connection_beyond_it_and_close_none(ledger):
    opened, closed = [], []
    event.listen(ledger.engine, "connect", lambda *_: opened.append(1))
    event.listen(ledger.engine, "close", lambda *_: closed.append(1))
    users, rounds = POOL_SIZE + 10, 20
    start, failures = threading.Barrier(users), []

    def user():
        try:
            start.wait(timeout=30)
            for _ in range(rounds):
                with ledger.engine.connect() as connection:
                    connection.exec_driver_sql("SELECT 1").all()
        except Exception as error:  # noqa: BLE001 — reported below, with the thread's own error
            failures.append(error)

    threads = [threading.Thread(target=user) for _ in range(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    assert 1 <= len(opened) <= POOL_SIZE  # never more connections than the pool keeps
    assert closed == []  # and none closed for being one too many (SQLAlchemy's overflow closed 10 of 15)
    assert ledger.engine.pool.size() == POOL_SIZE


def test_the_operator_sets_the_pool_and_an_in_memory_database_keeps_sqlalchemy_s_own(monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_POOL_SIZE", "40")
    assert pool_size() == 40
    assert connect(f"sqlite:///{tmp_path / 'a.sqlite3'}").pool.size() == 40
    monkeypatch.setenv("REFEREE_POOL_SIZE", "many")  # not a number: the default, not a failure at start
    assert pool_size() == POOL_SIZE
    assert type(connect("sqlite://").pool).__name__ == "SingletonThreadPool"
