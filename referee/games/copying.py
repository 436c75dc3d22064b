"""A state's copy, as ``copy.deepcopy`` makes it, for the types a state is made of, without its generic machinery.

Every entry copies its table's own fields and its open deal (``referee/games/base.py``: ``fork``): a few hundred
lists, dicts, sets and dataclass records. ``copy.deepcopy`` asks each of them how to be copied (``__reduce_ex__``,
``copyreg``, a reconstruction); this copy knows them. What it gives is what ``copy.deepcopy`` gives: a new object for
every mutable one reached, each reached once whatever the number of paths to it (the memo: a flag raised and the
absence that will change it stay one object), values (numbers, texts, cards, frozen sets) shared. Anything else (a
class with its own way of being copied or pickled, slots, a subclass of a container) goes to ``copy.deepcopy`` with
the same memo.
"""
from __future__ import annotations

import copy
from dataclasses import is_dataclass

from referee.cards import Card

VALUES = frozenset({int, float, bool, str, bytes, type(None), frozenset, Card, range})
_PLAIN: dict = {}  # class -> whether its instances are copied by their __dict__ alone


def deep_copy(value, memo: dict):
    """``copy.deepcopy(value, memo)`` for a state (``memo``: id -> copy, as ``copy.deepcopy`` keeps it)."""
    kind = type(value)
    if kind in VALUES:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found
    if kind is list:
        new = []
        memo[id(value)] = new
        new.extend([deep_copy(item, memo) for item in value])
    elif kind is dict:
        new = {}
        memo[id(value)] = new
        for key, item in value.items():
            new[deep_copy(key, memo)] = deep_copy(item, memo)
    elif kind is set:
        new = {deep_copy(item, memo) for item in value}
        memo[id(value)] = new
    elif kind is tuple:
        items = [deep_copy(item, memo) for item in value]
        new = value if all(a is b for a, b in zip(items, value)) else tuple(items)  # as copy.deepcopy does
        memo.setdefault(id(value), new)
    elif _plain(kind):
        new = kind.__new__(kind)
        memo[id(value)] = new
        new.__dict__.update({name: deep_copy(item, memo) for name, item in value.__dict__.items()})
    else:
        return copy.deepcopy(value, memo)
    return new


def _plain(kind: type) -> bool:
    """A dataclass copied as ``copy.deepcopy`` copies it by default: a new instance, its ``__dict__`` copied."""
    plain = _PLAIN.get(kind)
    if plain is None:
        plain = (is_dataclass(kind) and not hasattr(kind, "__slots__") and not hasattr(kind, "__deepcopy__")
                 and kind.__reduce_ex__ is object.__reduce_ex__ and kind.__reduce__ is object.__reduce__
                 and getattr(kind, "__getstate__", object.__getstate__) is object.__getstate__
                 and not hasattr(kind, "__setstate__") and kind.__new__ is object.__new__)
        _PLAIN[kind] = plain
    return plain
