"""The rules engines, one package per game (referee/games/<game>/), and their registry (``GAMES``, ``get_game``).
The registry is the one list of games, in the order they are imported here: the order the home page, the set-up
forms and ``/api/v1/games`` show them in (the contract's order). A game from elsewhere (a test's, a plug-in's) joins
it after them with ``add_game``, which returns its undo (docs/architecture.md, "Where to add a game")."""
from collections.abc import Mapping

from referee.games import brulot, brisca, buraco, brouc, brusquembille  # noqa: F401  (registers the games)
from referee.games.base import GAMES, Game, get_game

__all__ = ["GAMES", "FactByGame", "Game", "add_game", "get_game"]


def add_game(game_class):
    """A game from outside ``referee/games/`` (a test's, a plug-in's) added to the registry after the five; returns
    the undo that takes it out again. Add it before the app is made: the app's template loader searches the folders
    of the games registered then (``Game.template_folder``). A game's id is its own: one already taken is refused."""
    if not game_class.id or game_class.id in GAMES:
        raise ValueError(f"a game's id is its own: {game_class.id!r} is taken or empty")
    GAMES[game_class.id] = game_class()

    def remove() -> None:
        GAMES.pop(game_class.id, None)
    return remove


class FactByGame(Mapping):
    """One fact of every registered game, by game id (``FactByGame("round_unit")``: {"buraco": "hands", …}), read
    from the registry at each look, never copied at import: a game added later (``add_game``) is in it too. A game
    whose fact is None or False is not."""

    def __init__(self, fact: str):
        self.fact = fact

    def __getitem__(self, game_id):
        value = getattr(GAMES[game_id], self.fact) if game_id in GAMES else None
        if value is None or value is False:
            raise KeyError(game_id)
        return value

    def __iter__(self):
        return (game_id for game_id in list(GAMES) if game_id in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, game_id) -> bool:
        return game_id in GAMES and getattr(GAMES[game_id], self.fact) not in (None, False)
