"""Many phones writing at once to a served SQLite database (two gevent workers): every entry is answered and stored.

Sixty phones, each scoring its own table, post their entries at the same time, each opening a new connection every
few entries (so that a table's entries reach both workers, and a worker's state of it is sometimes behind: the
ledger's long way). A writer waits for the writers' queue before it takes a connection from the pool: one that
waited holding a connection could starve the pool the queue's holder needs, and every writer of the worker would
wait for ever (the pool's 15 connections against some 30 phones a worker). R-COMMON-5 (each entry stored once).
"""
from __future__ import annotations

import threading

import pytest

from tests.support.http_load import LONG_SERIES, Client, brulot_log, database_url, server_on
from tests.support.waiting import until

pytestmark = [pytest.mark.server, pytest.mark.slow]

PHONES, ENTRIES, KEPT = 60, 24, 4  # KEPT: entries sent on one connection before a phone opens another


def test_r_common_5_sixty_phones_at_once_on_two_workers_are_each_answered_and_stored_once(tmp_path):
    server = server_on(database_url("sqlite", tmp_path), tmp_path, WEB_CONCURRENCY="2").start()
    try:
        setup = Client(server.url)
        tables = [setup.create(options=LONG_SERIES) for _ in range(PHONES)]
        setup.close()
        logs = [brulot_log(ENTRIES, seed=n) for n in range(PHONES)]
        answers = [[] for _ in range(PHONES)]
        go = threading.Event()

        def write(n):
            go.wait()
            table, phone = tables[n], None
            for position in range(ENTRIES):
                if position % KEPT == 0:
                    if phone is not None:
                        phone.close()
                    phone = Client(server.url, timeout=120)
                status, _ = phone.request("POST", f"/api/v1/tables/{table['id']}/events",
                                          {**logs[n][position], "client_event_id": f"p{n}-{position}"},
                                          table["scorer_key"])
                answers[n].append(status)
            phone.close()

        phones = [threading.Thread(target=write, args=(n,), daemon=True) for n in range(PHONES)]
        for thread in phones:
            thread.start()
        go.set()
        until(lambda: not any(thread.is_alive() for thread in phones), timeout=600)
        assert [sorted(set(a)) for a in answers] == [[201]] * PHONES
        reader = Client(server.url)
        for table in tables:
            status, state = reader.request("GET", f"/api/v1/tables/{table['id']}", key=table["scorer_key"])
            assert status == 200
            assert state["version"] == ENTRIES
        reader.close()
    finally:
        server.kill()
