"""Prints, for one realistic deal of each game in each way of entry, the taps, the taps that needed a scroll first
and the seconds a scorer's phone spends (Debian's Chromium driven by Playwright at 360×740, from the scorer page).

    .venv/bin/python bench/taps.py [--games brisca,brouc] [--modes trick,capture,numbers]

The deals come from tests/support/simulate.py (seeded) and the rule texts' worked examples in the tests. A tap counts once
whatever it is (a card, a key, a chip, save); choosing the table's way of entry is done once before the deal and not
counted; the tap that starts the deal (the turned card, or "start") is counted. Seconds include the server's answers
on loopback. It starts its own server (127.0.0.1, a temporary SQLite database), prints figures, asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from servers import start_server  # noqa: E402

from tests.support.simulate import brisca_deal, brulot_deal, brusquembille_deal  # noqa: E402
from tests.support.deals import DEAL_B  # noqa: E402

# Brouc's deal B of the tests with two kings moved so that one mariage sur table is left (clubs, to Bo & Di):
# Ana announces K Q of trump after trick 1 (R-BROUC-4, 5).
DEAL_ONE_MARRIAGE = [["7S", "8S", "KS", "AS"], DEAL_B[1], DEAL_B[2], ["9S", "QS", "JS", "10S"], ["AD", "9D", "QD", "JD"],
                     ["10D", "KD", "8D", "7D"], DEAL_B[6], DEAL_B[7]]

IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@dataclass
class Deal:
    """One deal to enter: the table, and per way of entry the steps: ("tap", selector), ("keys", digits) on the keypad,
    or ("field", selector): a tap on that field unless the keypad already moved on to it."""

    game: str
    players: list
    label: str
    steps: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)


def card(code):
    return ("tap", f"button.card[value='{code}']")


def act(value):
    return ("tap", f"button[value='{value}']")


def by_cards(game_id, players, events, options=None) -> dict:
    """The deal as the engine counts it from its cards: its state (piles, points, jetons come from there)."""
    from referee.games import get_game
    game = get_game(game_id)
    return game.serialise(game.replay(players, options or {}, 0, events))


def piles(state) -> list:
    """Each side's captured cards, from the deal's tricks."""
    taken = [[] for _ in state["sides"]]
    for trick in state["deals"][0]["tricks"]:
        side = next(s for s, members in enumerate(state["sides"]) if trick["winner"] in members["players"])
        taken[side] += trick["cards"]
    return taken


def trick_steps(events, extra=None):
    steps = [card(events[0]["trump"])]
    for number, body in enumerate(events[1:], 1):
        steps += [card(c) for c in body["cards"]]
        steps += (extra or {}).get(number, [])
    return steps


def pile_steps(events, taken, extras=()):
    steps = [card(events[0]["trump"])]
    for pile in taken[:-1]:  # the last pile is worked out
        steps += [card(c) for c in pile] + list(extras) + [("tap", "form[action*='/save'] button.primary")]
        extras = ()
    return steps


def deals() -> list:
    found = []
    brisca = brisca_deal(2, 0, 11)
    state = by_cards("brisca", ["Ana", "Bo"], brisca)
    found.append(Deal("brisca", ["Ana", "Bo"], "Brisca, 2 players", {
        "trick": trick_steps(brisca), "capture": pile_steps(brisca, piles(state)),
        "numbers": [card(brisca[0]["trump"]), ("keys", str(state["deals"][0]["points"][0])), ("tap", ".sheet-save")]}))

    brouc = [{"type": "deal", "trump": "KH"}] + [{"type": "trick", "cards": c} for c in DEAL_ONE_MARRIAGE]
    announce = [("tap", "a[href*='mode=announce']"), ("tap", "a[href*='player=0']"), card("KH"), card("QH"),
                ("tap", "form[action*='/save'] button.primary")]
    state = by_cards("brouc", ["Ana", "Bo", "Cy", "Di"], brouc[:2] + [{"type": "announce", "player": 0,
                                                                        "cards": ["KH", "QH"]}] + brouc[2:])
    sheet = [act("pick:a:0"), act("add:a:H:KQ")]
    for marriage in state["deals"][0]["marriages"]:
        suit, ranks = marriage["cards"][0][-1], "KQJ" if len(marriage["cards"]) == 3 else "KQ"
        sheet += [act(f"pick:m:{marriage['side']}"), act(f"add:m:{suit}:{ranks}")]
    found.append(Deal("brouc", ["Ana", "Bo", "Cy", "Di"], f"Brouc, an announce, {len(sheet) // 2 - 1} mariage", {
        "trick": trick_steps(brouc, {1: announce}), "capture": pile_steps(brouc, piles(state), sheet),
        "numbers": [card("KH"), ("keys", str(state["deals"][0]["points"][0]))] + sheet + [("tap", ".sheet-save")]}))

    brulot, penalties, _ = brulot_deal(4, 0, 5, "dealer_last_card")
    options = {"no_trump": False}  # R-BRULOT-2: the dealer shows his last card for trump
    state = by_cards("brulot", ["Ana", "Bo", "Cy", "Di"], brulot, options)
    numbers = [card(brulot[0]["trump"])]
    for player, value in enumerate(penalties[:-1]):
        numbers += [("field", f"input[name=v{player}]"), ("keys", str(value))]
    found.append(Deal("brulot", ["Ana", "Bo", "Cy", "Di"], "Brûlot, 4 players", {
        "trick": trick_steps(brulot), "capture": pile_steps(brulot, piles(state)),
        "numbers": numbers + [("tap", ".sheet-save")]}, options))

    for seed in range(1, 500):  # the first seeded deal in which three brusquembilles moved jetons
        brusq = brusquembille_deal(3, 0, seed)
        state = by_cards("brusquembille", ["Ana", "Bo", "Cy"], brusq)
        if len(state["deals"][0]["movements"]) == 3:
            break
    moved = [(m["card"], m["player"], m["kind"]) for m in state["deals"][0]["movements"]]
    sheet = []
    for code, player, kind in moved:
        sheet += [act(f"cycle:{code}")] * (1 if kind == "won" else 2) + [act(f"who:{code}:{player}")]
    points = state["deals"][0]["points"]
    found.append(Deal("brusquembille", ["Ana", "Bo", "Cy"], f"Brusquembille, 3 players, {len(moved)} moved jetons", {
                          "trick": trick_steps(brusq), "capture": pile_steps(brusq, piles(state), sheet),
                          "numbers": [card(brusq[0]["trump"]), ("keys", str(points[0])), ("field", "input[name=v1]"),
                                      ("keys", str(points[1]))] + sheet + [("tap", ".sheet-save")]}))

    # Buraco, 4 players: Ana closes; Ana & Cy laid 250 with a pure burraco, Cy kept 15; Bo & Di laid 120, kept 45.
    found.append(Deal("buraco", ["Ana", "Bo", "Cy", "Di"], "Buraco, 4 players, one hand", {"numbers": [
        ("tap", "form[action*='/deal'] button.primary"), act("toggle:k:0"), ("field", "input[name=v0]"),
        ("keys", "250"), ("field", "input[name=v1]"), ("keys", "15"), act("more:u:0:pure"),
        ("field", "input[name=v2]"), ("keys", "120"), ("field", "input[name=v3]"), ("keys", "45"),
        ("tap", ".sheet-save")]}))
    return found


def api(base, path, body=None, key=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def enter(browser, base, deal: Deal, mode: str) -> tuple:
    """(taps, taps that needed a scroll first, seconds, the deal's points as stored)."""
    made = api(base, "/api/v1/tables", {"game": deal.game, "players": deal.players, "options": deal.options})
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/t/{made['id']}/entry/{mode}?key={made['scorer_key']}&lang=en")
    taps = scrolls = 0
    start = time.perf_counter()
    for kind, what in deal.steps[mode]:
        if kind == "field" and page.locator(what).first.evaluate("e => e.classList.contains('active')"):
            continue  # the keypad already moved on to this field: no tap
        targets = [f".keypad [data-key='{d}']" for d in what] if kind == "keys" else [what]
        for selector in targets:
            box = page.locator(selector).first.bounding_box()
            if box is None or box["y"] < 0 or box["y"] + box["height"] > 740:
                scrolls += 1
            page.locator(selector).first.click()
            page.wait_for_function(IDLE)
            taps += 1
    seconds = time.perf_counter() - start
    state = api(base, f"/api/v1/tables/{made['id']}", key=made["scorer_key"])
    context.close()
    return taps, scrolls, seconds, state["deals"][0]["points"] if state["deals"] else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="brisca,brouc,brulot,brusquembille,buraco")
    parser.add_argument("--modes", default="trick,capture,numbers")
    parser.add_argument("--port", type=int, default=5093)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    games, modes = args.games.split(","), args.modes.split(",")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = start_server(Path(tmp) / "taps.sqlite3", args.port)
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        try:
            print(f"{'deal':<52} {'entry':<8} {'taps':>5} {'scrolls':>8} {'seconds':>8}  points")
            for deal in deals():
                if deal.game not in games:
                    continue
                for mode in modes:
                    if mode in deal.steps:
                        taps, scrolls, seconds, points = enter(browser, f"http://127.0.0.1:{args.port}", deal, mode)
                        print(f"{deal.label:<52} {mode:<8} {taps:>5} {scrolls:>8} {seconds:>8.1f}  {points}")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
