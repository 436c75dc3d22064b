"""The floor's side of the rehearsed evening (``bench/event.py``): what applies to a bare Flask + SQLite app
(``bench/floor.py``, under the same server as Referee): as many tables' phones, each posting its round's entries and
its two signatures at the same pace, three rounds, while as many followers hold the tables' streams; entries a
second, each POST's median and p99, how long until a follower's stream shows a change, the processes' memory. The
floor has no tournament, no director, no page: those rows are Referee's alone."""
from __future__ import annotations

import http.client
import json
import random
import threading
import time

from tests.support.evening import Phone
from tests.support.evening_streams import seen_lags

WRITES = 8  # a table's round: 3 hands (a deal and a tally each) and two signatures


class FloorFollower(threading.Thread):
    def __init__(self, url: str, table: str):
        super().__init__(daemon=True)
        self.url, self.table = url, table
        self.revisions: list = []
        self.moments: list = []
        self.stopping = threading.Event()

    def run(self) -> None:
        phone = Phone(self.url)
        while not self.stopping.is_set():
            connection = phone.open(timeout=40)
            try:
                connection.request("GET", f"/t/{self.table}/stream", headers={"Accept": "text/event-stream"})
                answer = connection.getresponse()
                while True:
                    line = answer.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        self.revisions.append(json.loads(line[6:])["revision"])
                        self.moments.append(time.monotonic())
            except (OSError, http.client.HTTPException, ValueError):
                pass
            finally:
                connection.close()
            self.stopping.wait(0.3)

    def saw(self, revision: int) -> float | None:
        return next((at for seen, at in zip(self.revisions, self.moments) if seen >= revision), None)


def evening(url: str, tables: int, followers: int, pace: tuple, rounds: int, weigh) -> dict:
    """{"timings": {"entry": [...]}, "playing": seconds, "changes": [(sent, table, revision)], "followers": [...]};
    ``weigh()`` is called once, halfway through the first round's writes, every stream open."""
    ids = [f"evening{n}-{time.time_ns()}" for n in range(tables)]
    start = Phone(url)
    for ident in ids:
        start.call("POST", f"/t/{ident}/entries", {"start": True})
    start.close()
    watching = [FloorFollower(url, ids[n % tables]) for n in range(followers)]
    for follower in watching:
        follower.start()
    deadline = time.monotonic() + 120
    while sum(1 for f in watching if f.revisions) < followers and time.monotonic() < deadline:
        time.sleep(0.2)
    timings, changes, lock = {}, [], threading.Lock()

    def play(ident: str, number: int) -> None:
        phone, rng = Phone(url, timings=timings), random.Random(f"{ident}-{number}")
        time.sleep(rng.uniform(0, pace[1]))
        for write in range(WRITES):
            sent = time.monotonic()
            status, answer = phone.call("POST", f"/t/{ident}/entries", {"write": write, "round": number},
                                        kind="entry")
            with lock:
                changes.append((sent, ident, answer["revision"]))
            time.sleep(rng.uniform(*pace))
        phone.close()

    playing = 0.0
    for number in range(rounds):
        threads = [threading.Thread(target=play, args=(ident, number)) for ident in ids]
        begun = time.monotonic()
        for thread in threads:
            thread.start()
        while number == 0 and len(changes) < tables * WRITES // 2 and any(t.is_alive() for t in threads):
            time.sleep(0.1)
        if number == 0:
            weigh()
        for thread in threads:
            thread.join()
        playing += time.monotonic() - begun
    time.sleep(2)
    for follower in watching:
        follower.stopping.set()
    return {"timings": timings, "playing": playing, "changes": changes, "followers": watching,
            "opened": sum(1 for f in watching if f.revisions)}


def lags(result: dict, most: int = 400) -> tuple:
    by_table: dict = {}
    for follower in result["followers"]:
        by_table.setdefault(follower.table, []).append(follower)
    changes = result["changes"]
    return seen_lags((sent, revision, by_table.get(table, ()))
                     for sent, table, revision in changes[::max(1, len(changes) // most)])
