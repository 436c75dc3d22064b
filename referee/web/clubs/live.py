"""The club's wall, live (R-CLUB-1): the ladder of each game on a big screen or a phone (``/clubs/<id>/wall``), by
its viewer key (the club key opens it too). As a tournament's wall does (``referee/web/tournaments/live.py``, whose
memo it shares: ``StandingsWatch`` over the clubs' store), it holds a stream (``/clubs/<id>/stream``: the process's
one watcher reads the club's revision, its own plus its tables', four times a second while a wall is open) and
falls back to asking every second (``/clubs/<id>/live?since=<revision>``); the fragment is rendered once per
revision, language and key, whatever the number of walls."""
from __future__ import annotations

from flask import Response, current_app, render_template, request

from referee.errors import Unauthorized
from referee.web.clubs import bp
from referee.web.clubs.views import ladders
from referee.web.i18n import lang
from referee.web.serving.limits import key_failed
from referee.web.serving.live_streams import full_for_page, page_events, since_shown, stream, watcher
from referee.web.serving.compression import MIN_BYTES, gzip_bytes
from referee.web.services import club_watch, clubs, is_htmx, phone_link
from referee.web.tables.share import qr_svg
from referee.web.tables.views import number
from referee.web.tables.watch import REFRESH_SECONDS, Fragment
from referee.web.tournaments.common import key_of


def render_live(club_id: str, key: str) -> Fragment:
    state = clubs().state(club_id)
    body = render_template("_club_wall_live.html", state=state, key=key, ladders=ladders(state["figures"])).encode()
    return Fragment.of(state["revision"], body, gzip_bytes(body) if len(body) >= MIN_BYTES else None)


@bp.get("/clubs/<club_id>/wall")
def wall(club_id):
    key = key_of()
    club_watch().role(club_id, key)
    state = clubs().state(club_id)
    link = phone_link("clubs.wall", club_id=club_id, key=clubs().viewer_key(club_id))
    return render_template("club_wall.html", state=state, key=key, phones_qr=qr_svg(link),
                           ladders=ladders(state["figures"]))


def _refresh() -> float:
    return current_app.config.get("LIVE_REFRESH_SECONDS", REFRESH_SECONDS)


@bp.get("/clubs/<club_id>/live")
def live(club_id):
    """204 while the club's revision is ``since``; else the wall's live part, with an ETag (304 while current)."""
    key = key_of()
    try:
        club_watch().role(club_id, key)
    except Unauthorized:
        if not is_htmx():
            raise
        limited = key_failed()
        if limited is not None:
            return limited
        return Response(status=286, headers={"HX-Reswap": "none"})  # htmx stops polling
    revision = club_watch().revision(club_id, _refresh())
    since = number(request.args.get("since", ""))
    if since is not None and since >= revision:
        return Response(status=204)
    fragment = club_watch().fragment((club_id, lang(), key), revision, lambda: render_live(club_id, key))
    if since is not None and since >= fragment.revision:
        return Response(status=204)
    return fragment.response()


@bp.get("/clubs/<club_id>/stream")
def live_stream(club_id):
    key = key_of()
    club_watch().role(club_id, key)
    topic = ("club", club_id)
    revision = club_watch().revision(club_id, _refresh())
    variant = (club_id, lang(), key)
    since = since_shown()

    def stamp():
        now = watcher().value(topic)
        return None if now is None else str(now)

    def render():
        now = watcher().value(topic)
        fragment = club_watch().fragment(variant, revision if now is None else now, lambda: render_live(club_id, key))
        return fragment.stamp, fragment.sse

    answer = stream(topic, revision, lambda kept: page_events(since, stamp, render, kept))
    return answer or full_for_page()


@bp.after_app_request
def _told(response):
    """A write through this process (a club's form, an entry at any table: a table's write may be a club's) is seen
    by the walls' next poll: the revisions kept are read again."""
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        club_id = (request.view_args or {}).get("club_id")
        if club_id:
            club_watch().forget(club_id)
        else:
            club_watch().revisions.clear()
    return response
