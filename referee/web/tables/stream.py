"""A table's streams of server-sent events (``referee/web/serving/live_streams.py``): the live screens' and the API's.

- ``/t/<id>/stream`` (the viewer's page, the big screen with ``view=screen``): "alive" at once and every few
  seconds, and the live fragment (``live``, with the rematch's link as ``referee:rematch``) whenever what the table
  shows is not the stamp the page shows (``since``, or ``Last-Event-ID`` on a reconnection): a page that lost its
  stream catches up at once. The fragment is the polls' own, rendered once per revision, view, language and key for
  every stream and poll of this process (``watch.py``).
- ``/api/v1/tables/<id>/stream`` (the contract's "Live streams"): ``event: state`` with ``{"version", "revision"}``
  at once and at each change, a comment line every 10 s.

Any key of the table opens either; a key that does not is 401 (a key guess, ``serving/limits.py``). The stream ends
when the key stops opening the table (renewed) or the table is gone: the next try is 401 (or 404). Past
``LIVE_STREAMS``: 204 for a page (it polls), 503 for the API.
"""
from __future__ import annotations

import json

from flask import request

from referee.web.i18n import lang
from referee.web.serving.live_streams import api_events, full_for_api, full_for_page, page_events, since_shown, stream
from referee.web.services import ledger, request_key, watch
from referee.web.tables import bp
from referee.web.tables.share import live_fragment, opened_row
from referee.web.shared.live import Fragment


def opened(table_id: str, key: str | None):
    """The watched row while this key opens the table, else None (the stream ends)."""
    row = watch().kept(table_id)
    return row if row is not None and row.opens(key) else None


@bp.get("/t/<table_id>/stream")
def live_stream(table_id):
    key = request_key()
    row = opened_row(table_id, key)  # 404, 401 (an EventSource sends no HX-Request)
    screen_view = request.args.get("view") == "screen"
    variant = (table_id, screen_view, lang(), key)
    since = since_shown()

    def stamp():
        now = opened(table_id, key)
        return now.stamp if now is not None else None

    def render():
        now = opened(table_id, key) or row
        fragment = watch().fragment(variant, now, lambda: live_fragment(table_id, key, screen_view))
        return fragment.stamp, fragment.sse

    answer = stream(("table", table_id), row, lambda kept, within: page_events(since, stamp, render, kept, within),
                    page=True)
    return answer or full_for_page()


@bp.get("/api/v1/tables/<table_id>/stream")
def api_stream(table_id):
    key = request_key()
    row = opened_row(table_id, key)  # the contract's 404, 401

    def state(now):
        if now is None:
            return None
        made = watch().revision_fragment((table_id, "api"), now.revision, lambda: version_of(table_id))
        return made.body.decode()

    answer = stream(("table", table_id), row,
                    lambda kept, within: api_events(lambda: opened(table_id, key), state, kept, within))
    return answer or full_for_api()


def version_of(table_id: str) -> Fragment:
    """The stream's data at the table's current revision: ``{"version", "revision"}`` (version: the events in
    force, as the table's state says it)."""
    state = ledger().state(table_id)
    body = json.dumps({"version": state["version"], "revision": state["revision"]}).encode()
    return Fragment.of(state["revision"], body, None)
