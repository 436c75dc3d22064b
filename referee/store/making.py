"""The ledger's new tables (set-up, import, rematch) and their keys. A part of ``Ledger`` (``ledger.py``,
whose notes say how a form names what it makes), asking the statements of ``rows.py``."""
from __future__ import annotations

import hmac
import json
import secrets
import time
from datetime import datetime, timedelta, timezone

from referee.errors import Conflict, ParseError, RuleError, Unauthorized
from referee.games import get_game
from referee.games.base import fork
from referee.games.signatures import SIGNATURES, verify as verify_signature
from referee.store import clubs
from referee.store import rows
from referee.store.entries import own_fields
from referee.store.once import Created, Once, minted
from referee.store.records import entered, hash_key
from referee.store.rows import TableRow, missing


BATCH = 2_000  # events (or tables) a club's import writes in one statement
SKEW = timedelta(minutes=5)  # the clocks' difference an imported entry's time may show beyond now
OLDEST = datetime(2026, 1, 1, tzinfo=timezone.utc)  # no Referee export has an entry before it


def table_values(table_id: str, table, scorer_hash: str, viewer_key: str, **more) -> dict:
    """A new table's row for ``rows.insert_table``: its id, the engine table's set-up, its keys."""
    return {"id": table_id, "game": table.game, "players": table.players, "options": table.options,
            "dealer": table.first_dealer, "scorer_hash": scorer_hash, "viewer_key": viewer_key, **more}


class Making:
    """What makes a table or changes its keys (mixed into ``Ledger``)."""

    def create_table(self, game_id, players, options=None, dealer=None, once: Once | None = None,
                     club: tuple | None = None) -> Created:
        """Creates a table; returns (state, scorer_key, viewer_key) and its ``status``. The scorer key is never
        stored. ``once``: the form that asks (``once.py``): the same form asking again makes nothing and
        answers the table it made, with the same keys (status 200). ``club``: (club id, the member per seat or
        None), a club's table (R-CLUB-1): stored under the club's lock, refused when a member was removed."""
        game = get_game(game_id)
        table = game.new_table(players, options, dealer)
        made = minted(once, "table", {"game": game.id, "players": table.players, "options": table.options,
                                      "dealer": table.first_dealer, **({"club": list(club)} if club else {})})
        values = table_values(made.id, table, hash_key(made.writer_key), made.viewer_key,
                              **({"club_id": club[0], "members": list(club[1])} if club else {}))
        if not self._insert(values, once):
            return self._made_before(made)
        return Created(self._remember(TableRow(made.id, game.id, table.players, table.options, table.first_dealer,
                                               0, 0), table), made.writer_key, made.viewer_key)

    def made_by(self, table_id: str, once: Once) -> str | None:
        """The scorer key of ``table_id`` if the set-up form ``once`` made it, worked out again as its creation
        minted it (``once.py``: the form's id and the table as stored); None if that form made another
        table, or nothing, or if the table's scorer link was renewed since. Nothing is stored or changed."""
        with self.engine.connect() as connection:
            found = rows.set_up(connection, table_id)
        if found is None:
            return None
        game, players, options, dealer, club_id, members, scorer_hash = found
        made = minted(once, "table", {"game": game, "players": players, "options": options, "dealer": dealer,
                                      **({"club": [club_id, members]} if club_id else {})})
        mine = made.id == table_id and hmac.compare_digest(scorer_hash, hash_key(made.writer_key))
        return made.writer_key if mine else None

    def _insert(self, values: dict, once: Once | None, events: list = ()) -> bool:
        """Stores a new table and its events in one transaction; False when ``once`` named this table before (its
        id is taken: the other post of the same form stored it, or is storing it and this one waited for it)."""
        def insert(connection):
            if values.get("club_id"):  # the club's lock first: no member removed meanwhile sits at it
                clubs.check_seats(connection, values["club_id"], values["members"])
            rows.insert_table(connection, values)  # the table's row before its events
            rows.insert_events(connection, values["id"], list(events))
        return self.store_new(insert, taken_is_known=once is not None)

    def _made_before(self, made) -> Created:
        """The table a form made before, answered with the keys it was given (200). Its scorer key renewed since:
        409, the form is no way in any more."""
        with self.engine.connect() as connection:
            found = rows.keys(connection, made.id)
        if found is None:  # taken by nothing: the insert failed for another reason; it is not hidden
            raise Conflict("not_made", "The table could not be stored: send it again.")
        if not hmac.compare_digest(found[0], hash_key(made.writer_key)):
            raise Conflict("made_before", "This form already made its table, and that table's link has been "
                           "renewed since: ask whoever renewed it for the new one.")
        return Created(self.state(made.id), made.writer_key, found[2], status=200)

    def import_table(self, setup: dict, events: list, once: Once | None = None) -> Created:
        """A new table replaying an exported log's events in force (each checked again); returns like create.
        The whole log is replayed through the engine first, so a bad log stores nothing; the same import asked
        twice by one form (``once``) makes one table. (A club's import: ``import_club_tables``.)"""
        game, start, _kept, in_force = import_start(setup, events)
        stored = []  # one replay, each checked as an append would: a refusal stores none
        table, checkpoint = game.replay_from(start, in_force,
                                             on_event=lambda event, body: stored.append(own_fields(event, body)))
        made = minted(once, "table", {"game": game.id, "players": table.players, "options": table.options,
                                      "dealer": table.first_dealer, "events": stored})
        values = table_values(made.id, table, hash_key(made.writer_key), made.viewer_key,
                              version=table.version, revision=len(stored))  # as if appended one by one
        if not self._insert(values, once, stored):  # all of the log in one transaction
            return self._made_before(made)
        row = TableRow(made.id, game.id, table.players, table.options, table.first_dealer, table.version,
                       len(stored))
        return Created(self._remember(row, table, checkpoint), made.writer_key, made.viewer_key)

    def import_club_tables(self, connection, club_id: str, items) -> int:
        """A club's import's tables (R-CLUB-1), stored on ``connection`` in the caller's one transaction: ``items``
        (setup, events, members per seat) one by one, each log replayed and checked, its entries' times read
        (``import_time``), then dropped: only its rows wait, written ``BATCH`` events at a time (``executemany``),
        so the memory an import takes is the file's and one batch's, whatever the club's size. Nothing is kept in
        the replay cache (the club's page replays what it shows). A refusal raises: the caller's transaction stores
        nothing. How many tables were stored."""
        tables, events, count, now = [], [], 0, datetime.now(timezone.utc)
        for number, (setup, log, seats) in enumerate(items, 1):
            game, start, _kept, in_force = import_start(setup, log)
            times = [import_time(doc, number, entry) for entry, doc in kept_entries(log)]
            stored = []  # each checked as an append would: a refusal stores none
            table, _ = game.replay_from(start, in_force,
                                        on_event=lambda event, body: stored.append(own_fields(event, body)))
            table_id = secrets.token_urlsafe(8)
            tables.append(table_values(table_id, table, hash_key(secrets.token_urlsafe(24)),
                                       secrets.token_urlsafe(24), version=table.version, revision=len(stored),
                                       club_id=club_id, members=list(seats),
                                       created_at=now + timedelta(microseconds=number)))  # the file's order
            events.extend(rows.event_rows(table_id, stored, times))
            count += 1
            if len(events) >= BATCH or len(tables) >= BATCH:
                rows.insert_many(connection, tables, events)
                tables, events = [], []
                time.sleep(0)  # under gevent (``serve``), the worker's other greenlets and its heartbeat run
        rows.insert_many(connection, tables, events)
        return count

    def rematch(self, table_id: str) -> tuple:
        """A finished series goes on at a new table: the same players, options and keys (every link of the old
        table opens the new one with its id), the next dealer as the game would go on (R-COMMON-2; Brouc's stays
        after a declared cape). Returns (status, state): 201 made now, 200 made before (one rematch, however many
        taps). The old table's revision moves, so its live views learn of the rematch at their next poll."""
        with self.writing() as connection:
            club = clubs.club_of_table(connection, table_id)  # a club's table: the club's lock first (R-CLUB-1)
            if club is not None:
                clubs.lock(connection, club.club_id)
            row = rows.lock_row(connection, table_id, 0)
            if row is None:
                raise missing(table_id)
            # Read again after the lock: on PostgreSQL the UPDATE's own subquery saw the links as they were
            # before it waited for the lock, so a rematch made meanwhile is found only by a new statement.
            made = rows.rematch_of(connection, table_id)
            if made is not None:
                connection.rollback()
                return 200, self.state(made)
            scorer_hash, coscorer_hash, viewer_key, _ = rows.keys(connection, table_id)
            game = get_game(row.game)
            played, checkpoint = self._replayed(connection, row, row.revision - 1, row.version)
            if not played.finished:
                raise RuleError("series_not_finished", "The series is not over yet: a rematch starts when it is.")
            table = game.new_table(list(row.players), dict(row.options), game.next_dealer(played))
            new_id = secrets.token_urlsafe(8)
            seats = {}
            if club is not None:  # the same members at the same seats; one who left since is a guest there
                active = clubs.active_ids(connection, club.club_id)
                seats = {"club_id": club.club_id, "members": [m if m in active else None for m in club.members]}
            rows.insert_table(connection, table_values(new_id, table, scorer_hash, viewer_key,  # the same way in
                                                       coscorer_hash=coscorer_hash, entry_mode=row.entry_mode,
                                                       **seats))
            rows.link_rematch(connection, row.id, new_id)  # the new table's row before the link to it
            connection.commit()
        self._cache.put(row.id, row.revision, played, checkpoint)
        return 201, self._remember(TableRow(new_id, row.game, table.players, table.options, table.first_dealer, 0, 0,
                                            rematch_of=row.id), table)

    def new_key(self, table_id: str, kind: str) -> str:
        """Issues a new viewer or co-scorer key; the old one stops working at once. Only a co-scorer key's hash
        is kept (it writes); the viewer key is kept to draw its QR code again."""
        key = secrets.token_urlsafe(24)
        values = {"viewer_key": key} if kind == "viewer" else {"coscorer_hash": hash_key(key)}
        with self.writing() as connection:  # the UPDATE first: the row's lock before anything is read
            if not rows.set_keys(connection, table_id, values):
                raise missing(table_id)
            connection.commit()
        return key

    def renew_own_key(self, table_id: str, key: str) -> str:
        """A new key in place of ``key``, the scorer's or a co-scorer's own (checked by ``authorize`` first); the old
        one stops at once. Each step is a conditional UPDATE, so the transaction writes first (no read to upgrade:
        never "database is locked" on SQLite) and a key renewed meanwhile by another request is not renewed twice."""
        fresh, old = secrets.token_urlsafe(24), hash_key(key)
        with self.writing() as connection:
            for column in ("scorer_hash", "coscorer_hash"):
                if rows.set_keys(connection, table_id, {column: hash_key(fresh)}, where={column: old}):
                    connection.commit()
                    return fresh
            connection.rollback()
        raise Unauthorized("bad_key", "This key does not open this table.")


def import_start(setup, events) -> tuple:
    """(game, its new table, the exported events in force as exported and as entered) of an import, its shape and
    its signatures checked (``import_table`` and ``import_club_tables`` replay from there)."""
    if not isinstance(events, list) or not isinstance(setup, dict):
        raise RuleError("bad_import", "An import is an export of Referee: its table and its events.")
    kept = [e for e in events if isinstance(e, dict) and not e.get("withdrawn")]
    game = get_game(setup.get("game"))
    start = game.new_table(setup.get("players"), setup.get("options"), setup.get("dealer"))
    in_force = [entered(e) for e in kept]
    check_signatures(game, start, in_force)
    return game, start, kept, in_force


def kept_entries(events: list):
    """(its place in the file's log, from 1; the entry) of each exported entry in force, as ``import_start`` keeps
    them."""
    return [(place, e) for place, e in enumerate(events, 1) if isinstance(e, dict) and not e.get("withdrawn")]


def import_time(doc: dict, table: int, entry: int) -> datetime:
    """When a club's exported entry was entered (R-CLUB-1: its series finish on the day they did): its ``at``,
    refused (422, naming the table and the entry, 1 and up in the file) when it cannot be read, lies in the future
    beyond ``SKEW`` of clock, or before ``OLDEST`` (older than any Referee export)."""
    moment = entered_at(doc)
    at = doc.get("at")
    shown = at[:40] if isinstance(at, str) else json.dumps(at)[:40]  # as the file writes it: null, 17
    if moment is None:
        raise ParseError("bad_time", "Table {table}, entry {entry}: its time {at} cannot be read.", table=table,
                         entry=entry, at=shown)
    if moment > datetime.now(timezone.utc) + SKEW:
        raise ParseError("time_in_future", "Table {table}, entry {entry}: its time {at} is in the future.",
                         table=table, entry=entry, at=shown)
    if moment < OLDEST:
        raise ParseError("time_too_old", "Table {table}, entry {entry}: its time {at} is before 2026-01-01, "
                         "older than any Referee export.", table=table, entry=entry, at=shown)
    return moment


def entered_at(doc: dict):
    """When an exported event was entered (its log's ``at``, UTC), or None when it says nothing readable."""
    at = doc.get("at")
    if not isinstance(at, str) or len(at) > 40:
        return None
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def check_signatures(game, start, bodies: list) -> None:
    """An import's signatures are checked as their entries were (R-COMMON-7: the series over, a side once), on a
    copy of ``start``: one that follows a correction (the series was over before, the director's undo opened it
    again) stands, as it does in the table it comes from. The replay itself does not check them (``Game.step``)."""
    if not any(body.get("type") in SIGNATURES for body in bodies if isinstance(body, dict)):
        return
    probe, was_over = fork(start), False
    for body in bodies:
        event = game.parse_event(probe, body)
        if event.type in SIGNATURES and (probe.finished or not was_over):
            verify_signature(probe, event)
        game.step(probe, event)
        was_over = was_over or probe.finished
