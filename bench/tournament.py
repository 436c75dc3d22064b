"""A tournament under load (issue 17, "Scale"): a Burraco tournament of 100 tables (200 pairs) on PostgreSQL served
by several worker processes, and a club evening of 12 tables on SQLite, the same shape smaller.

Each is made through the API as a director would (``POST /api/v1/tournaments``, ``POST …/rounds`` seats round 1,
``GET …/cards`` gives each table card's key); then ``bench/tournament_load.py`` (locust, in a process of its own) has
one user per table score its round's hands by their numbers (a ``deal`` and a ``tally`` per hand, with a table's
pauses) while the phones watch the standings once a second: half through ``GET /api/v1/tournaments/<id>`` with the
viewer's key, half through the standings page's live fragment (``/tournaments/<id>/live``) when the server has it
(every watcher through the API otherwise). Then the director closes the round and seats the next (Danish, from the
standings). Figures only: nothing asserts.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import servers
from common import Client, ms, ms_of, print_table, rate, run_load, secs

SIZES = {  # (tables, phones watching, hands per table, pause between entries in seconds: low, high)
    "postgresql": {"tables": 100, "watchers": 300, "hands": 3, "pause": (1.0, 3.0)},
    "sqlite": {"tables": 12, "watchers": 50, "hands": 3, "pause": (1.0, 3.0)},
}
QUICK = {"hands": 2, "pause": (0.5, 1.5)}  # --quick: under a minute


def timed(client: Client, method: str, path: str, body=None, key=None, expect=(200, 201)):
    """(answer's JSON, seconds) of one call; a refusal ends the bench with what the server said."""
    answer = client.request(method, path, body=body, key=key)
    if answer.status not in expect:
        raise SystemExit(f"{method} {path} answered {answer.status}: {answer.body[:500]!r}")
    return answer.json(), answer.seconds, answer.wire


def setup(url: str, tables: int, hands: int) -> dict:
    """The tournament made, round 1 seated and the cards read, as the director's phone would; with the time each
    took and whether the server has the live standings page."""
    client = Client(url, timeout=300)
    pairs = [[f"P{n}a", f"P{n}b"] for n in range(2 * tables)]
    plan = [{"movement": "mitchell", "hands": hands}, {"movement": "danish", "hands": hands}]
    made, create_s, _ = timed(client, "POST", "/api/v1/tournaments",
                              {"game": "buraco", "name": f"Bench of {tables} tables", "entrants": pairs,
                               "rounds": plan})
    tid, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    seated, seat_s, _ = timed(client, "POST", f"/api/v1/tournaments/{tid}/rounds", key=director)
    cards, cards_s, _ = timed(client, "GET", f"/api/v1/tournaments/{tid}/cards", key=director)
    keys = {card["number"]: card["key"] for card in cards["cards"]}
    seats = [{"number": t["number"], "id": t["table_id"], "key": keys[t["number"]]}
             for t in seated["rounds"][0]["tables"]]
    state, read_s, wire = timed(client, "GET", f"/api/v1/tournaments/{tid}?key={viewer}")
    probe = client.request("GET", f"/tournaments/{tid}/live?key={viewer}", headers={"HX-Request": "true"})
    live = client.request("GET", f"/tournaments/{tid}/standings?key={viewer}")
    client.close()
    return {"id": tid, "director": director, "viewer": viewer, "tables": seats, "live": probe.status == 200,
            "live_bytes": probe.wire if probe.status == 200 else None, "page": live.status == 200,
            "create_s": create_s, "seat_s": seat_s, "cards_s": cards_s, "read_s": read_s, "state_bytes": wire,
            "state_raw": len(json.dumps(state))}


def load(task: dict) -> dict:
    """Runs bench/tournament_load.py (locust) in its own process and reads its figures."""
    return run_load("tournament_load.py", task, timeout=600)


def after(url: str, made: dict, hands: int) -> dict:
    """What the standings hold once the phones are done, then the round closed and the next one seated."""
    client = Client(url, timeout=300)
    tid, director = made["id"], made["director"]
    state, _, _ = timed(client, "GET", f"/api/v1/tournaments/{tid}?key={director}")
    tables = state["rounds"][0]["tables"]
    finished = sum(1 for t in tables if t["finished"] and t["result"] is not None and t.get("hands") == hands)
    played = sum(1 for row in state["standings"] if row["played"] == 1)
    closed, close_s, _ = timed(client, "POST", f"/api/v1/tournaments/{tid}/rounds/1/close", key=director)
    still = len(closed["open_tables"])
    if not closed["closed"]:  # tables a failed entry left open: finished as they stand, as a director would
        closed, close_s, _ = timed(client, "POST", f"/api/v1/tournaments/{tid}/rounds/1/close",
                                   {"force": True, "reason": "Bench: the round's time is up."}, key=director)
    seated, danish_s, _ = timed(client, "POST", f"/api/v1/tournaments/{tid}/rounds", key=director)
    client.close()
    return {"finished": finished, "played": played, "entrants": len(state["standings"]), "open": still,
            "close_s": close_s, "danish_s": danish_s, "danish_tables": len(seated["rounds"][1]["tables"])}


def one(url: str, size: dict, quick: bool) -> dict:
    size = {**size, **(QUICK if quick else {})}
    made = setup(url, size["tables"], size["hands"])
    task = {"url": url, "tournament": made["id"], "viewer": made["viewer"], "tables": made["tables"],
            "hands": size["hands"], "pause": size["pause"], "watchers": size["watchers"], "live": made["live"],
            "deadline": 40 if quick else 90}
    figures = load(task)
    return {"size": size, "made": made, "load": figures, "after": after(url, made, size["hands"])}


def postgresql(workers: int, options: dict, quick: bool) -> dict | str:
    """The 100 tables on a scratch PostgreSQL database, or why not."""
    url = servers.postgres_server()
    if not url:
        return f"skipped: {servers.NO_POSTGRES[0]}"
    why = servers.reachable(url)
    if why:
        return f"skipped: {why}"
    scratch = servers.ScratchDatabase(url)
    try:
        with servers.referee(scratch.url, workers, options) as referee:
            return {**one(referee.url, SIZES["postgresql"], quick), "server": served(referee)}
    finally:
        scratch.drop()


def sqlite(tmp: Path, workers: int, options: dict, quick: bool) -> dict:
    with servers.referee(f"sqlite:///{tmp / 'tournament.sqlite3'}", workers, options) as referee:
        return {**one(referee.url, SIZES["sqlite"], quick), "server": served(referee)}


def served(referee) -> str:
    return f"{referee.server} in {referee.processes()} processes"


# --- the table printed ------------------------------------------------------------------------------------------

def column(run) -> list:
    """One column of the table: a run's figures, or why it was skipped."""
    if isinstance(run, str):
        return [run] + [""] * (len(LABELS) - 1)
    made, figures, done, size = run["made"], run["load"], run["after"], run["size"]
    api, live = figures["api"], figures["live"]
    tables, entrants = len(made["tables"]), 2 * len(made["tables"])
    return [
        f"{tables} tables, {entrants} pairs, {size['hands']} hands each, {size['pause'][0]:g}–{size['pause'][1]:g} s "
        f"after each entry; {figures['watchers']} phones",
        f"{ms(made['create_s'])} / {ms(made['seat_s'])} / {ms(made['cards_s'])}",
        rate(figures["entries_per_second"]),
        f"{ms_of(figures['entry_p50_ms'])} / {ms_of(figures['entry_p99_ms'])}",
        f"{figures['api_watchers']} × {rate(api['reads_per_second'])}",
        f"{ms_of(api['p50_ms'])} / {ms_of(api['p99_ms'])}",
        f"{made['state_raw'] / 1024:,.0f} KiB ({made['state_bytes'] / 1024:,.0f} KiB gzip), {ms(made['read_s'])} "
        f"alone",
        f"{secs(api['lag_p50_s'])} / {secs(api['lag_p99_s'])} ({api['lags']:,} seen)",
        (f"{figures['live_watchers']} × {rate(live['reads_per_second'])}" if figures["live_watchers"]
         else "not served: API only"),
        f"{ms_of(live['p50_ms'])} / {ms_of(live['p99_ms'])}" if figures["live_watchers"] else "—",
        f"{secs(live['lag_p50_s'])} / {secs(live['lag_p99_s'])} ({live['lags']:,} seen)"
        if figures["live_watchers"] else "—",
        f"{figures['entries_failed']:,} / {api['failed']:,} / {live['failed']:,}",
        f"{done['finished']}/{tables}; {done['played']}/{done['entrants']}",
        f"{ms(done['close_s'])} / {ms(done['danish_s'])}",
        f"{figures['scoring_s']:.0f} s, locust {figures['load_cpu']:.0%} of a core",
    ]


LABELS = ["the field", "create / seat round 1 / read the cards", "entries per second",
          "entry, median / p99", "standings read through the API, phones × reads",
          "standings read (API), median / p99", "the state read through the API: its size, its time before the load",
          "a table's result in the API's standings after, median / p99",
          "standings live page, phones × polls", "live poll, median / p99",
          "a table's result on the live page after, median / p99",
          "failed: entries / API reads / live polls", "tables finished; pairs ranked with one round played",
          "close round 1 / seat round 2 (Danish)", "scoring took"]


def print_tournament(runs: dict, workers: int) -> str:
    names = [name for name in ("postgresql", "sqlite") if name in runs]
    heads = {"postgresql": "PostgreSQL, 100 tables", "sqlite": "SQLite, a club evening"}
    columns = [column(runs[name]) for name in names]
    rows = [[label] + [c[i] for c in columns] for i, label in enumerate(LABELS)]
    server = "; ".join(f"{heads[n]}: {runs[n]['server']}" for n in names if isinstance(runs[n], dict))
    text = print_table(
        "A tournament's round under load", ["figure"] + [heads[n] for n in names], rows,
        f"A Burraco tournament made through the API (pairs; a Mitchell round, then a Danish one seated from the "
        f"standings); one locust user per table enters its round's hands by their numbers (a deal and a tally per "
        f"hand, a pause after each entry, every table starting within the first pause), "
        f"while the phones read the standings once a second, half through the API and half through the standings "
        f"page's live fragment (`since` and `If-None-Match`). A result is seen from the table's last tally sent to "
        f"a phone's answer that shows the table finished (the API's `finished`; on the live page, the table gone "
        f"from the list of tables still playing where that phone saw it). Rates are over the scoring, from the "
        f"first entry to the last table's last answer. Referee on 127.0.0.1 with `--workers {workers}` ({server}), "
        f"on a machine of {os.cpu_count()} cores shared with locust and, for PostgreSQL, the database server. "
        f"Figures alone: the floor has no tournament.")
    for name in names:  # what the failures were, when there were any
        for why, count in (runs[name]["load"]["failures"].items() if isinstance(runs[name], dict) else ()):
            print(f"- {heads[name]}: {count} × {why.strip()}")
            text += f"- {heads[name]}: {count} × {why.strip()}\n"
    return text


def bench(tmp: Path, workers: int, options: dict, quick: bool) -> None:
    runs = {"postgresql": postgresql(workers, options, quick)}
    runs["sqlite"] = sqlite(tmp, workers, options, quick)
    print_tournament(runs, workers)
