"""The director's board of a round's tables (issue 40): every table's status counted in six groups at the top of the
director's page, a filter per group and a search by table number or entrant's name (plain GET parameters, ``status``
and ``q``: the page works without JavaScript; htmx swaps the board alone), the tables with a call to the director
first (R-COMMON-7: a call waits for the director's answer).

Each table's row carries a version (``row_version``): the live part (``_tournament_round_live.html``) sends every
row out of band, and the page's ``director-rows.js`` swaps in only the rows whose version changed and that the page
shows (a table's change redraws its own row, never the page).
"""
from __future__ import annotations

import hashlib
import json
import unicodedata

from flask import request

from referee.web.tournaments import bp

# The six groups of a round's table's status (``reading.table_status``) as the director counts them. An arbitral
# result is the director's own (R-TOURN-1), counted with the results the director corrected (R-COMMON-7b); a table
# waiting for its first entry is playing.
GROUPS = {
    "playing": ("waiting", "playing"),
    "to_confirm": ("to_confirm",),
    "called": ("disputed",),  # R-COMMON-7: a side called the director
    "corrected": ("corrected", "arbitral"),
    "signed": ("signed",),
    "not_played": ("not_played",),
}
GROUP_OF = {status: group for group, statuses in GROUPS.items() for status in statuses}
MAX_QUERY = 90  # an entrant's names are at most this long (the add-entrant form's)


@bp.app_template_filter("table_group")
def group_of(table: dict) -> str:
    """The group a round's table is counted in (R-COMMON-7: a table with an open call is ``called``)."""
    if table.get("disputes") and table["status"] not in ("arbitral", "not_played"):
        return "called"
    return GROUP_OF.get(table["status"], "playing")


def folded(text: str) -> str:
    """``text`` as a search compares it: case and accents aside ("Élodie" is found by "elodie")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def matches(table: dict, query: str, names: dict) -> bool:
    """Whether a table is the one searched: its number (the whole query a number), or an entrant's name holding the
    query (case and accents aside)."""
    if not query:
        return True
    if query.isdigit():
        return table["number"] == int(query)
    found = folded(query)
    return any(found in folded(names.get(e, "")) for e in table["entrants"] if e is not None)


def asked() -> tuple:
    """(status group, search) from the page's address; an unknown group is every table, a search cut to
    ``MAX_QUERY``."""
    status = request.args.get("status", "")
    return (status if status in GROUPS else "", request.args.get("q", "").strip()[:MAX_QUERY])


def board(tables: list, names: dict, status: str = "", query: str = "") -> dict:
    """What the board shows: ``counts`` per group (every table of the round), ``rows`` the tables of the group asked
    and found by the search, in their numbers' order with the calls first (R-COMMON-7), ``status`` and ``q``."""
    counts = {group: 0 for group in GROUPS}
    for table in tables:
        counts[group_of(table)] += 1
    rows = [t for t in tables if (not status or group_of(t) == status) and matches(t, query, names)]
    rows.sort(key=lambda t: (group_of(t) != "called", t["number"]))
    return {"counts": counts, "rows": rows, "status": status, "q": query, "total": len(tables)}


@bp.app_template_filter("row_version")
def row_version(table: dict) -> str:
    """A short hash of what a table's row shows: the page swaps in a row whose version changed, no other."""
    made = json.dumps(table, sort_keys=True, default=str).encode()
    return hashlib.blake2b(made, digest_size=6).hexdigest()
