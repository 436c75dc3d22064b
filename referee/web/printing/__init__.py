"""Printable pages: a game's one-page rule summary and its score sheets (``pages.py``, ``sheets.py``), their blueprint
and their templates (``templates/``)."""
from flask import Blueprint

bp = Blueprint("printing", __name__, template_folder="templates")

from referee.web.printing import pages  # noqa: E402,F401  (its routes)
