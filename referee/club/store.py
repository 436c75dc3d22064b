"""Clubs, stored beside the tables (the records: ``referee/store/records.py``; the statements:
``referee/store/clubs.py``).

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

from referee.club import transfer
from referee.club.checks import MAX_MEMBERS, club_name, erased_word, member_name, season_date
from referee.club.ratings import Ratings
from referee.club.report import last_played, report, table_figures
from referee.errors import Conflict, Forbidden, NotFound, Unauthorized
from referee.games import get_game
from referee.store import Created, Once, hash_key, iso, key_role, minted
from referee.store import clubs as db

KEPT_CLUBS = 32  # clubs whose state a process keeps
KEPT_FIGURES = 50_000  # tables' figures (``report.table_figures``) a process keeps (a few hundred bytes each)
FORMER = "former member"  # the contract's word for an erased name (a page says it in its language)


def missing(club_id: str) -> NotFound:
    return NotFound("club_not_found", "There is no club {club}.", club=repr(club_id))


class Clubs:
    """The store of clubs, on the ledger's database."""

    def __init__(self, ledger):
        self.ledger = ledger
        self._kept: OrderedDict = OrderedDict()  # club id -> (revision, state)
        self._figures: OrderedDict = OrderedDict()  # (table id, revision) -> report.table_figures
        self._ratings: dict = {}  # club id -> {season's first day or None: Ratings}
        self._builders: dict = {}  # club id -> the lock of the one reader working its state out
        self._lock = threading.Lock()

    # --- keys -------------------------------------------------------------------------------------------
    def authorize(self, club_id: str, key: str | None, write: bool = False) -> str:
        """'club' (the club key) or 'viewer'; 404 for no such club, 401 for no or a wrong key, 403 for the viewer's
        key on a writing call."""
        found = self.ledger.read(db.keys, club_id)
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
        found = self.ledger.read(db.keys, club_id)
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
            return self._made_before(made)
        return Created(self.state(made.id), made.writer_key, made.viewer_key)

    def import_whole(self, name, members: list, since, tables, content: str, once: Once | None = None) -> Created:
        """A club made of an import in ONE transaction (``transfer.import_club``, R-CLUB-1): its row first (the same
        form's other post waits on it, then finds the club whole), its members (``members``: (id in the file,
        name or None for one who had left)), its season, then its ``tables`` ((setup, events, the file's member
        per seat) each, ``Ledger.import_club_tables``). A refusal, or a server stopped, stores nothing. ``content``
        names the file (a digest): the same form with another file is another club. Answers the club's ``id`` and
        ``name`` (not its figures: its page works them out, and the import keeps no replayed table), status 201; the
        same form again, 200."""
        name = club_name(name)
        made = minted(once, "club", {"name": name, "import": content})
        values = {"id": made.id, "name": name, "key_hash": hash_key(made.writer_key), "viewer_key": made.viewer_key,
                  **({"season_start": since} if since else {})}
        new = {old: secrets.token_urlsafe(6) for old, _name in members}

        def insert(connection):
            db.insert_club(connection, values)
            for old, member_name_ in members:  # a member who had left: a row without a name, so that the ratings
                db.insert_member(connection, made.id, new[old], member_name_, removed=member_name_ is None)  # stay
            self.ledger.import_club_tables(connection, made.id, ((setup, events, [new.get(s) for s in seats])
                                                                 for setup, events, seats in tables))
        if not self.ledger.store_new(insert, taken_is_known=once is not None):
            return self._made_before(made, {"id": made.id, "name": name})
        return Created({"id": made.id, "name": name}, made.writer_key, made.viewer_key)

    def _made_before(self, made, brief: dict | None = None) -> Created:
        """The club a form made before (its row is in only once it is whole), answered with its keys (200)."""
        found = self.ledger.read(db.keys, made.id)
        if found is None or found[0] != hash_key(made.writer_key):
            raise Conflict("not_made", "The club could not be stored: send it again.")
        return Created(brief or self.state(made.id), made.writer_key, found[1], status=200)

    def add_member(self, club_id: str, name) -> dict:
        """A new member: 409 ``duplicate_player`` when a member has that name already (compared case-insensitively)."""
        name = member_name(name)

        def add(connection) -> str:
            members = self._locked(connection, club_id)
            active = [m for m in members if not m.removed]
            _unique(active, name)
            if len(active) >= MAX_MEMBERS:
                raise Conflict("too_many_members", "A club has at most {max} members.", max=MAX_MEMBERS)
            member_id = secrets.token_urlsafe(6)
            db.insert_member(connection, club_id, member_id, name)
            return member_id
        return {"id": self.ledger.write(add), "name": name}

    def rename_member(self, club_id: str, member_id: str, name) -> dict:
        """The member's new name, on the club's pages from now on (the tables keep the name they were played
        with, as a paper sheet does)."""
        name = member_name(name)

        def rename(connection) -> str:
            members = self._locked(connection, club_id)
            member = _member(members, member_id)
            _unique([m for m in members if not m.removed and m.id != member.id], name)
            db.set_member(connection, club_id, member.id, name=name)
            return member.id
        return {"id": self.ledger.write(rename), "name": name}

    def remove_member(self, club_id: str, member_id: str, word: str = FORMER) -> None:
        """R-CLUB-1: the member's name erased everywhere it is shown (``word`` in its place: "former member" in the
        language of whoever removed them); the results and the others' ratings stay."""

        def remove(connection) -> None:
            member = _member(self._locked(connection, club_id), member_id)
            db.set_member(connection, club_id, member.id, name=None, removed=True)
            db.erase(connection, club_id, member.id, erased_word(word))
        self.ledger.write(remove)

    def set_season(self, club_id: str, since) -> str | None:
        """The season's first day (None: every series counts): the ladder and the figures count from it."""
        return self.change(club_id, season=since)["season_start"]

    def change(self, club_id: str, **fields) -> dict:
        """The club's ``name`` and ``season`` (its first day), each only when given: both read first, then written
        in one transaction (a refused one writes neither). The values written."""
        values = {}
        if "name" in fields:
            values["name"] = club_name(fields["name"])
        if "season" in fields:
            values["season_start"] = season_date(fields["season"])

        def write(connection) -> None:
            self._locked(connection, club_id)
            if values:
                db.set_club(connection, club_id, **values)
        self.ledger.write(write)
        return values

    @staticmethod
    def _locked(connection, club_id: str) -> list:
        if db.lock(connection, club_id) is None:
            raise missing(club_id)
        return db.members_of(connection, club_id)

    # --- a club's table ---------------------------------------------------------------------------------
    def seating(self, club_id: str, items, by_name: bool = False) -> tuple:
        """(names, members) of a new club table's players (``ledger_clubs.seat_names``: a member ``{"player": id}``,
        else a guest's name; with ``by_name``, a member's name is that member); items that are no list are
        answered as they are (the engine refuses them). 404 for no such club."""
        if not isinstance(items, list):
            return items, None
        found = self.ledger.read(db.club_seat_names, club_id, items, by_name)
        if found is None:
            raise missing(club_id)
        return found

    # --- export and import (``transfer.py``) -------------------------------------------------------------
    def export(self, club_id: str) -> dict:
        return transfer.export(self, club_id)

    def import_club(self, doc, once: Once | None = None) -> Created:
        return transfer.import_club(self, doc, once)

    def members(self, club_id: str) -> list:
        """Every member of the club, one who left included (``removed``, without a name), in the order they came."""
        return [{"id": row.id, "name": row.name, "removed": row.removed}
                for row in self.ledger.read(db.members_of, club_id)]

    # --- reading ----------------------------------------------------------------------------------------
    def revision(self, club_id: str) -> int:
        value = self.ledger.read(db.revision, club_id)
        if value is None:
            raise missing(club_id)
        return value

    def state(self, club_id: str) -> dict:
        """The club as its pages and the API show it: ``id``, ``name``, ``season``, ``revision``, ``members`` (the
        active ones, the last players first, each with ``last_played``), ``tables``, ``tournaments``, and its
        figures: ``figures`` (the season's, ``report``) and ``ever`` (every series, when a season is set). The same
        dict for every caller until the next change: read it, never change it. One reader per club and process
        works a new one out (the others wait for it and take it); each table's figures are kept per revision, and
        the ratings go on from the last ones (``Ratings``), so a change at one table costs that table."""
        kept = self._current(club_id)
        if kept is not None:
            return kept
        with self._building(club_id):
            kept = self._current(club_id)
            if kept is not None:
                return kept
            revision, records, missing_rows, engine_tables = self.ledger.read(self._records, club_id)
            for row in missing_rows:
                self._figures[(row["id"], row["revision"])] = table_figures(
                    row["game"], get_game(row["game"]).serialise(engine_tables[row["id"]]))
            figures_of = {row["id"]: self._figures[(row["id"], row["revision"])] for row in records["tables"]}
            with self._lock:
                while len(self._figures) > KEPT_FIGURES:
                    self._figures.popitem(last=False)
            memo = self._ratings.setdefault(club_id, {})
            state = _state(records, figures_of, revision, memo)
            with self._lock:
                self._kept[club_id] = (revision, state)
                self._kept.move_to_end(club_id)
                while len(self._kept) > KEPT_CLUBS:
                    gone, _ = self._kept.popitem(last=False)
                    self._ratings.pop(gone, None)
            return state

    def _records(self, connection, club_id: str) -> tuple:
        """(revision, records, the tables whose figures are not kept, their engine tables) of a club from one read
        (``Ledger.read``)."""
        revision = db.revision(connection, club_id)
        if revision is None:
            raise missing(club_id)
        records = db.records(connection, club_id)
        missing_rows = [row for row in records["tables"] if (row["id"], row["revision"]) not in self._figures]
        return revision, records, missing_rows, self.ledger.tables_at(connection, missing_rows) if missing_rows else {}

    def _current(self, club_id: str) -> dict | None:
        """The state kept for this club when it is at the revision the database says now (one statement)."""
        revision = self.ledger.read(db.revision, club_id)
        if revision is None:
            raise missing(club_id)
        with self._lock:
            kept = self._kept.get(club_id)
        return kept[1] if kept is not None and kept[0] == revision else None

    def _building(self, club_id: str) -> threading.Lock:
        with self._lock:
            return self._builders.setdefault(club_id, threading.Lock())


def _state(records: dict, figures_of: dict, revision: int, memo: dict) -> dict:
    head = records["head"]
    played = last_played(records["tables"])
    members = [{"id": m["id"], "name": m["name"], "last_played": played.get(m["id"])}
               for m in records["members"] if not m["removed"]]
    tables = [{"id": row["id"], "game": row["game"], "finished": figures_of[row["id"]]["finished"],
               "players": list(row["players"]), "members": list(row["members"] or []), "viewer_key": row["viewer_key"],
               "created_at": iso(row["created_at"]),
               "finished_at": iso(row["finished_at"]) if row["finished_at"] and figures_of[row["id"]]["finished"]
               else None} for row in records["tables"]]
    since = head["season_start"]

    def figures(day):
        return report(records["members"], records["tables"], figures_of, day, memo.setdefault(day, Ratings()))
    return {"id": head["id"], "name": head["name"], "season": since, "revision": revision, "members": members,
            "tables": tables, "tournaments": [{"id": t["id"], "name": t["name"], "game": t["game"]}
                                              for t in records["tournaments"]],
            "figures": figures(since), "ever": figures(None) if since else None}


def _unique(members, name: str) -> None:
    if any(m.name and m.name.casefold() == name.casefold() for m in members):
        raise Conflict("duplicate_player", "{name} is a member already: give each member a name of their own.",
                       name=name)


def _member(members, member_id):
    found = next((m for m in members if m.id == member_id and not m.removed), None)
    if found is None:
        raise NotFound("player_not_found", "There is no member {player} in this club.", player=repr(member_id))
    return found
