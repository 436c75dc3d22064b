"""Clubs (issue 29, R-CLUB-1): members remembered across evenings, their statistics and a season's ladder. The
rules are pure (``ratings.py``: OpenSkill's matches; ``report.py``: what a club's finished series give each member);
``store.py`` reads and writes through the ledger's doors and ``referee/store/clubs.py``'s statements."""
