"""Where an entry's time goes, in-process: a trick POST through the API, a trick POST of the scorer's form (its last
tap, stored) and a card tapped (the trick under way), each under cProfile with Flask's test client, on a temporary
SQLite file (or ``--database`` a PostgreSQL address), the limiter on as ``make run`` has it. Prints each kind's
median time without the profiler (the wall's, and the process's CPU: what a busy machine's other work adds less to),
then the top entries by cumulative time. Figures only: nothing asserts.

    .venv/bin/python bench/profile_entry.py [--depth 2] [--entries 300] [--top 40] [--only api,last,tap]
        [--breakdown] [--cpu] [--dir /dev/shm] [--database own|postgresql+psycopg://…]
"""
from __future__ import annotations

import argparse
import cProfile
import gzip
import inspect
import io
import pstats
import re
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import LONG_SERIES, PLAYERS, brulot_deals, flat, median, ms  # noqa: E402
from servers import BENCH_LIMITS, throwaway_postgres  # noqa: E402

from referee import create_app  # noqa: E402

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
REVISION = re.compile(rb'name="revision" value="(\d+)"')
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
CLOCK = [time.perf_counter]  # --cpu: this thread's CPU time (time.thread_time), not the wall's


class Table:
    """A Brûlot table imported at ``depth`` whole deals, its next deals to enter, its scorer's form token."""

    def __init__(self, client, depth: int, seed: int):
        played = brulot_deals(depth + 40, seed)
        answer = client.post("/api/v1/import", json={
            "table": {"game": "brulot", "players": PLAYERS, "options": LONG_SERIES, "dealer": 0},
            "events": flat(played[:depth])})
        assert answer.status_code == 201, answer.data[:300]
        created = answer.get_json()
        self.client, self.id, self.key = client, created["id"], created["scorer_key"]
        self.revision = created["state"]["revision"]
        self.todo = flat(played[depth:])
        page = client.get(f"/t/{self.id}?key={self.key}")
        found = TOKEN.search(page.get_data(as_text=True))
        self.token = found.group(1) or found.group(2)

    def next(self) -> dict:
        return self.todo.pop(0)

    def api(self, body: dict):
        answer = self.client.post(f"/api/v1/tables/{self.id}/events", json=body,
                                  headers={"Authorization": f"Bearer {self.key}", "Accept-Encoding": "gzip"})
        assert answer.status_code == 201, answer.data[:300]
        self.revision += 1
        return answer

    def tap(self, card: str, pending: list):
        form = {"csrf_token": self.token, "mode": "trick", "pending": ".".join(pending), "side": "0",
                "event_id": uuid.uuid4().hex, "revision": str(self.revision), "card": card}
        answer = self.client.post(f"/t/{self.id}/tap?key={self.key}", data=form, headers=HTMX)
        shown = REVISION.search(gzip.decompress(answer.data) if answer.headers.get("Content-Encoding") else answer.data)
        assert answer.status_code == 200 and shown, answer.data[:300]
        stored = int(shown.group(1)) == self.revision + 1
        assert stored == (len(pending) == 3), "a tap refused"  # Brûlot: four players, the fourth card stores
        self.revision = int(shown.group(1))
        return answer


def entries(table: Table, kind: str):
    """One entry of ``kind`` at a time, as callables: a deal event goes through the API unmeasured."""
    while True:
        body = table.next()
        if body["type"] != "trick":
            table.api(body)
            continue
        cards = body["cards"]
        if kind == "api":
            yield lambda body=body: table.api(body)
        else:
            for n in range(len(cards) - 1):
                if kind == "tap":
                    yield lambda n=n, cards=cards: table.tap(cards[n], cards[:n])
                else:
                    table.tap(cards[n], cards[:n])
            if kind == "last":
                yield lambda cards=cards: table.tap(cards[-1], cards[:-1])
            else:
                table.tap(cards[-1], cards[:-1])


def measure(app, kind: str, depth: int, count: int, profile: cProfile.Profile | None, timers=None,
            clock=None) -> list:
    """Each entry's seconds by ``clock``: the wall's (``time.perf_counter``) or this process's CPU
    (``time.process_time``: what a busy machine's other work does not add); by default ``--cpu``'s choice."""
    clock = clock or CLOCK[0]
    client = app.test_client()
    seconds, tables, made = [], [], 0
    while len(seconds) < count:
        table = Table(client, depth, seed=7000 + depth * 100 + made)
        made += 1
        steps = entries(table, kind)
        for _ in range(min(40, count - len(seconds))):
            step = next(steps)
            if timers is not None:
                timers.entry = {}
            if profile is not None:
                profile.enable()
            start = clock()
            step()
            seconds.append(clock() - start)
            if timers is not None:
                timers.done(seconds[-1])
            if profile is not None:
                profile.disable()
        tables.append(table)
    return seconds


class Timers:
    """Seconds spent in chosen functions during each entry (wrapped in place, no profiler), for ``--breakdown``."""

    def __init__(self):
        self.spent: dict = {}
        self.entry: dict = {}

    def wrap(self, owner, name: str, label: str) -> None:
        original = getattr(owner, name)
        static = isinstance(inspect.getattr_static(owner, name), staticmethod)

        def timed(*args, **kwargs):
            start = CLOCK[0]()
            try:
                return original(*args, **kwargs)
            finally:
                self.entry[label] = self.entry.get(label, 0.0) + CLOCK[0]() - start
        setattr(owner, name, staticmethod(timed) if static else timed)

    def hooks(self, hooks: list, label_of) -> None:
        for number, hook in enumerate(hooks):
            holder = type("Hooks", (), {"f": staticmethod(hook)})
            self.wrap(holder, "f", label_of(hook))
            hooks[number] = holder.f

    def done(self, total: float) -> None:
        self.entry["whole entry"] = total
        for label, seconds in self.entry.items():
            self.spent.setdefault(label, []).append(seconds)
        self.entry = {}


def timers_on(app) -> Timers:
    """Where an entry's time goes, by part: the hooks, the key check, the ledger's statements, the engine, the cache,
    the answer drawn or encoded, gzip."""
    from referee.games import base
    from referee.store import entries as ledger_entries
    from referee.store import ledger as ledger_module
    from referee.store import entry_write, state_cache
    from flask_compress import Compress
    from referee.web.api import tables as api_tables
    from referee.web.tables import scorer, tapped

    timers = Timers()
    timers.hooks(app.before_request_funcs.setdefault(None, []), lambda hook: f"before: {_name(hook)}")
    timers.hooks(app.after_request_funcs.setdefault(None, []), lambda hook: f"after: {_name(hook)}")
    for owner, name, label in (
            (ledger_module.Ledger, "authorize", "key check (SELECT)"),
            (api_tables, "json_body", "JSON body read"),
            (entry_write.EntryWrite, "write", "write: the entry's short way, whole (entry_write.py)"),
            (entry_write.Prepared, "run", "write: a prepared statement (short way)"),
            (ledger_entries.rows, "lock_row", "write: UPDATE … RETURNING"),
            (ledger_entries.rows, "insert_event", "write: INSERT"),
            (app.extensions["referee.ledger"].engine.dialect, "do_commit", "write: COMMIT"),
            (app.extensions["referee.ledger"].engine.dialect, "do_begin", "write: BEGIN"),
            (app.extensions["referee.ledger"].engine.dialect, "do_ping", "connection tried (SELECT 1)"),
            (ledger_module.Ledger, "_replayed", "engine: state before (cache)"),
            (base.Game, "parse_event", "engine: parse"),
            (base.Game, "apply", "engine: apply"),
            (ledger_module.Ledger, "_serialise", "state serialised"),
            (state_cache.StateCache, "put", "state kept (cache)"),
            (state_cache.StateCache, "settle", "state measured (cache; served: after the answer)"),
            (base.Game, "brief", "state, brief"),
            (api_tables, "state_answer", "answer: JSON"),
            (ledger_module.Ledger, "look", "page: state read"),
            (ledger_module.Ledger, "snapshot", "page: state read"),
            (ledger_module.Ledger, "set_draft", "draft: UPDATE"),
            (scorer, "page_context", "page: context"),
            (scorer, "render_template", "page: template"),
            (tapped, "render_template", "page: template (a tap's parts)"),
            (Compress, "after_request", "gzip (Flask-Compress)")):
        timers.wrap(owner, name, label)
    return timers


def _name(hook) -> str:
    return getattr(hook, "__qualname__", None) or getattr(getattr(hook, "func", None), "__qualname__", repr(hook))


def print_breakdown(timers: Timers) -> None:
    rows = sorted(((median(values), label, len(values)) for label, values in timers.spent.items()), reverse=True)
    whole = median(timers.spent["whole entry"])
    for seconds, label, count in rows:
        print(f"  {label:<48} {seconds * 1000:7.3f} ms  ({seconds / whole:4.0%}; in {count} entries)")
    print()


LABELS = {"api": "trick POST (API)", "last": "a trick's last tap (scorer form)", "tap": "a card tapped (draft)"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=2, help="whole deals on each table before the entries")
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--only", default="api,last,tap")
    parser.add_argument("--database", default=None, help="a PostgreSQL address, or 'own': a throwaway PostgreSQL "
                        "of the bench's own (bench/servers.py; default: a temporary SQLite)")
    parser.add_argument("--sort", default="cumulative", help="pstats' sort key (cumulative, tottime)")
    parser.add_argument("--breakdown", action="store_true", help="medians of each part, timed without profiler")
    parser.add_argument("--cpu", action="store_true", help="this process's CPU time, not the wall's (a shared "
                        "machine's waits and the database server's work left out)")
    parser.add_argument("--dir", default=None, help="where the SQLite file goes (/dev/shm: no disk in the figures)")
    args = parser.parse_args()
    if args.cpu:
        CLOCK[0] = time.thread_time
    if args.database == "own":
        with throwaway_postgres() as (url, why):
            if url is None:
                raise SystemExit(why)
            args.database = url
            profile(args)
    else:
        profile(args)


def profile(args) -> None:
    with tempfile.TemporaryDirectory(prefix="referee-profile-", dir=args.dir) as tmp:
        url = args.database or f"sqlite:///{Path(tmp) / 'profile.sqlite3'}"
        limits = {name.removeprefix("FLASK_"): value for name, value in BENCH_LIMITS.items()}
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "profile", **limits})
        ledger = app.extensions["referee.ledger"]
        if args.database:
            ledger.drop_all()
        ledger.init_db()
        for kind in args.only.split(","):
            measure(app, kind, args.depth, 40, None)  # warm: templates compiled, statements cached
            plain = measure(app, kind, args.depth, args.entries, None)
            cpu = measure(app, kind, args.depth, args.entries, None, clock=time.process_time)
            if args.breakdown:
                timers = timers_on(app) if kind == args.only.split(",")[0] else timers
                timers.spent = {}
                measure(app, kind, args.depth, args.entries, None, timers)
                clock = " of CPU" if args.cpu else ""
                print(f"## {LABELS[kind]} at {args.depth} deals: median {ms(median(plain))}{clock}; by part (medians "
                      f"of the entries that went through it)\n")
                print_breakdown(timers)
                continue
            profile = cProfile.Profile()
            measure(app, kind, args.depth, args.entries, profile)
            print(f"## {LABELS[kind]} at {args.depth} deals: median {ms(median(plain))} without the profiler, "
                  f"{ms(median(cpu))} of CPU ({len(plain)} entries)\n")
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out).strip_dirs().sort_stats(args.sort)
            stats.print_stats(args.top)
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip()
                            and not line.startswith("   Ordered by")), flush=True)
            print()
        ledger.engine.dispose()


if __name__ == "__main__":
    main()
