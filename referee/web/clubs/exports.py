"""A club's data taken away, and brought back (R-CLUB-1): its members, its series and its ladder as CSV files and
as three sheets of one .xlsx (the club or viewer key), the whole club as JSON (the club key) — which
``/clubs/import`` takes back as a new club with new keys. The CSV and the .xlsx are written by the tournaments'
writers (``referee/web/shared/csv_files.py``, ``shared/workbooks.py``): no cell a formula."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json

from flask import Response, abort, current_app, render_template, request, url_for

from referee.club.checks import json_constant, json_float
from referee.errors import ParseError, RefereeError
from referee.web.clubs import bp
from referee.web.clubs.views import game_ids
from referee.web.i18n import refusal
from referee.web.services import clubs, form_once, made, see_other, status_of
from referee.web.shared.csv_files import csv_download
from referee.web.shared.requests import key_of
from referee.web.shared.workbooks import XLSX_MIMETYPE, xlsx_sheets


def sheets(state: dict) -> dict:
    """what -> (header, rows): ``members`` (name, series played and won, per game), ``series`` (each finished
    series of the club: when, game, table, players, winners, totals) and ``ratings`` (each game's ladder)."""
    figures = state["figures"]
    members = [[p["name"], p["played"], p["won"],
                *[p["games"].get(g, {}).get(k, 0) for g in game_ids() for k in ("played", "won")]]
               for p in figures["players"]]
    member_header = ["name", "played", "won", *[f"{g}_{k}" for g in game_ids() for k in ("played", "won")]]
    series = []
    for table in state["tables"]:
        if not table["finished_at"]:
            continue
        series.append([table["finished_at"], table["game"], table["id"], " / ".join(table["players"])])
    ratings = [[game, rank, row["name"], round(row["rating"]["ordinal"], 4), round(row["rating"]["mu"], 4),
                round(row["rating"]["sigma"], 4), row["played"], row["won"]]
               for game, rows in figures["ladders"].items() for rank, row in enumerate(rows, 1)]
    return {"members": (member_header, members),
            "series": (["finished_at", "game", "table", "players"], series),
            "ratings": (["game", "rank", "name", "ordinal", "mu", "sigma", "played", "won"], ratings)}


@bp.get("/clubs/<club_id>/<what>.csv")
def export_csv(club_id, what):
    clubs().authorize(club_id, key_of())
    made_sheets = sheets(clubs().state(club_id))
    if what not in made_sheets:
        abort(404)
    header, rows = made_sheets[what]
    return csv_download(header, rows, f"referee-club-{club_id}-{what}.csv")


@bp.get("/clubs/<club_id>/club.xlsx")
def export_xlsx(club_id):
    clubs().authorize(club_id, key_of())
    made_sheets = sheets(clubs().state(club_id))
    body = xlsx_sheets([(what, header, rows) for what, (header, rows) in made_sheets.items()])
    response = Response(body, mimetype=XLSX_MIMETYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="referee-club-{club_id}.xlsx"'
    return response


@bp.get("/clubs/<club_id>/export.json")
def export_json(club_id):
    """The whole club, to keep or to import again (the club key: it holds every table's log)."""
    clubs().authorize(club_id, key_of(), write=True)
    response = Response(json.dumps(clubs().export(club_id), ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="referee-club-{club_id}.json"'
    return response


@bp.url_value_preprocessor
def _import_size(endpoint, _values):
    """A club's export is bigger than a form: its own limit, set before the CSRF check reads the form (Flask runs
    the URL preprocessors before every ``before_request``)."""
    if endpoint == "clubs.import_club":
        request.max_content_length = current_app.config["IMPORT_MAX_BYTES"] + 64 * 1024


@bp.post("/clubs/import")
def import_club():
    """A club's .json export (a form's file) made into a new club; its page, with its new key, answers. The file
    and its parsed document are dropped and the memory given back to the system before the answer (item 15 of
    issue 38: a 5,000-table import grew a worker by 200 MB and kept it)."""
    try:
        state, club_key = _imported(request.files.get("file"))
    except RefereeError as error:
        return render_template("club_new.html", error=refusal(error), name=""), status_of(error)
    finally:
        give_back()
    return see_other(url_for("clubs.club", club_id=state["id"], key=club_key))


def _imported(upload) -> tuple:
    """(the new club's state, its key) of an uploaded export; a refusal raises and stores nothing."""
    if upload is None:
        raise ParseError("bad_import", "Choose the club's .json file.")
    raw = upload.read(current_app.config["IMPORT_MAX_BYTES"] + 1)
    if len(raw) > current_app.config["IMPORT_MAX_BYTES"]:
        raise ParseError("bad_import", "This file is too big for a club's export.")
    try:  # NaN and Infinity read as markers, refused by the import with the table and entry that hold them
        doc = json.loads(raw, parse_constant=json_constant, parse_float=json_float)
    except (ValueError, RecursionError):
        raise ParseError("bad_import", "This is not a club's export of Referee (a .json file made by a club's "
                         "page).") from None
    del raw
    state, club_key, _viewer = made(clubs().import_club(doc, once=form_once()))
    return state, club_key


def give_back() -> None:
    """The import's garbage collected and the C allocator's free pages returned to the system (glibc's
    ``malloc_trim``; elsewhere the collection alone)."""
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 (glibc only)
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _libc()


@bp.get("/clubs/import")
def import_form():
    return see_other(url_for("clubs.new"))
