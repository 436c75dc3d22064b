"""Tournaments and club evenings: many tables, rounds, movements, victory points, live standings (issue 17).

``movements`` seats a round, ``scoring`` turns a table's result into tournament points and ranks the entrants; both
are pure (no Flask, no database). The tournament's records and its round-by-round work live beside them.
"""
