"""Brisca: its engine (engine.py) and what it alone knows; registered in referee.games.GAMES on import."""
from referee.games.brisca.engine import Brisca

__all__ = ["Brisca"]
