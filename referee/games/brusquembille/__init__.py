"""Brusquembille: its engine (engine.py) and what it alone knows; registered in referee.games.GAMES on import."""
from referee.games.brusquembille.engine import Brusquembille

__all__ = ["Brusquembille"]
