"""The ledger's entries: an event appended, the last one withdrawn (undo), the trick under way tapped card by card.
A part of ``Ledger`` (``ledger.py``, whose notes say how a write locks its table), asking the statements of
``rows.py`` on one connection."""
from __future__ import annotations

from dataclasses import fields

from sqlalchemy.exc import IntegrityError

from referee.errors import Conflict, ParseError, RefereeError, RuleError
from referee.games import get_game
from referee.store import rows
from referee.store.entry_write import Taken
from referee.store.records import hash_key, utc_now
from referee.store.rows import (closed_to_sides, director_may_sign, draft_text, missing, role_of, sides_sign,
                                signed_lock)
from referee.store.state_cache import checkpoint_after


UNCHECKED = object()  # a call given no key to check: its caller checked it (or needs none: a test, an import)


class Entries:
    """What changes a table's log or its trick under way (mixed into ``Ledger``)."""

    def append(self, table_id: str, body: dict, expected_version=None, client_event_id=None,
               expected_revision=None, brief: bool = False, expected_draft=None, keep_draft: bool = False,
               key=UNCHECKED, reason=None, by: str = "scorer") -> tuple:
        """Stores one event if the engine accepts it. Returns (status, state): 201 stored, 200 a retry. ``brief``:
        the state as a write answers it (complete deals without their tricks, docs/api.md). ``expected_draft``: the
        trick under way the phone saw (409 when it is another); ``keep_draft``: it stays under way beside this entry
        (an exchange, a declaration), else it is void with the revision this entry moves. ``key``: a scorer's key,
        checked on the row the lock answers (401, 403 as ``authorize``; nothing stored, the bump rolled back); the
        entry keeps whose key it is and ``reason`` (R-COMMON-8: a director's write needs one, 422 ``reason_required``
        without); ``by`` says whose it is when no key is given. A round's table signed by every side refuses the
        table's own keys (409 ``signed``, R-COMMON-7)."""
        reason = check_reason(reason)
        ahead = self._ahead(table_id, body)
        if ahead is not None and isinstance(key, str) and key and not keep_draft:
            done = self._append_ahead(table_id, body, ahead, key, reason, client_event_id, expected_version,
                                      expected_revision, expected_draft, brief)
            if done is not None:
                return done[:2]
        with self.writing() as connection:
            row = rows.lock_row(connection, table_id, +1)
            if row is None:
                raise missing(table_id)
            if key is not UNCHECKED:
                by = role_of(row.keys, key, write=True)
            try:
                need_reason(by, reason)
                self._check_version(row.version - 1, row.revision - 1, expected_version, expected_revision)
                draft = row.trick(row.revision - 1)
                _check_draft(draft, expected_draft)
                game = get_game(row.game)
                if ahead is not None and ahead[0] == row.revision - 1:  # the table is as it was worked on
                    _, before, checkpoint, event, after = ahead
                    signed_lock(row.in_tournament, by, before)
                    sides_sign(by, before, body)
                else:
                    before, checkpoint = self._replayed(connection, row, row.revision - 1, row.version - 1)
                    signed_lock(row.in_tournament, by, before)  # before the engine: "signed" says why, not "series finished"
                    sides_sign(by, before, body)
                    event = game.parse_event(before, body)
                    after = game.apply(before, event)
                rows.insert_event(connection, table_id, own_fields(event, body), client_event_id, by, reason)
                if keep_draft and draft:
                    rows.put_draft(connection, table_id, draft, row.revision)
                connection.commit()
            except (RefereeError, IntegrityError):  # a retry of an entry stored before is answered, not refused
                connection.rollback()
                again = self._answered_again(table_id, client_event_id, brief)
                if again is not None:
                    return again
                raise
        state = self._remember(row, after, checkpoint_after(before, after, checkpoint), True)  # measured later
        return 201, game.brief(after, state) if brief else state

    def _append_ahead(self, table_id: str, body: dict, ahead: tuple, key: str, reason, client_event_id,
                      expected_version, expected_revision, expected_draft, brief: bool) -> tuple | None:
        """``append``'s short way (``entry_write.py``): the entry worked out before the lock (``ahead``) stored by a
        write whose statement checks that the table is still at that revision, the key, R-COMMON-7's lock and
        R-COMMON-8's reason; (status, state, the row it left or None for a retry) as ``append`` answers, or None
        when any check fails (nothing stored: the long way answers, refusing as ever)."""
        revision, before, checkpoint, event, after = ahead
        if (expected_revision is not None and expected_revision != revision) or \
                (expected_version is not None and expected_version != before.version):
            return None  # stale: the long way says 409 with the table's counters
        try:
            written = self._entry_write.write({
                "b_table": table_id, "b_revision": revision, "b_hash": hash_key(key),
                "b_sides_open": not closed_to_sides(before),  # R-COMMON-7: else a round's table refuses its keys
                "b_director_may": bool(reason) and director_may_sign(before, body),  # R-COMMON-8, R-COMMON-7b
                "b_any_draft": expected_draft is None, "b_seen": draft_text(expected_draft or ()) or "",
                "b_type": event.type, "b_body": own_fields(event, body), "b_client": client_event_id,
                "b_at": utc_now(), "b_reason": reason})
        except Taken:  # a retry of an entry stored before is answered, not refused
            again = self._answered_again(table_id, client_event_id, brief)
            return None if again is None else (*again, None)
        if written is None:
            return None
        row = written[0]
        state = self._remember(row, after, checkpoint_after(before, after, checkpoint), True)  # measured later
        return 201, get_game(row.game).brief(after, state) if brief else state, row

    def tap_ahead(self, table_id: str, cards, revision: int, seen, key: str) -> tuple | None:
        """A card tapped into the trick under way, stored the short way only (``_draft_ahead``): the table as
        ``look`` gives it after the tap — (state, engine table, ``cards``, way of entry) — from this process's state
        and the row the UPDATE answered, with no read; None when the short way did not store it (nothing stored:
        the caller goes the long way, which checks the key first and answers why)."""
        cards, seen = tuple(cards), tuple(seen)
        table = self._cache.get(table_id, revision) if isinstance(table_id, str) else None
        written = None if table is None else self._draft_ahead(table_id, cards, revision, seen, key, table)
        if written is None:
            return None
        row = written[0]
        return self._serialise(row, table), table, cards, row.entry_mode

    def entry_ahead(self, table_id: str, body: dict, client_event_id, expected_revision: int, expected_draft,
                    key: str, reason=None) -> tuple | None:
        """A trick's last card tapped, its entry stored the short way only (``_append_ahead``): the table as
        ``look`` gives it after the entry — (state, engine table, (), way of entry) — with no read; None when the
        short way did not store it (nothing stored by this call, a retry's included: the caller goes the long way,
        which checks the key first and answers why)."""
        reason = check_reason(reason)
        ahead = self._ahead(table_id, body)
        if ahead is None or not (isinstance(key, str) and key):
            return None
        done = self._append_ahead(table_id, body, ahead, key, reason, client_event_id, None, expected_revision,
                                  expected_draft, False)
        if done is None or done[0] != 201:
            return None
        _, state, row = done
        return self.written(state, row.entry_mode) or self.look(table_id)  # stored: answered, however read

    def _draft_ahead(self, table_id: str, cards: tuple, revision: int, seen: tuple, key: str,
                     table=None) -> tuple | None:
        """``set_draft``'s short way, as an entry's (``entry_write.py``): on this process's newest state of the table
        at ``revision``, the engine's check first, then one UPDATE whose WHERE checks the revision, the trick under
        way, the key and R-COMMON-7's lock (no read of the keys before it): (the row it left, whose key), or None
        when there is no such state, the engine refuses the cards or any check fails: nothing is stored, and the
        long way answers, refusing as ever (a wrong key 401 before any rule)."""
        if not (isinstance(key, str) and key):
            return None  # no key: the long way's 401
        if table is None:  # ``table``: the cache's, when the caller took it already
            table = self._cache.get(table_id, revision) if isinstance(table_id, str) else None
        if table is None:
            return None
        try:
            verify_draft(table, cards)
        except RefereeError:
            return None
        return self._entry_write.draft({
            "b_table": table_id, "b_revision": revision, "b_hash": hash_key(key),
            "b_sides_open": not closed_to_sides(table),  # R-COMMON-7: else a round's table refuses its keys
            "b_director_may": True, "b_any_draft": False, "b_seen": draft_text(seen) or "",
            "b_draft": draft_text(cards)})

    def _answered_again(self, table_id: str, client_event_id, brief: bool) -> tuple | None:
        """A retry's answer, (200, the state now), when ``client_event_id`` is stored at this table already (the
        entry sent again after its answer was lost: stored once, answered each time); None otherwise."""
        if client_event_id is not None and self._stored(table_id, client_event_id):
            return 200, self.state(table_id, brief)
        return None

    def _ahead(self, table_id: str, body: dict) -> tuple | None:
        """The entry worked out before the lock, on this process's newest state of the table: (revision, before,
        checkpoint, event, after), used by ``append`` only if the lock finds the table still at that revision, so
        that the table's writers queue for the statements alone, not for the engine. None when there is no such
        state or the engine refuses the entry (then it is refused under the lock, after the key and the version,
        as always)."""
        newest = self._cache.newest(table_id) if isinstance(table_id, str) else None
        if newest is None:
            return None
        revision, before, checkpoint = newest
        game = get_game(before.game)
        try:
            event = game.parse_event(before, body)
            return revision, before, checkpoint, event, game.apply(before, event)
        except RefereeError:
            return None

    def undo(self, table_id: str, expected_version=None, expected_revision=None, client_event_id=None,
             brief: bool = False, expected_draft=None, reopen: bool = False, key=UNCHECKED, reason=None,
             by: str = "scorer") -> dict:
        """Withdraws the last event in force (it stays in the history); 422 when there is none. An undo retried
        with the same ``client_event_id`` withdraws nothing more and answers the state. ``expected_draft`` as for
        ``append``; ``reopen``: a trick withdrawn stays under way without its last card, for every phone (the
        scorer's page). The state before it is
        worked out again from the checkpoint at the start of the open deal when this process has it, replaying
        that deal's events only; else (another process wrote last, or the undo crosses the deal's start) from
        the whole log. ``key``, ``reason`` and ``by`` as for ``append``: the withdrawal keeps whose key made it and
        why (R-COMMON-8). A director's undo withdraws the last entry that is no signature, the signatures staying in
        force (R-COMMON-7: a correction keeps them); a signed round's table refuses the table's own keys (409), and
        so does a round's table whose last entry in force is the director's (only the director withdraws it)."""
        reason = check_reason(reason)
        with self.writing() as connection:
            row = rows.lock_row(connection, table_id, -1)
            if row is None:
                raise missing(table_id)
            if key is not UNCHECKED:
                by = role_of(row.keys, key, write=True)
            if client_event_id is not None and rows.seen(connection, table_id, client_event_id, entry=False):
                connection.rollback()
                return self.state(table_id, brief)
            self._check_version(row.version + 1, row.revision - 1, expected_version, expected_revision)
            _check_draft(row.trick(row.revision - 1), expected_draft)
            need_reason(by, reason)
            if row.in_tournament and by != "director":
                signed_lock(row.in_tournament, by,
                            self._replayed(connection, row, row.revision - 1, row.version + 1)[0])
                if rows.last_entered_by(connection, table_id) == "director":  # R-COMMON-7: the director's own
                    raise Conflict("signed", "The director entered this: only the director can withdraw it.",
                                   rule="R-COMMON-7")
            director = by == "director"
            withdrawn = rows.withdraw_last(connection, table_id, client_event_id, by, reason,
                                           keep_signatures=director) if row.version >= 0 else None
            if withdrawn is None:
                raise RuleError("nothing_to_undo", "There is nothing to undo at this table.")
            if reopen and withdrawn.get("type") == "trick" and len(withdrawn.get("cards") or ()) > 1:
                rows.put_draft(connection, table_id, withdrawn["cards"][:-1], row.revision)
            game = get_game(row.game)
            checkpoint = None if director else self._cache.checkpoint(row.id, row.revision - 1)
            if checkpoint is not None and checkpoint.version <= row.version:
                newer = rows.bodies(connection, table_id, newest=row.version - checkpoint.version)
                table, checkpoint = game.replay_from(checkpoint, newer, shared=True)
            else:
                table, checkpoint = self._replay(connection, row)
            connection.commit()
        state = self._remember(row, table, checkpoint)
        return game.brief(table, state) if brief else state

    def set_draft(self, table_id: str, cards, revision: int, seen=(), key=UNCHECKED) -> tuple:
        """The trick under way becomes ``cards`` (card codes in play order, fewer than a whole trick; checked by the
        engine, R-COMMON-4) if the table is still at ``revision`` with ``seen`` under way: one UPDATE, never an
        event. 409 when another phone changed the table or the trick meanwhile, unless the trick is already
        ``cards`` (the same tap sent twice). Returns the cards. ``key``: checked as an entry's, and a round's table
        that is signed (or under the director's correction) refuses the table's own keys (R-COMMON-7)."""
        cards, seen = tuple(cards), tuple(seen)
        if key is not UNCHECKED and self._draft_ahead(table_id, cards, revision, seen, key) is not None:
            return cards
        if key is not UNCHECKED:
            with self.engine.connect() as connection:
                keys = rows.keys(connection, table_id)
            if keys is None:
                raise missing(table_id)
            role = role_of(tuple(keys), key, write=True)
        else:
            keys, role = None, "scorer"
        table = self._cache.get(table_id, revision) if isinstance(table_id, str) else None
        if table is None:  # not this process's newest state: the table as it is now, at that revision or refused
            state, table = self.snapshot(table_id)
            self._check_version(state["version"], state["revision"], None, revision)
        signed_lock(bool(keys and keys[3]), role, table)
        verify_draft(table, cards)
        with self.writing() as connection:
            if rows.set_draft(connection, table_id, cards, revision, seen):
                connection.commit()
                return cards
        with self.reading() as connection:
            row = rows.read_row(connection, table_id)
        if row is None:
            raise missing(table_id)
        if row.revision == revision and row.trick() == cards:
            return cards
        self._check_version(row.version, row.revision, None, revision)
        raise draft_conflict()

    def set_entry_mode(self, table_id: str, mode: str, key=UNCHECKED) -> None:
        """How the table enters its deals becomes ``mode`` (if one of its game's ``entry_modes``, R-COMMON-6), for
        every phone that opens it: one UPDATE of its row, never an event (neither ``version`` nor ``revision``
        moves, no export holds it). ``key``: a key that writes (the scorer's, the co-scorer's, the director's)."""
        with self.writing() as connection:
            row = rows.read_row(connection, table_id)
            if row is None:
                raise missing(table_id)
            if key is not UNCHECKED:
                role_of(row.keys, key, write=True)
            if mode in get_game(row.game).entry_modes and row.entry_mode != mode:  # another is never stored
                rows.set_entry_mode(connection, table_id, mode)
                connection.commit()


MAX_REASON = 300


def check_reason(reason) -> str | None:
    """A write's reason (R-COMMON-8): a sentence of 1 to MAX_REASON printable characters, or None (blank is none)."""
    if reason is None:
        return None
    if isinstance(reason, str):
        reason = " ".join(reason.split())  # a line break typed in a text box is a space
    if not isinstance(reason, str) or len(reason) > MAX_REASON or not reason.isprintable():
        raise ParseError("bad_reason", "The reason is a sentence of at most {max} printable characters.",
                         max=MAX_REASON, field="reason")
    return reason.strip() or None


def need_reason(by: str, reason: str | None) -> None:
    """Every write made with the director's key says why (R-COMMON-8): 422 ``reason_required`` without."""
    if by == "director" and not reason:
        raise RuleError("reason_required", "A change made with the director's key needs its reason: say in a "
                        "sentence why it is made.", rule="R-COMMON-8", field="reason")


def verify_draft(table, cards: tuple) -> None:
    """``cards`` can be ``table``'s trick under way (R-COMMON-4): fewer than its players, each one the engine lets
    be played there; else the refusal (``ParseError`` ``not_a_draft``, or the engine's ``RuleError``)."""
    game = get_game(table.game)
    if not hasattr(game, "verify_partial") or len(cards) >= len(table.players):
        raise ParseError("not_a_draft", "The trick under way holds fewer cards than there are players, not "
                         "{count}.", count=len(cards))
    game.verify_partial(table, game.deck_for(table).parse_many(list(cards)))


def _check_draft(found: tuple, expected) -> None:
    """409 when the trick under way is not the one the phone saw (another phone tapped or took back a card)."""
    if expected is not None and tuple(expected) != found:
        raise draft_conflict()


def draft_conflict() -> Conflict:
    """Another phone changed the trick under way since this one's page showed it."""
    return Conflict("draft_conflict", "Another phone changed the trick under way meanwhile: look at it as it stands "
                    "now and tap again if it is still needed.")


def own_fields(event, body: dict) -> dict:
    """What is stored of an event's body: its type and the fields its parser reads, nothing else."""
    names = [f.name for f in fields(event)] + list(getattr(event, "extra_fields", ()))
    made = getattr(event, "engine_fields", ())  # what the engine says, not the phone (a confirmation's result)
    stored = {"type": event.type, **{name: body[name] for name in names if name in body and name not in made}}
    stored.update({name: getattr(event, name) for name in made if getattr(event, name) is not None})
    return stored
