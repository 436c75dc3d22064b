"""Renewing a key while other tables are scored: every renewal answered, none "database is locked" (500).

On SQLite a renewal used to read the table and then write in one deferred transaction: once another table had been
written meanwhile, the upgrade to a write failed at once (85 % of renewals with 4 tables in play). Every write now
begins with the database's write lock (BEGIN IMMEDIATE), waiting its turn like an entry does.
"""
from __future__ import annotations

import threading

import pytest

from tests.support.http_load import Client, LONG_SERIES, brulot_log, database_url, server_on

pytestmark = [pytest.mark.server, pytest.mark.slow]  # its own server process, for 15 s to a minute
RENEWALS = 200
SCORED = 4


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_200_key_renewals_under_4_tables_scored_at_once_answer_no_5xx(kind, tmp_path):
    server = server_on(database_url(kind, tmp_path), tmp_path).start()
    try:
        setup = Client(server.url)
        scored = [setup.create(options=LONG_SERIES) for _ in range(SCORED)]
        renewed = setup.create(options=LONG_SERIES)
        done, answers, entries = threading.Event(), [], {table["id"]: [] for table in scored}

        def score(table, seed):
            phone, log = Client(server.url), brulot_log(400, seed=seed)
            for body in log:
                if done.is_set():
                    break
                try:
                    status, _ = phone.request("POST", f"/api/v1/tables/{table['id']}/events", body,
                                              table["scorer_key"])
                except OSError as error:  # no answer in 30 s
                    status = repr(error)
                entries[table["id"]].append(status)
            phone.close()

        def renew(count, first):
            phone = Client(server.url)
            page = f"/t/{renewed['id']}/share?key={renewed['scorer_key']}"
            token = phone.csrf_token(page)
            for number in range(first, first + count):
                kind = "viewer" if number % 2 else "coscorer"
                try:
                    status, _ = phone.request("POST", f"/t/{renewed['id']}/keys/{kind}?key={renewed['scorer_key']}",
                                              form={"csrf_token": token, "confirm": "yes"})
                except OSError as error:
                    status = repr(error)
                answers.append((kind, status))
            phone.close()

        scorers = [threading.Thread(target=score, args=(table, n)) for n, table in enumerate(scored)]
        renewers = [threading.Thread(target=renew, args=(RENEWALS // 4, n * RENEWALS // 4)) for n in range(4)]
        for thread in scorers + renewers:
            thread.start()
        for thread in renewers:
            thread.join()
        done.set()
        for thread in scorers:
            thread.join()

        assert len(answers) == RENEWALS
        assert sorted(set(answers)) == [("coscorer", 200), ("viewer", 303)], [a for a in answers
                                                                              if a[1] not in (200, 303)][:5]
        for table in scored:  # each table was scored all along, every entry stored
            statuses = entries[table["id"]]
            assert set(statuses) == {201} and len(statuses) >= 5, [s for s in statuses if s != 201][:5]
            status, state = setup.request("GET", f"/api/v1/tables/{table['id']}", key=table["scorer_key"])
            assert status == 200 and state["version"] == len(statuses)
    finally:
        server.kill()
