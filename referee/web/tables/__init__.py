"""A table's pages: the home page, set-up, the scorer's screen and its entries, the numbers screen, sharing, the
live views, installing and opening offline; their blueprint and their templates (``templates/``)."""
from flask import Blueprint

bp = Blueprint("tables", __name__, template_folder="templates")

from referee.web.tables import (history, numbers, offline, pages, scorer, setup, share,  # noqa: E402,F401  (routes)
                                signing, stream)
