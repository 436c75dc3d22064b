"""The prints at a national event's size (issue 40): a Burraco tournament of 150 tables (300 pairs), round 1 (a
Mitchell of 3 hands) seated and played through the API, then each print and export asked as the director and the
viewers ask it: the table cards of the 150 tables (one printable page, six cards a sheet of A4, a QR code each), the
printed ranking with the round's results, the standings of the 300 pairs as CSV and .xlsx, the round's 150 results
as CSV and .xlsx. Each is timed from the request to its last byte (the median of a few asks), its bytes on the wire
said; where Debian's Chromium and Playwright are installed (``make install-test``), the cards page printed to PDF
(the page loaded and printed, as the director's Print does) is timed and its pages counted.

No floor applies (the floor app prints nothing): Referee's figures with the issue's goal. Figures only: nothing
asserts. ``.venv/bin/python bench/prints.py`` runs it alone; ``make bench`` runs it as ``prints``."""
from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402
from common import Client, kib, ms, print_table, secs  # noqa: E402

TABLES = 150
ASKS = 3  # each print asked this many times: its median


def seated_and_played(client: Client, tables: int) -> dict:
    """The tournament made, round 1 seated and every table's 3 hands entered (North–South win at odd tables)."""
    pairs = [[f"N{n:03d}", f"S{n:03d}"] for n in range(1, 2 * tables + 1)]
    made = client.request("POST", "/api/v1/tournaments", {"game": "buraco", "name": "National evening",
                                                          "entrants": pairs,
                                                          "rounds": [{"movement": "mitchell", "hands": 3}] * 2}).json()
    tid, director = made["id"], made["director_key"]
    seated = client.request("POST", f"/api/v1/tournaments/{tid}/rounds", key=director).json()
    keys = {card["number"]: card["key"]
            for card in client.request("GET", f"/api/v1/tournaments/{tid}/cards", key=director).json()["cards"]}
    for table in seated["rounds"][0]["tables"]:
        winner = 0 if table["number"] % 2 else 1
        for _ in range(3):
            sides = [{"melds": 150, "pot": True, "hand": 40}, {"melds": 150, "pot": True, "hand": 40}]
            sides[winner] = {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0}
            for body in ({"type": "deal"}, {"type": "tally", "closed_by": winner, "sides": sides}):
                answer = client.request("POST", f"/api/v1/tables/{table['table_id']}/events", body,
                                        key=keys[table["number"]])
                if answer.status != 201:
                    raise SystemExit(f"an entry answered {answer.status}: {answer.body[:300]!r}")
    return {"id": tid, "director": director, "viewer": made["viewer_key"]}


def timed(client: Client, path: str) -> tuple:
    """(the first ask's seconds, the median of the next ``ASKS``, bytes on the wire, body) of GETs of ``path``."""
    answers = [client.request("GET", path) for _ in range(ASKS + 1)]
    if any(answer.status != 200 for answer in answers):
        raise SystemExit(f"GET {path} answered {answers[0].status}")
    return answers[0].seconds, statistics.median(a.seconds for a in answers[1:]), answers[-1].wire, answers[-1].body


def printed_pdf(url: str, folder: Path) -> tuple | None:
    """(seconds to load the page, seconds to print it, pages) of Chromium printing the cards page to PDF; None
    without Playwright or Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        return None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        start = time.perf_counter()
        page.goto(url)
        loaded = time.perf_counter()
        pdf = page.pdf(format="A4", print_background=True)
        printed = time.perf_counter()
        browser.close()
    (folder / "cards.pdf").write_bytes(pdf)
    return loaded - start, printed - loaded, len(re.findall(rb"/Type\s*/Page\b", pdf))


def run(url: str, folder: Path, tables: int = TABLES) -> dict:
    client = Client(url, timeout=300)
    start = time.perf_counter()
    made = seated_and_played(client, tables)
    played_s = time.perf_counter() - start
    tid, director, viewer = made["id"], made["director"], made["viewer"]
    closed = client.request("POST", f"/api/v1/tournaments/{tid}/rounds/1/close", key=director)
    if closed.status != 200:
        raise SystemExit(f"closing the round answered {closed.status}: {closed.body[:300]!r}")
    figures = {"tables": tables, "played_s": played_s, "rows": []}
    asks = [("the table cards, HTML (a QR code each)", f"/tournaments/{tid}/cards?key={director}", "< 10 s"),
            ("the ranking and the round's results, printed", f"/tournaments/{tid}/print?key={viewer}", ""),
            ("the standings, CSV", f"/tournaments/{tid}/standings.csv?key={viewer}", ""),
            ("the standings, .xlsx", f"/tournaments/{tid}/standings.xlsx?key={viewer}", ""),
            ("the round's results, CSV", f"/tournaments/{tid}/rounds/1/results.csv?key={viewer}", ""),
            ("the round's results, .xlsx", f"/tournaments/{tid}/rounds/1/results.xlsx?key={viewer}", "")]
    for label, path, goal in asks:
        first, again, wire, body = timed(client, path)
        figures["rows"].append([label, ms(first), ms(again), kib(wire), goal])
        if path.startswith(f"/tournaments/{tid}/cards"):
            figures["cards_qr"] = body.count(b"<svg")
    client.close()
    pdf = printed_pdf(f"{url}/tournaments/{tid}/cards?key={director}", folder)
    if pdf is not None:
        figures["rows"].append([f"the table cards in Chromium (first: the page loaded; then: printed to PDF, "
                                f"{pdf[2]} pages)", secs(pdf[0]), secs(pdf[1]), "", "< 10 s in all"])
    else:
        figures["rows"].append(["the table cards printed to PDF", "skipped: no Playwright or Chromium", "", "", ""])
    return figures


def print_prints(figures: dict, server: str) -> str:
    return print_table(
        f"The prints of {figures['tables']} tables", ["figure", "first asked", "asked again (median)", "on the wire",
                                                      "goal"], figures["rows"],
        f"A Burraco tournament of {figures['tables']} tables ({2 * figures['tables']} pairs), round 1 (a Mitchell of "
        f"3 hands) seated, played through the API ({secs(figures['played_s'])}) and closed; each print asked once, "
        f"then {ASKS} times more (the median), from the request to its last byte (gzip where the server sends it); "
        f"the cards page holds {figures.get('cards_qr', 0)} QR codes, drawn at the first ask and kept by the process "
        f"that drew them (a card's link is the same every round); {server}. No floor applies: the floor prints "
        f"nothing.")


def bench(tmp: Path, workers: int, options: dict) -> None:
    with servers.referee(f"sqlite:///{tmp / 'prints.sqlite3'}", workers, options) as referee:
        server = f"SQLite, served by {referee.server} in {referee.processes()} processes"
        print_prints(run(referee.url, tmp), server)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="referee-prints-") as folder:
        bench(Path(folder), 2, servers.serve_options())
