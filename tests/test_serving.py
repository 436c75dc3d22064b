"""`serve` as `make run` starts it: gunicorn's gevent worker processes (one per core, at least two here), the database
upgraded once before they start, an entry made through one worker seen by another at once (SQLite and PostgreSQL),
no worker left behind by a kill -9, and waitress when asked."""
import http.client
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from referee.web import serving
from tests.support.deals import DEAL_4P
from tests.support.env import ROOT, free_port
from tests.support.http_load import database_url, server_on
from tests.support.server import Server
from tests.support.waiting import until
from tests.support.workers import WORKERS, connection_per_worker, workers_env

pytestmark = pytest.mark.server  # each test starts its own server process


def call(connection, method, path, body=None, key=None, headers=None):
    sent = {"Content-Type": "application/json", **(headers or {})}
    if key:
        sent["Authorization"] = f"Bearer {key}"
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
    response = connection.getresponse()
    data = response.read()
    return response, (json.loads(data) if response.headers.get("Content-Type") == "application/json" else data)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_entry_made_through_one_worker_is_seen_by_another_at_once(kind, tmp_path):
    server = server_on(database_url(kind, tmp_path), tmp_path, **workers_env()).start()
    try:
        held = connection_per_worker(server.port, WORKERS)
        assert len(set(held)) == WORKERS and str(server.process.pid) not in held  # workers, not the master
        (writer_pid, writer), (reader_pid, reader) = list(held.items())[:2]
        response, created = call(writer, "POST", "/api/v1/tables", {"game": "brisca", "players": ["A", "B", "C", "D"]})
        table, scorer, viewer = created["id"], created["scorer_key"], created["viewer_key"]
        since = created["state"]["revision"]
        response, _ = call(reader, "GET", f"/t/{table}/live?key={viewer}&since={since}")
        assert response.status == 204 and response.headers["X-Referee-Worker"] == reader_pid
        for number, body in enumerate([{"type": "deal", "trump": "11E"}] + [
                {"type": "trick", "cards": cards} for cards, _, _ in DEAL_4P[:3]], 1):
            response, answer = call(writer, "POST", f"/api/v1/tables/{table}/events", body, scorer)
            assert response.status == 201 and response.headers["X-Referee-Worker"] == writer_pid
            response, state = call(reader, "GET", f"/api/v1/tables/{table}", key=viewer)  # at once, the other one
            assert response.headers["X-Referee-Worker"] == reader_pid
            assert state["version"] == number and state["revision"] == since + number
            assert state["totals"] == answer["state"]["totals"]

            def live_view_changed(number=number) -> bool:  # at its memo's next refresh
                response, page = call(reader, "GET", f"/t/{table}/live?key={viewer}&since={since + number - 1}")
                assert response.status in (200, 204)
                return response.status == 200 and f"since={since + number}".encode() in page

            until(live_view_changed, timeout=60, every=0.02, what="the change on the other worker's live view")
            # the same state through either worker (each replays or keeps its own copy, by revision)
            response, again = call(writer, "GET", f"/api/v1/tables/{table}", key=viewer)
            assert again == state
        for connection in held.values():
            connection.close()
    finally:
        server.kill()


def test_serve_upgrades_the_database_once_then_starts_its_workers(tmp_path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}", "SECRET_KEY": "test",
           "PUBLIC_URL": f"http://127.0.0.1:{port}", **workers_env()}
    process = subprocess.Popen([sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1",
                                "--port", str(port)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        held = connection_per_worker(port, WORKERS)
        children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
        assert sorted(children) == sorted(held)  # every worker is a child of the master, and answers
        for connection in held.values():
            connection.close()
    finally:
        process.terminate()
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert out.count("Database ready at revision") == 1 and "(was without a revision)" in out
    assert f"Referee is open at  http://127.0.0.1:{port}" in out
    assert f"{WORKERS} gevent worker processes of up to {serving.CONNECTIONS:,} connections" in out


def test_kill_9_of_the_server_leaves_no_worker_behind(tmp_path):
    server = server_on(f"sqlite:///{tmp_path / 'k.sqlite3'}", tmp_path, **workers_env()).start()
    held = connection_per_worker(server.port, WORKERS)
    for connection in held.values():
        connection.close()
    server.kill(signal.SIGKILL)

    def alive() -> list:
        living = []
        for pid in held:
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    if stat.read().split()[2] != "Z":  # a zombie is dead, its master not yet gone to reap it
                        living.append(pid)
            except OSError:  # gone (meanwhile)
                pass
        return living

    until(lambda: alive() == [], timeout=60, what="no worker outliving its master")
    server.start()  # the port is free again at once
    assert server.process.poll() is None
    server.kill()


def test_waitress_serves_in_one_process_where_asked(tmp_path):
    server = Server(tmp_path / "w.sqlite3")
    server.env["REFEREE_WORKER_HEADER"] = "1"
    server.process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "referee", "serve", "--server", "waitress", "--threads", "3",
         "--host", "127.0.0.1", "--port", str(server.port)], cwd=ROOT, env=server.env, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    try:
        deadline, answered = time.monotonic() + 20, None
        while answered is None and time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
                response, games = call(connection, "GET", "/api/v1/games")
                answered = response.headers["X-Referee-Worker"]
                assert response.headers["Server"] == "referee"
            except OSError:
                time.sleep(0.1)
        assert answered == str(server.process.pid)  # no fork: the process itself answers
    finally:
        server.kill()
    assert "one process of 3 threads" in server.process.stdout.read()


def test_default_workers_follow_web_concurrency_else_the_cores(monkeypatch):
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    assert serving.default_workers() == 3
    monkeypatch.delenv("WEB_CONCURRENCY")
    assert serving.default_workers() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("WEB_CONCURRENCY", "none")
    assert serving.default_workers() == len(os.sched_getaffinity(0))
