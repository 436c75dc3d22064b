"""Score sheets to print, each game's own shape (the game's ``printed_sheet``, drawn by its
``_sheet_print_<game>.html``: Brouc's slate, Buraco's columns, Brisca's deals and deal wins…). ``sheet_model`` gives
the same shape blank (rows to fill by hand, no names) or filled from a table's state (its numbers, read from the state
alone: never from the scoreboard's fragments), with the rows left to write in and its extent."""
from __future__ import annotations


def sheet_model(game, state: dict | None) -> dict:
    """What a sheet shows: ``blank`` sheets have ``rows`` of None; filled ones the table's deals."""
    model = game.printed_sheet(state if state else None)
    model["blank"] = state is None
    if state and not state["series"]["finished"]:  # a series under way: rows to go on writing by hand
        game.printed_room(model, lambda used: [None] * max(2, game.blank_rows - used))  # two at least
    model["lines"], model["width"] = game.printed_extent(model)  # what pages.py sizes it by, without JavaScript
    return model
