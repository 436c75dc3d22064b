"""Thousands of viewers' streams: each opens one server-sent event stream and waits; a scorer per table enters every
few seconds; how long until every stream of the table has the change, and what the server weighs meanwhile. Run by
``bench/run.py`` in a process of its own (gevent: one greenlet per stream), it reads its task as JSON on stdin and
writes its figures as JSON on stdout:

    {"targets": [{"name": "floor", "kind": "floor", "url": ..., "pid": ...}, {"name": "referee", ...}],
     "streams": 2000, "tables": 20, "change_every": 2, "seconds": 20, "addresses": 40}

A viewer's stream is the page's own (Referee: the viewer page's ``sse-connect`` address, each event the board
already rendered; the floor: ``/t/<id>/stream``, a revision). The streams come from ``addresses`` loopback
addresses (127.0.0.2 …, as phones on a Wi-Fi have addresses of their own: the server caps connections per
address). A change is seen when the stream's event shows its revision or a later one; the lag runs from the
scorer's POST sent to that event read. The server's memory is the proportional set size (``Pss``, shared pages
counted once) of its process and its workers, read from ``/proc`` with every stream open.
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from gevent.pool import Pool  # noqa: E402

sys.path[:0] = [str(Path(__file__).resolve().parent)]
from common import (EVENTS_PER_DEAL, LONG_SERIES, PLAYERS, Client, brulot_deals, flat, percentile,  # noqa: E402
                    revision_of)

REVISION = re.compile(rb'"revision":\s*(\d+)|data-revision="(\d+)"|[?&;]since=(\d+)')
PAGE_STREAM = re.compile(r'sse-connect="([^"]+)"')


def revision_in(data: bytes) -> int | None:
    found = REVISION.search(data)
    return int(next(group for group in found.groups() if group)) if found else None


class Board:
    """One table: its entries (a Brûlot series played to the rules), its viewers' stream address."""

    def __init__(self, target: dict, number: int, played_deals: int):
        self.kind, self.seed = target["kind"], number
        self.events = flat(brulot_deals(played_deals + 20, seed=number))
        self.position = played_deals * EVENTS_PER_DEAL
        self.client = Client(target["url"])
        if self.kind == "floor":
            self.id, self.key = f"floor{number}-{time.time_ns()}", None
            self.revision = self.client.request("POST", f"/t/{self.id}/entries", body={"start": True}).json()[
                "revision"]
            self.stream = f"/t/{self.id}/stream"
        else:
            setup = {"table": {"game": "brulot", "players": PLAYERS, "options": LONG_SERIES, "dealer": 0},
                     "events": self.events[:self.position]}
            created = self.client.request("POST", "/api/v1/import", body=setup).json()
            self.id, self.key, viewer = created["id"], created["scorer_key"], created["viewer_key"]
            self.revision = revision_of(created)
            page = self.client.request("GET", f"/t/{self.id}?key={viewer}").body.decode()
            found = PAGE_STREAM.search(page)
            self.stream = (found.group(1).replace("&amp;", "&") if found else
                           f"/api/v1/tables/{self.id}/stream?key={viewer}")

    def enter(self) -> tuple[float, int | None]:
        """The next entry: (when it was sent, the revision its answer gives)."""
        if self.position >= len(self.events):
            self.events += flat(brulot_deals(10, seed=self.seed, first=len(self.events) // EVENTS_PER_DEAL))
        body = {**self.events[self.position], "client_event_id": f"{self.id}-{self.position}"}
        sent = time.time()
        if self.kind == "floor":
            answer = self.client.request("POST", f"/t/{self.id}/entries", body=body)
        else:
            answer = self.client.request("POST", f"/api/v1/tables/{self.id}/events", body=body, key=self.key)
        if answer.status not in (200, 201):
            return sent, None
        self.position += 1
        return sent, revision_of(answer.json())


class Stream:
    """One viewer's stream on a socket of its own: the revisions its events showed, each with when it was read."""

    def __init__(self, url: str, path: str, source: str):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.path, self.source = parts.hostname, parts.port, path, source
        self.seen: list[tuple[int, float]] = []
        self.status, self.error, self.socket = None, None, None

    def run(self) -> None:
        try:
            self.socket = socket.create_connection((self.host, self.port), timeout=120,
                                                   source_address=(self.source, 0))
            self.socket.sendall(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                                f"Accept: text/event-stream\r\n\r\n".encode())
            reader = self.socket.makefile("rb")
            self.status = int(reader.readline().split()[1])
            chunked = False
            while True:
                line = reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                    chunked = True
            if self.status != 200:
                return
            self.read_events(dechunk(reader) if chunked else iter(lambda: reader.read1(65536), b""))
        except (OSError, ValueError, IndexError) as error:
            self.error = type(error).__name__

    def read_events(self, chunks) -> None:
        pending, data = b"", []
        for chunk in chunks:
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                line = line.rstrip(b"\r")
                if not line:
                    if data:
                        revision = revision_in(b"\n".join(data))
                        if revision is not None:
                            self.seen.append((revision, time.time()))
                    data = []
                elif line.startswith(b"data:"):
                    data.append(line[5:])

    def first_at(self, revision: int) -> float | None:
        return next((at for seen, at in self.seen if seen >= revision), None)

    def close(self) -> None:
        if self.socket is not None:
            try:
                self.socket.close()
            except OSError:
                pass


def dechunk(reader):
    while True:
        size_line = reader.readline()
        if not size_line:
            return
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            return
        chunk = reader.read(size)
        reader.readline()
        yield chunk


def memory_of(pid: int) -> dict:
    """Pss and Rss (bytes) of the process and its descendants."""
    total = {"pss": 0, "rss": 0}
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines():
                name, _, value = line.partition(":")
                if name in ("Pss", "Rss"):
                    total[name.lower()] += int(value.split()[0]) * 1024
            pending += Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        pending = [int(p) for p in pending]
    return total


def measure(target: dict, task: dict) -> dict:
    boards = [Board(target, 900 + number, task.get("played", 10)) for number in range(task["tables"])]
    addresses = [f"127.0.0.{2 + n}" for n in range(task.get("addresses", 40))]
    streams = [(boards[n % len(boards)], Stream(target["url"], boards[n % len(boards)].stream,
                                                addresses[n % len(addresses)]))
               for n in range(task["streams"])]
    idle = memory_of(target["pid"]) if target.get("pid") else {"pss": None}
    pool = Pool(len(streams) + 10)
    opened = time.monotonic()
    for number, (_, stream) in enumerate(streams):
        pool.spawn(stream.run)
        if number % 200 == 199:
            gevent.sleep(0.2)  # a room arriving, not a burst of SYNs
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and sum(1 for _, s in streams if s.seen or s.error or
                                              (s.status and s.status != 200)) < len(streams):
        gevent.sleep(0.5)
    open_seconds = time.monotonic() - opened
    memory = memory_of(target["pid"]) if target.get("pid") else {"pss": None, "rss": None}
    changes = []

    def scorer(board: Board) -> None:
        gevent.sleep(random.uniform(0, task["change_every"]))
        until = time.time() + task["seconds"]
        while time.time() < until:
            started = time.monotonic()
            sent, revision = board.enter()
            if revision is not None:
                changes.append((board, revision, sent))
            gevent.sleep(max(0.0, task["change_every"] - (time.monotonic() - started)))

    gevent.joinall([gevent.spawn(scorer, board) for board in boards])
    gevent.sleep(3)  # the last changes reach every stream
    lags, missed = [], 0
    by_board: dict[int, list] = {}
    for board, stream in streams:
        by_board.setdefault(id(board), []).append(stream)
    for board, revision, sent in changes:
        for stream in by_board[id(board)]:
            at = stream.first_at(revision)
            if at is None:
                missed += 1
            else:
                lags.append(max(0.0, at - sent))
    live = sum(1 for _, s in streams if s.seen)
    for _, stream in streams:
        stream.close()
    pool.kill(block=False)
    return {"streams_open": live, "refused": sum(1 for _, s in streams if s.status and s.status != 200),
            "errors": sum(1 for _, s in streams if s.error), "open_seconds": open_seconds,
            "changes": len(changes), "seen": len(lags), "missed": missed,
            "lag_p50_s": percentile(lags, 0.5), "lag_p99_s": percentile(lags, 0.99),
            "lag_max_s": max(lags) if lags else None, "pss": memory["pss"], "rss": memory["rss"],
            "pss_idle": idle["pss"],
            "page_stream": not streams[0][1].path.startswith("/api/") if streams else None}


def main() -> None:
    task = json.load(sys.stdin)
    cpu = time.process_time()
    begun = time.time()
    result = {target["name"]: measure(target, task) for target in task["targets"]}
    result["load_cpu"] = (time.process_time() - cpu) / max(1e-9, time.time() - begun)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
