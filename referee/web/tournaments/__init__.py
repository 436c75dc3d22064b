"""A tournament or a club evening: its blueprint, on which its pages register (``pages.py``: the form and the
director's page; ``live.py``: the standings on a phone and on the club's wall; ``prints.py``: table cards, the
printed ranking, exports), and its templates (``templates/``)."""
from flask import Blueprint

bp = Blueprint("tournaments", __name__, template_folder="templates")

from referee.web.tournaments import live, pages, prints, stream  # noqa: E402,F401  (their routes, on this blueprint)
