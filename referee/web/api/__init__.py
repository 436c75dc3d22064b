"""The JSON APIs under /api/v1, on one blueprint: tables and their events (``tables.py``), tournaments
(``tournaments.py``), and their OpenAPI document (``openapi.py``, ``openapi_events.py``, ``openapi_tournaments.py``).
The exports and the import of a table are the tables' (``referee/web/tables/share.py``)."""
from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from referee.web.api import clubs, tables, tournaments  # noqa: E402,F401  (their routes)
