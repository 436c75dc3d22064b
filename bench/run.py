"""``make bench``: Referee's figures side by side with their floor, one table per bench, with the issue's goals.

    .venv/bin/python bench/run.py [--quick] [--only entries,depth,scorers,viewers,streams,tournament,director,prints,
                                   hostile,cluster,event]

Referee is served as ``make run`` serves it (``flask --app referee serve``, here on 127.0.0.1 with ``--workers 2``:
two processes), the floor (``bench/floor.py``: a bare Flask app appending one JSON row to SQLite in WAL mode with
``synchronous=FULL``) under the same server and settings. Every database is a temporary one; the PostgreSQL part runs
when ``BENCH_DATABASE_URL`` (or ``TEST_DATABASE_URL``) reaches a server, in a scratch database made and dropped
there; where neither is set, ``make bench`` starts a throwaway PostgreSQL of its own where one is installed (as
``.ci/run`` does: ``initdb`` in a temporary folder, a free port of 127.0.0.1) and says it was skipped otherwise. ``streams`` (``bench/streams.py``): 2,000 viewers' server-sent event
streams held open while scorers enter, each change timed to every stream. ``tournament`` (``bench/tournament.py``)
has no floor: a round of 100 tables on PostgreSQL and a club evening of 12 on SQLite, its figures alone; nor has
``prints`` (``bench/prints.py``): the table cards, ranking and exports of 150 tables and 300 pairs. ``director``
(``bench/director.py``): the director's page of a 150-table evening, its server time and gzip weight beside the
floor's live fragment. ``hostile`` (``bench/hostile.py``): 2,000
idle sockets and 100 slowloris clients held open while normal requests are timed, against Referee, the floor under
the same server and the floor under gunicorn's gthread workers (as Referee was served before). ``cluster``
(``bench/cluster.py``): one, then two Referee servers behind nginx with PostgreSQL and Redis (where nginx and
redis-server exist and a PostgreSQL is reachable; else it says why it skipped). ``event`` (``bench/event.py``): the
evening rehearsed, a signed Burraco tournament of 150 tables with 2,000 followers on one server as ``make run`` serves
it and of 300 tables on the rig with a server killed, beside the floor. Figures only: nothing asserts.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import entries  # noqa: E402
import hostile  # noqa: E402
import prints  # noqa: E402
from entry_cost import EntryCost, print_entry_cost  # noqa: E402
import servers  # noqa: E402
import tournament  # noqa: E402
import director  # noqa: E402
from common import (ROOT, machine, ms, ms_of, print_table, raise_open_files, rate, run_load, secs,  # noqa: E402
                    times)

BENCHES = ("entries", "depth", "scorers", "viewers", "streams", "tournament", "director", "prints", "hostile",
           "cluster", "event")


def load(task: dict) -> dict:
    """Runs bench/load.py (locust) in its own process and reads its figures."""
    return run_load("load.py", task, timeout=900)


def ratio(a, b) -> str:
    return times(a / b) if a and b else "—"


def scorer_rows(figures: dict, database: str) -> list:
    floor, ours = figures["floor"], figures["referee"]
    failed = f" ({ours['failed']} failed)" if ours["failed"] else ""
    return [
        [f"entries per second, {database}", rate(floor["entries_per_second"]),
         rate(ours["entries_per_second"]) + failed, ratio(ours["entries_per_second"], floor["entries_per_second"]),
         "≥ 0.5× the floor"],
        [f"entry, median, {database}", ms(floor["p50_ms"] / 1000), ms(ours["p50_ms"] / 1000),
         ratio(ours["p50_ms"], floor["p50_ms"]), ""],
        [f"entry, p99, {database}", ms(floor["p99_ms"] / 1000), ms(ours["p99_ms"] / 1000),
         ratio(ours["p99_ms"], floor["p99_ms"]), "< 150 ms"],
    ]


def print_viewers(figures: dict, task: dict, server: str) -> str:
    floor, ours = figures["floor"], figures["referee"]
    rows = [["polls answered per second", rate(floor["polls_per_second"]), rate(ours["polls_per_second"]),
             f"{task['viewers']:,}/s"]]
    for label, name, goal in (("poll, median", "p50_ms", ""), ("poll, p99", "p99_ms", "< 100 ms")):
        rows.append([label, ms_of(floor[name]), ms_of(ours[name]), goal])
    for label, name, goal in (("a change seen after, median", "lag_p50_s", ""),
                              ("a change seen after, p99", "lag_p99_s", "< 1.5 s")):
        rows.append([label, secs(floor[name]), secs(ours[name]), goal])
    rows.append(["polls failed (error or 30 s timeout)", f"{floor['failed']:,}", f"{ours['failed']:,}", "0"])
    rows.append(["changes seen by a viewer", f"{floor['changes_seen']:,}", f"{ours['changes_seen']:,}", ""])
    return print_table(
        f"{task['viewers']:,} viewers, a poll a second", ["figure", "floor", "Referee", "goal"], rows,
        f"{task['viewers']:,} locust viewers on {task['tables']} tables polling the live view once a second "
        f"(`since`, and `If-None-Match` when the answer may be kept), while a scorer per table enters every "
        f"{task['change_every']:g} s; {task['rounds']} rounds of {task['seconds']:g} s per side, alternating. A "
        f"change is seen from the scorer's POST sent to the viewer's answer that shows it; {server}; locust "
        f"itself took up to {figures['load_cpu']:.0%} of a core.")


def mib(size) -> str:
    return "—" if size is None else f"{size / 1024 / 1024:,.0f} MB"


def print_streams(figures: dict, task: dict, server: str) -> str:
    floor, ours = figures["floor"], figures["referee"]
    rows = [["streams open (each has had its first event)", f"{floor['streams_open']:,}", f"{ours['streams_open']:,}",
             f"{task['streams']:,}"],
            ["a change seen by every stream, median", secs(floor["lag_p50_s"]), secs(ours["lag_p50_s"]), "≤ 0.3 s"],
            ["a change seen by every stream, p99", secs(floor["lag_p99_s"]), secs(ours["lag_p99_s"]), "≤ 1 s"],
            ["a change seen, the slowest stream", secs(floor["lag_max_s"]), secs(ours["lag_max_s"]), ""],
            ["changes a stream missed", f"{floor['missed']:,}", f"{ours['missed']:,}", "0"],
            ["the server's memory, no stream open (Pss, every process)", mib(floor["pss_idle"]),
             mib(ours["pss_idle"]), ""],
            [f"the server's memory, {task['streams']:,} streams open", mib(floor["pss"]), mib(ours["pss"]),
             "≤ 300 MB in all"]]
    what = "the viewer page's own stream (each event the board, rendered once)" if ours.get("page_stream") else \
        "the API's stream (the viewer page had none)"
    return print_table(
        f"{task['streams']:,} viewers' streams", ["figure", "floor", "Referee", "goal"], rows,
        f"{task['streams']:,} server-sent event streams on {task['tables']} tables ({what}; the floor's: a "
        f"revision), from {task['addresses']} loopback addresses, while a scorer per table enters every "
        f"{task['change_every']:g} s for {task['seconds']:g} s ({ours['changes']:,} changes to Referee's tables). "
        f"A change is seen from the scorer's POST sent to the event that shows it, on every stream of its table; "
        f"{server}; the streams' client took {figures['load_cpu']:.0%} of a core.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests and shorter rounds (a try-out)")
    parser.add_argument("--only", default=",".join(BENCHES), help="benches to run, among " + ", ".join(BENCHES))
    parser.add_argument("--workers", type=int, default=2, help="server processes (Referee's and the floor's)")
    parser.add_argument("--posts", type=int, default=None, help="trick POSTs against the floor's")
    parser.add_argument("--viewers", type=int, default=1000)
    args = parser.parse_args()
    only = set(args.only.split(","))
    quick = args.quick
    raise_open_files()
    started = last = time.monotonic()

    def took(what: str) -> None:
        nonlocal last
        print(f"({what}: {time.monotonic() - last:.0f} s)\n", file=sys.stderr, flush=True)
        last = time.monotonic()
    print(f"Machine: {machine()}\n", flush=True)
    options = servers.serve_options()
    cost = EntryCost()
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        tmp = Path(tmp)
        with servers.referee(f"sqlite:///{tmp / 'referee.sqlite3'}", args.workers, options) as referee, \
                servers.floor(f"sqlite:///{tmp / 'floor.sqlite3'}", args.workers, options) as floor:
            server = (f"served by {referee.server} in {referee.processes()} processes, the floor by {floor.server} "
                      f"in {floor.processes()}")
            print(f"Referee {server}.\n", flush=True)
            if "entries" in only:
                figures = entries.trick_vs_floor(referee.url, floor.url, args.posts or (150 if quick else 600))
                entries.print_trick_vs_floor(figures, server)
                cost.trick["SQLite"] = figures
                took("trick POST")
            if "depth" in only:
                cost.depth["SQLite"] = entries.by_depth(referee.url, floor.url, (2, 50, 200), 1 if quick else 2)
                entries.print_by_depth(cost.depth["SQLite"])
                took("cost as the evening grows")
            targets = [{"name": "floor", "kind": "floor", "url": floor.url},
                       {"name": "referee", "kind": "referee", "url": referee.url}]
            scorer_task = {"bench": "scorers", "users": 50, "rounds": 2 if quick else 4,
                           "seconds": 4 if quick else 8, "warm_up": 1 if quick else 2, "deals": 20}
            rows, cpu = [], []
            if "scorers" in only:
                figures = load({**scorer_task, "targets": targets})
                rows += scorer_rows(figures, "SQLite")
                cost.scorers["SQLite"] = figures
                cpu.append(figures["load_cpu"])
                took("50 scorers, SQLite")
            if "viewers" in only:
                viewer_task = {"bench": "viewers", "targets": targets, "viewers": args.viewers, "tables": 20,
                               "change_every": 2, "rounds": 2, "seconds": 8 if quick else 20,
                               "warm_up": 2 if quick else 4, "played": 20}
                viewer_figures = load(viewer_task)
                took("viewers")
            if "streams" in only:
                streams_task = {"streams": 500 if quick else 2000, "tables": 20, "change_every": 2,
                                "seconds": 8 if quick else 20, "addresses": 40, "played": 10,
                                "targets": [{**target, "pid": served.process.pid} for target, served in
                                            zip(targets, (floor, referee))]}
                streams_figures = run_load("streams.py", streams_task, timeout=600)
                took("streams")
        if only & {"entries", "depth", "scorers"}:
            rows += postgres_entries(only, quick, args, scorer_task, options, cpu, cost)
            took("entries, PostgreSQL")
        if "scorers" in only:
            print_table("50 scorers entering back to back", ["figure", "floor", "Referee", "Referee / floor",
                                                             "goal"], rows,
                        f"50 locust users, each on its own Brûlot table, an entry as soon as the last is answered; "
                        f"{scorer_task['rounds']} rounds of {scorer_task['seconds']} s per side, alternating; "
                        f"{server}; locust itself took up to {max(cpu):.0%} of a core.")
        if "viewers" in only:
            print_viewers(viewer_figures, viewer_task, server)
        if "streams" in only:
            print_streams(streams_figures, streams_task, server)
        if "tournament" in only:
            tournament.bench(tmp, args.workers, options, quick)
            took("a tournament's round")
        if "director" in only:
            director.bench(tmp, args.workers, options, 20 if quick else 40)
            took("the director's page at 150 tables")
        if "prints" in only:
            prints.bench(tmp, args.workers, options)
            took("the prints of 150 tables")
        if "hostile" in only:
            hostile.bench(tmp, args.workers, options, quick)
            took("hostile clients")
        if only & {"entries", "depth", "scorers"}:
            print_entry_cost(cost, server)
    if "cluster" in only:  # its own process (gevent), its own servers: one, then two behind nginx
        subprocess.run([sys.executable, str(ROOT / "bench" / "cluster.py")] + (["--quick"] if quick else []),
                       check=False, timeout=1200)
        took("several servers behind nginx")
    if "event" in only:  # its own process (gevent), its own servers: the evening on one server, then on the rig
        subprocess.run([sys.executable, str(ROOT / "bench" / "event.py")] + (["--quick"] if quick else []),
                       check=False, timeout=3600)
        took("the evening rehearsed")
    print(f"(make bench took {time.monotonic() - started:.0f} s)")


def postgres_entries(only: set, quick: bool, args, task: dict, options: dict, cpu: list, cost: EntryCost) -> list:
    """On PostgreSQL (BENCH_DATABASE_URL), what ran on SQLite of the trick POST, the evening's growth and the 50
    scorers: their figures kept in ``cost``; the scorers' rows answered."""
    url = servers.postgres_server()
    why = servers.reachable(url) if url else servers.NO_POSTGRES[0]
    if why:
        cost.skipped["PostgreSQL"] = f"skipped: {why}"
        return [["PostgreSQL", f"skipped: {why}", "", "", ""]] if "scorers" in only else []
    scratch = servers.ScratchDatabase(url)
    try:
        with servers.referee(scratch.url, args.workers, options) as referee, \
                servers.floor(scratch.url, args.workers, options) as floor:
            if "entries" in only:
                cost.trick["PostgreSQL"] = entries.trick_vs_floor(referee.url, floor.url,
                                                                  args.posts or (150 if quick else 600))
            if "depth" in only:
                cost.depth["PostgreSQL"] = entries.by_depth(referee.url, floor.url, (2, 200), 1 if quick else 2)
            if "scorers" not in only:
                return []
            targets = [{"name": "floor", "kind": "floor", "url": floor.url},
                       {"name": "referee", "kind": "referee", "url": referee.url}]
            figures = load({**task, "targets": targets})
            cpu.append(figures["load_cpu"])
            cost.scorers["PostgreSQL"] = figures
            return scorer_rows(figures, "PostgreSQL")
    finally:
        scratch.drop()


if __name__ == "__main__":
    os.chdir(ROOT)
    with servers.postgres_for_bench():  # BENCH_DATABASE_URL, else PostgreSQL's own throwaway server where installed
        main()
