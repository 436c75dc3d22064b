"""A tournament's round under load, driven by locust (as a library, headless, on loopback); run by
``bench/tournament.py`` in a process of its own (locust patches the standard library with gevent). It reads its task
as JSON on stdin and writes its figures as JSON on stdout:

    {"url": ..., "tournament": id, "viewer": key, "tables": [{"number", "id", "key"}, ...], "hands": 3,
     "pause": [1.0, 3.0], "watchers": 300, "live": true, "deadline": 90}

One user per table enters its hands by their numbers (``deal`` then ``tally``, a pause after each entry, as a table
writes its hand on a phone); the watchers, spawned first, read the standings once a second: half through the API,
half through the standings page's live fragment when ``live`` (all through the API otherwise). Each watcher notes
when it first sees each table finished; a table's lag is from its last tally sent to that answer. On the live page a
table counts only once that phone saw it in the list of tables still playing (the list is cut after 24 tables).
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import collections  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from gevent.event import Event  # noqa: E402
from locust import FastHttpUser, constant, constant_pacing, task  # noqa: E402
from locust.env import Environment  # noqa: E402

sys.path[:0] = [str(Path(__file__).resolve().parent)]
from common import percentile  # noqa: E402

logging.getLogger("locust").setLevel(logging.ERROR)
TIMEOUT = 30.0  # seconds before a request counts as failed
GRACE = 3.0  # after the last table's last tally: time for every watcher's next poll
ROUND_NOTE = re.compile(r'<p class="round-note">(.*?)</p>', re.S)
STILL = re.compile(r"(\d+) \(\d+/\d+\)")
REVISION = re.compile(r'data-revision="(\d+)"')


def side(rng: random.Random) -> dict:
    """A side's numbers for a hand ended by the stock: melds, its pot taken, card points left in hand (R-BURACO-6);
    both sides together within the 1,080 card points in play (R-BURACO-4)."""
    return {"melds": rng.randrange(50, 405, 5), "burracos": {}, "pot": True, "hand": rng.randrange(0, 65, 5)}


def on_page(body: str, numbers: list) -> tuple[set, set] | None:
    """(finished, still playing) as the live fragment shows them: finished are those missing from its list of
    tables still playing (the list is in table order and cut after 24: only the numbers below its last are known)."""
    found = ROUND_NOTE.search(body)
    if not found:
        return None
    note = found.group(1)
    if "every table has finished" in note:
        return set(numbers), set()
    still = [int(n) for n in STILL.findall(note)]
    if not still:
        return None
    cut = "…" in note
    return {n for n in numbers if n not in still and (not cut or n < max(still))}, set(still)


def run(task_: dict) -> dict:
    tables, hands, (low, high) = task_["tables"], task_["hands"], task_["pause"]
    numbers = [t["number"] for t in tables]
    live_count = task_["watchers"] // 2 if task_["live"] else 0
    api_count = task_["watchers"] - live_count
    samples, last_sent, seen, done = [], {}, {"api": [], "live": []}, []
    go, counter, why = Event(), itertools.count(), collections.Counter()
    tid, viewer = task_["tournament"], task_["viewer"]

    def listen(request_type, name, response_time, response_length, exception, start_time=None, **_):
        samples.append((name, start_time or time.time() - response_time / 1000, response_time, exception is None))
        if exception is not None:
            why[f"{name}: {str(exception)[:120]}"] += 1

    class Table(FastHttpUser):
        """A table's phone: every hand's deal and tally, a pause after each, then nothing more."""
        fixed_count = len(tables)
        wait_time = constant(3600)
        network_timeout = connection_timeout = TIMEOUT

        def on_start(self):
            self.table = tables[next(counter)]
            self.rng = random.Random(self.table["number"])
            go.wait()
            gevent.sleep(self.rng.uniform(0, high))

        def post(self, position: int, body: dict) -> None:
            headers = {"Authorization": f"Bearer {self.table['key']}"}
            body = {**body, "client_event_id": f"{self.table['id']}-{position}"}
            with self.client.post(f"/api/v1/tables/{self.table['id']}/events", json=body, headers=headers,
                                  name="entry", catch_response=True) as answer:
                if answer.status_code in (200, 201):
                    answer.success()
                else:
                    answer.failure(f"{answer.status_code} {(answer.text or '')[:200]}")

        @task
        def play(self):
            if self.table["number"] in last_sent:
                return
            for hand in range(hands):
                self.post(2 * hand, {"type": "deal", "trump": None})
                gevent.sleep(self.rng.uniform(low, high))
                if hand == hands - 1:
                    last_sent[self.table["number"]] = time.time()
                self.post(2 * hand + 1, {"type": "tally", "closed_by": None,
                                         "sides": [side(self.rng), side(self.rng)]})
                gevent.sleep(self.rng.uniform(low, high) if hand < hands - 1 else 0)
            done.append(time.time())

    class Watcher(FastHttpUser):
        abstract = True
        wait_time = constant_pacing(1)
        network_timeout = connection_timeout = TIMEOUT

        def on_start(self):
            self.known = set()
            gevent.sleep(random.uniform(0, 1))

        def saw(self, where: str, finished) -> None:
            now = time.time()
            for number in (finished or ()):
                if number not in self.known:
                    self.known.add(number)
                    seen[where].append((number, now))

    class ApiWatcher(Watcher):
        """A phone (or a script) reading the tournament through the API once a second."""
        fixed_count = api_count

        @task
        def read(self):
            with self.client.get(f"/api/v1/tournaments/{tid}?key={viewer}", name="api",
                                 catch_response=True) as answer:
                if answer.status_code != 200:
                    answer.failure(f"{answer.status_code}")
                    return
                answer.success()
                state = json.loads(answer.content)
                tables_now = state["rounds"][0]["tables"] if state["rounds"] else []
                self.saw("api", [t["number"] for t in tables_now if t["finished"] and t["result"] is not None])

    class LiveWatcher(Watcher):
        """A phone on the standings page: its live fragment polled once a second (``since``, ``If-None-Match``)."""
        fixed_count = live_count

        def on_start(self):
            super().on_start()
            self.since, self.etag, self.listed = None, None, set()

        @task
        def poll(self):
            since = "" if self.since is None else f"&since={self.since}"
            headers = {"HX-Request": "true", "Accept-Language": "en",  # the round note read in English
                       **({"If-None-Match": self.etag} if self.etag else {})}
            with self.client.get(f"/tournaments/{tid}/live?key={viewer}{since}", headers=headers, name="live",
                                 catch_response=True) as answer:
                if answer.status_code in (204, 304):
                    answer.success()
                    return
                if answer.status_code != 200:
                    answer.failure(f"{answer.status_code}")
                    return
                answer.success()
                self.etag = answer.headers.get("ETag")
                body = answer.content.decode()
                revision = REVISION.search(body)
                self.since = int(revision.group(1)) if revision else self.since
                shown = on_page(body, numbers)
                if shown is not None:  # a table counts once this phone saw it playing, then finished
                    self.saw("live", shown[0] & self.listed)
                    self.listed = shown[1]

    classes = [Table, ApiWatcher] + ([LiveWatcher] if live_count else [])
    environment = Environment(user_classes=classes, host=task_["url"])
    environment.events.request.add_listener(listen)
    runner = environment.create_local_runner()
    users = len(tables) + task_["watchers"]
    runner.start(users, spawn_rate=max(100, users))
    gevent.sleep(users / max(100, users) + 2)  # every user up, the watchers polling
    go.set()
    begin, cpu = time.time(), time.process_time()
    deadline = begin + task_["deadline"]
    while len(done) < len(tables) and time.time() < deadline:
        gevent.sleep(0.2)
    end = max(done) if done else time.time()
    load_cpu = (time.process_time() - cpu) / max(1e-9, time.time() - begin)
    gevent.sleep(GRACE)
    runner.quit()
    result = figures(samples, seen, last_sent, begin, end, load_cpu, len(tables), len(done), api_count, live_count)
    return {**result, "failures": dict(why.most_common(5))}


def figures(samples, seen, last_sent, begin, end, load_cpu, tables, done, api_count, live_count) -> dict:
    window = max(1e-9, end - begin)
    within = [s for s in samples if begin <= s[1] <= end]
    entries = [s for s in samples if s[0] == "entry"]
    ok = [s[2] for s in entries if s[3]]
    result = {"entries": len(ok), "entries_failed": sum(1 for s in entries if not s[3]),
              "entries_per_second": len(ok) / window, "entry_p50_ms": percentile(ok, 0.5),
              "entry_p99_ms": percentile(ok, 0.99), "scoring_s": window, "load_cpu": load_cpu, "tables": tables,
              "tables_done": done, "watchers": api_count + live_count, "api_watchers": api_count,
              "live_watchers": live_count}
    for name in ("api", "live"):
        reads = [s for s in within if s[0] == name]
        good = [s[2] for s in reads if s[3]]
        lags = [at - last_sent[number] for number, at in seen[name] if number in last_sent]
        result[name] = {"reads": len(good), "reads_per_second": len(good) / window if reads else None,
                        "p50_ms": percentile(good, 0.5), "p99_ms": percentile(good, 0.99),
                        "failed": sum(1 for s in samples if s[0] == name and not s[3]),
                        "lag_p50_s": percentile(lags, 0.5), "lag_p99_s": percentile(lags, 0.99), "lags": len(lags)}
    return result


def main() -> None:
    json.dump(run(json.load(sys.stdin)), sys.stdout)


if __name__ == "__main__":
    main()
