"""Clubs, stored beside the tables (the records: ``referee/models.py``; the statements: ``referee/ledger_clubs.py``).

- A club is a key, like a table: the club key (only its hash is stored) manages its members and makes its tables and
  tournaments; the viewer key opens its wall and its members' pages. No account, no e-mail.
- Every write locks the club's row first (an UPDATE of its ``revision``); a new table or tournament of the club takes
  the same lock in the transaction that stores it (``Ledger.create_table``'s ``club``), so a member removed meanwhile
  never sits at it.
- A member removed is erased by name wherever the club's records show it (``ledger_clubs.erase``); the row stays
  without its name, so the results and the others' ratings stay as they were (R-CLUB-1).
- A club's figures (``report.py``) are worked out from its tables' states and kept per process under the club's
  revision (its own plus its tables'): a wall polling an unchanged club costs one statement.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from datetime import date

from referee import ledger_clubs as db
from referee.club.report import last_played, report
from referee.errors import Conflict, Forbidden, NotFound, ParseError, Unauthorized
from referee.games import get_game
from referee.games.base import MAX_NAME
from referee.models import _iso, hash_key, key_role
from referee.once import Created, Once, minted

MAX_CLUB_NAME = 120
MAX_MEMBERS = 500
KEPT_CLUBS = 32  # clubs whose figures a process keeps
EXPORT_FORMAT = "referee-club/1"
FORMER = "former member"  # the contract's word for an erased name (a page says it in its language)


def missing(club_id: str) -> NotFound:
    return NotFound("club_not_found", "There is no club {club}.", club=repr(club_id))


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


class Clubs:
    """The store of clubs, on the ledger's database."""

    def __init__(self, ledger):
        self.ledger = ledger
        self._kept: OrderedDict = OrderedDict()  # club id -> (revision, figures)
        self._lock = threading.Lock()

    # --- keys -------------------------------------------------------------------------------------------
    def authorize(self, club_id: str, key: str | None, write: bool = False) -> str:
        """'club' (the club key) or 'viewer'; 404 for no such club, 401 for no or a wrong key, 403 for the viewer's
        key on a writing call."""
        with self.ledger.reading() as connection:
            found = db.keys(connection, club_id)
        if found is None:
            raise missing(club_id)
        if not key:
            raise Unauthorized("key_required", "This club needs its key: add ?key=… or an Authorization header.")
        role = key_role(key, found[0], None, found[1])
        if role == "writer":
            return "club"
        if role == "viewer":
            if write:
                raise Forbidden("read_only_key", "This is the club's viewer key: it shows the club but cannot "
                                "change it.")
            return "viewer"
        raise Unauthorized("bad_key", "This key does not open this club.")

    def viewer_key(self, club_id: str) -> str:
        with self.ledger.reading() as connection:
            found = db.keys(connection, club_id)
        if found is None:
            raise missing(club_id)
        return found[1]

    # --- writing ----------------------------------------------------------------------------------------
    def create(self, name, once: Once | None = None) -> Created:
        """A club with no member yet: (state, club key, viewer key), status 201 (200: the same form again)."""
        name = club_name(name)
        made = minted(once, "club", {"name": name})
        values = {"id": made.id, "name": name, "key_hash": hash_key(made.writer_key), "viewer_key": made.viewer_key}
        if not self.ledger.store_new(lambda connection: db.insert_club(connection, values),
                                     taken_is_known=once is not None):
            with self.ledger.reading() as connection:
                found = db.keys(connection, made.id)
            if found is None or found[0] != hash_key(made.writer_key):
                raise Conflict("not_made", "The club could not be stored: send it again.")
            return Created(self.state(made.id), made.writer_key, found[1], status=200)
        return Created(self.state(made.id), made.writer_key, made.viewer_key)

    def add_member(self, club_id: str, name) -> dict:
        """A new member: 409 ``duplicate_player`` when a member has that name already (compared case-insensitively)."""
        name = member_name(name)
        with self.ledger.writing() as connection:
            members = self._locked(connection, club_id)
            active = [m for m in members if not m.removed]
            _unique(active, name)
            if len(active) >= MAX_MEMBERS:
                raise Conflict("too_many_members", "A club has at most {max} members.", max=MAX_MEMBERS)
            member_id = secrets.token_urlsafe(6)
            db.insert_member(connection, club_id, member_id, name)
            connection.commit()
        return {"id": member_id, "name": name}

    def rename_member(self, club_id: str, member_id: str, name) -> dict:
        """The member's new name, on the club's pages from now on (the tables keep the name they were played
        with, as a paper sheet does)."""
        name = member_name(name)
        with self.ledger.writing() as connection:
            members = self._locked(connection, club_id)
            member = _member(members, member_id)
            _unique([m for m in members if not m.removed and m.id != member.id], name)
            db.set_member(connection, club_id, member.id, name=name)
            connection.commit()
        return {"id": member.id, "name": name}

    def remove_member(self, club_id: str, member_id: str, word: str = FORMER) -> None:
        """R-CLUB-1: the member's name erased everywhere it is shown (``word`` in its place: "former member" in the
        language of whoever removed them); the results and the others' ratings stay."""
        with self.ledger.writing() as connection:
            member = _member(self._locked(connection, club_id), member_id)
            db.set_member(connection, club_id, member.id, name=None, removed=True)
            db.erase(connection, club_id, member.id, erased_word(word))
            connection.commit()

    def set_season(self, club_id: str, since) -> str | None:
        """The season's first day (None: every series counts): the ladder and the figures count from it."""
        since = season_date(since)
        with self.ledger.writing() as connection:
            self._locked(connection, club_id)
            db.set_club(connection, club_id, season_start=since)
            connection.commit()
        return since

    def rename(self, club_id: str, name) -> str:
        name = club_name(name)
        with self.ledger.writing() as connection:
            self._locked(connection, club_id)
            db.set_club(connection, club_id, name=name)
            connection.commit()
        return name

    @staticmethod
    def _locked(connection, club_id: str) -> list:
        if db.lock(connection, club_id) is None:
            raise missing(club_id)
        return db.members_of(connection, club_id)

    # --- a club's table ---------------------------------------------------------------------------------
    def seating(self, club_id: str, items, by_name: bool = False) -> tuple:
        """(names, members) of a club table's players: each item ``{"player": member id}`` (a member, by their
        name now) or a plain name (a guest; with ``by_name``, as a form types them, a name that is a member's is
        that member). 422 for an unknown or removed member."""
        if not isinstance(items, list):
            return items, None
        with self.ledger.reading() as connection:
            if db.keys(connection, club_id) is None:
                raise missing(club_id)
            members = [m for m in db.members_of(connection, club_id) if not m.removed]
        by_id = {m.id: m for m in members}
        named = {m.name.casefold(): m for m in members}
        names, seats = [], []
        for item in items:
            if isinstance(item, dict):
                member = by_id.get(item.get("player")) if isinstance(item.get("player"), str) else None
                if member is None or set(item) != {"player"}:
                    raise ParseError("unknown_player", "{player} is not a member of this club.",
                                     player=repr(item.get("player")), field="players")
                names.append(member.name)
                seats.append(member.id)
            else:
                member = named.get(item.strip().casefold()) if by_name and isinstance(item, str) else None
                names.append(member.name if member else item)
                seats.append(member.id if member else None)
        return names, seats

    # --- export and import ------------------------------------------------------------------------------
    def export(self, club_id: str) -> dict:
        """The whole club (``EXPORT_FORMAT``): its name and season, its active members, its tournaments' names and
        every table as a table's export gives it (set-up, whole log) with its members per seat, in the order the
        series finished (the unfinished ones last)."""
        state = self.state(club_id)
        order = sorted(state["tables"], key=lambda t: (t["finished_at"] is None, t["finished_at"] or "",
                                                       t["created_at"], t["id"]))
        return {"format": EXPORT_FORMAT, "club": {"name": state["name"], "season": state["season"]},
                "members": [{"id": m["id"], "name": m["name"]} for m in state["members"]],
                "tables": [{"table": self.ledger.record_of(t["id"]), "events": self.ledger.events(t["id"]),
                            "members": t["members"]} for t in order],
                "tournaments": [{"name": t["name"], "game": t["game"]} for t in state["tournaments"]]}

    def import_club(self, doc, once: Once | None = None) -> Created:
        """A club's export taken back: a new club with new keys, its members (new ids) and its tables, each replayed
        through its engine as a table's import is (``Ledger.import_table``), in the order their series finished, so
        that the ratings come out as they were. Every table is replayed before anything is stored: a refused log
        stores no club. A member removed before the export is no member of the new club: their seats are guests'."""
        if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT or not isinstance(doc.get("club"), dict) \
                or not isinstance(doc.get("members"), list) or not isinstance(doc.get("tables"), list):
            raise ParseError("bad_import", "This is not a club's export of Referee (a .json file made by a club's "
                             "page).")
        tables = doc["tables"]
        for item in tables:  # every log replayed first: a refused one stores nothing
            if not isinstance(item, dict):
                raise ParseError("bad_import", "This is not a club's export of Referee (a .json file made by a "
                                 "club's page).")
            self.ledger.check_import(item.get("table"), item.get("events"))
        names = [member_name(m.get("name") if isinstance(m, dict) else None) for m in doc["members"]]
        since = season_date(doc["club"].get("season"))
        created = self.create(doc["club"].get("name"), once=once)
        if created.status == 200:
            return created
        club_id = created[0]["id"]
        ids = {}
        for old, name in zip(doc["members"], names):
            ids[old.get("id")] = self.add_member(club_id, name)["id"]
        if since:
            self.set_season(club_id, since)
        for item in tables:
            seats = [ids.get(m) for m in (item.get("members") or [])] if isinstance(item.get("members"), list) \
                else [None] * len(item["table"].get("players") or [])
            self.ledger.import_table(item["table"], item["events"], club=(club_id, seats))
        return Created(self.state(club_id), created[1], created[2])

    # --- reading ----------------------------------------------------------------------------------------
    def revision(self, club_id: str) -> int:
        with self.ledger.reading() as connection:
            value = db.revision(connection, club_id)
        if value is None:
            raise missing(club_id)
        return value

    def state(self, club_id: str) -> dict:
        """The club as its pages and the API show it: ``id``, ``name``, ``season``, ``revision``, ``members`` (the
        active ones, the last players first, each with ``last_played``), ``tables``, ``tournaments``, and its
        figures: ``season`` counts (``report``) and ``ever`` (every series). The same dict for every caller until the
        next change: read it, never change it."""
        with self.ledger.reading() as connection:
            revision = db.revision(connection, club_id)
            if revision is None:
                raise missing(club_id)
            with self._lock:
                kept = self._kept.get(club_id)
            if kept is not None and kept[0] == revision:
                return kept[1]
            records = db.records(connection, club_id)
            engine_tables = self.ledger.tables_at(connection, records["tables"])
        state = _state(records, engine_tables, revision)
        with self._lock:
            self._kept[club_id] = (revision, state)
            self._kept.move_to_end(club_id)
            while len(self._kept) > KEPT_CLUBS:
                self._kept.popitem(last=False)
        return state


def _state(records: dict, engine_tables: dict, revision: int) -> dict:
    head = records["head"]
    states = {row["id"]: get_game(row["game"]).serialise(engine_tables[row["id"]]) for row in records["tables"]}
    played = last_played(records)
    members = [{"id": m["id"], "name": m["name"], "last_played": played.get(m["id"])}
               for m in records["members"] if not m["removed"]]
    tables = [{"id": row["id"], "game": row["game"], "finished": states[row["id"]]["series"]["finished"],
               "players": list(row["players"]), "members": list(row["members"] or []), "viewer_key": row["viewer_key"],
               "created_at": _iso(row["created_at"]),
               "finished_at": _iso(row["finished_at"]) if row["finished_at"] and
               states[row["id"]]["series"]["finished"] else None} for row in records["tables"]]
    since = head["season_start"]
    return {"id": head["id"], "name": head["name"], "season": since, "revision": revision, "members": members,
            "tables": tables, "tournaments": [{"id": t["id"], "name": t["name"], "game": t["game"]}
                                              for t in records["tournaments"]],
            "figures": report(records, states, since),
            "ever": report(records, states, None) if since else None}


def _unique(members, name: str) -> None:
    if any(m.name and m.name.casefold() == name.casefold() for m in members):
        raise Conflict("duplicate_player", "{name} is a member already: give each member a name of their own.",
                       name=name)


def _member(members, member_id):
    found = next((m for m in members if m.id == member_id and not m.removed), None)
    if found is None:
        raise NotFound("player_not_found", "There is no member {player} in this club.", player=repr(member_id))
    return found
