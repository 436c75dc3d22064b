"""Who sits at a club's new table or plays in its tournament (R-CLUB-1): the tables' and tournaments' creating
calls with ``"club"`` ask these, before the ledger stores anything."""
from __future__ import annotations

from referee.errors import ParseError
from referee.web.services import clubs, request_key


def club_seating(body: dict, items, by_name: bool = False) -> tuple:
    """(names, club) of a new table or tournament's players: without ``"club"`` in the body, the items as they are
    and no club; with it, the club key must be the request's (403 for its viewer key) and each item a member
    (``{"player": id}``) or a guest's name (``store.seating``)."""
    club_id = body.get("club")
    if club_id is None:
        return items, None
    if not isinstance(club_id, str):
        raise ParseError("bad_club", "club is a club's id.", field="club")
    clubs().authorize(club_id, request_key(), write=True)
    names, members = clubs().seating(club_id, items, by_name=by_name)
    return names, (club_id, members)


def club_entrants(body: dict) -> tuple:
    """(entrants, club) of a new tournament: each entrant one name or a pair, each name a member (``{"player":
    id}``, or a member's name) or a guest's name."""
    entrants = body.get("entrants")
    if body.get("club") is None or not isinstance(entrants, list):
        return entrants, None
    shapes = [e if isinstance(e, list) else [e] for e in entrants]
    flat = [name for shape in shapes for name in shape]
    names, club = club_seating(body, flat, by_name=True)
    listed, members, at = [], [], 0
    for entrant, shape in zip(entrants, shapes):
        part = names[at:at + len(shape)]
        listed.append(part if isinstance(entrant, list) else part[0])
        members.append(club[1][at:at + len(shape)])
        at += len(shape)
    return listed, (club[0], members)
