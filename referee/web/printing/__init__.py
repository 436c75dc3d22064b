"""Printable pages: a game's one-page rule summary and its score sheets (``pages.py``, ``sheets.py``), and their
templates (``templates/``)."""
