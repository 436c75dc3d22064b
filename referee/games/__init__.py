"""The rules engines, one package per game (referee/games/<game>/), and their registry (``GAMES``, ``get_game``).
The registry is the one list of games, in the order they are imported here: the order the home page, the set-up
forms and ``/api/v1/games`` show them in (the contract's order). A game from elsewhere (a test's, a plug-in's) joins
it after them with ``add_game``, which returns its undo (docs/architecture.md, "Where to add a game")."""
from referee.games import brulot, brisca, buraco, brouc, brusquembille  # noqa: F401  (registers the games)
from referee.games.base import GAMES, Game, get_game

__all__ = ["GAMES", "Game", "add_game", "get_game"]


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
