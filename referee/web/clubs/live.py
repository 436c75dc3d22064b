"""The club's wall, live (R-CLUB-1): the ladder of each game on a big screen or a phone (``/clubs/<id>/wall``), by
its viewer key (the club key opens it too). As a tournament's wall does (``referee/web/tournaments/live.py``), it is
a keyed live view (``referee/web/shared/live.py``, its memo a ``KeyedWatch`` over the clubs' store): it holds a
stream (``/clubs/<id>/stream``: the process's one watcher reads the club's revision, its own plus its tables', four
times a second while a wall is open) and falls back to asking every second (``/clubs/<id>/live?since=<revision>``);
the fragment is rendered once per revision, language and key, whatever the number of walls."""
from __future__ import annotations

from flask import Response, render_template

from referee.web.clubs import bp
from referee.web.clubs.views import ladders
from referee.web.i18n import lang
from referee.web.services import club_watch, clubs, phone_link
from referee.web.shared.live import Fragment, keyed_poll, keyed_stream, poll_guard
from referee.web.shared.qr import qr_svg
from referee.web.shared.requests import key_of


def render_live(club_id: str, key: str) -> Fragment:
    state = clubs().state(club_id)
    body = render_template("_club_wall_live.html", state=state, key=key, ladders=ladders(state["figures"])).encode()
    return Fragment.drawn(state["revision"], body)


@bp.get("/clubs/<club_id>/wall")
def wall(club_id):
    key = key_of()
    club_watch().role(club_id, key)
    state = clubs().state(club_id)
    link = phone_link("clubs.wall", club_id=club_id, key=clubs().viewer_key(club_id))
    return render_template("club_wall.html", state=state, key=key, phones_qr=qr_svg(link),
                           ladders=ladders(state["figures"]))


@bp.get("/clubs/<club_id>/live")
def live(club_id):
    """204 while the club's revision is ``since``; else the wall's live part, with an ETag (304 while current)."""
    key = key_of()
    refused = poll_guard(lambda: club_watch().role(club_id, key))
    if isinstance(refused, Response):
        return refused
    return keyed_poll(club_watch(), club_id, lambda revision: club_watch().fragment(
        (club_id, lang(), key), revision, lambda: render_live(club_id, key)))


@bp.get("/clubs/<club_id>/stream")
def live_stream(club_id):
    key = key_of()
    club_watch().role(club_id, key)
    return keyed_stream(club_watch(), ("club", club_id), (club_id, lang(), key), lambda: render_live(club_id, key))
