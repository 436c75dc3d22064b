"""How the engine tests drive a game: entries applied one by one (each parsed as the API would), refusals caught."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.errors import ParseError, RuleError
from referee.games import get_game

DEALS = Path(__file__).parents[1] / "recorded" / "deals"  # whole deals played by tests/support/simulate.py, kept as recorded


class Driver:
    """``play(state, *bodies)`` applies entries; ``refused(state, body)`` returns the error a refused entry raises;
    ``out(state)`` is the serialised state the API answers."""

    def __init__(self, game_id: str):
        self.game = get_game(game_id)

    def play(self, state, *bodies):
        for body in bodies:
            state = self.game.apply(state, self.game.parse_event(state, body))
        return state

    def refused(self, state, body):
        with pytest.raises((RuleError, ParseError)) as error:
            self.play(state, body)
        return error.value

    def out(self, state) -> dict:
        return self.game.serialise(state)

    def recorded(self, name: str, upto: int) -> tuple:
        """A recorded deal (``tests/recorded/deals/<name>.json``) replayed up to its ``upto``-th event: (that table,
        the deal's events, its players)."""
        record = json.loads((DEALS / f"{name}.json").read_text(encoding="utf-8"))
        assert record["game"] == self.game.id
        table = self.game.new_table(record["players"], record["options"], record["dealer"])
        return self.play(table, *record["events"][:upto]), record["events"], record["players"]

    def offered(self, state, player: int) -> list:
        """The cards the picker leaves free for ``player`` now: in play, and not known to be anywhere else."""
        deal = state.current
        held = self.game.held_elsewhere(state, deal, player)
        return [c.code for c in deal.cards_out(self.game.deck_for(state)) if c not in held]

    def partial(self, state, codes) -> RuleError | None:
        """The refusal of the first cards of a trick as they are tapped (the picker checks each tap), or None."""
        try:
            self.game.verify_partial(state, [self.game.deck_for(state).parse(c) for c in codes])
        except RuleError as error:
            return error
        return None
