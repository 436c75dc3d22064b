"""The rules engines, one package per game (referee/games/<game>/), and their registry (``GAMES``, ``get_game``)."""
from referee.games import brisca, brouc, brulot, brusquembille, buraco  # noqa: F401  (registers the games)
from referee.games.base import GAMES, Game, get_game

__all__ = ["GAMES", "Game", "get_game"]
