"""A club's pages (issue 29, R-CLUB-1): making a club from the home page, the club's own page (its members, its
season, its ladder, new tables and tournaments from its members), its wall (the ladder, live), a member's page
(statistics, series, the rating's chart) and its exports and import."""
from flask import Blueprint

bp = Blueprint("clubs", __name__, template_folder="templates")

from referee.web.clubs import exports, filters, live, pages  # noqa: E402,F401  (its routes and filters)
