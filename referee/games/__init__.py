"""The rules engines, one package per game (referee/games/<game>/), and their registry (``GAMES``, ``get_game``).
The registry is the one list of games, in the order they are imported here: the order the home page, the set-up
forms and ``/api/v1/games`` show them in (the contract's order)."""
from referee.games import brulot, brisca, buraco, brouc, brusquembille  # noqa: F401  (registers the games)
from referee.games.base import GAMES, Game, get_game

__all__ = ["GAMES", "Game", "get_game"]
