"""Hostile clients on loopback: 2,000 idle sockets and 100 slowloris clients (one header byte every 5 s) held open
from 127.0.0.1, kept at that count as the server closes them, while normal requests are timed — from another
address (127.0.0.2: Linux routes 127/8 to the loopback) and from the attacker's own.

    .venv/bin/python bench/hostile.py [--quick] [--workers 2]

Three servers in turn, each with two processes: Referee as ``make run`` serves it (gunicorn's gevent workers, its
deadlines and its cap per address), the floor (``bench/floor.py``) under the very same server, and the floor under
gunicorn's gthread workers (2 × 8 threads), as Referee was served before: there every thread waits on a silent
socket, and normal requests time out. Figures only: nothing asserts; the attack stays on loopback, bounded in count
and time.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import select
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402
from common import ROOT, machine, ms, percentile, print_table, raise_open_files  # noqa: E402

IDLE, SLOW = 2000, 100
DRIP_SECONDS = 5.0  # a slowloris client's pace: one header byte every five seconds
TIMEOUT = 5.0  # seconds before a normal request counts as timed out (a phone gives up about then)
REOPEN_PER_SECOND = 500  # the attacker opens again what the server closed, at most this many a second
CAP = "200"  # REFEREE_CONNECTIONS_PER_ADDRESS as `make run` has it


class Attack:
    """2,000 idle and 100 slowloris sockets from 127.0.0.1 to ``port``, opened again as the server closes them. Run
    in a process of its own (``attacking``): its work never takes the timed client's interpreter."""

    def __init__(self, port: int):
        self.port, self.idle, self.slow = port, [], []
        self.closed_by_server = 0
        self.dripped = time.monotonic()

    def connect(self, slow: bool) -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
            sock.setblocking(False)
            if slow:
                sock.send(b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            return sock
        except OSError:  # a listen queue full (a stalled server): tried again next turn
            return None

    def start(self) -> "Attack":
        self.idle = [self.connect(False) for _ in range(IDLE)]
        self.slow = [self.connect(True) for _ in range(SLOW)]
        return self

    def reap(self, group: list) -> None:
        """Counts and forgets the sockets the server closed (readable, and reading gives the end or a reset)."""
        poller = select.poll()
        by_fd = {sock.fileno(): n for n, sock in enumerate(group) if sock is not None}
        for fd in by_fd:
            poller.register(fd, select.POLLIN)
        for fd, _ in poller.poll(0):
            sock = group[by_fd[fd]]
            try:
                if sock.recv(64) != b"":
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            sock.close()
            group[by_fd[fd]] = None
            self.closed_by_server += 1

    def turn(self) -> None:
        """Once a second: what the server closed is opened again, and every five seconds each slowloris client
        sends one more header byte."""
        for group, slow in ((self.idle, False), (self.slow, True)):
            self.reap(group)
            budget = REOPEN_PER_SECOND
            for n, sock in enumerate(group):
                if sock is None and budget:
                    group[n], budget = self.connect(slow), budget - 1
        if time.monotonic() - self.dripped >= DRIP_SECONDS:
            self.dripped = time.monotonic()
            for sock in self.slow:
                try:
                    if sock is not None:
                        sock.send(b"a")
                except OSError:
                    pass

    def figures(self) -> tuple[int, int]:
        return sum(sock is not None for sock in self.idle + self.slow), self.closed_by_server


def attacking(port: int, orders) -> None:
    """The attack's process: ``orders`` (a pipe) asks "figures" (sockets open, closed by the server) or "stop"."""
    attack = Attack(port).start()
    orders.send("started")
    while True:
        if orders.poll(1.0):
            order = orders.recv()
            orders.send(attack.figures())
            if order == "stop":
                break
        attack.turn()
    for sock in attack.idle + attack.slow:
        if sock is not None:
            sock.close()


def probe(port: int, path: str, source: str) -> float | None:
    """Seconds a normal request takes on a new connection from ``source``; None when it failed or timed out."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT, source_address=(source, 0))
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        return time.monotonic() - started if answer.status < 500 else None
    except OSError:
        return None
    finally:
        connection.close()


def measure(served: servers.Served, path: str, requests: int) -> dict:
    """The attack held on ``served``, then ``requests`` normal requests from each address (given up after five
    failures in a row: a stalled server would take minutes)."""
    orders, theirs = multiprocessing.Pipe()
    attacker = multiprocessing.get_context("fork").Process(target=attacking, args=(served.port, theirs), daemon=True)
    attacker.start()
    try:
        if not orders.poll(120) or orders.recv() != "started":
            raise SystemExit("the attack did not start")
        time.sleep(3)  # the server accepts (or evicts) the flood the attack opened: then the attack held
        orders.send("figures")
        figures = {"open_at_start": orders.recv()[0]}
        for name, source in (("other", "127.0.0.2"), ("same", "127.0.0.1")):
            times, failed, in_a_row = [], 0, 0
            for _ in range(requests):
                took = probe(served.port, path, source)
                if took is None:
                    failed, in_a_row = failed + 1, in_a_row + 1
                    if in_a_row >= 5:
                        break
                else:
                    times.append(took)
                    in_a_row = 0
            figures[name] = {"times": times, "failed": failed, "tried": len(times) + failed}
        orders.send("stop")
        figures["open_at_end"], figures["closed_by_server"] = orders.recv()
        return figures
    finally:
        attacker.join(timeout=20)
        if attacker.is_alive():
            attacker.kill()


def cell(figures: dict, fraction: float) -> str:
    if not figures["times"]:
        return f"time-outs ({figures['failed']} of {figures['tried']})"
    value = ms(percentile(figures["times"], fraction))
    return value + (f" ({figures['failed']} of {figures['tried']} timed out)" if figures["failed"] else "")


def bench(tmp: Path, workers: int, options: dict, quick: bool) -> str:
    requests = 50 if quick else 200
    with_cap = {"REFEREE_CONNECTIONS_PER_ADDRESS": CAP}
    results = {}
    for name, start, path in (
            ("Referee", lambda: servers.referee(f"sqlite:///{tmp / 'hostile.sqlite3'}", workers, options, with_cap),
             "/api/v1/games"),
            ("floor, gevent", lambda: servers.floor(f"sqlite:///{tmp / 'floor-gevent.sqlite3'}", workers, options,
                                                    with_cap), "/t/probe/live?since=0"),
            ("floor, gthread 2 × 8", lambda: servers.floor(f"sqlite:///{tmp / 'floor-gthread.sqlite3'}", workers,
                                                           options, with_cap, worker="gthread"),
             "/t/probe/live?since=0")):
        with start() as served:
            results[name] = measure(served, path, requests)
    names = list(results)
    rows = []
    for label, which, fraction in (("from another address, median", "other", 0.5),
                                   ("from another address, p99", "other", 0.99),
                                   ("from the attacker's address, median", "same", 0.5),
                                   ("from the attacker's address, p99", "same", 0.99)):
        goal = "< 100 ms" if fraction == 0.99 else ""
        rows.append([f"a normal request {label}"] + [cell(results[n][which], fraction) for n in names] + [goal])
    rows.append(["attack sockets open (start / end)"] + [f"{results[n]['open_at_start']:,} / "
                                                         f"{results[n]['open_at_end']:,}" for n in names] + [""])
    rows.append(["attack sockets the server closed"] + [f"{results[n]['closed_by_server']:,}" for n in names] + [""])
    return print_table(
        f"{IDLE:,} idle sockets and {SLOW} slowloris clients open", ["figure", *names, "goal"], rows,
        f"From 127.0.0.1, opened again as the server closes them (up to {REOPEN_PER_SECOND}/s); a slowloris client "
        f"sends a header byte every {DRIP_SECONDS:g} s. Meanwhile {requests} normal GETs from each address, one "
        f"at a time on a new connection, {TIMEOUT:g} s before a time-out (five in a row end the series). Each "
        f"server in {workers} processes; Referee and the first floor as `make run` serves (gevent workers, at most "
        f"{CAP} connections per address and process, a headers deadline of 10 s), the second floor under gunicorn's "
        f"gthread workers as Referee was served before.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer normal requests")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    raise_open_files()
    print(f"Machine: {machine()}\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="referee-hostile-") as tmp:
        bench(Path(tmp), args.workers, servers.serve_options(), args.quick)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
