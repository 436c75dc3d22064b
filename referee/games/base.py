"""The engine interface every game implements and the registry of games (its options: ``options.py``).

A table is a list of events; its state is what replaying them gives (``Game.replay_from``, the one replay loop).
``Game.apply(state, event)`` returns a new state sharing the given one's finished deals, or raises a ``RefereeError``
(code, message, ruling id, card, player) and leaves the given state untouched.

Serialising a state costs its open deal and its own fields, not its log: a finished deal (any but the last) never
changes (the engines change only ``Table.current``; ``tests/test_memory.py``), so its document is made once and kept
on the deal itself (``finished_doc``), with its result form for a write's answer (``brief``). Documents are shared:
read them, never change them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from referee.errors import ParseError, RuleError
from referee.games.copying import deep_copy
from referee.games import signatures
from referee.games.facts import Facts
from referee.games.printed import Printed
from referee.games.standing import result_of
from referee.games.statistics import counted

MAX_NAME = 40


@dataclass
class Table:
    """What every game's state has: who plays, on which sides, with which options, and the deals so far."""

    game: str
    players: list
    sides: list
    options: dict
    first_dealer: int
    deals: list = field(default_factory=list)
    totals: list = field(default_factory=list)
    finished: bool = False
    winner: int | None = None
    version: int = 0
    signatures: list = field(default_factory=list)  # the sides that confirmed the result (R-COMMON-7, signatures.py)
    disputes: list = field(default_factory=list)  # the sides' open calls to the director: [{"side", "message"}]
    signed_for: dict = field(default_factory=dict)  # side -> the result it confirmed (R-COMMON-7b, signatures.py)
    correction: dict | None = None  # the signed result the director's correction changed (R-COMMON-7b)

    @property
    def current(self):
        return self.deals[-1] if self.deals else None

    def side_of(self, player: int) -> int:
        return next(i for i, side in enumerate(self.sides) if player in side)

    def side_name(self, side: int) -> str:
        """A side as the players call it: its players' names joined by "&"."""
        return " & ".join(self.players[p] for p in self.sides[side])

    def player_name(self, player: int) -> str:
        return self.players[player]


def fork(table: Table) -> Table:
    """A copy of ``table`` to step in place: its own fields and its last deal copied, its finished deals shared
    (never changed: the engines change only ``Table.current``, ``tests/test_memory.py`` checks it for every game)."""
    memo = {id(deal): deal for deal in table.deals[:-1]}
    return deep_copy(table, memo)  # what copy.deepcopy gives, at a fraction of its cost (copying.py)


def field_of(data: dict, name: str, kind, *, optional=False, default=None):
    """Reads one field of an event body, or raises ``bad_event`` naming it."""
    if name not in data or data[name] is None:
        if optional:
            return default
        raise ParseError("bad_event", "The {type} entry needs the field {field}.", type=str(data.get("type")),
                         field=name)
    value = data[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ParseError("bad_event", "Field {field} must be a whole number, not {value}.", field=name,
                         value=repr(value))
    if kind is not int and not isinstance(value, kind):
        raise ParseError("bad_event", "Field {field} has the wrong type: {value}.", field=name, value=repr(value))
    return value


class Game(Facts, Printed):
    """Base of every game engine. Subclasses fill the class attributes and the event handlers ``on_<type>``.

    What the web layer and the templates ask of a game (its words, its seat and side order…) is ``Facts``
    (``referee/games/facts.py``); what its printed pages ask (its rule summary, its score sheet) is ``Printed``
    (``referee/games/printed.py``).
    """

    id: str = ""
    names: dict = {}
    origin: dict = {}
    flag: str = ""
    description: dict = {}
    direction: dict = {}
    player_range: tuple = (2, 2)  # (fewest, most) players; ``player_counts`` says which counts between them play
    options: tuple = ()
    events: dict = {}  # type -> parser(game, table, data) returning an event object
    statistics: tuple = ()  # the ``Stat`` items a member's page counts, in order (statistics.py, issue 29)
    # --- table set-up -------------------------------------------------------------------------------------
    def describe(self) -> dict:
        return {"id": self.id, "name": self.names["fr"], "names": self.names, "origin": self.origin,
                "flag": self.flag, "description": self.description, "direction": self.direction,
                "players": list(self.player_range), "options": [o.describe() for o in self.options],
                "events": sorted([*self.events, *signatures.SIGNATURES])}

    def resolve_options(self, given: dict | None, n_players: int) -> dict:
        given = {} if given is None else given  # false, 0, "" or [] are no options: refused below
        if not isinstance(given, dict):
            raise ParseError("bad_option", "Options must be an object of name: value.")
        given = self.legacy_options(given, n_players)
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                raise ParseError("bad_option", "{game} has no option {option}; it has {known}.",
                                 game=self.names["en"], option=name, known=", ".join(known) or "none")
        resolved = {o.name: o.validate(given[o.name]) if o.name in given else o.default for o in self.options}
        self.check_options(resolved, n_players)
        return resolved

    def legacy_options(self, given: dict, n_players: int) -> dict:
        """Options as an earlier version named them (a table stored then, its export, an old client), said in
        today's options; ``given`` itself is never changed."""
        return given

    def check_options(self, options: dict, n_players: int) -> None:
        """Cross-checks between options and the player count; raise ``bad_option``."""

    def sides(self, n_players: int, options: dict) -> list:
        return [[p] for p in range(n_players)]

    def new_table(self, players: list, options: dict | None = None, dealer: int | None = None) -> Table:
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise ParseError("bad_players", "Players must be a list of names in order of play.")
        for name in (p.strip() for p in players):  # a name too long is refused, never cut (the set-up page too)
            if len(name) > MAX_NAME:
                raise ParseError("bad_players", "“{name}” is {length} characters long: a player's name has at most "
                                 "{max}.", name=name, length=len(name), max=MAX_NAME)
        if not all(p.isprintable() for p in players):
            raise ParseError("bad_players", "A player's name is at most {max} printable characters.", max=MAX_NAME)
        players = [p.strip() for p in players]
        low, high = self.player_range
        if not low <= len(players) <= high or len(players) not in self.player_counts():
            counts = ", ".join(map(str, self.player_counts()))
            raise ParseError("bad_players", "{game} is played by {counts} players, not {count}.",
                             game=self.names["en"], counts=counts, count=len(players))
        if len(set(p.casefold() for p in players)) != len(players):
            raise ParseError("bad_players", "Two players have the same name; give each a name of their own.")
        resolved = self.resolve_options(options, len(players))
        dealer = 0 if dealer is None else dealer  # R-COMMON-2: the first player deals by default
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise ParseError("bad_dealer", "The first dealer must be a player index from 0 to {last}.",
                             last=len(players) - 1)
        table = self.make_table(players, resolved, dealer)
        table.totals = [0] * len(table.sides)
        return table

    def player_counts(self) -> tuple:
        return tuple(range(self.player_range[0], self.player_range[1] + 1))

    def make_table(self, players, options, dealer) -> Table:
        return Table(self.id, players, self.sides(len(players), options), options, dealer)

    # --- events -------------------------------------------------------------------------------------------
    def parse_event(self, table: Table, data) -> object:
        if not isinstance(data, dict):
            raise ParseError("bad_event", "An event is a JSON object with a type.")
        kind = data.get("type")
        if kind in signatures.SIGNATURES:  # every game's: R-COMMON-7; a confirmation signs the result (R-COMMON-7b)
            return signatures.parse(table, data, self.result(table) if table.finished and kind == "confirm" else None)
        if not isinstance(kind, str) or kind not in self.events:
            raise ParseError("bad_event", "{game} has no event {kind}; it takes {events}.", game=self.names["en"],
                             kind=repr(kind), events=", ".join(sorted(self.events)), field="type")
        return self.events[kind](self, table, data)

    def apply(self, table: Table, event) -> Table:
        """The new state after ``event``; the given state is never changed, even when the event is refused. The new
        state shares the given one's finished deals (``fork``): an entry costs the open deal, not the whole log."""
        if event.type in signatures.SIGNATURES:
            signatures.verify(table, event)  # an entry's checks, not the replay's (signatures.py)
        new = fork(table)
        self.step(new, event)
        return new

    def step(self, table: Table, event) -> None:
        """Applies ``event`` to ``table`` in place (replay uses this on a state nobody else holds)."""
        if event.type in signatures.SIGNATURES:  # R-COMMON-7: a signature changes no total, the series over or not
            signatures.step(table, event)
            table.version += 1
            return
        if table.finished:
            raise RuleError("series_finished", "The series is over: no more entries.")
        getattr(self, "on_" + event.type)(table, event)
        table.version += 1
        if table.finished and table.signatures:  # R-COMMON-7b: a correction that changed the signed result
            signatures.recheck(table, self.result(table))

    def replay(self, players, options, dealer, bodies) -> Table:
        """The state of a new table after ``bodies`` (events as stored), stepped in place, no checkpoint made."""
        return self.replay_from(self.new_table(players, options, dealer), bodies, checkpoint=False)[0]

    def replay_from(self, table: Table, bodies, shared: bool = False, on_event=None, checkpoint: bool = True) -> tuple:
        """(state, checkpoint): ``table`` with ``bodies`` stepped on, each parsed and checked as an entry is. The
        checkpoint is the state before the last ``deal`` among them, the start of the open deal (None when there
        is none, or not asked for), so that the next undos replay only that deal's events (``referee/
        state_cache.py``). ``table`` is stepped in place unless ``shared`` (a state someone else holds: a
        checkpoint); a checkpoint is never stepped. ``on_event(event, body)`` is told each event once parsed.
        Every replay in Referee is this one."""
        bodies = list(bodies)
        start = max((number for number, body in enumerate(bodies) if body.get("type") == "deal"), default=None)
        if not checkpoint:
            start = None
        kept = None
        if shared and bodies and start != 0:
            table = fork(table)
        for number, body in enumerate(bodies):
            if number == start:
                kept, table = table, fork(table)
            event = self.parse_event(table, body)
            self.step(table, event)
            if on_event is not None:
                on_event(event, body)
        return table, kept

    # --- output -------------------------------------------------------------------------------------------
    def possible(self, table: Table) -> list:
        """The entries the table can take now, for the interface to show only those."""
        return []

    def turned_card(self, table: Table) -> str:
        """Whether the next deal starts with a turned card: "required", "optional" or "none"."""
        return "required"

    def next_dealer(self, table: Table) -> int:
        """R-COMMON-2: the first dealer chosen at the table, then the next player after every deal."""
        return table.first_dealer if not table.deals else (table.deals[-1].dealer + 1) % len(table.players)

    def verify_new_deal(self, table: Table) -> None:
        if table.current is not None and not table.current.complete:
            raise RuleError("deal_in_progress", "Deal {number} is not finished yet.", rule="R-COMMON-2",
                            number=table.current.number)

    def untouched(self, table: Table) -> bool:
        """A deal is open and nothing of it is entered yet (so it may still be entered another way)."""
        deal = table.current
        return deal is not None and not deal.complete and not self.entered(deal)

    def entered(self, deal) -> bool:
        """Whether anything of an open deal is entered: every game says what its deals hold."""
        raise NotImplementedError

    def players_for(self, table: Table, action: str) -> list:
        """The players who may take ``action`` now, as far as the app can tell (the interface offers only them)."""
        return list(range(len(table.players)))

    def next_action(self, table: Table) -> dict:
        raise NotImplementedError

    def serialise(self, table: Table) -> dict:
        last = len(table.deals) - 1
        return {
            "game": self.id, "version": table.version, "players": list(table.players),
            "sides": self.side_docs(table),
            "options": dict(table.options),
            "deals": [finished_doc(self, table, deal) if number < last else self.serialise_deal(table, deal)
                      for number, deal in enumerate(table.deals)],
            "totals": list(table.totals),
            "series": {"finished": table.finished, "winner": table.winner, "standing": self.standing(table)},
            "signed": signatures.document(table),
            "next": self.next_action(table),
            "possible": self.possible(table),
        }

    @staticmethod
    def side_docs(table: Table) -> list:
        """Each side as a state gives it: its name ("Ana & Cy") and its players' seats."""
        return [{"name": " & ".join(table.players[p] for p in side), "players": list(side)} for side in table.sides]

    def serialise_deal(self, table: Table, deal) -> dict:
        raise NotImplementedError

    def standing(self, table: Table) -> dict:
        """The series' standing, its headline: its unit, each side's number, the leader, the winners
        (``referee/games/standing.py``). Every game says its own."""
        raise NotImplementedError

    def result(self, table: Table) -> dict:
        """What a finished series' result is, the one place every screen asks (R-COMMON-7b): the standing's unit
        (``unit``, ``label``), each side's number in it (``values``), the winners, and the numbers the headline says
        beside it (``beside``: Brouc's coches, Brusquembille's jetons). A side signs this, never a number the game
        does not count its series in (Brisca: deals won, not card points)."""
        return result_of(self.standing(table))

    def player_statistics(self, state: dict) -> list:
        """Per player seat of ``state`` (``serialise``'s), each ``statistics`` key to its count in this series: the
        complete deals' ``deal_statistics`` summed (``referee/games/statistics.py``); ``{}`` each without any."""
        return counted(state, self.statistics, self.deal_statistics)

    def deal_statistics(self, state: dict, deal: dict):
        """What one complete deal's document of ``state`` counts: ``(players, key, amount)`` items."""
        return ()

    def brief(self, table: Table, state: dict) -> dict:
        """``state`` (this table's, from ``serialise``) as a write answers it (docs/api.md): every complete deal
        without its ``tricks``, their count in ``tricks_count`` instead; every other field as it is."""
        last = len(table.deals) - 1
        deals = []
        for number, (deal, doc) in enumerate(zip(table.deals, state["deals"])):
            if number < last:
                deals.append(_docs(self, table, deal)[1])
            elif doc.get("complete") and "tricks" in doc:
                deals.append(without_tricks(doc))
            else:
                deals.append(doc)
        return {**state, "deals": deals}


DOCS = "_serialised"  # the attribute a finished deal keeps its documents in: (whole, brief)


class Doc(dict):
    """A finished deal's document as a write answers it: it never changes, so its JSON text (``text``, compact, as
    the API writes JSON) is made once with it and an answer joins the texts instead of encoding every deal again."""

    __slots__ = ("text",)

    def __init__(self, doc: dict):
        super().__init__(doc)
        self.text = json.dumps(self, separators=(",", ":"))


def without_tricks(doc: dict) -> dict:
    """A deal's document as a write answers it once complete: ``tricks_count`` in place of ``tricks``."""
    brief = {name: value for name, value in doc.items() if name != "tricks"}
    brief["tricks_count"] = len(doc["tricks"])
    return brief


def _docs(game: Game, table: Table, deal) -> tuple:
    """(whole, brief) documents of a finished deal, made once. They live on the deal, so they go with it and the
    replay cache counts them in its bytes (``referee/store/state_cache.py``)."""
    docs = getattr(deal, DOCS, None)
    if docs is None:
        whole = game.serialise_deal(table, deal)
        docs = (whole, Doc(without_tricks(whole) if whole.get("complete") and "tricks" in whole else whole))
        setattr(deal, DOCS, docs)
    return docs


def finished_doc(game: Game, table: Table, deal) -> dict:
    """The document of a deal that is not the table's last: it never changes, so it is made once."""
    return _docs(game, table, deal)[0]


GAMES: dict = {}


def register(game_class):
    GAMES[game_class.id] = game_class()
    return game_class


def get_game(game_id) -> Game:
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise ParseError("unknown_game", "There is no game {game}; the games are {games}.", game=repr(game_id),
                         games=", ".join(sorted(GAMES)))
    return GAMES[game_id]
