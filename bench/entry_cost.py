"""The figures of "an entry near the floor" (issues 26 and 40), one row each, as the issue's table writes them:
Referee and the floor side by side, the ratio, the goal; per database (SQLite, and PostgreSQL where
``BENCH_DATABASE_URL`` reaches a server). ``bench/run.py`` gathers them from the benches that measure them
(``entries.trick_vs_floor``, ``entries.by_depth``, ``load.py``'s scorers) and prints them last."""
from __future__ import annotations

from common import median, ms, percentile, print_table, rate, times
from entries import server_seconds

GOALS = {"trick": "≤ 1.5× / ≤ 2×", "trick PostgreSQL": "≤ 2× / ≤ 2×", "scorers": "≥ 0.5× the floor, < 150 ms", "depth": "≤ 1.25×",
         "tap": "≤ 4 ms at the 200th"}


class EntryCost:
    """The figures as they come, per database; ``rows()`` the table's rows."""

    def __init__(self):
        self.trick: dict = {}
        self.scorers: dict = {}
        self.depth: dict = {}
        self.skipped: dict = {}

    def rows(self) -> list:
        found = []
        for database in dict.fromkeys([*self.trick, *self.scorers, *self.depth, *self.skipped]):
            if database in self.skipped:
                found.append([f"{database}: {self.skipped[database]}", "", "", "", ""])
                continue
            if database in self.trick:
                found.append(trick_row(self.trick[database], database))
            if database in self.scorers:
                found.append(scorers_row(self.scorers[database], database))
            if database in self.depth:
                found.append(depth_row(self.depth[database], database))
                found.append(tap_row(self.depth[database], database))
        return found


def trick_row(figures: dict, database: str) -> list:
    """``entries.trick_vs_floor``'s figures: the medians and p99s of the interleaved POSTs."""
    ours, floor = figures["referee"], figures["floor"]
    a50, b50, a99, b99 = (percentile(ours, 0.5), percentile(floor, 0.5), percentile(ours, 0.99),
                          percentile(floor, 0.99))
    return [f"trick POST against the floor, median / p99, {database}", f"{ms(b50)} / {ms(b99)}",
            f"{ms(a50)} / {ms(a99)}", f"{times(a50 / b50)} / {times(a99 / b99)}",
            GOALS["trick PostgreSQL" if database == "PostgreSQL" else "trick"]]


def scorers_row(figures: dict, database: str) -> list:
    """``load.py``'s scorers: entries a second and the p99 of an entry, for each side."""
    floor, ours = figures["floor"], figures["referee"]
    failed = f" ({ours['failed']} failed)" if ours["failed"] else ""
    return [f"50 scorers back to back: entries a second, p99, {database}",
            f"{rate(floor['entries_per_second'])}, {ms(floor['p99_ms'] / 1000)}",
            f"{rate(ours['entries_per_second'])}, {ms(ours['p99_ms'] / 1000)}{failed}",
            f"{times(ours['entries_per_second'] / floor['entries_per_second'])}, "
            f"{times(ours['p99_ms'] / floor['p99_ms'])}", GOALS["scorers"]]


def depth_row(figures: dict, database: str) -> list:
    """``entries.by_depth``'s figures: a trick's last tap (stored) at the deepest and the first depth; the floor's
    POST at the same moments beside it."""
    first, last = min(figures), max(figures)

    def at(depth, name):
        return median([answer.seconds for answer in figures[depth].get(name, [])])
    ours, floor = (at(last, "tap_trick"), at(first, "tap_trick")), (at(last, "floor"), at(first, "floor"))
    return [f"a trick's last tap at the {ordinal(last)} deal against the {ordinal(first)}, {database}",
            f"{ms(floor[0])} / {ms(floor[1])} ({times(floor[0] / floor[1])})", f"{ms(ours[0])} / {ms(ours[1])}",
            times(ours[0] / ours[1]), GOALS["depth"]]


def tap_row(figures: dict, database: str) -> list:
    """``entries.by_depth``'s taps at the deepest depth: the app's own time (its Server-Timing header), a card tapped
    / a trick's last tap, stored; no floor has taps."""
    last = max(figures)

    def at(name):
        return median([server_seconds(answer) for answer in figures[last].get(name, [])])
    return [f"a card tapped / a trick's last tap at the {ordinal(last)} deal, server time, {database}", "—",
            f"{ms(at('tap'))} / {ms(at('tap_trick'))}", "", GOALS["tap"]]


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def print_entry_cost(cost: EntryCost, server: str) -> str:
    return print_table(
        "An entry near the floor", ["figure, 2 cores", "floor", "Referee", "Referee / floor", "goal"], cost.rows(),
        f"The issue's figures, from the benches above; {server}. The last row's floor column is the floor's "
        f"POST at the same moments (at the deepest / the first depth), its ratio the machine's drift.")
