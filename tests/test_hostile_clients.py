"""Hostile clients against `serve` as `make run` starts it (gunicorn's gevent workers, referee/web/serving/gevent_worker.py):
idle sockets and slowloris clients held open while normal requests are answered, the cap per address, a client
silent past the headers deadline closed, a kept-alive connection closed after its bound, a slow body answered 408, a
body refused early read to its end; and, under gunicorn with the same worker class and settings of the test's own (a
graceful timeout of an hour), a stop not held by idle connections and a server-sent event stream outliving every
deadline. The worker's setup without a server: tests/test_worker_setup.py.

Each test waits for what it checks (an answer, a close, a stop) with a generous deadline, never for a time measured:
how soon is bench/hostile.py's to say. The server's own deadlines are short here (``SHORT``) so that they fire."""
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
from tests.support.env import ROOT, free_port
from tests.support.server import Server
from tests.support.waiting import until

pytestmark = pytest.mark.server  # each server test starts its own server process
WORKERS = max(2, serving.default_workers())
CAP = 200  # REFEREE_CONNECTIONS_PER_ADDRESS's default, per worker process
SHORT = 2  # seconds: the deadlines of the `short_deadlines` server
PATIENCE = 60  # seconds: how long a test waits for what it checks, on a loaded machine


def served(tmp_path, **env) -> Server:
    server = Server(tmp_path / "hostile.sqlite3")
    server.env.update({"REFEREE_CONNECTIONS_PER_ADDRESS": str(CAP), **env})
    if serving.default_workers() < 2 and "WEB_CONCURRENCY" not in env:
        server.env["WEB_CONCURRENCY"] = "2"  # two workers, as on any machine of two cores or more
    return server.start()


def normal_request(port: int, source: str, timeout: float = PATIENCE) -> int:
    """GET /api/v1/games from ``source`` on a connection of its own; its status."""
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
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE))
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
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
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
            sock.sendall(b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n")
            assert head_of(sock) == b"HTTP/1.1 100 Continue"  # being answered
            sock.sendall(b"{")
            busy.append(sock)
        fourth = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
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
    silent = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=PATIENCE)
    dripping = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=PATIENCE)
    dripping.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    try:
        for _ in range(int(SHORT * 4)):  # a header byte every half second: never a whole request
            dripping.sendall(b"X")
            time.sleep(0.5)
            if closed_by_server([dripping]):
                break
        assert eof_after(silent, PATIENCE) is not None, "a silent client was never closed"
        assert time.monotonic() - started >= SHORT - 0.5  # by the deadline, never before it
        assert eof_after(dripping, PATIENCE) is not None, "a client dripping its headers was never closed"
    finally:
        silent.close()
        dripping.close()


def test_a_kept_alive_idle_connection_is_closed_after_its_bound(short_deadlines):
    connection = http.client.HTTPConnection("127.0.0.1", short_deadlines.port, timeout=PATIENCE)
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
        waited = eof_after(sock, PATIENCE)
        assert waited is not None and waited >= SHORT - 0.5, "the idle kept-alive connection stayed open"
    finally:
        connection.close()


def test_a_body_that_does_not_arrive_within_the_deadline_is_answered_408(short_deadlines):
    sock = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=PATIENCE)
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
    sock = socket.create_connection(("127.0.0.1", short_deadlines.port), timeout=PATIENCE)
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


def gunicorn(*args: str, **env: str) -> tuple[subprocess.Popen, int]:
    """gunicorn with Referee's worker class on a free port (``args``: its other options and the app), once it
    accepts connections."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-k", "referee.web.serving.gevent_worker.Worker", "-b",
                                f"127.0.0.1:{port}", *args], cwd=ROOT, env={**os.environ, **env},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def accepts() -> bool:
        assert process.poll() is None, "gunicorn ended"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=PATIENCE).close()
            return True
        except ConnectionRefusedError:
            return False

    until(accepts, timeout=PATIENCE, every=0.1, what="gunicorn accepting connections")  # a loaded machine is slow
    return process, port


def test_idle_kept_alive_connections_do_not_hold_a_stop(tmp_path):
    """A stop waits up to gunicorn's graceful timeout for every connection (then kills the worker); the worker closes
    the idle ones at once (``Worker.close_waiting_when_stopping``). The graceful timeout here is an hour and the
    kept-alive bound too: a stop held by them would never end within the wait, so the stop's end is what is awaited,
    not a time measured."""
    process, port = gunicorn("-w", "2", "--graceful-timeout", "3600", "referee:create_app()", SECRET_KEY="test",
                             DATABASE_URL=f"sqlite:///{tmp_path / 'stop.sqlite3'}", REFEREE_KEEPALIVE_SECONDS="3600")
    kept = []
    try:
        for _ in range(4):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
            connection.request("GET", "/api/v1/games")
            connection.getresponse().read()
            kept.append(connection)
        assert closed_by_server([connection.sock for connection in kept]) == []  # idle, held open
        process.terminate()
        try:
            process.wait(timeout=PATIENCE * 2)
        except subprocess.TimeoutExpired:
            pytest.fail("the stop is held: idle kept-alive connections keep the workers up to the graceful timeout")
        assert process.returncode == 0
    finally:
        for connection in kept:
            connection.close()
        if process.poll() is None:
            process.kill()
        process.wait(timeout=PATIENCE)


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
    process, port = gunicorn("-w", "1", "--timeout", "2", "--pythonpath", str(tmp_path), "streaming:app",
                             REFEREE_HEADER_SECONDS="1", REFEREE_KEEPALIVE_SECONDS="1", REFEREE_BODY_SECONDS="1")
    try:
        deadline = time.monotonic() + PATIENCE
        sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
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
        process.wait(timeout=PATIENCE)


def test_a_body_refused_early_is_read_to_its_end_before_close_so_the_client_gets_the_answer(tmp_path):
    """A 4 MiB body (the app takes 64 KiB: 413 from its Content-Length) sent by a client that asked ``Connection:
    close``: the worker reads and drops the rest before it closes (its lingering close), so the whole body goes out
    and the 413 comes back, never a reset ("broken pipe") in the middle of the sending."""
    server = served(tmp_path)
    try:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)
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
