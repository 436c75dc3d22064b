"""A tournament's streams of server-sent events (``referee/web/serving/live_streams.py``): the live screens' and the API's.

- ``/tournaments/<id>/stream`` (the phones' standings; the wall's with ``view=screen``; the director's round with
  ``view=director`` and the director's key): "alive" at once and every few seconds, and the live fragment (``live``,
  the polls' own, rendered once per revision, view, language and key: ``live.py``) whenever the tournament's revision
  (its own and its tables') is not the one the page shows (``since``, or ``Last-Event-ID`` on a reconnection).
  The director's round sends each stream only the rows whose version is not the one it sent last
  (``director_stream``: the fragment is made of parts, its rows apart, ``board.py``'s ``live_rows``): a table's
  change travels as that table's row, not 150 rows.
- ``/api/v1/tournaments/<id>/stream`` (the contract's "Live streams"): ``event: state`` with ``{"revision"}`` at once
  and at each change, a comment line every 10 s.

Either key opens them (401 otherwise, a key guess); past ``LIVE_STREAMS``: 204 for a page (it polls), 503 for the
API. A tournament's keys are never renewed; its stream ends when the tournament is gone.
"""
from __future__ import annotations

import json

from referee.web.i18n import lang
from referee.web.serving.live_streams import (api_events, event, full_for_api, full_for_page, page_events,
                                              since_shown, stream, watcher)
from referee.web.services import standings_watch
from referee.web.shared.live import keyed_stream, newest, refresh_seconds
from referee.web.shared.requests import key_of
from referee.web.tournaments import bp
from referee.web.tournaments.live import live_view, render_live


def opened(tournament_id: str) -> tuple:
    """(the key, its role, the topic, the revision now): 404, 401 when the key opens nothing."""
    key = key_of()
    role = standings_watch().role(tournament_id, key)
    revision = standings_watch().revision(tournament_id, refresh_seconds())
    return key, role, ("tournament", tournament_id), revision


@bp.get("/tournaments/<tournament_id>/stream")
def live_stream(tournament_id):
    key, role, topic, _revision = opened(tournament_id)
    view = live_view(role)  # the director's round: the director's key only (403)
    if view == "director":
        return director_stream(tournament_id, key, role, topic)
    return keyed_stream(standings_watch(), topic, (tournament_id, view, lang(), role, key),
                        lambda: render_live(tournament_id, key, view, role))


def director_stream(tournament_id: str, key: str, role: str, topic: tuple):
    """The director's round's stream (as ``keyed_stream``, the fragment rendered once per revision for every
    stream): each event the fragment's parts but the rows this stream sent already at their version
    (``Fragment.unsent``; the first, every row: the page's own ``director-rows.js`` drops those it holds)."""
    kept = standings_watch()
    revision = kept.revision(tournament_id, refresh_seconds())
    variant, sent, since = (tournament_id, "director", lang(), role, key), {}, since_shown()

    def stamp_now():
        return newest(watcher().value(topic), since)

    def rendered():
        now = watcher().value(topic)
        fragment = kept.fragment(variant, revision if now is None else now,
                                 lambda: render_live(tournament_id, key, "director", role))
        return fragment.stamp, event("live", fragment.unsent(sent), fragment.stamp)

    answer = stream(topic, revision, lambda held, within: page_events(since, stamp_now, rendered, held, within),
                    page=True)
    return answer or full_for_page()


@bp.get("/api/v1/tournaments/<tournament_id>/stream")
def api_stream(tournament_id):
    _key, _role, topic, revision = opened(tournament_id)

    def state(now):
        return None if now is None else json.dumps({"revision": now})

    answer = stream(topic, revision,
                    lambda kept, within: api_events(lambda: watcher().value(topic), state, kept, within))
    return answer or full_for_api()
