"""Brulot: its engine (engine.py) and what it alone knows; registered in referee.games.GAMES on import."""
from referee.games.brulot.engine import Brulot

__all__ = ["Brulot"]
