"""A club's set-up forms (R-CLUB-1): a table's (``tables/setup.py``) and a tournament's (``tournaments/pages.py``)
carry ``?club=<id>&key=<club key>``; this reads the club and its members for their chips, the last players first."""
from __future__ import annotations

from flask import request

from referee.web.services import clubs, request_key


def club_of_form() -> dict | None:
    """A club's set-up (``?club=<id>&key=<club key>``, R-CLUB-1): the club (its id, name, key) and its members, the
    last players first; None for a free table. 401/403/404 as the club's pages."""
    club_id = request.args.get("club")
    if not club_id:
        return None
    key = request_key()
    clubs().authorize(club_id, key, write=True)
    state = clubs().state(club_id)
    members = sorted(state["members"], key=lambda m: (m["last_played"] is None, _desc(m["last_played"] or ""),
                                                      m["name"].casefold()))
    return {"id": club_id, "name": state["name"], "key": key, "members": members}


def _desc(text: str) -> str:
    return "".join(chr(0x10FFFF - ord(c)) for c in text)  # the newest first, as a sort key
