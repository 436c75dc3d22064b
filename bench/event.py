"""Issue 40: the evening rehearsed. A Burraco tournament of ``--tables`` tables (twice as many pairs), three signed
rounds of 3 hands (two Mitchell, one Danish), played as tests/support/evening.py plays it: every table's phone enters
its hands by their numbers, a pause of ``--pace`` seconds after each entry (a human pace compressed in time), both
sides sign; five tables call the director (arbitral results), the director corrects ten results with reasons, gives
two penalties, closes each round and seats the next; ``--followers`` people hold the pages' streams throughout (the
wall, the viewers' standings, the director's page: tests/support/evening_streams.py). Run on one machine as ``make
run`` serves (``flask --app referee serve``, SQLite), and on the rig (tests/support/rig.py: nginx, two servers,
PostgreSQL, Redis; ``--rig-tables`` tables, one server killed with kill -9 halfway through round 2's entries and
started again in round 3); beside them the floor (bench/floor.py, the same server) with as many phones posting as
many entries at the same pace and as many followers on its tables' streams. Printed: entries and signatures a
second, p50/p99 per kind of request, a change seen on each page, each process's memory (Pss, with every stream
open), the time to close a round and seat the next, the standings' read; and the rehearsal's checks (every
acknowledged entry there exactly once, every table signed or settled, the standings as worked out again from the
hands: tests/support/evening_check.py). Loopback only; bounded by ``--deadline`` seconds per run.

    .venv/bin/python bench/event.py [--quick] [--tables 150] [--followers 2000] [--rig-tables 300]
                                    [--only floor,single,rig] [--pace 0.5,2]
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
import event_floor  # noqa: E402
import servers  # noqa: E402
from common import machine, ms, percentile, print_table, raise_open_files, rate, secs  # noqa: E402
from tests.support.evening import PLAN, Evening, Phone  # noqa: E402
from tests.support.evening_check import entries_not_once, standings_differences, unsettled  # noqa: E402
from event_followers import FollowersProcess  # noqa: E402
from tests.support.rig import Rig  # noqa: E402

ADDRESSES = [f"127.0.0.{2 + n}" for n in range(40)]  # phones on a Wi-Fi have addresses of their own (nginx caps each)
KINDS = (("entry", "an entry (deal or tally)"), ("signature", "a signature (or a call)"),
         ("correct", "a correction (director)"), ("arbitral", "an arbitral result"), ("penalty", "a penalty"),
         ("page", "a page opened (wall, standings, director)"), ("director state", "the director's state (API)"))
PAGES = (("wall", "the wall"), ("viewers", "the viewers' standings"), ("director", "the director's page"))


def pss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def memory(roots: dict) -> dict:
    """label -> Pss in bytes of each process under ``roots`` (name -> pid), its workers one by one."""
    found = {}
    for name, pid in roots.items():
        found[name] = pss(pid)
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        for number, child in enumerate(children, 1):
            found[f"{name} worker {number}"] = pss(int(child))
    return found


def rehearse(url: str, context, tables: int, followers: int, pace: tuple, rounds: int, deadline: float,
             roots, midway_extra=None, cafile=None) -> dict:
    """The evening against ``url``; its figures and checks. ``roots()``: the processes to weigh, with every stream
    open and half of a round entered (the largest of the rounds kept)."""
    timings: dict = {}
    moments: dict = {}

    def phone(n: int) -> Phone:
        return Phone(url, context, ADDRESSES[n % len(ADDRESSES)] if context else "127.0.0.1", timings, moments)

    weighed: dict = {}

    def midway(number: int) -> None:
        for label, size in memory(roots()).items():
            weighed[label] = max(weighed.get(label, 0), size)
        if midway_extra:
            midway_extra(number)

    evening = Evening(phone, tables, pace=pace, midway=midway).create()
    first = evening.seat(1)  # the director's page has its round's stream once a round is seated
    following = FollowersProcess(url, cafile, evening, followers, 0.1, timings)  # apart from the phones
    until = time.monotonic() + 120
    while following.opened() < followers and time.monotonic() < until:
        gevent.sleep(0.2)
    opened = following.opened()
    finished = True
    try:
        with gevent.Timeout(deadline):
            for number in range(1, rounds + 1):
                evening.round(number, first if number == 1 else None)
    except gevent.Timeout:
        finished = False
    final = evening.state()  # the standings read once the evening is over: "standings"
    last = time.monotonic() + 30
    while following.behind(final["revision"]) and time.monotonic() < last:
        gevent.sleep(0.2)
    following.stop()
    writes = len(timings.get("entry", [])) + len(timings.get("signature", []))
    return {"timings": timings, "opened": opened, "followers": followers, "tables": tables, "finished": finished,
            "writes": writes, "per_second": writes / max(1e-9, evening.playing[0]), "rounds": evening.rounds,
            "lags": {kind: following.lags(evening.changes, kind) for kind, _ in PAGES},
            "behind": len(following.behind(final["revision"])), "memory": weighed,
            "not_once": entries_not_once(evening, phone(0)), "unsettled": unsettled(final),
            "standings": standings_differences(evening, final) if finished else ["unfinished"],
            "acknowledged": sum(len(ids) for ids in evening.entries.values()),
            "moments": moments, "changes": evening.changes, "following": following}


def single(args, tmp: Path, options: dict) -> dict:
    with servers.referee(f"sqlite:///{tmp / 'event.sqlite3'}", None, options) as served:
        figures = rehearse(served.url, None, args.tables, args.followers, args.pace, args.rounds, args.deadline,
                           lambda: {"Referee": served.process.pid})
        figures["served"] = f"{served.server}, {served.processes()} processes"
        return figures


def rig(args, tmp: Path) -> dict | str:
    if not shutil.which("nginx") or not shutil.which("redis-server"):
        return "nginx or redis-server is missing (apt-get install nginx redis-server)"
    url = servers.postgres_server()
    why = "no PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL)" if not url else servers.reachable(url)
    if why:
        return why
    scratch = servers.ScratchDatabase(url)
    running = Rig(tmp / "rig", scratch.url, count=2, **servers.BENCH_LIMITS)
    try:
        running.start()
        down = []

        window = []  # when the server went down, when it was back

        def kill_and_restart(number: int) -> None:
            if number == 2:  # halfway through round 2's entries: one machine gone
                down.append(running.ports[0])
                window.append(time.monotonic())
                running.kill_server(running.ports[0])
            elif number == 3 and down:  # back for the last round: nginx gives it its share again
                running.start_server(down.pop())
                window.append(time.monotonic())

        def roots() -> dict:
            return {("nginx" if name == "nginx" else "redis" if name == "redis" else f"server :{name}"): p.pid
                    for name, p in running.processes.items()}

        figures = rehearse(running.url, running.context, args.rig_tables, args.followers, args.pace, args.rounds,
                           args.deadline, roots, kill_and_restart, cafile=running.folder / "cert.pem")
        figures["served"] = "nginx, 2 servers of 1 gevent worker, PostgreSQL, Redis; one killed in round 2"
        figures["split"] = split_by_window(figures, window)
        return figures
    finally:
        running.stop()
        scratch.drop()


def split_by_window(figures: dict, window: list) -> dict:
    """The rig's entries, signatures and the wall's changes, with both servers up and with one down (``window``:
    from the kill to the restart, or to the end when it was not started again): row name -> (up, down) cells."""
    if not window:
        return {}
    down, up = window[0], window[1] if len(window) > 1 else float("inf")
    cells = {}
    for kind in ("entry", "signature"):
        pairs = list(zip(figures["moments"].get(kind, []), figures["timings"].get(kind, [])))
        cells[kind] = tuple(p50_p99([took for sent, took in pairs if (down <= sent < up) == inside])
                            for inside in (False, True))
    changes = figures["changes"]
    for kind, _ in PAGES:
        cells[f"lag {kind}"] = tuple(
            p50_p99(figures["following"].lags([c for c in changes if (down <= c[0] < up) == inside], kind)[0])
            for inside in (False, True))
    return cells


def floor(args, tmp: Path, options: dict) -> dict:
    with servers.floor(f"sqlite:///{tmp / 'floor.sqlite3'}", None, options) as served:
        weighed: dict = {}
        result = event_floor.evening(served.url, args.tables, args.followers, args.pace, args.rounds,
                                     lambda: weighed.update(memory({"floor": served.process.pid})))
        lags, missed = event_floor.lags(result)
        writes = len(result["timings"].get("entry", []))
        return {"timings": {"entry": result["timings"].get("entry", [])}, "opened": result["opened"],
                "followers": args.followers, "tables": args.tables, "writes": writes,
                "per_second": writes / max(1e-9, result["playing"]), "memory": weighed,
                "lags": {"wall": (lags, missed)}, "served": served.server}


def p50_p99(values) -> str:
    return f"{ms(percentile(values, 0.5))} / {ms(percentile(values, 0.99))}" if values else "–"


def mib(size: int) -> str:
    return f"{size / 2**20:,.0f} MiB"


def column(figures) -> dict:
    """row name -> this run's cell (a string: the run was skipped, said once)."""
    if figures is None:
        return {}
    if isinstance(figures, str):
        return {"served": f"skipped: {figures}"}
    cells = {"served": figures["served"], "tables": f"{figures['tables']:,}",
             "followers": f"{figures['opened']:,} of {figures['followers']:,}",
             "per_second": f"{rate(figures['per_second'])} ({figures['writes']:,})"}
    for kind, _ in KINDS:
        cells[kind] = p50_p99(figures["timings"].get(kind, []))
    for kind, _ in PAGES:
        if kind in figures["lags"]:
            lags, missed = figures["lags"][kind]
            cells[f"lag {kind}"] = p50_p99(lags) + (f" ({missed:,} not seen)" if missed else "")
    rounds = figures.get("rounds")
    if rounds:
        turns = [rounds[n]["close"] + rounds[n + 1]["seat"] for n in range(len(rounds) - 1) if "close" in rounds[n]]
        cells["turn"] = " · ".join(secs(t) for t in turns) or "–"
        cells["standings"] = ms(figures["timings"]["standings"][-1])
        cells["once"] = ("yes: " if not figures["not_once"] else f"NO ({len(figures['not_once'])}): ") + \
            f"{figures['acknowledged']:,} acknowledged"
        cells["settled"] = "yes" if not figures["unsettled"] else f"NO: {figures['unsettled'][:3]}"
        cells["recomputed"] = "yes" if not figures["standings"] else f"NO: {figures['standings'][:2]}"
        cells["behind"] = f"{figures['behind']:,}"
    for key, (up, down) in figures.get("split", {}).items():
        cells[f"{key} split"] = f"{up} · {down}"
    cells["memory"] = "; ".join(f"{label} {mib(size)}" for label, size in figures["memory"].items()) + \
        f"; total {mib(sum(figures['memory'].values()))}"
    return cells


ROWS = [("served", "served by"), ("tables", "tables"), ("followers", "streams open"),
        ("per_second", "entries and signatures a second (all of them)")] + \
    [(kind, f"{name}, p50 / p99") for kind, name in KINDS] + \
    [(f"lag {kind}", f"a change seen on {name}, p50 / p99") for kind, name in PAGES] + \
    [(f"{kind} split", f"{name}, p50 / p99: both servers up · one down") for kind, name in
     (("entry", "an entry"), ("signature", "a signature"), ("lag wall", "a change seen on the wall"),
      ("lag director", "a change seen on the director's page"))] + \
    [("behind", "streams not at the last revision at the end"), ("memory", "memory (Pss), every stream open"),
     ("turn", "a round closed and the next seated (rounds 1→2, 2→3)"), ("standings", "the standings read at the end"),
     ("once", "every acknowledged entry there exactly once"), ("settled", "every table signed or settled"),
     ("recomputed", "the standings as worked out from the hands and the VP table")]


def report(args, figures: dict) -> str:
    columns = [("the floor", "floor"), ("one server (SQLite)", "single"), ("the rig (PostgreSQL)", "rig")]
    shown = [(title, column(figures.get(name))) for title, name in columns if name in figures]
    rows = [[label] + [cells.get(key, "–") for _, cells in shown] for key, label in ROWS]
    note = (f"{machine()}. Rounds: {', '.join(r['movement'] for r in PLAN[:args.rounds])} of 3 hands, "
            f"require_signatures; a pause of {args.pace[0]}–{args.pace[1]} s after each entry. The floor: as many "
            "phones each posting 8 entries a round at the same pace, its followers on its tables' streams (its "
            "\"a change seen\" row is theirs). A change counts as seen once a page's stream shows the tournament's "
            "revision as it was when the change was acknowledged, from the POST sent. Loopback only, load and "
            "servers on the same cores.")
    return print_table("The evening rehearsed (bench/event.py)", ["figure"] + [title for title, _ in shown], rows,
                       note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 tables, 200 followers, 40 tables on the rig")
    parser.add_argument("--tables", type=int, default=None, help="tables (150; 40 with --quick)")
    parser.add_argument("--rig-tables", type=int, default=None, help="tables on the rig (300; 40 with --quick)")
    parser.add_argument("--followers", type=int, default=None, help="streams held (2000; 200 with --quick)")
    parser.add_argument("--rounds", type=int, default=3, choices=(1, 2, 3))
    parser.add_argument("--pace", default="0.5,2", help="the pause after each entry: low,high seconds")
    parser.add_argument("--deadline", type=float, default=900, help="seconds at most per run")
    parser.add_argument("--only", default="floor,single,rig")
    args = parser.parse_args()
    args.tables = min(args.tables or (40 if args.quick else 150), 400)
    args.rig_tables = min(args.rig_tables or (40 if args.quick else 300), 400)
    args.followers = min(args.followers or (200 if args.quick else 2000), 5000)
    args.pace = tuple(float(x) for x in args.pace.split(","))
    only = set(args.only.split(","))
    raise_open_files()
    options = servers.serve_options()
    figures: dict = {}
    with tempfile.TemporaryDirectory(prefix="referee-event-") as tmp:
        for name in ("floor", "single", "rig"):
            if name not in only:
                continue
            began = time.monotonic()
            figures[name] = (floor(args, Path(tmp), options) if name == "floor" else
                             single(args, Path(tmp), options) if name == "single" else rig(args, Path(tmp)))
            print(f"({name}: {time.monotonic() - began:.0f} s)", file=sys.stderr, flush=True)
    report(args, figures)


if __name__ == "__main__":
    main()
