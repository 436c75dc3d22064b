"""The director's acts on results (a part of ``Tournaments``, ``store.py``): closing a round, arbitral results,
penalties, hiding the standings during the last round. Each locks the tournament's row first and keeps its sentence
in the log, as every act of the director does.

- R-COMMON-7: a tournament made with ``require_signatures`` closes a round (without ``force``) only once each of its
  tables is signed or arbitral (422 ``open_tables`` naming the others).
- R-TOURN-1: closed by force, a table with nothing entered is *not played* (0 VP each, never an equal result's 10–10)
  unless the director gives it an arbitral result (VP 0–20 each, at most 20 together, with a reason).
- R-TOURN-2: penalties are negative VP with a reason, kept in the log (kind ``penalty``) and shown apart in the
  standings, whose VP include them.
- R-TOURN-5: every act happens once. An act given a ``once`` (the page's form id, the API's ``Idempotency-Key``:
  ``referee/store/once.py``) stores its key with it (``tournament_acts``) in its own transaction, after the tournament's
  lock: the same act sent again finds the key and answers as the first did, storing nothing more; two at the same
  instant are served one after the other by the lock, and the key's primary key lets one in whatever happens
  (``once_act``).
"""
from __future__ import annotations

import functools

from referee.errors import Conflict, NotFound, ParseError, RuleError
from referee.store import Once, Unwritten, check_reason
from referee.store import tournaments as db

MAX_VP, MAX_PENALTY = 20, 100
# R-COMMON-7, R-COMMON-7b: a table that lets a round needing signatures close: signed by both sides, given its VP by
# the director, or corrected by the director (the director's result stands while the sides confirm it again)
SETTLED = ("signed", "arbitral", "corrected")


class DoneBefore(Exception):
    """The act was made before under its key (R-TOURN-5): ``answer`` is what it answered beside the state."""

    def __init__(self, answer: dict | None):
        super().__init__()
        self.answer = answer


def act_key(once: Once | None, kind: str, content) -> str | None:
    """The key of the act ``once`` asks for with ``content`` (None: an act no form names, made each time)."""
    return once.act_key(kind, content) if once is not None else None


def first_time(connection, tournament_id: str, key: str | None) -> None:
    """After the tournament's lock: raises ``DoneBefore`` when the act under this key was stored already."""
    if key is not None:
        found = db.act_done(connection, tournament_id, key)
        if found is not None:
            raise DoneBefore(found.answer)


def keep(connection, tournament_id: str, key: str | None, kind: str, answer: dict | None = None) -> None:
    """The act's key stored with the act (R-TOURN-5), just before its commit."""
    if key is not None:
        db.insert_act(connection, tournament_id, key, kind, answer)


def once_act(method):
    """A director's act made once (R-TOURN-5): made before under its key, it answers as the first did (the state
    as it is now, or the first's stored answer) and stores nothing more."""
    @functools.wraps(method)
    def act(self, tournament_id, *args, **kwargs):
        try:
            return method(self, tournament_id, *args, **kwargs)
        except DoneBefore as before:
            answer = before.answer
        except db.ActTaken as taken:  # the other post stored it between our check and our insert
            found = self.ledger.read(db.act_done, tournament_id, taken.key)
            if found is None:
                raise Conflict("not_made", "The director's act could not be stored: send it again.") from None
            answer = found.answer
        return answer if answer is not None else self.state(tournament_id)
    return act


class DirectorActs:
    """Mixed into ``Tournaments``: ``self.ledger``, ``self._read``; ``locked`` begins each act, ``db.log_act`` tells
    it in the log."""

    @once_act
    def close_round(self, tournament_id: str, number: int, force: bool = False, reason: str | None = None,
                    once: Once | None = None) -> dict:
        """Closes round ``number``: ``{"round", "closed", "open_tables": [{"number", "table_id"}]}``. Tables still
        open are named; without ``force`` the round stays open, with it they are finished as they stand (their
        result counts; one with nothing entered is not played, R-TOURN-1) and the director's sentence ``reason``
        is kept in the log. A tournament that requires signatures refuses (422 ``open_tables``) while a table is
        neither signed nor arbitral (R-COMMON-7), unless ``force``."""
        if reason is not None and (not isinstance(reason, str) or len(reason) > 500 or not reason.isprintable()):
            raise ParseError("bad_reason", "The reason is a sentence of at most 500 printable characters.",
                             field="reason")
        reason = (reason or "").strip() or None
        key = act_key(once, "closed", [number, bool(force), reason])

        def act(connection):
            head, log, done = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            round_row = next((r for r in done if r.number == number), None)
            if round_row is None:
                raise NotFound("round_not_found", "This tournament has no round {round}.", round=number)
            if round_row.closed:
                raise Unwritten({"round": number, "closed": True, "open_tables": []})
            state = self._read(connection, tournament_id, -1)
            playing = next(r for r in state["rounds"] if r["number"] == number)["tables"]
            still = [{"number": t["number"], "table_id": t["table_id"]} for t in playing if not t["finished"]]
            if head.require_signatures and not force:
                unsigned = [{"number": t["number"], "table_id": t["table_id"], "status": t["status"]}
                            for t in playing if t["status"] not in SETTLED]
                if unsigned:
                    raise RuleError("open_tables", "Round {round} stays open until every table is signed by both "
                                    "sides (or given an arbitral result); tables still to sign: {tables}.",
                                    rule="R-COMMON-7", round=number,
                                    tables=", ".join(str(t["number"]) for t in unsigned), open_tables=unsigned)
            if still and not force:
                raise Unwritten({"round": number, "closed": False, "open_tables": still})
            empty = {t["table_id"] for t in playing if t["hands"] == 0}  # not one deal complete: R-TOURN-1
            for table in still:
                db.force(connection, table["table_id"])
                if table["table_id"] in empty:  # R-TOURN-1
                    message = f"Table {table['number']} of round {number} not played: 0 VP each" + (
                        f": {reason}" if reason else ".")
                    db.log_act(log, "not_played", message, round=number, table=table["number"], reason=reason)
                    continue
                message = f"Table {table['number']} of round {number} finished by the director" + (
                    f": {reason}" if reason else ".")
                db.log_act(log, "forced", message, round=number, table=table["number"], reason=reason)
            db.close(connection, tournament_id, number)
            db.log_act(log, "closed", f"Round {number} closed.", round=number)
            db.save_log(connection, tournament_id, log)
            answer = {"round": number, "closed": True, "open_tables": still}
            keep(connection, tournament_id, key, "closed", answer)
            return answer
        return self.ledger.write(act)

    @once_act
    def arbitral(self, tournament_id: str, round_number, table_number, vp, reason, once: Once | None = None) -> dict:
        """Table ``table_number`` of round ``round_number`` takes the VP the director gives it (R-TOURN-1): each
        0 to 20, at most 20 together, with a reason; its status becomes ``arbitral``. The new state."""
        given = _vp_pair(vp)
        reason = _reason(reason)
        key = act_key(once, "arbitral", [round_number, table_number, given, reason])

        def act(connection):
            _, log, _ = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            seat = db.seat_at(connection, tournament_id, round_number, table_number)
            if seat is None:
                raise NotFound("table_not_found", "Round {round} has no table {table}.", round=repr(round_number),
                               table=repr(table_number))
            db.set_arbitral(connection, seat, given)
            db.log_act(log, "arbitral", f"Table {table_number} of round {round_number}: arbitral result "
                       f"{given[0]}–{given[1]} VP: {reason}", round=round_number, table=table_number,
                       vp=given, reason=reason)
            db.save_log(connection, tournament_id, log)
            keep(connection, tournament_id, key, "arbitral")
        self.ledger.write(act)
        return self.state(tournament_id)

    @once_act
    def penalty(self, tournament_id: str, entrant, vp, reason, round_number=None, once: Once | None = None) -> dict:
        """A penalty of ``vp`` (a negative whole number) for ``entrant``, with its reason (R-TOURN-2); ``round``
        the round it belongs to, when given. The new state."""
        if isinstance(vp, bool) or not isinstance(vp, int) or not -MAX_PENALTY <= vp < 0:
            raise ParseError("bad_vp", "A penalty is a negative whole number of VP, from -1 to -{max}.",
                             max=MAX_PENALTY, field="vp")
        reason = _reason(reason)
        key = act_key(once, "penalty", [entrant, vp, reason, round_number])

        def act(connection):
            _, log, done = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            if isinstance(entrant, bool) or not isinstance(entrant, int) or entrant not in {
                    e.number for e in db.entrants_of(connection, tournament_id)}:
                raise NotFound("entrant_not_found", "There is no entrant {entrant}.", entrant=repr(entrant))
            if round_number is not None and (isinstance(round_number, bool) or not isinstance(round_number, int)
                                             or not 1 <= round_number <= len(done)):
                raise ParseError("bad_round", "round is the number of a round seated so far (1 to {last}).",
                                 last=len(done), field="round")
            db.log_act(log, "penalty", f"Penalty of {vp} VP for entrant {entrant}: {reason}", entrant=entrant,
                       vp=vp, reason=reason, round=round_number)
            db.save_log(connection, tournament_id, log)
            keep(connection, tournament_id, key, "penalty")
        self.ledger.write(act)
        return self.state(tournament_id)

    @once_act
    def hide_standings(self, tournament_id: str, hidden: bool, once: Once | None = None) -> dict:
        """The director's switch: the standings hidden from the wall and the viewers' page (the last round's
        suspense), or shown again."""
        if not isinstance(hidden, bool):
            raise ParseError("bad_hidden", "hidden is true or false.", field="hidden")
        key = act_key(once, "hidden", [hidden])

        def act(connection):
            _, log, _ = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            db.set_hidden(connection, tournament_id, hidden)
            db.log_act(log, "hidden" if hidden else "shown", "Standings hidden." if hidden else "Standings shown.")
            db.save_log(connection, tournament_id, log)
            keep(connection, tournament_id, key, "hidden")
        self.ledger.write(act)
        return self.state(tournament_id)


def missing(tournament_id) -> NotFound:
    return NotFound("tournament_not_found", "There is no tournament {tournament}.", tournament=repr(tournament_id))


def locked(connection, tournament_id: str) -> tuple:
    """Takes the tournament's write lock (``db.lock_act``): (its row, its log to add to, its rounds in order); 404
    for no such tournament."""
    found = db.lock_act(connection, tournament_id)
    if found is None:
        raise missing(tournament_id)
    return found


def _vp_pair(vp) -> list:
    if not isinstance(vp, list) or len(vp) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= MAX_VP for v in vp) \
            or sum(vp) > MAX_VP:
        raise ParseError("bad_vp", "An arbitral result is two VP, North-South's and East-West's, each from 0 to "
                         "{max}, at most {max} together.", max=MAX_VP, field="vp")
    return [_tidy(v) for v in vp]


def _tidy(value):
    value = round(value, 1) if isinstance(value, float) else value
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _reason(reason) -> str:
    """The director's reason, required (R-TOURN-1, R-TOURN-2): 422 ``reason_required`` without one."""
    reason = check_reason(reason)
    if not reason:
        raise RuleError("reason_required", "Say in a sentence why: the reason is kept in the tournament's log.",
                        rule="R-COMMON-8", field="reason")
    return reason
