"""Hostile clients against `serve` as `make run` starts it (gunicorn's gevent workers, referee/web/serving/gevent_worker.py):
idle sockets and slowloris clients held open while normal requests are answered, the cap per address, a client
silent past the headers deadline closed, a kept-alive connection closed after its bound, a slow body answered 408, a
server-sent event stream outliving every deadline, a stop not held by idle connections; and, without a server, the
worker's app made after gevent patched it (cooperative locks, psycopg's cooperative wait).

Every test is bounded to about 30 s: its sockets time out, its loops have deadlines."""
import http.client
import json
import os
import select
import socket
import subprocess
import sys
import time

import pytest

from referee.web import serving
from referee.web.serving import gevent_worker
from tests.support.env import ROOT, free_port
from tests.support.server import Server
from tests.support.waiting import until

pytestmark = pytest.mark.server  # each server test starts its own server process
WORKERS = max(2, serving.default_workers())
CAP = 200  # REFEREE_CONNECTIONS_PER_ADDRESS's default, per worker process
SHORT = 2  # seconds: the deadlines of the `short_deadlines` server
GRACEFUL = 10  # seconds: gunicorn's graceful timeout as `serve` sets it (referee/web/serving/__init__.py)


def served(tmp_path, **env) -> Server:
    server = Server(tmp_path / "hostile.sqlite3")
    server.env.update({"REFEREE_CONNECTIONS_PER_ADDRESS": str(CAP), **env})
    if serving.default_workers() < 2 and "WEB_CONCURRENCY" not in env:
        server.env["WEB_CONCURRENCY"] = "2"  # two workers, as on any machine of two cores or more
    return server.start()


def normal_request(port: int, source: str, timeout: float = 10.0) -> int:
    """GET /api/v1/games from ``source`` on a connection of its own; its status, within ``timeout`` seconds (a
    generous bound: how soon is bench/hostile.py's to say)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request("GET", "/api/v1/games")
        response = connection.getresponse()
        json.loads(response.read())
        return response.status
    finally:
        connection.close()


def closed_by_server(sockets: list) -> list:
    """The sockets the server closed (readable now, and reading gives the end of the stream or a reset)."""
    poller = select.poll()
    by_fd = {sock.fileno(): sock for sock in sockets}
    for fd in by_fd:
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    closed = []
    for fd, _ in poller.poll(0):
        try:
            if by_fd[fd].recv(1, socket.MSG_DONTWAIT) == b"":
                closed.append(by_fd[fd])
        except BlockingIOError:
            continue
        except OSError:
            closed.append(by_fd[fd])
    return closed


def head_of(sock: socket.socket) -> bytes:
    """The status line of an answer's head read whole from ``sock`` (and nothing past its blank line)."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        assert byte, f"closed after {head!r}"
        head += byte
    return head.split(b"\r\n")[0]


def eof_after(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closes ``sock`` (reading gives the end), None if it did not within ``seconds``."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - started


@pytest.fixture(scope="module")
def short_deadlines(tmp_path_factory):
    server = served(tmp_path_factory.mktemp("short"), REFEREE_HEADER_SECONDS=str(SHORT),
                    REFEREE_KEEPALIVE_SECONDS=str(SHORT), REFEREE_BODY_SECONDS=str(SHORT))
    yield server
    server.kill()


def test_idle_sockets_and_slowloris_clients_leave_normal_requests_answered(tmp_path):
    serving.enough_files(4096)  # this process's own 520 sockets
    server = served(tmp_path, REFEREE_HEADER_SECONDS="25")  # the attack is held open for the whole test
    idle, slow = [], []
    try:
        for _ in range(500):
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(sock)
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:  # one header byte every second from each slowloris client
            for sock in slow:
                try:
                    sock.sendall(b"a")
                except OSError:  # evicted by the cap: closed by the server
                    pass
            time.sleep(1)
        # another loopback address: not counted against 127.0.0.1's cap, answered at once
        assert [normal_request(server.port, "127.0.0.2") for _ in range(3)] == [200] * 3
        # the attacker's own address: each new connection evicts one of its oldest idle ones
        assert [normal_request(server.port, "127.0.0.1") for _ in range(3)] == [200] * 3
        still_open = len(idle) + len(slow) - len(closed_by_server(idle + slow))
        # held open, but no more than the cap in each worker (less the idle ones the three requests evicted)
        assert CAP - 3 <= still_open <= WORKERS * CAP
        assert server.process.poll() is None
    finally:
        for sock in idle + slow:
            sock.close()
        server.kill()


def test_at_the_cap_with_none_waiting_a_new_connection_is_closed(tmp_path):
    """One worker, a cap of 3: three connections being answered (their bodies still coming) are never evicted; a
    fourth from their address is closed unanswered, another address is answered, and once the three are done their
    address is served again. Each of the three asks ``Expect: 100-continue``: the server's "100 Continue" says its
    headers were read and it is being answered (no time waited for it)."""
    server = served(tmp_path, WEB_CONCURRENCY="1", REFEREE_CONNECTIONS_PER_ADDRESS="3", REFEREE_BODY_SECONDS="4")
    busy = []
    try:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            sock.sendall(b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n")
            assert head_of(sock) == b"HTTP/1.1 100 Continue"  # being answered
            sock.sendall(b"{")
            busy.append(sock)
        fourth = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        try:
            fourth.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        except OSError:
            pass
        try:
            assert fourth.recv(4096) == b""  # closed, never answered
        except ConnectionResetError:
            pass
        fourth.close()
        assert normal_request(server.port, "127.0.0.2") == 200
        for sock in busy:  # the body deadline answers them 408
            assert sock.recv(4096).startswith(b"HTTP/1.1 408 ")
            sock.close()

        def served_again() -> bool:  # once the worker let the three go
            try:
                return normal_request(server.port, "127.0.0.1") == 200
            except (OSError, http.client.HTTPException):  # still at the cap: closed unanswered
                return False

        until(served_again, timeout=60, every=0.1, what="their address served again")
    finally:
        for sock in busy:
            sock.close()
        server.kill()


def test_a_client_that_sends_no_headers_within_the_deadline_is_closed(short_deadlines):
    silent = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=5)
    dripping = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=5)
    dripping.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    try:
        for _ in range(int(SHORT * 4)):  # a header byte every half second: never a whole request
            dripping.sendall(b"X")
            time.sleep(0.5)
            if closed_by_server([dripping]):
                break
        closed_at = eof_after(silent, SHORT + 8)
        assert closed_at is not None, "a silent client was never closed"
        assert SHORT - 0.5 <= time.monotonic() - started <= SHORT + 8
        assert eof_after(dripping, 8) is not None, "a client dripping its headers was never closed"
    finally:
        silent.close()
        dripping.close()


def test_a_kept_alive_idle_connection_is_closed_after_its_bound(short_deadlines):
    connection = http.client.HTTPConnection("127.0.0.1", short_deadlines.port, timeout=10)
    try:
        connection.request("GET", "/api/v1/games")
        first = connection.getresponse()
        first.read()
        assert first.status == 200 and first.headers["Connection"] != "close"
        sock = connection.sock
        time.sleep(SHORT / 4)
        connection.request("GET", "/api/v1/games")  # within the bound: the same connection serves again
        again = connection.getresponse()
        again.read()
        assert again.status == 200 and connection.sock is sock
        waited = eof_after(sock, SHORT + 8)
        assert waited is not None and waited >= SHORT - 0.5, "the idle kept-alive connection stayed open"
    finally:
        connection.close()


def test_a_body_that_does_not_arrive_within_the_deadline_is_answered_408(short_deadlines):
    sock = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=SHORT + 8)
    try:
        sock.sendall(b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"game\":")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ") and b"\r\nConnection: close" in head
        assert json.loads(body)["error"]["code"] == "request_timeout"  # the app's own answer to a refusal
    finally:
        sock.close()
    # a body sent whole (and in pieces within the deadline) is taken as usual
    sock = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=10)
    try:
        body = json.dumps({"game": "brisca", "players": ["A", "B", "C", "D"]}).encode()
        sock.sendall(b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:10])
        time.sleep(SHORT / 4)
        sock.sendall(body[10:])
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 201 ") and b'"scorer_key"' in answer
    finally:
        sock.close()


def test_idle_kept_alive_connections_do_not_hold_a_stop(tmp_path):
    """gunicorn waits up to its graceful timeout (10 s) for every connection; the idle ones are closed at once."""
    server = served(tmp_path)
    kept = []
    try:
        for _ in range(4):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request("GET", "/api/v1/games")
            connection.getresponse().read()
            kept.append(connection)
        started = time.monotonic()
        server.process.terminate()
        server.process.wait(timeout=60)
        # time is the subject: held, a stop lasts gunicorn's graceful timeout at least (then kills the worker), and
        # nothing but the clock tells it (serving.py's 10 s; a stop not held takes a second or two, more under load)
        assert time.monotonic() - started < GRACEFUL and server.process.returncode == 0
    finally:
        for connection in kept:
            connection.close()
        server.kill()


STREAMING_APP = """
import time

def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")])
    for n in range(8):  # 4 s of events, past every deadline and the heartbeat's timeout
        yield f"data: {n}\\n\\n".encode()
        time.sleep(0.5)
"""


def test_a_long_answer_outlives_every_deadline_and_the_heartbeat(tmp_path):
    """A server-sent event stream is an answer being written: no deadline applies to it, and the worker that holds
    it keeps its heartbeat (gunicorn's ``timeout``, 2 s here) while it lasts."""
    (tmp_path / "streaming.py").write_text(STREAMING_APP)
    port = free_port()
    env = {**os.environ, "REFEREE_HEADER_SECONDS": "1", "REFEREE_KEEPALIVE_SECONDS": "1", "REFEREE_BODY_SECONDS": "1"}
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "1", "-k", "referee.web.serving.gevent_worker.Worker",
                                "--timeout", "2", "-b", f"127.0.0.1:{port}", "--pythonpath", str(tmp_path),
                                "streaming:app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline, sock = time.monotonic() + 60, None  # a loaded machine starts a server slowly
        while sock is None and time.monotonic() < deadline:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            except ConnectionRefusedError:
                time.sleep(0.1)
        assert sock is not None, "gunicorn did not start"
        sock.sendall(b"GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        received = b""
        while b"data: 7" not in received and time.monotonic() < deadline:
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
        sock.close()
        assert received.startswith(b"HTTP/1.1 200 ") and all(f"data: {n}".encode() in received for n in range(8))
    finally:
        process.terminate()
        process.wait(timeout=15)


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SECRET_KEY": "test", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


LOCKS = """
import referee
master = referee.create_app({"DATABASE_URL": "sqlite:///%s"})  # the master's, made before any patching
from gevent import monkey
monkey.patch_all()
app = referee.create_app({"DATABASE_URL": "sqlite:///%s"})  # the worker's
seen, locks = set(), []
def walk(thing, depth):
    if id(thing) in seen or depth > 5:
        return
    seen.add(id(thing))
    kind = type(thing)
    if "lock" in kind.__name__.lower() or kind.__name__ in ("Semaphore", "BoundedSemaphore"):
        inner = thing._block if kind.__module__ == "threading" else thing  # threading's RLock wraps a lock
        locks.append(type(inner).__module__.split(".")[0])
        return
    if isinstance(thing, dict):
        for value in thing.values():
            walk(value, depth + 1)
    elif isinstance(thing, (list, tuple, set)):
        for value in thing:
            walk(value, depth + 1)
    elif kind.__module__.startswith(("referee", "sqlalchemy", "limits", "flask_limiter")):
        for value in list(getattr(thing, "__dict__", {}).values()):
            walk(value, depth + 1)
walk(app.extensions, 0)
print(len(locks), " ".join(sorted(set(locks))))
"""


def test_the_app_a_worker_makes_after_patching_has_only_cooperative_locks(tmp_path):
    """As in `serve`: the master imports and makes the app first, the worker patches, then makes its own; every
    lock its services hold (the ledger's pool and replay cache, the live views' memos…) is gevent's."""
    count, kinds = run_python(LOCKS % (tmp_path / "master.sqlite3", tmp_path / "worker.sqlite3")).split(" ", 1)
    assert int(count) >= 4 and kinds == "gevent"


def test_psycopg_imported_before_patching_waits_cooperatively_in_a_worker():
    chosen = run_python("""
import psycopg
from psycopg import waiting
before = waiting.wait.__name__
from gevent import monkey
monkey.patch_all()
from referee.web.serving.gevent_worker import cooperative_psycopg
cooperative_psycopg()
print(before, waiting.wait.__name__)
""")
    assert chosen == "wait_c wait_poll"


def test_limits_are_read_from_the_environment(monkeypatch):
    for name in ("HEADER_SECONDS", "KEEPALIVE_SECONDS", "BODY_SECONDS", "CONNECTIONS_PER_ADDRESS"):
        monkeypatch.delenv(f"REFEREE_{name}", raising=False)
    assert gevent_worker.Limits.from_env() == gevent_worker.Limits(10.0, 30.0, 30.0, 200)
    monkeypatch.setenv("REFEREE_CONNECTIONS_PER_ADDRESS", "0")
    monkeypatch.setenv("REFEREE_HEADER_SECONDS", "2.5")
    monkeypatch.setenv("REFEREE_BODY_SECONDS", "soon")  # not a number: the default
    assert gevent_worker.Limits.from_env() == gevent_worker.Limits(2.5, 30.0, 30.0, 0)


def test_a_gevent_workers_app_holds_thousands_of_streams_unless_the_operator_said(monkeypatch):
    from flask import Flask

    monkeypatch.delenv("FLASK_LIVE_STREAMS", raising=False)
    assert serving.holds_streams(Flask("a")).config["LIVE_STREAMS"] == serving.LIVE_STREAMS == 5000
    monkeypatch.setenv("FLASK_LIVE_STREAMS", "40")
    app = Flask("b")
    app.config.from_prefixed_env()
    assert serving.holds_streams(app).config["LIVE_STREAMS"] == 40


def test_a_body_refused_early_is_read_to_its_end_before_close_so_the_client_gets_the_answer(tmp_path):
    """A 4 MiB body (the app takes 64 KiB: 413 from its Content-Length) sent by a client that asked ``Connection:
    close``: the worker reads and drops the rest before it closes (its lingering close), so the whole body goes out
    and the 413 comes back, never a reset ("broken pipe") in the middle of the sending."""
    server = served(tmp_path)
    try:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            body = b'{"players": "' + b"x" * (4 << 20) + b'"}'
            sock.sendall(b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
            sock.sendall(body)  # raises BrokenPipeError or ConnectionResetError where the server reset it
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
            sock.close()
            head, _, text = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 413 ") and json.loads(text)["error"]["code"] == "request_entity_too_large"
    finally:
        server.kill()
