"""A state's copy (``referee/games/copying.py``, what ``fork`` steps an entry on) is the copy ``copy.deepcopy``
makes: equal to it, sharing none of the source's mutable objects but the finished deals it was told to share, and
keeping an object reached by two paths one object."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import pytest

from referee.games import get_game
from referee.games.base import fork
from referee.games.copying import deep_copy
from tests.support.series import SERIES

MUTABLE = (list, dict, set)


def mutable_objects(root, stop: set) -> dict:
    """id -> object of every list, dict, set and mutable dataclass record reachable from ``root``, not past ``stop``."""
    found, todo = {}, [root]
    while todo:
        obj = todo.pop()
        if id(obj) in found or id(obj) in stop:
            continue
        if isinstance(obj, MUTABLE):
            found[id(obj)] = obj
            todo.extend(obj.items() if isinstance(obj, dict) else obj)
        elif isinstance(obj, tuple):
            todo.extend(obj)
        elif hasattr(obj, "__dataclass_fields__") and not obj.__dataclass_params__.frozen:  # a card is a value
            found[id(obj)] = obj
            todo.extend(vars(obj).values())
    return found


@pytest.mark.parametrize("game_id, players, options, entries", SERIES, ids=[s[0] for s in SERIES])
def test_every_state_of_every_game_is_copied_as_deepcopy_copies_it(game_id, players, options, entries):
    game = get_game(game_id)
    state = game.new_table(players, options)
    for body in entries:
        state = game.apply(state, game.parse_event(state, body))
        shared = {id(deal): deal for deal in state.deals[:-1]}
        ours, theirs = deep_copy(state, dict(shared)), copy.deepcopy(state, dict(shared))
        assert ours == theirs and type(ours) is type(state)
        assert game.serialise(ours) == game.serialise(state)
        assert all(a is b for a, b in zip(ours.deals[:-1], state.deals[:-1]))
        copied, source = mutable_objects(ours, set(shared)), mutable_objects(state, set(shared))
        assert not set(copied) & set(source), "the copy shares a mutable object with its source"
        assert len(copied) == len(source)  # no object copied twice, none missed


@dataclass
class Flag:
    code: str


@dataclass
class Proof:
    replaces: Flag | None
    params: dict = field(default_factory=dict)


def test_an_object_reached_twice_stays_one_object_and_values_are_shared():
    flag = Flag("suspected")
    record = {"flags": [flag], "proofs": [Proof(flag, {"card": "AS"})], "suits": frozenset("SH"), "pair": (1, [2])}
    copied = deep_copy(record, {})
    assert copied == record
    assert copied["proofs"][0].replaces is copied["flags"][0] is not flag
    assert copied["suits"] is record["suits"]
    assert copied["pair"] is not record["pair"] and copied["pair"][1] is not record["pair"][1]


def test_fork_shares_the_finished_deals_and_copies_the_open_one():
    game_id, players, options, entries = SERIES[1]  # Brûlot, 70 deals
    game = get_game(game_id)
    state = game.replay(players, options, 0, entries[:40])
    copied = fork(state)
    assert copied.deals[:-1] == state.deals[:-1] and all(a is b for a, b in zip(copied.deals, state.deals[:-1]))
    assert copied.deals[-1] == state.deals[-1] and copied.deals[-1] is not state.deals[-1]
    assert copied.deals is not state.deals and copied.totals is not state.totals
