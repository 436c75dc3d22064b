"""A club's data taken away and brought back (R-CLUB-1): ``export`` writes the whole club as one document (its name
and season, its members (one who left as an id without a name), every table's set-up and whole log with its members
per seat, in the order the series finished, and its tournaments' names); ``import_club`` makes a new club of it, with
new keys. The tables are imported as a table's export is (``Ledger.import_club_tables``: each log replayed through
its engine), keeping each entry's time, so that the series finish in the same order on the same days and the
ladder, the season's figures and every rating come out as they were. The whole club is stored in one transaction,
table by table (its memory: the file and one batch of rows): a refused file, or a server stopped in the middle,
stores no club; the same form sent again answers the one club it made, whole. A tournament comes back as its
tables (the club's figures are its tables'), not as a tournament to direct."""
from __future__ import annotations

import hashlib
import json

from referee.club.checks import MAX_MEMBERS, member_name, no_constant, season_date
from referee.errors import ParseError
from referee.store import Created

EXPORT_FORMAT = "referee-club/1"


def not_an_export(detail: str | None = None) -> ParseError:
    return ParseError("bad_import", "This is not a club's export of Referee (a .json file made by a club's page).",
                      **({"detail": detail} if detail else {}))


def export(clubs, club_id: str) -> dict:
    """The whole club as one document (``EXPORT_FORMAT``, see the module); ``clubs``: the store."""
    state = clubs.state(club_id)
    order = sorted(state["tables"], key=lambda t: (t["finished_at"] is None, t["finished_at"] or "",
                                                   t["created_at"], t["id"]))
    logs = clubs.ledger.exports([t["id"] for t in order])
    return {"format": EXPORT_FORMAT, "club": {"name": state["name"], "season": state["season"]},
            "members": [{"id": m["id"], "name": m["name"]} if not m["removed"] else {"id": m["id"], "removed": True}
                        for m in clubs.members(club_id)],
            "tables": [{"table": setup, "events": log, "members": t["members"]}
                       for t, (setup, log) in zip(order, logs)],
            "tournaments": [{"name": t["name"], "game": t["game"]} for t in state["tournaments"]]}


def import_club(clubs, doc, once=None) -> Created:
    """A new club made of an export (see the module): (state, club key, viewer key), 201; the same form again, 200.
    All or nothing (R-CLUB-1): the names and seats checked first, then ONE transaction (``Clubs.import_whole``)
    replays and stores table by table; a refused log or entry time, or a server stopped, leaves no club."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT or not isinstance(doc.get("club"), dict) \
            or not isinstance(doc.get("members"), list) or not isinstance(doc.get("tables"), list):
        raise not_an_export()
    no_constant(doc)  # NaN, Infinity: refused with the table and entry that hold one
    members = doc["members"]
    if len(members) > MAX_MEMBERS:
        raise ParseError("too_many_members", "A club has at most {max} members.", max=MAX_MEMBERS)
    found, known, seen = [], set(), set()
    for member in members:
        if not isinstance(member, dict) or not isinstance(member.get("id"), str) or member["id"] in known:
            raise not_an_export("members")
        known.add(member["id"])
        name = None if member.get("removed") is True else member_name(member.get("name"))
        if name is not None and name.casefold() in seen:
            raise ParseError("duplicate_player", "{name} is a member already: give each member a name of their "
                             "own.", name=name)
        seen.update([name.casefold()] if name else [])
        found.append((member["id"], name))
    for item in doc["tables"]:  # every seat first; each log is checked as it is stored, in the one transaction
        if not isinstance(item, dict) or not isinstance(item.get("table"), dict):
            raise not_an_export("tables")
        players, seats = item["table"].get("players"), item.get("members")
        if not isinstance(players, list) or not isinstance(seats, list) or len(seats) != len(players) or any(
                seat is not None and (not isinstance(seat, str) or seat not in known) for seat in seats) or len(
                [s for s in seats if s]) != len({s for s in seats if s}):
            raise not_an_export("members")
    since = season_date(doc["club"].get("season"))
    tables = ((item["table"], item.get("events"), item["members"]) for item in doc["tables"])
    return clubs.import_whole(doc["club"].get("name"), found, since, tables, digest(doc) if once else "", once)


def digest(doc: dict) -> str:
    """What a file says, in 64 characters (SHA-256 of its JSON, written a piece at a time): the same form sending
    another file asks for another club."""
    made = hashlib.sha256()
    for piece in json.JSONEncoder(sort_keys=True, ensure_ascii=True).iterencode(doc):
        made.update(piece.encode())
    return made.hexdigest()
