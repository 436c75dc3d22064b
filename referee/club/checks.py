"""What a club's forms and its import may hold (R-CLUB-1): a club's name, a member's, the season's first day, how
many members, and the word written in place of an erased name. Pure: no Flask, no database."""
from __future__ import annotations

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
