"""The numbers screen: a deal written as on paper, in progress in the page address, then saved as the contract's
``tally``. Presentation and parsing only; every number is checked by the engine when saved (and previewed).

A ``Sheet`` holds the numbers typed (one field per side, or per player where the game counts players), the rows added
(compact strings: ``a:P:KH.QH`` an announce, ``m:S:KC.QC`` a mariage sur table, ``b:AH:P:won`` a brusquembille,
``c:S`` a cape, ``d:P:call`` a declaration, ``l:S`` the last trick's side) and what the next tap completes (``pick``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from referee.errors import ParseError
from referee.games import get_game

ITEM = re.compile(r"[a-z]:[A-Za-z0-9_.:]{1,60}")
MAX_ITEMS = 24
KING_QUEEN = r"[KQJ][SHDC](?:\.[KQJ][SHDC]){1,2}"
# Each kind of row, whole; "P" a player's index and "S" a side's, checked against the table (a row nobody can have
# tapped, from a hand-made address, is dropped like any other bad field).
ROWS = {
    "a": (re.compile(rf"a:(?P<P>\d{{1,2}}):{KING_QUEEN}")),  # an announce (Brouc)
    "m": (re.compile(rf"m:(?P<S>\d{{1,2}}):{KING_QUEEN}")),  # a mariage sur table (Brouc)
    "b": re.compile(r"b:(?:A|10)[SHDC]:(?P<P>\d{1,2})?:(?:won|trumped|beaten)"),  # a brusquembille
    "c": re.compile(r"c:(?P<S>\d{1,2})"),  # a cape (Brouc)
    "d": re.compile(r"d:(?P<P>\d{1,2}):(?:cape_dehors|cape_dehors_pas_dedouble)"),  # a declaration (Brouc)
    "l": re.compile(r"l:(?P<S>\d{1,2})"),  # the last trick's side (Brisca)
    "k": re.compile(r"k:(?P<P>\d{1,2})"),  # who closed (Buraco)
    "u": re.compile(r"u:(?P<S>\d{1,2}):(?:pure|semi|dirty)"),  # a burraco (Buraco)
    "n": re.compile(r"n:(?P<S>\d{1,2})"),  # a pot not taken (Buraco)
    "p": re.compile(r"p:(?P<P>\d{1,2})"),  # the 18-card pot (Buraco, 3 or 5 players)
    "e": re.compile(r"e:(?P<P>\d{1,2})"),  # the team's 11-card pot (Buraco, 3 or 5 players)
}
PICKS = {"a": re.compile(r"a:(?P<P>\d{1,2})"), "m": re.compile(r"m:(?P<S>\d{1,2})"),
         "b": re.compile(r"b:(?:A|10)[SHDC]")}


def well_formed(text: str, grammar: dict, limits: tuple) -> bool:
    """Whether ``text`` is a row (or a pick) of its kind whose player and side exist at this table."""
    found = grammar.get(text[:1])
    match = found.fullmatch(text) if found and ITEM.fullmatch(text) else None
    if match is None:
        return False
    players, sides = limits
    return all(match.group(name) is None or int(match.group(name)) < limit
               for name, limit in (("P", players), ("S", sides)) if name in match.groupdict())


def _digits(text) -> str:
    return text if isinstance(text, str) and re.fullmatch(r"-?[0-9]{1,4}", text) else ""


@dataclass(frozen=True)
class Sheet:
    values: tuple = ()
    items: tuple = ()
    pick: str = ""
    limits: tuple = field(default=(99, 99), compare=False, repr=False)  # (players, sides) at this table

    @classmethod
    def read(cls, values, fields: int, players: int = 99, sides: int = 99) -> "Sheet":
        """From an address or a form: ``v0``… (typed fields) over ``v`` (the address's copy), ``x`` and ``pick``;
        rows and picks that are not whole, or name a player or side the table does not have, are left out."""
        typed = (values.get("v") or "").split(".")
        numbers = tuple(_digits(values.get(f"v{i}", typed[i] if i < len(typed) else "")) for i in range(fields))
        limits = (players, sides)
        items = tuple(i for i in (values.get("x") or "").split("~") if well_formed(i, ROWS, limits))[:MAX_ITEMS]
        pick = values.get("pick") or ""
        return cls(numbers, items, pick if well_formed(pick, PICKS, limits) else "", limits)

    def query(self) -> dict:
        query = {}
        if any(self.values):
            query["v"] = ".".join(self.values)
        if self.items:
            query["x"] = "~".join(self.items)
        if self.pick:
            query["pick"] = self.pick
        return query

    def rows(self, kind: str) -> list:
        """The rows of one kind, each as its parts after the kind: [(index, [parts])]."""
        return [(i, item.split(":")[1:]) for i, item in enumerate(self.items) if item.startswith(kind + ":")]

    def keyed(self, kind: str) -> dict:
        """The rows of one kind by their first part (a brusquembille's card): {key: [parts]}."""
        return {parts[0]: parts for _, parts in self.rows(kind)}

    def has(self, item: str) -> bool:
        return item in self.items

    def with_items(self, items, pick: str = "") -> "Sheet":
        """The sheet after a tap: only well-formed rows and picks stay (a tap can build no other)."""
        return replace(self, items=tuple(i for i in items if well_formed(i, ROWS, self.limits))[:MAX_ITEMS],
                       pick=pick if well_formed(pick, PICKS, self.limits) else "")

    def act(self, action: str, outcomes: tuple = ()) -> "Sheet":
        """One tap on the sheet: pick who or what the next tap is for, add or remove a row, cycle an outcome (in the
        order of ``outcomes``, the game's ``numbers_outcomes``)."""
        verb, _, rest = action.partition(":")
        items = list(self.items)
        if verb == "pick":
            return self.with_items(items, "" if rest == self.pick else rest)
        if verb == "del" and rest.isdigit() and int(rest) < len(items):
            del items[int(rest)]
            return self.with_items(items)
        if verb == "toggle":  # one row of its kind, there or not: a cape, a declaration, the last trick
            kind = rest.split(":")[0]
            others = [i for i in items if not i.startswith(kind + ":")]
            return self.with_items(others if rest in items else others + [rest], self.pick)
        if verb == "flip" and ITEM.fullmatch(rest):  # a row there or not beside others of its kind (a pot not taken)
            return self.with_items([i for i in items if i != rest] if rest in items else items + [rest], self.pick)
        if verb == "more" and ITEM.fullmatch(rest):  # a stepper's +: one row more of the same (a burraco)
            return self.with_items(items + [rest], self.pick)
        if verb == "less" and rest in items:  # a stepper's −: one row fewer
            del items[len(items) - 1 - items[::-1].index(rest)]
            return self.with_items(items, self.pick)
        if verb == "add":  # "add:a:H:KQ" with pick "a:P" -> "a:P:KH.QH"
            kind, suit, ranks = (rest.split(":") + ["", ""])[:3]
            who = self.pick.split(":")
            if len(who) != 2 or who[0] != kind or not suit or ranks not in ("KQ", "KQJ"):
                return self
            cards = ".".join(r + suit for r in ("K", "Q", "J")[:len(ranks)])
            return self.with_items(items + [f"{kind}:{who[1]}:{cards}"])
        if verb == "cycle":  # a brusquembille: won, trumped, beaten, then gone; the next tap says who played it
            rows = {parts[0]: (i, parts) for i, parts in self.rows("b")}
            if rest not in rows:
                return self.with_items(items + [f"b:{rest}::{outcomes[0]}"], f"b:{rest}") if outcomes else self
            i, parts = rows[rest]
            following = outcomes.index(parts[2]) + 1 if parts[2] in outcomes else 0
            if following == len(outcomes):
                del items[i]
                return self.with_items(items)
            items[i] = f"b:{rest}:{parts[1]}:{outcomes[following]}"
            return self.with_items(items, f"b:{rest}")
        if verb == "who":  # "who:AH:2": who played the brusquembille being picked
            card, _, player = rest.partition(":")
            rows = {parts[0]: (i, parts) for i, parts in self.rows("b")}
            if card in rows and player.isdigit():
                i, parts = rows[card]
                items[i] = f"b:{card}:{player}:{parts[2]}"
                return self.with_items(items)
        return self

    def remainder(self, whole: int | None) -> tuple | None:
        """(the one field left blank, what remains of ``whole`` for it), shown in that field before it is saved."""
        blank = [i for i, v in enumerate(self.values) if v == ""]
        if whole is None or len(blank) != 1 or len(self.values) < 2:
            return None
        return blank[0], whole - sum(int(v) for v in self.values if v)

    def numbers(self, whole: int | None) -> list:
        """The typed numbers as integers; with exactly one left blank and a known ``whole``, it is what remains."""
        blank = [i for i, v in enumerate(self.values) if v == ""]
        given = [int(v) if v else 0 for v in self.values]
        if len(blank) == 1 and whole is not None:
            given[blank[0]] = whole - sum(given)
        elif blank:
            raise ParseError("sheet_incomplete", "Type the numbers of every side but one.")
        return given


FIELDS_PER = {"players": lambda players, sides: players, "melds": lambda players, sides: 2 * sides,
              "sides": lambda players, sides: sides}


def fields_for(game_id: str, n_players: int, n_sides: int) -> int:
    """How many numbers a sheet has, as the game's ``numbers_fields`` says: per player (Brûlot's penalties), melds
    and hand per side (Buraco), else per side (card points)."""
    return FIELDS_PER[get_game(game_id).numbers_fields](n_players, n_sides)


def capture_extras(game_id: str, sheet: Sheet) -> dict:
    """What a captured pile carries beside its cards (R-COMMON-6), the game's ``pile_fields``: Brouc's announces,
    mariages and declaration, Brusquembille's brusquembilles (only when some were tapped: piles alone leave the
    jetons unknown)."""
    fields = get_game(game_id).pile_fields
    if not fields:
        return {}
    body = tally_body(game_id, replace(sheet, values=()), None)
    extras = {k: body[k] for k in fields}
    return extras if any(extras.values()) else {}


def tally_body(game_id: str, sheet: Sheet, whole: int | None, table=None) -> dict:
    """The contract's ``tally`` for the sheet (R-COMMON-6), in each game's own fields (the game's ``numbers_tally``);
    the engine checks every number. ``table`` (the open deal's) is needed by the games whose sheet names players:
    Brûlot, Buraco."""
    return {"type": "tally", **get_game(game_id).numbers_tally(sheet, whole, table)}
