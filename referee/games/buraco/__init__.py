"""Buraco: its engine (engine.py) and what it alone knows; registered in referee.games.GAMES on import."""
from referee.games.buraco.engine import Buraco

__all__ = ["Buraco"]
