"""Issue 28's rig measured (``make bench`` runs it where nginx and redis-server exist and a PostgreSQL is reachable,
else says why it skipped): one, then two Referee servers behind nginx (TLS, as deploy/ sets it up, on this machine:
tests/support/rig.py), PostgreSQL and Redis. For each: entries a second with 50 scorers entering back to back
through nginx, their median and p99; then 2,000 streams held open through nginx while one scorer per table enters
every 2 s, how long until every stream of the table has the change (p50, p99). Last, what one more machine would
add, said from the measured per-server figures. Run alone:

    .venv/bin/python bench/cluster.py [--quick]

in a process of its own (gevent: one greenlet per stream or scorer). Figures only: nothing asserts."""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
from common import (EVENTS_PER_DEAL, LONG_SERIES, PLAYERS, brulot_deals, flat, machine, ms, percentile,  # noqa: E402
                    print_table, raise_open_files, rate, revision_of)
from tests.support.ledgers import wipe  # noqa: E402
from tests.support.rig import Rig  # noqa: E402


refused: list = []  # (status, answer) of the entries not taken


ADDRESSES = [f"127.0.0.{2 + n}" for n in range(40)]  # phones on a Wi-Fi have addresses of their own (nginx caps each)


class Phone:
    """One kept-alive https connection through nginx, from a loopback address of its own."""

    def __init__(self, rig: Rig, source: str = "127.0.0.1"):
        self.rig, self.connection, self.source = rig, None, source

    def call(self, method: str, path: str, body=None, key=None) -> tuple:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        data = None if body is None else json.dumps(body)
        for _ in range(3):
            if self.connection is None:
                self.connection = http.client.HTTPSConnection("127.0.0.1", self.rig.https_port, timeout=60,
                                                              context=self.rig.context,
                                                              source_address=(self.source, 0))
            try:
                self.connection.request(method, path, body=data, headers=headers)
                answer = self.connection.getresponse()
                body = answer.read()
                try:
                    return answer.status, json.loads(body or b"null")
                except ValueError:  # nginx's own page (502, 504): no answer from a server
                    return answer.status, {"error": body[:200].decode(errors="replace")}
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
        return None, None


class Table:
    """A Brûlot table imported with its first deals; ``enter`` sends its next card-by-card entry."""

    def __init__(self, rig: Rig, number: int):
        self.phone, self.position = Phone(rig, ADDRESSES[number % len(ADDRESSES)]), 10 * EVENTS_PER_DEAL
        self.events = flat(brulot_deals(400, seed=number))
        status, made = self.phone.call("POST", "/api/v1/import", {"table": {
            "game": "brulot", "players": PLAYERS, "options": LONG_SERIES, "dealer": 0},
            "events": self.events[:self.position]})
        self.id, self.key, self.viewer = made["id"], made["scorer_key"], made["viewer_key"]

    def enter(self) -> tuple:
        """(seconds it took, the revision its answer gives or None)."""
        body = {**self.events[self.position], "client_event_id": f"{self.id}-{self.position}"}
        started = time.monotonic()
        status, answer = self.phone.call("POST", f"/api/v1/tables/{self.id}/events", body, self.key)
        took = time.monotonic() - started
        if status not in (200, 201):
            refused.append((status, str(answer)[:120]))
            return took, None
        self.position += 1
        return took, revision_of(answer)


def scorers(rig: Rig, count: int, seconds: float) -> dict:
    tables = [Table(rig, 500 + n) for n in range(count)]
    times, failed = [], 0
    until = time.monotonic() + seconds

    def score(table: Table) -> None:
        nonlocal failed
        while time.monotonic() < until and table.position < len(table.events):
            took, revision = table.enter()
            if revision is None:
                failed += 1
            else:
                times.append(took)

    begun = time.monotonic()
    gevent.joinall([gevent.spawn(score, table) for table in tables])
    return {"per_second": len(times) / (time.monotonic() - begun), "p50": percentile(times, 0.5),
            "p99": percentile(times, 0.99), "failed": failed}


def follow(rig: Rig, path: str, seen: list, source: str) -> None:
    """One viewer's stream (the API's), each revision noted with when it came."""
    connection = http.client.HTTPSConnection("127.0.0.1", rig.https_port, timeout=120, context=rig.context,
                                             source_address=(source, 0))
    try:
        connection.request("GET", path, headers={"Accept": "text/event-stream"})
        answer = connection.getresponse()
        while True:
            line = answer.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                revision = json.loads(line[6:]).get("revision")
                if revision is not None:
                    seen.append((revision, time.monotonic()))
    except (OSError, http.client.HTTPException, ValueError):
        return


def streams(rig: Rig, count: int, tables: int, seconds: float) -> dict:
    boards = [Table(rig, 700 + n) for n in range(tables)]
    watched = [(boards[n % tables], []) for n in range(count)]
    greenlets = []
    for number, (board, seen) in enumerate(watched):
        greenlets.append(gevent.spawn(follow, rig, f"/api/v1/tables/{board.id}/stream?key={board.viewer}", seen,
                                      ADDRESSES[number % len(ADDRESSES)]))
        if number % 200 == 199:
            gevent.sleep(0.2)  # a room arriving
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and sum(1 for _, seen in watched if seen) < count:
        gevent.sleep(0.5)
    opened = sum(1 for _, seen in watched if seen)
    changes = []

    def score(board: Table) -> None:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            sent = time.monotonic()
            _, revision = board.enter()
            if revision is not None:
                changes.append((board, revision, sent))
            gevent.sleep(max(0.0, 2.0 - (time.monotonic() - sent)))

    gevent.joinall([gevent.spawn(score, board) for board in boards])
    gevent.sleep(3)
    print(f"({opened:,} streams open, {len(changes)} changes; entries not taken so far: {len(refused)}"
          f"{', the first: ' + str(refused[0]) if refused else ''})", file=sys.stderr)
    lags, missed = [], 0
    for board, revision, sent in changes:
        for watcher, seen in watched:
            if watcher is board:
                at = next((moment for got, moment in seen if got >= revision), None)
                missed += at is None
                lags.append(at - sent) if at is not None else None
    gevent.killall(greenlets, block=False)
    return {"open": opened, "p50": percentile(lags, 0.5), "p99": percentile(lags, 0.99), "missed": missed,
            "changes": len(changes)}


def measure(servers: int, url: str, quick: bool) -> dict:
    wipe(url)
    rig = Rig(Path(tempfile.mkdtemp(prefix="referee-cluster-")), url, count=servers,
              FLASK_RATELIMIT_ENABLED="false")
    rig.start()
    try:
        entered = scorers(rig, 50, 5 if quick else 15)
        followed = streams(rig, 300 if quick else 2000, 20, 6 if quick else 20)
    finally:
        rig.stop()
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(rig.folder, ignore_errors=True)
    return {"entries": entered, "streams": followed}


def why_not() -> str | None:
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")) or not shutil.which("redis-server"):
        return "nginx or redis-server is missing (apt-get install nginx redis-server)"
    if not (os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")):
        return "no PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL)"
    return None


def report(one: dict, two: dict, count: int) -> str:
    gain = two["entries"]["per_second"] / one["entries"]["per_second"] if one["entries"]["per_second"] else 0
    rows = [
        ["entries a second, 50 scorers", rate(one["entries"]["per_second"]), rate(two["entries"]["per_second"])],
        ["entry, median", ms(one["entries"]["p50"]), ms(two["entries"]["p50"])],
        ["entry, p99", ms(one["entries"]["p99"]), ms(two["entries"]["p99"])],
        [f"streams open (of {count:,})", f"{one['streams']['open']:,}", f"{two['streams']['open']:,}"],
        ["a change seen by every stream, median", ms(one["streams"]["p50"]), ms(two["streams"]["p50"])],
        ["a change seen by every stream, p99", ms(one["streams"]["p99"]), ms(two["streams"]["p99"])],
        ["changes a stream missed", str(one["streams"]["missed"]), str(two["streams"]["missed"])],
    ]
    note = (f"Through nginx (TLS, HTTP/1.1 to the servers), PostgreSQL and Redis, all on this one machine "
            f"({machine()}), with the load itself. Here a second server splits the same two cores (it gives "
            f"{gain:.2f}× one server's entries): what it proves is that the servers share one evening, not more "
            f"speed. One more machine brings its own cores: about one server's measured rate, "
            f"{rate(one['entries']['per_second'])} entries, with {count:,} streams followed within a second, as "
            "long as the one PostgreSQL keeps up, since every server writes to it.")
    return print_table("Several servers behind nginx (bench/cluster.py)", ["figure", "1 server", "2 servers"],
                       rows, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer streams, shorter windows")
    args = parser.parse_args()
    reason = why_not()
    if reason:
        print(f"### Several servers behind nginx (bench/cluster.py)\n\nskipped: {reason}\n", flush=True)
        return
    raise_open_files()
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ["TEST_DATABASE_URL"]
    one, two = measure(1, url, args.quick), measure(2, url, args.quick)
    report(one, two, 300 if args.quick else 2000)


if __name__ == "__main__":
    main()
