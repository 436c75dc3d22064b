"""Prints (a) the time to replay a complete 7-deal, 4-player Brisca series from its events, and (b) the median and
99th-percentile time of a trick POST over HTTP on loopback, against a running server, on a table of 40 events.

    .venv/bin/python bench/brisca_bench.py [--posts 300]

It starts its own server (``flask --app referee serve`` on 127.0.0.1, a temporary SQLite database) and stops it.
It prints figures and asserts nothing.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.games import get_game  # noqa: E402

SERIES = ROOT / "tests" / "recorded" / "brisca_4p_series.json"


def replay_figures(record: dict, rounds: int) -> list:
    game = get_game(record["game"])
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        game.replay(record["players"], record["options"], record["dealer"], record["events"])
        times.append(time.perf_counter() - start)
    return times


def start_server(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "bench"}
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", "referee", "serve", "--host", "127.0.0.1",
                               "--port", str(port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/v1/games")
            connection.getresponse().read()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def post(connection, path, body, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    connection.request("POST", path, json.dumps(body), headers)
    response = connection.getresponse()
    data = json.loads(response.read())
    return response.status, data


def post_figures(record: dict, posts: int, port: int) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp) / "bench.sqlite3", port)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            status, created = post(connection, "/api/v1/tables", {"game": "brisca", "players": record["players"],
                                                                  "options": record["options"]})
            key, events = created["scorer_key"], f"/api/v1/tables/{created['id']}/events"
            for body in record["events"][:40]:
                post(connection, events, body, key)
            trick = record["events"][40]
            assert trick["type"] == "trick"
            times = []
            for _ in range(posts):
                start = time.perf_counter()
                status, _ = post(connection, events, trick, key)
                times.append(time.perf_counter() - start)
                if status != 201:
                    raise SystemExit(f"trick POST answered {status}")
                post(connection, f"/api/v1/tables/{created['id']}/undo", {}, key)  # back to 40 events
            return times
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50, help="replays of the series")
    parser.add_argument("--posts", type=int, default=300, help="trick POSTs timed")
    parser.add_argument("--port", type=int, default=5091)
    args = parser.parse_args()
    record = json.loads(SERIES.read_text())
    replay = replay_figures(record, args.rounds)
    print(f"replay of a 7-deal 4-player series ({len(record['events'])} events), {args.rounds} rounds: "
          f"median {statistics.median(replay) * 1000:.2f} ms, min {min(replay) * 1000:.2f} ms")
    times = sorted(post_figures(record, args.posts, args.port))
    p99 = times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]
    print(f"trick POST over loopback on a table of 40 events, {len(times)} posts: "
          f"median {statistics.median(times) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms")


if __name__ == "__main__":
    main()
