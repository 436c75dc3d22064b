"""How the engine tests drive a game: entries applied one by one (each parsed as the API would), refusals caught."""
from __future__ import annotations

import pytest

from referee.errors import ParseError, RuleError
from referee.games import get_game


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
