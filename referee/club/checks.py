"""What a club's forms and its import may hold (R-CLUB-1): a club's name, a member's, the season's first day, how
many members, and the word written in place of an erased name. Pure: no Flask, no database."""
from __future__ import annotations

import math
from datetime import date

from referee.errors import ParseError
from referee.games.base import MAX_NAME

MAX_CLUB_NAME = 120
MAX_MEMBERS = 500


def club_name(name) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_CLUB_NAME or not name.isprintable():
        raise ParseError("bad_name", "A club's name is 1 to {max} printable characters.", max=MAX_CLUB_NAME,
                         field="name")
    return name.strip()


def member_name(name) -> str:
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise ParseError("bad_name", "A member's name is 1 to {max} printable characters.", max=MAX_NAME,
                         field="name")
    if len(name.strip()) > MAX_NAME:
        raise ParseError("bad_name", "{name} is {length} characters long: a member's name is at most {max}.",
                         name=name.strip(), length=len(name.strip()), max=MAX_NAME, field="name")
    return name.strip()


def season_date(value) -> str | None:
    """A season's first day as an ISO date (YYYY-MM-DD), or None for every series."""
    if value in (None, ""):
        return None
    try:
        return date.fromisoformat(value).isoformat() if isinstance(value, str) and len(value) == 10 else _bad_date()
    except ValueError:
        return _bad_date()


def _bad_date():
    raise ParseError("bad_season", "A season starts on a day written YYYY-MM-DD.", field="season")


def erased_word(word: str):
    """The word written in place of an erased name: ``word``, or ``word (2)`` … when the table has it already."""
    def choose(taken: set) -> str:
        candidate, n = word, 1
        while candidate.casefold() in taken:
            n += 1
            candidate = f"{word} ({n})"
        return candidate
    return choose


class NotJson:
    """A number JSON does not have (``NaN``, ``Infinity``, ``-Infinity``, ``1e999``), as an import's parser reads
    it (``json_constant``, ``json_float``) so that ``no_constant`` can name where it stands."""

    def __init__(self, text: str):
        self.text = text


def json_constant(text: str) -> NotJson:
    """``json.loads``'s ``parse_constant``: Python's parser takes NaN and Infinity, JSON has neither."""
    return NotJson(text)


def json_float(text: str):
    """``json.loads``'s ``parse_float``: a number too big for a float (``1e999``) is no number either."""
    value = float(text)
    return value if math.isfinite(value) else NotJson(text)


def no_constant(doc: dict) -> None:
    """Refuses (422 ``bad_number``) a club's export holding a ``NotJson``, naming the table and the entry (1 and up
    in the file) where it stands, or the file when it stands elsewhere."""
    for table, item in enumerate(doc.get("tables") or [], 1):
        events = item.get("events") if isinstance(item, dict) else None
        for entry, event in enumerate(events if isinstance(events, list) else [], 1):
            found = _constant_in(event)
            if found is not None:
                raise ParseError("bad_number", "Table {table}, entry {entry}: {value} is not a number JSON has.",
                                 table=table, entry=entry, value=found)
        found = _constant_in(item)
        if found is not None:
            raise ParseError("bad_number", "Table {table}: {value} is not a number JSON has.", table=table,
                             value=found)
    found = _constant_in(doc)
    if found is not None:
        raise ParseError("bad_number", "This file holds {value}, which is not a number JSON has.", value=found)


def _constant_in(value) -> str | None:
    """The text of the first ``NotJson`` in ``value`` (walked without recursion: a file may nest deep), or None."""
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, NotJson):
            return value.text
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return None
