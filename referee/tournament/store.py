"""Tournaments and club evenings, stored beside the tables (the records: ``referee/store/records.py``).

- A tournament keeps its entrants, its plan (a movement and a length per round), its rounds and who sits at which
  of a round's tables. Each of those tables is an ordinary table (``tables``), made here with the round's players,
  options and length; its result is never stored: ``reading.py`` works it out from the table's state, which the
  ledger replays from the table's log.
- Every write locks the tournament's row first (an UPDATE of its ``revision``), so two directors' taps are served one
  after the other; on SQLite the transaction begins IMMEDIATE, as the ledger's writes do. Nothing here touches the
  database itself: the ledger opens the connections (``Ledger.read``, ``Ledger.write``, ``Ledger.store_new``),
  its statements are in ``referee/store/tournaments.py``, a round's tables' states come from ``Ledger.tables_at``.
- Keys: the director's (only its hash is stored) writes, the viewer's reads. Each table number has a table card
  whose key is the scorer key of that number's table in every round (the tables share it, as a rematch shares its
  keys): the card printed once leads to the current round's table.
- Sentences for the director are in English here (``log``: each entry has its ``kind`` and its values, so a page
  says it in its own language).
"""
from __future__ import annotations

import hmac
import secrets
import time

from referee.errors import Conflict, Forbidden, NotFound, ParseError, RuleError, Unauthorized
from referee.games import get_game
from referee.store import Created, Once, hash_key, key_role, minted
from referee.store import clubs as ledger_clubs
from referee.store import tournaments as db
from referee.tournament import checks, movements
from referee.tournament.checks import (DEFAULT_HANDS, MAX_ENTRANTS, MAX_ROUNDS, MOVEMENTS,  # noqa: F401
                                      round_unit)
from referee.tournament.director import DirectorActs, act_key, first_time, keep, locked, missing, once_act
from referee.tournament.reading import KeptStates, entrant_names, read_state

MAX_TITLE = 120
KEPT_SEATS = 4096  # tables whose seat (or none) a process keeps


_missing = missing


class Tournaments(DirectorActs):
    """The store of tournaments, on the ledger's database; its tables are the ledger's tables."""

    def __init__(self, ledger):
        self.ledger = ledger
        self._states = KeptStates()
        self._seats: dict = {}  # table id -> its seat, or None for a free table (``seat``)

    # --- reading ------------------------------------------------------------------------------------------
    def viewer_key(self, tournament_id: str) -> str:
        """The tournament's viewer key (read only): the standings' link and QR code, whichever key opened a page."""
        found = self.ledger.read(db.keys, tournament_id)
        if found is None:
            raise _missing(tournament_id)
        return found[1]

    def authorize(self, tournament_id: str, key: str | None, write: bool = False) -> str:
        """'director' or 'viewer'; 404 for no such tournament, 401 for no or a wrong key, 403 for the viewer's
        key on a writing call."""
        found = self.ledger.read(db.keys, tournament_id)
        if found is None:
            raise _missing(tournament_id)
        if not key:
            raise Unauthorized("key_required", "This tournament needs its key: add ?key=… or an Authorization "
                               "header.")
        role = key_role(key, found[0], None, found[1])
        if role == "writer":
            return "director"
        if role == "viewer":
            if write:
                raise Forbidden("read_only_key", "This is the viewer key: it shows the tournament but cannot "
                                "change it.")
            return "viewer"
        raise Unauthorized("bad_key", "This key does not open this tournament.")

    def revision(self, tournament_id: str) -> int:
        """Grows with every change of the tournament or of any of its tables: what live standings poll."""
        value = self.ledger.read(db.revision, tournament_id)
        if value is None:
            raise _missing(tournament_id)
        return value

    def state(self, tournament_id: str) -> dict:
        """The whole state (``reading.read_state``); the same dict is handed to every caller until the next change:
        read it, never change it. One reader per tournament and process works a new state out at a time; a reader
        that waited for it takes the state it made when that one was read after the reader asked (it holds every
        change made before): while a hundred tables score, readers share the states instead of each working its
        own out."""
        asked = time.monotonic()
        with self._states.building(tournament_id):
            kept = self._states.since(tournament_id, asked)
            return kept if kept is not None else self._state(tournament_id)

    def _state(self, tournament_id: str) -> dict:
        return self.ledger.read(self._state_at, tournament_id)  # the revision and the rows from one snapshot

    def _state_at(self, connection, tournament_id: str) -> dict:
        """The state as ``connection`` (one read, ``Ledger.read``) sees it: the kept one at its revision, else read."""
        read_at = time.monotonic()
        revision = db.revision(connection, tournament_id)
        if revision is None:
            raise _missing(tournament_id)
        state = self._states.get(tournament_id, revision, read_at)
        if state is None:
            state = self._read(connection, tournament_id, revision)
            self._states.put(tournament_id, revision, state, read_at)
        return state

    def _read(self, connection, tournament_id: str, revision: int) -> dict:
        """The state as ``connection`` sees it (``reading.read_state``); the tournament is known to exist."""
        found = db.records(connection, tournament_id)
        return read_state(found, self.ledger.tables_at(connection, found["seated"]), revision)

    def cards(self, tournament_id: str) -> list:
        """One table card per table number: its number, key and stable link (a path of the pages)."""
        found = self.ledger.read(db.cards, tournament_id)
        return [{"number": number, "key": key, "url": f"/tournaments/{tournament_id}/tables/{number}?key={key}"}
                for number, key in found]

    def card_table(self, tournament_id: str, number: int, key: str | None) -> str:
        """The id of the newest round's table at this number, for the card's key (401 otherwise, 404 no table,
        also when the newest round has fewer tables: the card never opens an earlier round's table)."""
        if not 1 <= number <= 2 * MAX_ENTRANTS:  # a number no card has (and none the database could compare)
            raise NotFound("table_not_found", "There is no table {table}.", table=repr(number))
        card, found = self.ledger.read(db.card_table, tournament_id, number)
        if card is None:
            raise NotFound("table_not_found", "There is no table {table}.", table=repr(number))
        if not key or not hmac.compare_digest(key.encode(), card.encode()):
            raise Unauthorized("bad_key", "This key does not open this table.")
        if found is None:
            raise NotFound("table_not_found", "There is no table {table}.", table=repr(number))
        return found

    # --- creating -----------------------------------------------------------------------------------------
    def create(self, game_id, name, entrants, rounds, vp_table=None, options=None, once: Once | None = None,
               require_signatures: bool = False, club: tuple | None = None) -> Created:
        """A tournament with no round seated yet (the director withdraws a no-show before seating round 1);
        returns (state, director_key, viewer_key) and its ``status``. Everything is checked first: nothing is
        stored on a refusal. ``once``: the form that asks (``referee/store/once.py``): asked again by the same form, the
        tournament it made, with the same keys (status 200)."""
        game = get_game(game_id)
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_TITLE or not name.isprintable():
            raise ParseError("bad_name", "A tournament's name is 1 to {max} printable characters.", max=MAX_TITLE,
                             field="name")
        listed = checks.entrants(entrants)
        plan = checks.plan(game.id, rounds)
        rows = checks.vp_rows(game.id, vp_table, plan)
        if options is not None and not isinstance(options, dict):
            raise ParseError("bad_option", "Options must be an object of name: value.")
        options = dict(options or {})
        if not isinstance(require_signatures, bool):
            raise ParseError("bad_option", "require_signatures is true or false.", field="require_signatures")
        for spec in plan:  # each round's tables can be made: players, options and length as a table checks them
            trial = game.new_table(seats(listed[0], listed[1]), table_options(game.id, options, spec))
            if len(trial.sides) != 2:
                raise ParseError("bad_entrants", "A tournament's table has two sides, North-South and East-West; "
                                 "with these entrants and options it would have {count}.", count=len(trial.sides),
                                 field="entrants")
        checks.fits(plan, len(listed))
        vp_rows = [list(row) for row in rows]
        made = minted(once, "tournament", {"game": game.id, "name": name.strip(), "entrants": listed, "plan": plan,
                                           "vp_table": vp_rows, "options": options,
                                           **({"require_signatures": True} if require_signatures else {}),
                                           **({"club": list(club)} if club else {})})
        values = {"id": made.id, "game": game.id, "name": name.strip(), "plan": plan, "vp_table": vp_rows,
                  "options": options, "director_hash": hash_key(made.writer_key), "viewer_key": made.viewer_key,
                  "log": [], "require_signatures": require_signatures, **({"club_id": club[0]} if club else {})}
        members = club[1] if club else None

        def insert(connection):
            if club:  # a club's tournament (R-CLUB-1): under the club's lock, its entrants still members
                ledger_clubs.check_seats(connection, club[0], [m for ms in members for m in ms])
            db.insert_tournament(connection, values, listed, members)
        if not self.ledger.store_new(insert, taken_is_known=once is not None):
            return self._made_before(made)  # this form made it before (or is making it now: this post waited)
        return Created(self.state(made.id), made.writer_key, made.viewer_key)

    def _made_before(self, made) -> Created:
        found = self.ledger.read(db.keys, made.id)
        if found is None or not hmac.compare_digest(found[0], hash_key(made.writer_key)):
            raise Conflict("not_made", "The tournament could not be stored: send it again.")
        return Created(self.state(made.id), made.writer_key, found[1], status=200)

    # --- a round's table ----------------------------------------------------------------------------------
    def seat(self, table_id: str) -> dict | None:
        """The tournament a table belongs to (``tournament``: its id, ``name``; ``round``; ``table``: its number),
        None for a free table. A table is seated in the transaction that makes it and never moves, so what is read
        once is kept for the process (the free tables too, within ``KEPT_SEATS``)."""
        if table_id in self._seats:
            return self._seats[table_id]
        found = self.ledger.read(db.seat, table_id)
        seat = None if found is None else {"tournament": found[0], "name": found[1], "round": found[2],
                                           "table": found[3]}
        if len(self._seats) >= KEPT_SEATS:
            self._seats.clear()
        self._seats[table_id] = seat
        return seat

    def no_rematch(self, table_id: str) -> None:
        """A round's table has no rematch (409): its entrants' next table is the next round's, seated by the
        director, and a rematch would take the phone out of the tournament."""
        seat = self.seat(table_id)
        if seat is not None:
            raise Conflict("tournament_table", "This is table {table} of round {round} of {tournament}: a "
                           "tournament's table has no rematch, the director seats the next round.",
                           table=seat["table"], round=seat["round"], tournament=seat["name"])

    # --- between rounds -----------------------------------------------------------------------------------
    @once_act
    def next_round(self, tournament_id: str, once: Once | None = None) -> dict:
        """Seats the next round of the plan (its tables made, one per table number); 422 while a round is open.
        ``once``: seated once per form or ``Idempotency-Key`` (R-TOURN-5)."""
        key = act_key(once, "seated", [])

        def act(connection):
            _club_first(connection, tournament_id)
            head, log, done = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            if done and not done[-1].closed:
                raise _open(done[-1].number)
            number = len(done) + 1
            if number > len(head.plan):
                raise RuleError("plan_complete", "The tournament's {rounds} rounds are all seated.",
                                rounds=len(head.plan))
            spec = head.plan[number - 1]
            entrants = db.entrants_of(connection, tournament_id)
            active = [e.number for e in entrants if e.joined <= number and (e.withdrawn is None or
                                                                            e.withdrawn >= number)]
            tables, bye = self._seating(connection, head, number, spec, active)
            game, names = get_game(head.game), {e.number: e.names for e in entrants}
            active = ledger_clubs.active_ids(connection, head.club_id) if head.club_id else set()
            members = {e.number: [m if m in active else None for m in (e.members or [None] * len(e.names))]
                       for e in entrants}  # a member who left since plays on as a guest
            cards = db.card_keys(connection, tournament_id)
            options = table_options(head.game, head.options, spec)
            for table_number, ns, ew in tables:
                if table_number not in cards:
                    cards[table_number] = secrets.token_urlsafe(24)
                    db.insert_card(connection, tournament_id, table_number, cards[table_number])
                table = game.new_table(seats(names[ns], names[ew]), options)
                table_id = secrets.token_urlsafe(8)
                club = {"club_id": head.club_id, "members": seats(members[ns], members[ew])} if head.club_id else {}
                db.insert_table(connection, table_id, table, cards[table_number], secrets.token_urlsafe(24), **club)
                db.insert_seat(connection, tournament_id, number, table_number, table_id, ns, ew)
            db.insert_round(connection, tournament_id, number, spec["movement"], bye)
            message = f"Round {number} seated: {len(tables)} tables" + (
                f", a bye for {entrant_names(names[bye])}." if bye is not None else ".")
            db.log_act(log, "seated", message, round=number, tables=len(tables), bye=bye)
            db.save_log(connection, tournament_id, log)
            keep(connection, tournament_id, key, "seated")
        self.ledger.write(act)
        return self.state(tournament_id)

    @once_act
    def withdraw(self, tournament_id: str, entrant: int, once: Once | None = None) -> dict:
        """Between rounds: the entrant plays no further round; its results so far stay in the standings."""
        key = act_key(once, "withdrawn", [entrant])

        def act(connection):
            _, log, done = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            if done and not done[-1].closed:
                raise _open(done[-1].number)
            found = next((e for e in db.entrants_of(connection, tournament_id) if e.number == entrant), None)
            if found is None or isinstance(entrant, bool):
                raise NotFound("entrant_not_found", "There is no entrant {entrant}.", entrant=repr(entrant))
            if found.withdrawn is not None:
                raise RuleError("already_withdrawn", "{names} withdrew already.", names=entrant_names(found.names))
            db.withdraw(connection, tournament_id, found.number, len(done))
            db.log_act(log, "withdrawn", f"{entrant_names(found.names)} withdrew after round {len(done)}.",
                       entrant=entrant, after=len(done))
            db.save_log(connection, tournament_id, log)
            keep(connection, tournament_id, key, "withdrawn")
        self.ledger.write(act)
        return self.state(tournament_id)

    @once_act
    def add_entrant(self, tournament_id: str, names, once: Once | None = None) -> dict:
        """Between rounds: a late entrant, who plays from the next round on (a pair, or one player, as the others);
        in a club's tournament each name a member (``{"player": id}`` or a member's name) or a guest's."""
        key = act_key(once, "added", [names])

        def act(connection):
            club_id, members, given = _club_first(connection, tournament_id), None, names
            head, log, done = locked(connection, tournament_id)
            first_time(connection, tournament_id, key)
            if club_id:  # R-CLUB-1: each name a member ({"player": id} or a member's name) or a guest
                given, members = ledger_clubs.seat_names(connection, club_id, names, by_name=True)
            if done and not done[-1].closed:
                raise _open(done[-1].number)
            entrants = db.entrants_of(connection, tournament_id)
            listed = checks.entrants([e.names for e in entrants] + [given])
            number = max(e.number for e in entrants) + 1
            db.add_entrant(connection, tournament_id, number, listed[-1], len(done) + 1, members)
            db.log_act(log, "added", f"{entrant_names(listed[-1])} joined from round {len(done) + 1}.",
                       entrant=number, round=len(done) + 1)
            db.save_log(connection, tournament_id, log)
            keep(connection, tournament_id, key, "added")
        self.ledger.write(act)
        return self.state(tournament_id)

    # --- inside -------------------------------------------------------------------------------------------
    def _seating(self, connection, head, number: int, spec: dict, active: list) -> tuple:
        """(tables as (number, ns, ew), bye) of round ``number`` by its movement (movements.py)."""
        earlier = [s["movement"] for s in head.plan[:number - 1]]
        if spec["movement"] == "mitchell":
            index = earlier.count("mitchell")
            if index:  # a Mitchell under way keeps its lines (a withdrawal or a late entrant notwithstanding)
                kept = self._mitchell_kept(connection, head, active, index)
                if kept is not None:
                    return kept
            checks.mitchell(index + 1, len(active))
            return _numbered(*movements.mitchell_seating(active, index))
        if spec["movement"] == "round_robin":
            return _numbered(*movements.round_robin(active, earlier.count("round_robin")))
        state = self._read(connection, head.id, -1)
        ranking = [row["entrant"] for row in state["standings"] if row["entrant"] in set(active)]
        met = {frozenset(t["entrants"]) for r in state["rounds"] for t in r["tables"]}
        byes = {r["bye"] for r in state["rounds"] if r["bye"] is not None}  # a second bye only when all had one
        return _numbered(*movements.danish(ranking, met, byes))

    def _mitchell_kept(self, connection, head, active: list, index: int) -> tuple | None:
        """The Mitchell's lines as its first round seated them: a withdrawn entrant leaves an empty place, a late
        one takes an empty place (North-South first), so North-South stay at their table and nobody meets anyone
        twice. None when that gives more than one bye in the round (a round has one) or leaves someone out: the
        active entrants are then seated afresh."""
        state = self._read(connection, head.id, -1)
        first = next(r for r in state["rounds"] if r["movement"] == "mitchell")
        ns_lines = [t["entrants"][0] for t in first["tables"]] + ([None] if first["bye"] is not None else [])
        ew_lines = [t["entrants"][1] for t in first["tables"]] + ([first["bye"]] if first["bye"] is not None
                                                                 else [])
        if index >= movements.mitchell_rounds(len(ns_lines)):
            return None
        here = set(active)
        ns_lines = [e if e in here else None for e in ns_lines]
        ew_lines = [e if e in here else None for e in ew_lines]
        late = [e for e in active if e not in ns_lines and e not in ew_lines]
        for lines in (ns_lines, ew_lines):
            for place, entrant in enumerate(lines):
                if entrant is None and late:
                    lines[place] = late.pop(0)
        if late:
            return None
        seated, byes = movements.mitchell_lines(ns_lines, ew_lines, index)
        return (seated, byes[0] if byes else None) if len(byes) <= 1 else None


def _club_first(connection, tournament_id: str) -> str | None:
    """A club's tournament: the club's lock before the tournament's (the house's order: club, tournament, tables;
    a member's removal takes them so too). Its club's id, or None."""
    club_id = db.club_of(connection, tournament_id)
    if club_id:
        ledger_clubs.lock(connection, club_id)
    return club_id


def _numbered(tables: list, bye) -> tuple:
    """A movement's tables numbered from 1 in order, with its bye."""
    return [(number, ns, ew) for number, (ns, ew) in enumerate(tables, 1)], bye


def seats(ns: list, ew: list) -> list:
    """Players in order of play: a pair North-South (n, s) against a pair East-West (e, w) sit n, e, s, w, so that
    North-South is side 0 and East-West side 1 (R-COMMON-3, partners opposite); single players ns, ew."""
    if len(ns) == 2:
        return [ns[0], ew[0], ns[1], ew[1]]
    return [ns[0], ew[0]]


def table_options(game_id: str, options: dict, spec: dict) -> dict:
    """A round's table options: the tournament's, and the round's length (Buraco's hands, R-BURACO-6; Brûlot's and
    Brusquembille's deals); Brisca and Brouc play a series by their own options."""
    merged = dict(options)
    length = round_unit(game_id)
    if length is not None and spec.get(length) is not None:
        merged[length] = spec[length]
    return merged


def _open(number: int) -> RuleError:
    return RuleError("round_open", "Round {round} is still open: close it first.", round=number)
