"""The director's board of a round's tables (issue 40): every table's status counted in six groups at the top of the
director's page, a filter per group and a search by table number or entrant's name (plain GET parameters, ``status``
and ``q``: the page works without JavaScript; htmx swaps the board alone), the tables with a call to the director
first (R-COMMON-7: a call waits for the director's answer).

Each table's row carries a version (``row_version``): the live part (``_tournament_round_live.html``, then every
row out of band: ``live_rows``) is made of parts, the rows apart with their id and version, so that a stream sends
only the rows it has not sent at their version (``tournaments/stream.py``), and the page's ``director-rows.js``
swaps in only the rows whose version changed and that the page shows (a table's change redraws its own row, never
the page). The server too draws a row again only when it changed (``drawn_row``): each process keeps the rows
drawn, per version, language and key (at most ``ROWS_KEPT``).
"""
from __future__ import annotations

import hashlib
import unicodedata

from flask import current_app, g, request
from flask_babel import get_translations
from jinja2 import pass_context
from markupsafe import Markup

from referee.web.i18n import catalogue_bound, lang
from referee.web.shared.live import Row
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
    """A short hash of what a table's row shows (its status, calls, progress, result, links): the page swaps in a
    row whose version changed, no other."""
    shown = (table["number"], table["table_id"], table["status"], table.get("finished"), table.get("confirmed"),
             table.get("disputes"), table.get("progress"), table.get("result"), table.get("link"),
             tuple(table["entrants"]))
    return hashlib.blake2b(repr(shown).encode(), digest_size=6).hexdigest()


@bp.app_template_filter("row_id")
def row_id(table: dict) -> str:
    """A table's row's id on the page (``table-<number>``): the one an out-of-band row replaces."""
    return f"table-{table['number']}"


ROWS_KEPT = 2048  # rows drawn, kept per process (all dropped when full: drawn again at the next render)
_rows: dict[tuple, Markup] = {}
SHOWN = ("key", "names", "sizes", "length", "unit")  # what a row shows besides its table, from the page's context


@bp.app_template_global()
@pass_context
def director_row(context, table: dict) -> Markup:
    """A table's row (``_tournament_director_row.html``) where a template draws it (the board); out of band in the
    live part (``oob``)."""
    return drawn_row(table, {**{name: context.get(name) for name in SHOWN}, "oob": bool(context.get("oob"))})


def live_rows(tables: list, shown: dict) -> list[Row]:
    """Every table's row out of band, as the live part's parts (``shared/live.py``'s ``Row``: its id, version and
    HTML), for a stream to send those it has not sent at their version; ``shown`` as ``SHOWN``."""
    shown = {**{name: shown.get(name) for name in SHOWN}, "oob": True}
    return [Row(row_id(table), row_version(table), drawn_row(table, shown)) for table in tables]


def drawn_row(table: dict, shown: dict) -> Markup:
    """A table's row, drawn once per version, language, key and the names it shows."""
    shown = {**shown, "names": shown.get("names") or {}, "sizes": shown.get("sizes") or {}}
    names, sizes = shown["names"], shown["sizes"]
    kept = (row_version(table), lang(), request.script_root, shown["key"], shown["length"], shown["unit"],
            shown["oob"], tuple((e, names.get(e), sizes.get(e)) for e in table["entrants"]))
    row = _rows.get(kept)
    if row is None:
        words = g.get("director_row_words") or g.setdefault("director_row_words",
                                                            catalogue_bound(get_translations()))  # once a request
        row = Markup(current_app.jinja_env.get_template("_tournament_director_row.html").render(t=table, **shown,
                                                                                              **words))
        if len(_rows) >= ROWS_KEPT:
            _rows.clear()
        _rows[kept] = row
    return row
