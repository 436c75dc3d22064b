"""Duel, a sixth game defined only under tests/ (issue 39, "a game is one folder"): its engine (engine.py), its
events as the API's document declares them (declared.py), its printed summary and score sheet (printed.py) and its
templates (templates/: its board and its printed sheet). Nothing outside this folder names it: the test's fixture
registers it with ``referee.games.add_game`` and takes it out after (tests/test_sixth_game.py)."""
from tests.sixth_game.engine import Duel

__all__ = ["Duel"]
