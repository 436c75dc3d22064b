"""The director's page of a 150-table evening (issue 40): its server time and its weight, gzip, printed beside the
floor's page (``bench/floor.py``'s live fragment, under the same server), with the goals (≤ 300 ms median, ≤ 150 KB
gzip).

The evening is the tests' (``tests/support/big_round.py``): a Burraco tournament of 300 pairs, require_signatures,
its first Mitchell round played through the API to every status the director's board counts (playing, to confirm,
called, corrected, signed). Then, one request after another on a kept-alive loopback connection (send to last
byte), each asked ``--asks`` times after a few to warm up: the whole page, the page filtered (the calls), a search
(a name), the board alone as htmx asks it, and the live part after a change (every row out of band, rendered once
per revision: a table's hand entered before each ask). A process draws a row once per version
(``referee/web/tournaments/board.py``): a page whose rows are all drawn anew (each language's first, as every
row's "last entry … minutes ago" moves once a minute) is printed apart. Figures only: nothing asserts.

    .venv/bin/python bench/director.py [--asks 40] [--workers 2]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import servers
from common import ROOT, Client, kib, median, ms, percentile, print_table

sys.path.insert(0, str(ROOT))
from tests.support import big_round as evening  # noqa: E402  (the tests' evening, through the same API)

WARM = 5


def asked(client: Client, path: str, asks: int, headers: dict | None = None, before=None) -> dict:
    """Median and p90 seconds of ``asks`` GETs (after ``WARM``), the last answer's bytes on the wire (gzip when
    the server sent it so) and decoded; ``before`` runs ahead of each ask (untimed)."""
    seconds, answer = [], None
    for number in range(WARM + asks):
        if before:
            before()
        answer = client.request("GET", path, headers=headers)
        if answer.status != 200:
            raise SystemExit(f"GET {path} answered {answer.status}: {answer.body[:300]!r}")
        if number >= WARM:
            seconds.append(answer.seconds)
    return {"p50": median(seconds), "p90": percentile(seconds, 0.9), "wire": answer.wire, "raw": answer.raw,
            "gzip": answer.headers.get("Content-Encoding") == "gzip"}


def made(url: str) -> dict:
    client = Client(url, timeout=120)

    def post(path, body, key):
        answer = client.request("POST", path, body=body, key=key)
        if answer.status not in (200, 201):
            raise SystemExit(f"POST {path} answered {answer.status}: {answer.body[:300]!r}")
        return answer.json()
    played = evening.big_round(post)
    client.close()
    return {**played, "post": post}


def measure(url: str, floor_url: str, asks: int) -> dict:
    played = made(url)
    client = Client(url)
    page = f"/tournaments/{played['id']}?key={played['director']}&lang=en"
    tables = iter(played["tables"][46:146])  # tables 47 on: waiting, each a hand entered before a live ask

    def change():
        table = next(tables)
        hand_client = Client(url)
        evening.hand(lambda path, body, key: hand_client.request("POST", path, body=body, key=key), table,
                     evening.card_key(table))
        hand_client.close()
        time.sleep(0.3)  # past LIVE_REFRESH_SECONDS: every worker reads the new revision
    drawn = []  # every row drawn anew: a language's first whole page (its catalogue read, 3 rows drawn, before)
    for language in ("fr", "es", "ca", "it", "pt_BR", "de"):
        for _ in range(2):
            client.request("GET", page.replace("lang=en", f"lang={language}") + "&status=called")
        first = client.request("GET", page.replace("lang=en", f"lang={language}"))
        drawn.append(first.seconds)
    figures = {
        "page": asked(client, page, asks),
        "called": asked(client, page + "&status=called", asks),
        "search": asked(client, page + "&q=elodie", asks),
        "board": asked(client, page + "&status=signed", asks, {"HX-Request": "true", "HX-Target": "board"}),
        "live": asked(client, f"/tournaments/{played['id']}/live?key={played['director']}&view=director&lang=en",
                      min(asks, 100 - WARM), {"HX-Request": "true"}, before=change),
    }
    figures["first"] = {"p50": median(drawn), "p90": max(drawn), "wire": first.wire, "raw": first.raw,
                        "gzip": first.headers.get("Content-Encoding") == "gzip"}
    client.close()
    floor = Client(floor_url)
    figures["floor"] = asked(floor, "/t/director-bench/live", asks)
    floor.close()
    return figures


def size(figure: dict) -> str:
    return f"{kib(figure['wire'])}{' gzip' if figure['gzip'] else ''} ({kib(figure['raw'])} decoded)"


def print_director(figures: dict, server: str, asks: int) -> str:
    floor = figures["floor"]
    rows = []
    for name, label, goal_time, goal_size in (
            ("first", "the director's page, its 150 rows drawn anew (6 languages' first)", "", ""),
            ("page", "the director's page, 150 tables", "≤ 300 ms", "≤ 150 KB gzip"),
            ("called", "filtered: the 3 calls", "", ""),
            ("search", "a search by name (2 tables)", "", ""),
            ("board", "the board alone (htmx: the 10 signed)", "", ""),
            ("live", "the live part after a change (150 rows out of band)", "", "")):
        ours = figures[name]
        if name == "first":
            rows.append([f"{label}, median", ms(floor["p50"]), ms(ours["p50"]), ""])
            rows.append([f"{label}, slowest", ms(floor["p90"]), ms(ours["p90"]), ""])
            continue
        rows.append([f"{label}, median", ms(floor["p50"]), ms(ours["p50"]), goal_time])
        rows.append([f"{label}, p90", ms(floor["p90"]), ms(ours["p90"]), ""])
        rows.append([f"{label}, weight", size(floor), size(ours), goal_size])
    return print_table(
        "The director's page at 150 tables", ["figure", "floor", "Referee", "goal"], rows,
        f"A Burraco evening of 300 pairs (tests/support/big_round.py), its round of 150 tables played to every "
        f"status; each request {asks} times after {WARM} to warm up, one after another on a kept-alive loopback "
        f"connection (send to last byte); the live part is asked after a hand entered at another table each time "
        f"(a poll's answer, gzip; a stream sends the changed rows alone, uncompressed). "
        f"The floor: its live fragment, under the same server. {server}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    bench(Path(tempfile.mkdtemp(prefix="referee-director-")), args.workers, servers.serve_options(), args.asks)


def bench(tmp: Path, workers: int, options: dict, asks: int = 40) -> None:
    with servers.referee(f"sqlite:///{tmp / 'director.sqlite3'}", workers, options) as referee, \
            servers.floor(f"sqlite:///{tmp / 'director-floor.sqlite3'}", workers, options) as floor:
        server = (f"Referee served by {referee.server} in {referee.processes()} processes on SQLite, the floor by "
                  f"{floor.server} in {floor.processes()}")
        figures = measure(referee.url, floor.url, asks)
    print_director(figures, server, asks)


if __name__ == "__main__":
    main()
