"""One phone at a time: the trick POST against the floor's, and what an entry, a tap, the scorer's fragment and page
cost and weigh as an evening grows (2, 50 and 200 deals). Every Referee request is interleaved with a floor request
(the order alternating), so both see the same moments of the machine."""
from __future__ import annotations

import re
import uuid

from common import (EVENTS_PER_DEAL, LONG_SERIES, PLAYERS, Client, brulot_deals, flat, kib, median, ms, percentile,
                    print_table, revision_of, times)

from referee.web.serving.server_timing import server_ms  # noqa: E402 — common put the project on the path

WARM_UP = 20  # pairs of POSTs left out of the figures: connections opened, caches filled


class Table:
    """A Brûlot table imported with ``deals`` whole deals, and the next deal to enter on it."""

    def __init__(self, client: Client, deals: int, seed: int):
        played = brulot_deals(deals + 1, seed)
        answer = client.request("POST", "/api/v1/import", {
            "table": {"game": "brulot", "players": PLAYERS, "options": LONG_SERIES, "dealer": 0},
            "events": flat(played[:-1])})
        if answer.status != 201:
            raise SystemExit(f"import answered {answer.status}: {answer.body[:300]!r}")
        created = answer.json()
        self.id, self.key, self.viewer = created["id"], created["scorer_key"], created["viewer_key"]
        self.revision = revision_of(created) or len(flat(played[:-1]))
        self.todo = list(played[-1])
        self.deals = deals
        self.seed = seed

    @property
    def events(self) -> str:
        return f"/api/v1/tables/{self.id}/events"


def post_event(client: Client, table: Table, body: dict):
    answer = client.request("POST", table.events, body, key=table.key)
    if answer.status != 201:
        raise SystemExit(f"entry answered {answer.status}: {answer.body[:300]!r}")
    table.revision = revision_of(answer.json()) or table.revision + 1
    return answer


def floor_post(client: Client, table_id: str, body: dict):
    answer = client.request("POST", f"/t/{table_id}/entries", body)
    if answer.status != 201:
        raise SystemExit(f"the floor answered {answer.status}")
    return answer


def trick_vs_floor(referee_url: str, floor_url: str, posts: int) -> dict:
    """``posts`` trick POSTs on tables of 2 deals (each table takes its third deal, then the next table), each paired
    with a floor POST of the same body."""
    phone, floor_phone = Client(referee_url), Client(floor_url)
    mine, floors, seed = [], [], 1000
    while len(mine) < posts + WARM_UP:
        table = Table(phone, 2, seed)
        seed += 1
        post_event(phone, table, table.todo.pop(0))  # the deal event: not a trick
        for body in table.todo:
            pair = [lambda: post_event(phone, table, body), lambda: floor_post(floor_phone, table.id, body)]
            if len(mine) % 2:
                pair.reverse()
            first, second = pair[0](), pair[1]()
            ours, theirs = (first, second) if len(mine) % 2 == 0 else (second, first)
            mine.append(ours.seconds)
            floors.append(theirs.seconds)
    mine, floors = mine[WARM_UP:], floors[WARM_UP:]
    return {"referee": mine, "floor": floors}


def print_trick_vs_floor(figures: dict, server: str) -> str:
    ours, floor = figures["referee"], figures["floor"]
    rows = []
    for label, fraction, goal in (("median", 0.5, "≤ 1.5×"), ("p99", 0.99, "≤ 2×")):
        a, b = percentile(ours, fraction), percentile(floor, fraction)
        rows.append([f"trick POST, {label}", ms(b), ms(a), times(a / b), goal])
    return print_table(f"Trick POST against the floor ({len(ours)} each, interleaved)",
                       ["figure", "floor", "Referee", "Referee / floor", "goal"], rows,
                       f"One phone on loopback, one request at a time; Brûlot, 4 players, tables at their third deal; "
                       f"{server}.")


# --- as the evening grows -----------------------------------------------------------------------------------------

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
REVISION = re.compile(r'name="revision" value="(\d+)"')
HTMX = {"HX-Request": "true"}


class Scorer:
    """The scorer's phone on one table: its session and form token, taps posted as htmx posts them."""

    def __init__(self, url: str, table: Table):
        self.client, self.table = Client(url), table
        page = self.page()
        found = TOKEN.search(page.body.decode())
        if found is None:
            raise SystemExit("no csrf_token on the scorer's page")
        self.token = found.group(1) or found.group(2)

    def page(self, fragment: bool = False):
        answer = self.client.request("GET", f"/t/{self.table.id}?key={self.table.key}",
                                     headers=HTMX if fragment else None)
        if answer.status != 200:
            raise SystemExit(f"the scorer's page answered {answer.status}")
        return answer

    def tap(self, card: str, pending: list):
        """``pending``: the trick under way the page shows (the table's, on the server): a tap made on another is
        refused (409)."""
        form = {"csrf_token": self.token, "mode": "trick", "pending": ".".join(pending), "side": "0",
                "event_id": uuid.uuid4().hex, "revision": str(self.table.revision), "card": card}
        answer = self.client.request("POST", f"/t/{self.table.id}/tap?key={self.table.key}", form=form, headers=HTMX)
        if answer.status != 200:
            raise SystemExit(f"a tap answered {answer.status}: {answer.body[:300]!r}")
        found = REVISION.search(answer.body.decode())
        if found:
            self.table.revision = int(found.group(1))
        return answer


def by_depth(referee_url: str, floor_url: str, depths=(2, 50, 200), tables: int = 3) -> dict:
    """At each depth, ``tables`` tables enter one more deal: odd tricks by the API, even ones by the scorer's taps;
    after each entry the scorer's fragment and page are fetched and the viewer's live fragment once."""
    setup = Client(referee_url)
    boards = [Table(setup, depth, seed=depth * 10 + n) for depth in depths for n in range(tables)]
    scorers = {board.id: Scorer(referee_url, board) for board in boards}
    viewer, floor_phone = Client(referee_url), Client(floor_url)
    figures = {depth: {} for depth in depths}

    def note(depth, name, answer):
        figures[depth].setdefault(name, []).append(answer)

    for board in boards:  # the deal event, then a first look at each (connections, caches)
        post_event(scorers[board.id].client, board, board.todo.pop(0))
        scorers[board.id].page(fragment=True)
    for step in range(EVENTS_PER_DEAL - 1):
        for board in boards:
            scorer, body, depth = scorers[board.id], board.todo[step], board.deals
            seen = board.revision
            if step % 2 == 0:
                note(depth, "post", post_event(scorer.client, board, body))
            else:
                cards = body["cards"]
                for n, card in enumerate(cards):
                    note(depth, "tap" if n < len(cards) - 1 else "tap_trick", scorer.tap(card, cards[:n]))
            note(depth, "floor", floor_post(floor_phone, board.id, body))
            note(depth, "fragment", scorer.page(fragment=True))
            note(depth, "page", scorer.page())
            note(depth, "live", viewer.request("GET", f"/t/{board.id}/live?key={board.viewer}&since={seen}",
                                               headers=HTMX))
            if step == EVENTS_PER_DEAL - 2:  # the deal's last trick: the state, as the API gives it
                note(depth, "state", viewer.request("GET", f"/api/v1/tables/{board.id}", key=board.viewer))
                note(depth, "state_full", viewer.request("GET", f"/api/v1/tables/{board.id}?full=1",
                                                         key=board.viewer))
    return figures


TAP_GOAL = "≤ 4 ms at 200"  # issue 40: a tap's server time (referee/web/tables/tapped.py)
ROWS = (("post", "trick POST (API)", "≤ 1.25×"), ("tap", "a card tapped (what it changed), round trip", ""),
        ("tap", "a card tapped, server time", TAP_GOAL),
        ("tap_trick", "a trick's last tap, stored (what it changed), round trip", ""),
        ("tap_trick", "a trick's last tap, server time", TAP_GOAL),
        ("fragment", "scorer fragment, GET (htmx)", "≤ 1.25×"), ("page", "scorer page, GET (whole page)", ""),
        ("floor", "floor POST (same moments)", ""))
SIZES = (("post", "trick POST answer", "≤ 8 KiB"), ("tap_trick", "a trick's last tap (what it changed)", "≤ 8 KiB"),
         ("tap", "a card tapped (what it changed)", "≤ 8 KiB"), ("fragment", "scorer fragment, GET", "≤ 8 KiB"),
         ("page", "scorer page, GET", ""), ("live", "viewer's live fragment after a change", ""),
         ("state", "state, GET /api/v1/tables/<id>", ""), ("state_full", "state, GET …?full=1", "(the whole history)"),
         ("floor", "floor POST answer", ""))


def server_seconds(answer) -> float:
    """The app's own time for ``answer``, in seconds, from its ``Server-Timing`` header."""
    found = server_ms(answer.headers.get("Server-Timing"))
    if found is None:
        raise SystemExit("an answer without Server-Timing: is this Referee?")
    return found / 1000


def print_by_depth(figures: dict) -> str:
    depths = sorted(figures)
    first, last = depths[0], depths[-1]
    rows = []
    for name, label, goal in ROWS:
        timed = server_seconds if label.endswith("server time") else (lambda answer: answer.seconds)
        cells = [median([timed(a) for a in figures[d].get(name, [])]) for d in depths]
        rows.append([f"{label}, median"] + [ms(c) for c in cells] + [times(cells[-1] / cells[0]), goal])
    count = len(figures[first].get("post", []))
    text = print_table("Cost as the evening grows", ["figure"] + [f"at {d} deals" for d in depths]
                       + [f"{last} vs {first} deals", "goal"], rows,
                       f"Brûlot, 4 players, card by card ({EVENTS_PER_DEAL} entries a deal); at each depth "
                       f"{count} API POSTs and as many tricks tapped, medians. A round trip is the bench client's, "
                       f"from sending to the last byte read; a server time is the app's own, from the answer's "
                       f"Server-Timing header (referee/web/serving/server_timing.py).")
    rows = []
    for name, label, goal in SIZES:
        cells = []
        for d in depths:
            answers = figures[d].get(name, [])
            cells.append(f"{kib(max(a.raw for a in answers))} / {kib(max(a.wire for a in answers))}"
                         if answers else "—")
        rows.append([label] + cells + [goal])
    return text + print_table("Answer sizes", ["answer"] + [f"at {d} deals" for d in depths] + ["goal"], rows,
                              "The largest of each kind: decoded / on the wire (sent with Accept-Encoding: gzip).")
