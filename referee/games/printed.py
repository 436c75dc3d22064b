"""What a game puts on paper, asked of the game (``Printed``, a base of ``Game``): its part of the printed rule
summary (``referee/summaries.py`` adds the common rules around it) and its printed score sheet's model, size and
blank rows (``referee/web/printing/sheets.py`` frames it; the game's ``_sheet_print_<game>.html`` draws it). Each
game's own are in its package's ``printed.py``; the defaults here print a trick game's card values and a sheet of
deals with each side's points. Pure: no Flask."""
from __future__ import annotations

from referee.games.summary_text import card_values, names


class Printed:
    """The printed pages' questions, with their defaults.

    - ``printed_summary(options, words)``: the game's part of its rule summary, ``{"items": [ruled sentences,
      summary_text.ruled], "values": [{"label", "points"}], "values_rule", "strength"}`` (and ``"low_wins": True``
      where the lowest total wins); ``options`` are the table's (defaults filled in), ``words`` each option's value
      in words.
    - ``printed_sheet(state)``: the model the game's ``_sheet_print_<game>.html`` draws, blank when ``state`` is
      None (rows of None, no names), else read from the table's serialised state alone.
    - ``blank_rows``, ``blank_sides``: the rows and the sides (or players) a blank sheet offers; a series under way
      gets as many rows left to write in (``printed_room``).
    - ``printed_extent(model)``: (the rows the sheet takes, its width in em), what the page's type size is chosen by.
    - ``printed_room(model, more)``: adds the blank rows after a series under way's deals, ``more(used)`` of them.
    """

    blank_rows: int = 12
    blank_sides: int = 2

    def printed_summary(self, options: dict, words: dict) -> dict:
        """The card values in strength order (a trick game's ``points`` and ``strength``), no rule of its own."""
        points, strength = getattr(self, "points", {}), getattr(self, "strength", {})
        order = sorted(strength, key=strength.get, reverse=True)
        return {"items": [], "values": card_values(points, order) if points else [], "values_rule": self.points_rule,
                "strength": names(order, joiner=" > ") if order else None}

    def printed_sheet(self, state: dict | None) -> dict:
        """Rows of deals, each side's points, and the totals."""
        if state is None:
            return {"names": side_names(self, None), "rows": [None] * self.blank_rows, "totals": None}
        rows = [{"number": deal["number"], "points": deal["points"]} for deal in complete_deals(state)]
        return {"names": side_names(self, state), "rows": rows, "totals": state["totals"]}

    def printed_extent(self, model: dict) -> tuple:
        return deal_lines(model), 32

    def printed_room(self, model: dict, more) -> None:
        model["rows"] = model["rows"] + more(len(model["rows"]))


def deal_lines(model: dict) -> int:
    """The lines of a sheet of deals: its rows, the lines its model says it adds (``extra``), its head and foot."""
    return len(model["rows"]) + model.get("extra", 0) + 2


def side_names(game, state: dict | None) -> list:
    """The sides' names, or a blank sheet's lines to write them on (None each)."""
    if state is None:
        return [None] * game.blank_sides
    return [side["name"] for side in state["sides"]]


def complete_deals(state: dict | None) -> list:
    return [deal for deal in state["deals"] if deal["complete"]] if state else []


def default_of(game, name: str):
    """An option's default (a blank sheet's)."""
    return next(o for o in game.options if o.name == name).default
