"""A tournament as it is asked for, checked before anything is stored (``store.py``): its entrants, its rounds'
plan, its VP table, and whether the plan fits the entrants. Pure functions: every refusal is a ``ParseError`` or a
``RuleError`` with its sentence."""
from __future__ import annotations

from referee.errors import ParseError, RuleError
from referee.games import FactByGame, get_game
from referee.games.base import MAX_NAME
from referee.tournament import movements, scoring

MOVEMENTS = ("mitchell", "danish", "round_robin")
LENGTH = FactByGame("round_unit")  # the option a round's length sets, by game (the registry's, read live)
DEFAULT_HANDS = 3  # a round of 3 hands (Burraco's) unless the plan says otherwise
MAX_ENTRANTS, MAX_ROUNDS, MAX_LENGTH = 1000, 40, 30


def entrants(entrants) -> list:
    """The entrants' names, checked: 2 to MAX_ENTRANTS, each a pair or one player (all alike), every name its own."""
    if not isinstance(entrants, list) or not 2 <= len(entrants) <= MAX_ENTRANTS:
        raise ParseError("bad_entrants", "Entrants are a list of 2 to {max} pairs or players.", max=MAX_ENTRANTS,
                         field="entrants")
    listed = []
    for entrant in entrants:
        names = [entrant] if isinstance(entrant, str) else entrant
        if not isinstance(names, list) or len(names) not in (1, 2) or not all(
                isinstance(n, str) and n.strip() and len(n.strip()) <= MAX_NAME and n.isprintable() for n in names):
            raise ParseError("bad_entrants", "An entrant is a pair or one player: one or two names of 1 to {max} "
                             "printable characters.", max=MAX_NAME, field="entrants")
        listed.append([n.strip() for n in names])
    if len({len(names) for names in listed}) != 1:
        raise ParseError("bad_entrants", "Entrants are all pairs or all single players.", field="entrants")
    seen = set()
    for name in (n for names in listed for n in names):
        if name.casefold() in seen:
            raise ParseError("bad_entrants", "{name} is entered twice; give each player a name of their own.",
                             name=name, field="entrants")
        seen.add(name.casefold())
    return listed


def plan(game_id: str, rounds) -> list:
    if not isinstance(rounds, list) or not 1 <= len(rounds) <= MAX_ROUNDS:
        raise ParseError("bad_rounds", "The rounds are a list of 1 to {max} rounds.", max=MAX_ROUNDS, field="rounds")
    plan = []
    for spec in rounds:
        if not isinstance(spec, dict) or spec.get("movement") not in MOVEMENTS:
            raise ParseError("bad_rounds", "Each round has a movement: mitchell, danish or round_robin.",
                             field="rounds")
        entry = {"movement": spec["movement"]}
        for name in ("hands", "deals"):
            value = spec.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LENGTH:
                raise ParseError("bad_rounds", "A round's {name} is a whole number from 1 to {max}.", name=name,
                                 max=MAX_LENGTH, field="rounds")
            if LENGTH.get(game_id) != name:
                raise ParseError("bad_rounds", "A round of this game is not counted in {name}.", name=name,
                                 field="rounds")
            entry[name] = value
        if LENGTH.get(game_id) == "hands":
            entry.setdefault("hands", DEFAULT_HANDS)
        plan.append(entry)
    return plan


SHIPPED_FOR = {"burraco_3": 3, "burraco_4": 4}  # R-TOURN-4: the round length each shipped VP table is made for


def vp_rows(game_id: str, spec, plan: list) -> list:
    """Burraco's VP table: the tournament's own rows, or the shipped one made for its rounds' length (3 or 4 hands).
    R-TOURN-4: a scale never applies to a round length it was not made for, so rounds not all of 3 or all of 4
    hands (2 hands, or lengths that differ), or a shipped table named for rounds of another length, need the
    director's own rows: 422 ``vp_table_needed``."""
    if not get_game(game_id).scored_by_vp_table:
        return []
    lengths = sorted({s["hands"] for s in plan})
    if spec is None or isinstance(spec, str) and spec in SHIPPED_FOR:
        made_for = SHIPPED_FOR.get(spec) if spec is not None else (
            lengths[0] if len(lengths) == 1 and lengths[0] in SHIPPED_FOR.values() else None)
        if made_for is None or lengths != [made_for]:
            raise RuleError("vp_table_needed", "The shipped VP tables are made for rounds of 3 hands or of 4 hands, "
                            "all alike; these rounds are of {hands} hands: give the VP table's rows (vp_table).",
                            rule="R-TOURN-4", hands=", ".join(str(n) for n in lengths), field="vp_table")
        spec = next(name for name, hands in SHIPPED_FOR.items() if hands == made_for)
    try:
        return scoring.vp_table(spec)
    except movements.PlanError as error:
        error.params.setdefault("field", "vp_table")
        raise


def mitchell(rounds: int, count: int) -> None:
    tables = (count + 1) // 2
    if rounds > movements.mitchell_rounds(tables):
        raise RuleError("mitchell_over", "A Mitchell of {tables} tables has {rounds} rounds without a repeat "
                        "meeting; round {round} would be one too many.", tables=tables,
                        rounds=movements.mitchell_rounds(tables), round=rounds)


def fits(plan: list, count: int) -> None:
    """The plan fits the entrants as they are now: Mitchell and all-play-all rounds within their movement."""
    movements_in_plan = [s["movement"] for s in plan]
    if "mitchell" in movements_in_plan:
        mitchell(movements_in_plan.count("mitchell"), count)
    if movements_in_plan.count("round_robin") > movements.round_robin_rounds(count):
        raise RuleError("round_robin_over", "An all-play-all of {count} entrants has {rounds} rounds; the plan has "
                        "{planned}.", count=count, rounds=movements.round_robin_rounds(count),
                        planned=movements_in_plan.count("round_robin"))
