"""Movements: who meets whom in each round of a tournament. Pure: entrants are ids, seatings are tuples.

Practice as in the federation's competition code, art. 17, as summarised by player sites:

- **Mitchell**: tables numbered 1…n; North-South lines stay at their table, East-West lines move up one table each
  round (n → 1). With an even number of tables the East-West lines skip one table half-way, so that no two lines meet
  twice. A Mitchell has ``n`` rounds without a repeat for an odd ``n``, ``n - 1`` for an even one.
- **Danish**: after a round the standings pair 1st with 2nd, 3rd with 4th, …; pairs that already met are separated by
  taking the next one down where possible.
- **All-play-all** (round robin): the circle method of Berger's tables; with an odd number of entrants a phantom
  gives a bye each round, so everyone has exactly one.

In every seating a table is ``(ns, ew)``: the North-South entrant (side 0) and the East-West one (side 1).
"""
from __future__ import annotations

from referee.errors import RefereeError, msg


class PlanError(RefereeError, ValueError):
    """A plan that cannot be played (a Mitchell round past its movement's end, too few entrants, a victory-point
    table that cannot be read): a ``ValueError`` carrying a sentence for the director (422 in the API)."""

    def __init__(self, code: str, template: str, **params):
        super().__init__(code, template, **params)


def _at_least_two(count: int) -> None:
    if count < 2:
        raise PlanError("too_few_entrants", msg("A round needs at least two entrants; there are {count}."),
                        count=count)


# --- Mitchell --------------------------------------------------------------------------------------------------

def mitchell_rounds(tables: int) -> int:
    """Rounds of a Mitchell on ``tables`` tables without a repeat meeting: ``tables`` if odd, ``tables - 1`` if
    even (the skip costs one round)."""
    if tables < 1:
        raise PlanError("too_few_tables", msg("A Mitchell needs at least one table."))
    return tables if tables % 2 else tables - 1


def mitchell_shift(tables: int, round_index: int) -> int:
    """How many tables up the East-West lines have moved in round ``round_index`` (0-based): one a round, plus one
    from round ``tables // 2`` on when ``tables`` is even (the skip)."""
    rounds = mitchell_rounds(tables)
    if not 0 <= round_index < rounds:
        raise PlanError("mitchell_over", msg("A Mitchell on {tables} tables has {rounds} rounds without a repeat "
                                             "meeting; round {round} would be one too many."),
                        tables=tables, rounds=rounds, round=round_index + 1)
    skip = 1 if tables % 2 == 0 and round_index >= tables // 2 else 0
    return round_index + skip


def mitchell(tables: int, round_index: int) -> list[tuple[int, int]]:
    """For each table ``t`` (0-based) the lines ``(ns_line, ew_line)`` seated there in round ``round_index``
    (0-based among the Mitchell rounds). North-South line ``t`` stays at table ``t``; East-West line ``e`` sits at
    table ``(e + shift) % tables``. ``ValueError`` (``PlanError``) past ``mitchell_rounds(tables)``."""
    shift = mitchell_shift(tables, round_index)
    return [(t, (t - shift) % tables) for t in range(tables)]


def mitchell_seating(entrants: list[int], round_index: int) -> tuple[list[tuple[int, int | None]], int | None]:
    """The tables of Mitchell round ``round_index`` for ``entrants`` (in the order the tournament lists its active
    entrants): the first half are the North-South lines, the second half the East-West lines.

    An odd count adds a phantom as the last North-South line, at a last table of its own: that table is left out
    of the answer (so every other table keeps its number from round to round) and the East-West entrant who would
    sit at it has the round's bye. Returns ``(tables as (ns_entrant, ew_entrant), bye entrant or None)``.
    """
    entrants = list(entrants)
    _at_least_two(len(entrants))
    half = len(entrants) // 2
    seated, byes = mitchell_lines(entrants[:half] + [None] * (len(entrants) % 2), entrants[half:], round_index)
    return [(ns, ew) for _table, ns, ew in seated], (byes[0] if byes else None)


def mitchell_lines(ns_lines: list, ew_lines: list, round_index: int) -> tuple[list[tuple[int, int, int]], list]:
    """Mitchell round ``round_index`` of lines kept from the movement's first round, where ``None`` is an empty
    place (the phantom's, a withdrawn entrant's): North-South line ``t`` stays at table ``t + 1``, East-West lines
    move as in ``mitchell``, so nobody changes line and no two entrants meet twice. A table with an empty place is
    not played; the entrant facing it has a bye. Returns ``([(table number, ns, ew)], [entrants with a bye])``."""
    seated, byes = [], []
    for table, (ns, ew) in enumerate(mitchell(len(ns_lines), round_index)):
        a, b = ns_lines[ns], ew_lines[ew]
        if a is not None and b is not None:
            seated.append((table + 1, a, b))
        elif a is not None or b is not None:
            byes.append(b if a is None else a)
    return seated, byes


# --- Danish ----------------------------------------------------------------------------------------------------

def danish(ranking: list[int], met: set[frozenset], byes=frozenset()) -> tuple[list[tuple[int, int]], int | None]:
    """Danish pairing from ``ranking`` (best first): 1st v 2nd, 3rd v 4th, …; an entrant who already met the next
    one (``frozenset({a, b})`` in ``met``) takes the next one down instead, and when that would leave someone below
    without a new opponent the choices above are revised (backtracking), so everyone is seated without a repeat
    whenever that is possible. Where it is not, the fewest repeats are accepted (the search is bounded: past its
    bound each entrant in turn takes the highest-ranked one left it has not met, or the next one down). An odd
    count: the lowest-ranked entrant who has not had a bye yet (``byes``: those who had one) has it, the lowest-ranked
    when everyone has had one. Returns ``(pairs as (higher, lower), bye or None)``."""
    ranking = list(ranking)
    _at_least_two(len(ranking))
    bye = None
    if len(ranking) % 2:
        bye = next((e for e in reversed(ranking) if e not in byes), ranking[-1])
        ranking.remove(bye)
    budget = [50000]
    for allowed in range(len(ranking) // 2 + 1):  # repeats allowed: none first
        pairs = _pair(ranking, met, allowed, budget)
        if pairs is not None:
            return pairs, bye
        if budget[0] <= 0:
            break
    return _greedy(ranking, met), bye


def _pair(rest: list[int], met: set, allowed: int, budget: list) -> list[tuple[int, int]] | None:
    """The first pairing of ``rest`` in ranking order with at most ``allowed`` repeat meetings, or None (none
    exists, or ``budget``, the nodes left to visit, ran out)."""
    if not rest:
        return []
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    top, others = rest[0], rest[1:]
    for i, opponent in enumerate(others):
        repeat = frozenset((top, opponent)) in met
        if repeat and not allowed:
            continue
        tail = _pair(others[:i] + others[i + 1:], met, allowed - repeat, budget)
        if tail is not None:
            return [(top, opponent)] + tail
        if budget[0] <= 0:
            return None
    return None


def _greedy(ranking: list[int], met: set) -> list[tuple[int, int]]:
    rest, pairs = list(ranking), []
    while rest:
        top = rest.pop(0)
        opponent = next((o for o in rest if frozenset((top, o)) not in met), rest[0])
        rest.remove(opponent)
        pairs.append((top, opponent))
    return pairs


# --- All-play-all ----------------------------------------------------------------------------------------------

def round_robin_rounds(count: int) -> int:
    """Rounds for everyone to meet everyone once: ``count - 1`` if even, ``count`` if odd (a bye each round)."""
    _at_least_two(count)
    return count - 1 if count % 2 == 0 else count


def round_robin(entrants: list[int], round_index: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``round_index`` (0-based) of an all-play-all by the circle method (Berger's tables): the last entrant
    (or the phantom, with an odd count) stays put and the others turn one place a round; the one facing the phantom
    has the bye. The fixed entrant alternates North-South and East-West. Returns ``(pairs, bye or None)``."""
    entrants = list(entrants)
    rounds = round_robin_rounds(len(entrants))
    if not 0 <= round_index < rounds:
        raise PlanError("round_robin_over", msg("An all-play-all of {count} entrants has {rounds} rounds; round "
                                                "{round} would be one too many."),
                        count=len(entrants), rounds=rounds, round=round_index + 1)
    circle = entrants + [None] if len(entrants) % 2 else entrants
    n = len(circle)
    fixed, moving = circle[-1], circle[:-1]
    turned = moving[round_index % (n - 1):] + moving[:round_index % (n - 1)]
    line = turned + [fixed]
    pairs, bye = [], None
    for i in range(n // 2):
        a, b = line[i], line[n - 1 - i]
        if i == 0 and round_index % 2:
            a, b = b, a
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, bye
