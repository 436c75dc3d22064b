"""kill -9 in rounds: every entry the server acknowledged is in the log once after a restart, and nothing else is.

A server on loopback, 8 phones each scoring its own table with a ``client_event_id`` per entry; the server is killed
(SIGKILL: no clean shutdown) at a random moment, started again, and each phone sends again the entry it got no answer
for (a retry: stored once whatever happened to the first try), 20 rounds on SQLite and on PostgreSQL.
"""
from __future__ import annotations

import http.client
import random
import signal
import threading
import time

import pytest

from tests.support.http_load import Client, LONG_SERIES, brulot_log, database_url, server_on

pytestmark = [pytest.mark.server, pytest.mark.slow]  # its own server process, for 15 s to a minute

ROUNDS, WRITERS, ENTRIES = 20, 8, 1500


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_every_acknowledged_entry_is_stored_once_across_20_kill_9(kind, tmp_path):
    server = server_on(database_url(kind, tmp_path), tmp_path).start()
    rng, started = random.Random(f"kill-9-{kind}"), time.monotonic()
    try:
        setup = Client(server.url)
        tables = [setup.create(options=LONG_SERIES) for _ in range(WRITERS)]
        setup.close()
        logs = [brulot_log(ENTRIES, seed=n) for n in range(WRITERS)]
        position = [0] * WRITERS  # the entry each phone is sending (again, after a kill)
        acknowledged = [set() for _ in range(WRITERS)]
        refused = []

        def write(n):
            phone, table = Client(server.url, timeout=20), tables[n]
            while position[n] < ENTRIES:
                client_id = f"w{n}-{position[n]}"
                try:
                    status, answer = phone.request("POST", f"/api/v1/tables/{table['id']}/events",
                                                   {**logs[n][position[n]], "client_event_id": client_id},
                                                   table["scorer_key"])
                except (OSError, http.client.HTTPException):
                    return  # killed: this entry's fate is unknown, it is sent again after the restart
                if status not in (200, 201):
                    refused.append((client_id, status, answer))
                    return
                acknowledged[n].add(client_id)
                position[n] += 1

        for _ in range(ROUNDS):
            before = [len(a) for a in acknowledged]
            phones = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
            for thread in phones:
                thread.start()
            deadline = time.monotonic() + 120  # a loaded machine: every phone writes in every round, however slow
            while time.monotonic() < deadline and not all(
                    len(acknowledged[n]) > before[n] or not phones[n].is_alive() for n in range(WRITERS)):
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.4))  # time is the subject: SIGKILL at a random moment of the writes
            server.kill(signal.SIGKILL)
            for thread in phones:
                thread.join(timeout=60)
            assert refused == []
            server.start()

        reader = Client(server.url)
        for n, table in enumerate(tables):
            status, answer = reader.request("GET", f"/api/v1/tables/{table['id']}/events", key=table["scorer_key"])
            assert status == 200
            stored = [event.get("client_event_id") for event in answer["events"]]
            assert len(stored) == len(set(stored)), "an entry stored twice"
            assert acknowledged[n] <= set(stored), f"lost: {sorted(acknowledged[n] - set(stored))}"
            # in order, no gap: what was acknowledged, and at most the one entry sent when the last kill came
            assert stored == [f"w{n}-{i}" for i in range(len(stored))]
            assert len(stored) - len(acknowledged[n]) in (0, 1)
            status, state = reader.request("GET", f"/api/v1/tables/{table['id']}", key=table["scorer_key"])
            assert status == 200 and state["version"] == len(stored)
        assert sum(map(len, acknowledged)) > ROUNDS * WRITERS  # the phones did write in every round
        print(f"\n{kind}: {sum(map(len, acknowledged))} entries acknowledged over {ROUNDS} kills, "
              f"{time.monotonic() - started:.0f} s")
    finally:
        server.kill()
