"""Sharing a table: QR codes of its links (drawn by ``referee/web/shared/qr.py``), the live viewer and big screen,
new keys, exports.

The live views hold a stream each (``stream.py``), or ask every second whether the table's revision changed (the
poll, ``live``: where no stream can be held). Each process reads the revisions of all its watched tables in one query
a few times a second (``watch.py``, its watcher ``serving/live_streams.py``) and tells every viewer from that, so a
change made through any worker process reaches every viewer: the signal goes through the database.
"""
from __future__ import annotations

import json

from flask import Response, current_app, jsonify, redirect, render_template, request, url_for

from referee.games import get_game
from referee.web.i18n import lang
from referee.web.services import api_once, ledger, phone_url, request_key, see_other, tournaments, watch
from referee.web.shared.csv_files import csv_download
from referee.web.shared.live import Fragment, poll_guard, stamp
from referee.web.shared.qr import qr_png, qr_svg
from referee.web.shared.requests import json_body
from referee.web.tables import bp


@bp.get("/t/<table_id>/qr/<which>.<kind>")
def qr(table_id, which, kind):
    """The QR code of the viewer's link (``which`` = viewer, any key of the table) or of the link the given key
    opens (``which`` = self: a co-scorer's own link), as SVG or PNG for printing."""
    key = request_key()
    ledger().authorize(table_id, key)
    target = ledger().viewer_key(table_id) if which == "viewer" else key
    if which not in ("viewer", "self") or kind not in ("svg", "png"):
        return jsonify(error={"code": "not_found", "message": "No such code."}), 404
    link = phone_url(table_id, target)
    if kind == "png":
        return Response(qr_png(link), mimetype="image/png")
    return Response(str(qr_svg(link)), mimetype="image/svg+xml")


@bp.get("/t/<table_id>/share")
def share(table_id):
    key = request_key()
    ledger().authorize(table_id, key, write=True)
    return render_share(table_id, key, renewed=request.args.get("renewed"))


def render_share(table_id: str, key: str, renewed: str | None = None, coscorer_key: str | None = None) -> Response:
    """The share page; a co-scorer code is drawn only in the answer to the post that issued it (never kept)."""
    viewer = phone_url(table_id, ledger().viewer_key(table_id))
    coscorer = phone_url(table_id, coscorer_key) if coscorer_key else None
    state = ledger().state(table_id)
    response = Response(render_template(
        "share.html", state=state, game=get_game(state["game"]), key=key, viewer=viewer, viewer_qr=qr_svg(viewer),
        coscorer=coscorer, coscorer_key=coscorer_key, coscorer_qr=qr_svg(coscorer) if coscorer else None,
        renewed=renewed if renewed in ("viewer", "own", "unconfirmed", "unconfirmed-own") else None,
        own=phone_url(table_id, key), screen=screen_url(table_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


def screen_url(table_id: str) -> str:
    """The big screen opens with the viewer's key: a club's TV never holds the right to change the score."""
    return phone_url(table_id, ledger().viewer_key(table_id), "tables.screen")


@bp.post("/t/<table_id>/keys/<kind>")
def new_key(table_id, kind):
    """A new key (scorer's page only; the old one stops at once), each after a ticked box where it matters:
    - ``viewer``: post, then redirect (a reload never issues another);
    - ``coscorer``: the answer to the post shows the code once, and it is kept nowhere else (not in a cookie: only
      its hash is stored); a reload asks the browser to post again, which issues another and stops this one;
    - ``own``: the key in this page's address (the scorer's, or a co-scorer's) is replaced; the page moves to the
      new address at once, the only place the new key is written."""
    key = request_key() or request.form.get("key")
    ledger().authorize(table_id, key, write=True)
    if kind not in ("viewer", "coscorer", "own"):
        return jsonify(error={"code": "not_found", "message": "No such key."}), 404
    if kind in ("coscorer", "own") and request.form.get("confirm") != "yes":
        unconfirmed = "unconfirmed" if kind == "coscorer" else "unconfirmed-own"
        return redirect(url_for("tables.share", table_id=table_id, key=key, renewed=unconfirmed), code=303)
    if kind == "own":
        fresh = ledger().renew_own_key(table_id, key)
        return redirect(url_for("tables.share", table_id=table_id, key=fresh, renewed="own"), code=303)
    fresh = ledger().new_key(table_id, kind)
    if kind == "coscorer":
        return render_share(table_id, key, coscorer_key=fresh)
    return redirect(url_for("tables.share", table_id=table_id, key=key, renewed=kind), code=303)


@bp.get("/t/<table_id>/keys/<kind>")
def key_page(table_id, kind):
    """The address a co-scorer code was shown at, opened again (a restored tab): the share page, code not shown."""
    return redirect(url_for("tables.share", table_id=table_id, key=request_key()), code=303)


def opened_row(table_id: str, key: str | None):
    """The memo's row of a table this key opens (the key checked once a poll), or the refusal: the one the ledger
    gives (404, 401), or a key issued since the memo's last read."""
    row = watch().row(table_id)
    if row is not None and row.opens(key):
        return row
    refused = poll_guard(lambda: ledger().authorize(table_id, key))
    if isinstance(refused, Response):
        return refused
    watch().forget()
    return watch().row(table_id)


@bp.get("/t/<table_id>/live")
def live(table_id):
    """204 while nothing changed since ``since``; the new scoreboard (or big screen) fragment as soon as it did.

    Answered from this process's memo (``watch.py``): an unchanged board costs no database round trip,
    and a changed one is rendered once per revision for every viewer. The fragment carries an ``ETag``: a client
    that sends it back in ``If-None-Match`` is answered ``304`` while it is current."""
    key = request_key()
    row = opened_row(table_id, key)
    if isinstance(row, Response):
        return row
    since = request.args.get("since", "")  # the stamp of what it shows: the revision, and the trick under way
    if since == row.stamp:
        return Response(status=204)
    screen_view = request.args.get("view") == "screen"
    fragment = watch().fragment((table_id, screen_view, lang(), key), row,
                                lambda: live_fragment(table_id, key, screen_view))
    if since == fragment.stamp:
        return Response(status=204)
    return fragment.response()


def live_view(table_id: str) -> dict:
    """What a live view (the viewer's page, the big screen) draws: the state, and the trick under way (the cards
    tapped so far on a scorer's page: never an event, yet every viewer sees it), with the stamp its poll sends."""
    state, _, draft, _ = ledger().look(table_id)
    return {"state": state, "game": get_game(state["game"]), "draft": list(draft),
            "live_stamp": stamp(state["revision"], ".".join(draft))}


def live_fragment(table_id: str, key: str, screen_view: bool) -> Fragment:
    """The live fragment as every viewer with this key and language sees it at the table's current revision and
    trick under way."""
    seen = live_view(table_id)
    state = seen["state"]
    view = "_screen_live.html" if screen_view else "_live.html"
    body = render_template(view, key=key, **seen).encode()
    headers = {}
    if state["rematch"]:  # live.js goes there (the rematch moved this table's revision: the next poll tells)
        follow = url_for("tables.screen" if screen_view else "tables.table", table_id=state["rematch"], key=key)
        headers["HX-Trigger"] = json.dumps({"referee:rematch": {"url": follow}})
    return Fragment.drawn(state["revision"], body, headers, ".".join(seen["draft"]))


@bp.post("/t/<table_id>/rematch")
def rematch(table_id):
    """The scorer's Rematch button: the new table's scorer page next (post/redirect/get; with htmx a full page
    change by HX-Redirect). A second tap lands on the same rematch (one per table, whatever the forms: its own
    once). The same key opens it (same keys). A tournament's table has none: 409 and the sentence."""
    key = request_key() or request.form.get("key")
    ledger().authorize(table_id, key, write=True)
    tournaments().no_rematch(table_id)  # a round's table: 409, its sentence
    _, state = ledger().rematch(table_id)
    return see_other(url_for("tables.table", table_id=state["id"], key=key))  # the same way of entry (the ledger)


@bp.get("/t/<table_id>/screen")
def screen(table_id):
    key = request_key()
    ledger().authorize(table_id, key)
    viewer = phone_url(table_id, ledger().viewer_key(table_id))  # people in the room join from the wall
    return render_template("screen.html", key=key, viewer_qr=qr_svg(viewer), **live_view(table_id))


# --- exports ----------------------------------------------------------------------------------------------

@bp.get("/api/v1/tables/<table_id>/export.json")
def export_json(table_id):
    ledger().authorize(table_id, request_key())
    return jsonify({"format": "referee-export/1", "table": ledger().record_of(table_id),
                    "events": ledger().events(table_id), "state": ledger().state(table_id)})


@bp.get("/api/v1/tables/<table_id>/export.csv")
def export_csv(table_id):
    """One row per deal and side: its points in the game's unit (and the slate for Brouc), the running total; once
    the series is over, one row per side more (``deal`` "series"): its number in the series' own unit, the one a
    side signs (R-COMMON-7b: Brisca's deals won), the unit in ``slate``'s place; the names written safe for a
    spreadsheet (``referee/web/shared/csv_files.py``)."""
    ledger().authorize(table_id, request_key())
    state = ledger().state(table_id)
    rows = []
    for deal in state["deals"]:
        for side, info in enumerate(state["sides"]):
            slate = deal.get("slate", [None] * len(state["sides"]))[side] if "slate" in deal else ""
            rows.append([deal["number"], side, info["name"], deal["points"][side], slate, deal["complete"]])
    standing = state["series"]["standing"]
    if standing["finished"]:
        rows.extend(["series", side, info["name"], standing["values"][side], standing["unit"], True]
                    for side, info in enumerate(state["sides"]))
    return csv_download(["deal", "side", "players", "points", "slate", "complete"], rows, f"referee-{table_id}.csv")


@bp.post("/api/v1/import")
def import_table():
    """A new table from an export: its events in force replayed through the engine (201, like a creation; with an
    ``Idempotency-Key`` the same import again answers 200 with the same table). An export is bigger than an entry
    (the log, and the state, which is not read): its own size limit."""
    request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
    doc = json_body()
    created = ledger().import_table(doc.get("table"), doc.get("events"), once=api_once())
    state, scorer_key, viewer_key = created
    table_id = state["id"]
    return jsonify(id=table_id, scorer_key=scorer_key, viewer_key=viewer_key,
                   scorer_url=phone_url(table_id, scorer_key), viewer_url=phone_url(table_id, viewer_key),
                   state=state), created.status
