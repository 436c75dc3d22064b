"""Many phones at once, driven by locust (as a library, headless, on loopback): scorers entering back to back, and a
room of viewers polling their tables' live views while scorers change them. Run by ``bench/run.py`` in a process of
its own (locust patches the standard library with gevent), it reads its task as JSON on stdin and writes its figures
as JSON on stdout:

    {"bench": "scorers", "targets": [{"name": "floor", "kind": "floor", "url": ...}, ...],
     "users": 50, "rounds": 3, "seconds": 8, "warm_up": 2}
    {"bench": "viewers", "targets": [...], "viewers": 1000, "tables": 20, "change_every": 2, "rounds": 2, ...}

Rounds alternate between the targets (floor, Referee, Referee, floor …) so that both share the machine's moments.
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import itertools  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from locust import FastHttpUser, constant, constant_pacing, task  # noqa: E402
from locust.env import Environment  # noqa: E402

sys.path[:0] = [str(Path(__file__).resolve().parent)]
from common import (EVENTS_PER_DEAL, LONG_SERIES, PLAYERS, brulot_deals, flat, live_revision,  # noqa: E402
                    percentile, revision_of)

logging.getLogger("locust").setLevel(logging.ERROR)  # its advice on spawn rates is not for a bench
LOAD_CPU = []  # the share of a core locust itself took in each measured window
TIMEOUT = 30.0  # seconds before a request counts as failed (a phone would have given up long before)


def call(url: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


class Board:
    """One table as the load sees it: where its entries go, where its viewers poll, what is left to enter."""

    def __init__(self, target: dict, number: int, deals: int, played: int = 0):
        self.kind, self.seed, self.position = target["kind"], number, played
        self.events = flat(brulot_deals(deals, seed=number))
        if self.kind == "floor":
            self.id, self.key, self.viewer, self.revision = f"floor{number}-{time.time_ns()}", None, None, 0
        else:
            setup = {"table": {"game": "brulot", "players": PLAYERS, "options": LONG_SERIES, "dealer": 0},
                     "events": self.events[:played]}
            created = call(target["url"], "/api/v1/import", setup)
            self.id, self.key, self.viewer = created["id"], created["scorer_key"], created["viewer_key"]
            self.revision = revision_of(created) or played

    def entry(self):
        """(path, body, headers) of the next entry; its client_event_id is the same if it is sent again."""
        if self.position >= len(self.events):  # a fast server: the series goes on, deal after deal
            self.events += flat(brulot_deals(10, seed=self.seed, first=len(self.events) // EVENTS_PER_DEAL))
        body = {**self.events[self.position], "client_event_id": f"{self.id}-{self.position}"}
        if self.kind == "floor":
            return f"/t/{self.id}/entries", body, {}
        return f"/api/v1/tables/{self.id}/events", body, {"Authorization": f"Bearer {self.key}"}

    def live(self, since: int) -> str:
        key = f"key={self.viewer}&" if self.viewer else ""
        return f"/t/{self.id}/live?{key}since={since}"


def enter(user, board: Board, record=None) -> None:
    path, body, headers = board.entry()
    started = time.time()
    with user.client.post(path, json=body, headers=headers, name="entry", catch_response=True) as answer:
        if answer.status_code in (200, 201):  # 200: sent again after a round's end cut it, stored once
            board.position += 1
            answer.success()
            if record is not None:
                revision = revision_of(answer.json())
                if revision is not None:
                    board.revision = revision
                    record(board, revision, started)
        else:
            answer.failure(f"{answer.status_code}")


def run_round(user_classes: list, host: str, users: int, spawn_rate: float, warm_up: float, seconds: float):
    """Spawns the users, lets them warm up, measures ``seconds``; answers (window start, window end, samples), each
    sample (name, start time, milliseconds, answered well) for requests begun in the window."""
    samples = []

    def listen(request_type, name, response_time, response_length, exception, start_time=None, **_):
        samples.append((name, start_time or time.time() - response_time / 1000, response_time, exception is None))

    environment = Environment(user_classes=user_classes, host=host)
    environment.events.request.add_listener(listen)
    runner = environment.create_local_runner()
    runner.start(users, spawn_rate=spawn_rate)
    gevent.sleep(users / spawn_rate + warm_up)
    begin, cpu = time.time(), time.process_time()
    gevent.sleep(seconds)
    end = time.time()
    LOAD_CPU.append((time.process_time() - cpu) / (end - begin))
    # Requests begun in the window are waited for (the slowest answers are the ones a cut would lose): as long again
    # as the slowest answer seen so far, within the timeout.
    slowest = max((s[2] for s in samples if s[1] >= begin), default=0) / 1000
    gevent.sleep(min(TIMEOUT, max(1.0, 1.5 * slowest)))
    runner.quit()
    return begin, end, [s for s in samples if begin <= s[1] < end]


def rounds_order(targets: list, rounds: int) -> list:
    """floor, Referee, Referee, floor, floor, Referee …: each target as often first as second."""
    order = []
    for number in range(rounds):
        order += targets if number % 2 == 0 else targets[::-1]
    return order


# --- 50 scorers back to back ------------------------------------------------------------------------------------

def scorers(task_: dict) -> dict:
    users, results = task_["users"], {}
    boards = {t["name"]: [Board(t, n, task_.get("deals", 40)) for n in range(users)] for t in task_["targets"]}
    for target in rounds_order(task_["targets"], task_["rounds"]):
        mine, counter = boards[target["name"]], itertools.count()

        class Scorer(FastHttpUser):
            wait_time = constant(0)  # back to back: the next entry as soon as the last is answered
            network_timeout = connection_timeout = TIMEOUT

            def on_start(self):
                self.board = mine[next(counter) % len(mine)]

            @task
            def entry(self):
                enter(self, self.board)

        begin, end, samples = run_round([Scorer], target["url"], users, users, task_["warm_up"], task_["seconds"])
        done = results.setdefault(target["name"], {"seconds": 0.0, "ok": [], "failed": 0})
        done["seconds"] += end - begin
        done["ok"] += [s[2] for s in samples if s[3]]
        done["failed"] += sum(1 for s in samples if not s[3])
    return {name: {"entries_per_second": len(r["ok"]) / r["seconds"], "p50_ms": percentile(r["ok"], 0.5),
                   "p99_ms": percentile(r["ok"], 0.99), "entries": len(r["ok"]), "failed": r["failed"],
                   "seconds": r["seconds"]}
            for name, r in results.items()}


# --- a room of viewers --------------------------------------------------------------------------------------------

def viewers(task_: dict) -> dict:
    count, tables, results = task_["viewers"], task_["tables"], {}
    played = task_.get("played", 20) * 14
    boards = {t["name"]: [Board(t, 500 + n, task_.get("played", 20) + 10, played) for n in range(tables)]
              for t in task_["targets"]}
    for target in rounds_order(task_["targets"], task_["rounds"]):
        mine, counter, scorer_counter = boards[target["name"]], itertools.count(), itertools.count()
        changes, seen = {}, []

        def record(board, revision, started):
            changes[(board.id, revision)] = started

        class Scorer(FastHttpUser):
            """One per table: an entry every ``change_every`` seconds."""
            wait_time = constant_pacing(task_["change_every"])
            network_timeout = connection_timeout = TIMEOUT
            weight, fixed_count = 1, tables

            def on_start(self):
                self.board = mine[next(scorer_counter) % len(mine)]
                gevent.sleep(random.uniform(0, task_["change_every"]))

            @task
            def entry(self):
                enter(self, self.board, record)

        class Viewer(FastHttpUser):
            """A phone or a wall screen showing one table: a poll a second, as the live view's htmx does."""
            wait_time = constant_pacing(1)
            network_timeout = connection_timeout = TIMEOUT
            weight = 1

            def on_start(self):
                self.board = mine[next(counter) % len(mine)]
                self.since, self.etag = self.board.revision, None
                gevent.sleep(random.uniform(0, 1))

            @task
            def poll(self):
                headers = {"HX-Request": "true"}
                if self.etag:
                    headers["If-None-Match"] = self.etag
                with self.client.get(self.board.live(self.since), headers=headers, name="poll",
                                     catch_response=True) as answer:
                    if answer.status_code in (204, 304):
                        answer.success()
                    elif answer.status_code == 200:
                        answer.success()
                        cache = answer.headers.get("Cache-Control") or ""
                        self.etag = answer.headers.get("ETag") if "no-store" not in cache else None
                        revision = live_revision(answer.content or b"")
                        if revision is not None and revision != self.since:
                            seen.append((self.board.id, revision, time.time()))
                            self.since = revision
                    else:
                        answer.failure(f"{answer.status_code}")

        begin, end, samples = run_round([Scorer, Viewer], target["url"], count + tables,
                                        task_.get("spawn_rate", 250), task_["warm_up"], task_["seconds"])
        polls = [s for s in samples if s[0] == "poll"]
        lags = [at - changes[(table, revision)] for table, revision, at in seen
                if (table, revision) in changes and begin <= at < end]
        done = results.setdefault(target["name"], {"seconds": 0.0, "ok": [], "failed": 0, "lags": [],
                                                   "entries": 0})
        done["seconds"] += end - begin
        done["ok"] += [s[2] for s in polls if s[3]]
        done["failed"] += sum(1 for s in polls if not s[3])
        done["lags"] += lags
        done["entries"] += sum(1 for s in samples if s[0] == "entry" and s[3])
    return {name: {"polls_per_second": len(r["ok"]) / r["seconds"], "p50_ms": percentile(r["ok"], 0.5),
                   "p99_ms": percentile(r["ok"], 0.99), "failed": r["failed"], "polls": len(r["ok"]),
                   "lag_p50_s": percentile(r["lags"], 0.5), "lag_p99_s": percentile(r["lags"], 0.99),
                   "changes_seen": len(r["lags"]), "entries": r["entries"], "seconds": r["seconds"]}
            for name, r in results.items()}


def main() -> None:
    task_ = json.load(sys.stdin)
    result = {"scorers": scorers, "viewers": viewers}[task_["bench"]](task_)
    result["load_cpu"] = max(LOAD_CPU)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
