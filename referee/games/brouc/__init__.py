"""Brouc: its engine (engine.py) and what it alone knows; registered in referee.games.GAMES on import."""
from referee.games.brouc.engine import Brouc

__all__ = ["Brouc"]
