"""A club's pages (R-CLUB-1): making a club (``/clubs/new``, from the home page's "My club"), the club's page (its
key manages the members and the season, starts a table or a tournament from its members; its viewer key reads it),
a member's page (statistics, series, the rating's chart). Plain form posts, each answered by a redirect to the page
(post/redirect/get): every form works without JavaScript. The wall and its stream are ``live.py``'s; the exports
and the import ``exports.py``'s."""
from __future__ import annotations

from flask import abort, render_template, request, url_for
from flask_babel import gettext as _

from referee.errors import RefereeError
from referee.games import GAMES, get_game
from referee.web.clubs import bp
from referee.web.clubs.chart import rating_chart
from referee.web.clubs.views import club_view, member_view
from referee.web.i18n import refusal
from referee.web.services import clubs, form_once, made, phone_link, see_other, status_of
from referee.web.shared.qr import qr_svg
from referee.web.shared.requests import key_of


def opened(club_id: str, write: bool = False) -> tuple:
    """(key, role) of the page's key: "club" or "viewer" (401, 403 for the viewer's key on a write, 404)."""
    key = key_of()
    return key, clubs().authorize(club_id, key, write=write)


def back(club_id: str, key: str, anchor: str = "") -> object:
    return see_other(url_for("clubs.club", club_id=club_id, key=key) + anchor)


@bp.get("/clubs/new")
def new():
    return render_template("club_new.html", error=None, name="")


@bp.post("/clubs/new")
def create():
    name = request.form.get("name", "")
    try:
        _state, club_key, _viewer = made(clubs().create(name, once=form_once()))
    except RefereeError as error:
        return render_template("club_new.html", error=refusal(error), name=name), status_of(error)
    return see_other(url_for("clubs.club", club_id=_state["id"], key=club_key))


@bp.get("/clubs/<club_id>")
def club(club_id):
    key, role = opened(club_id)
    return render_club(club_id, key, role)


def render_club(club_id: str, key: str, role: str, error: str | None = None, error_at: str | None = None,
                status: int = 200, typed: str | None = None):
    """The club's page; a refused form's sentence (``error``) at the top of its part (``error_at``)."""
    state = clubs().state(club_id)
    viewer = clubs().viewer_key(club_id)
    wall = phone_link("clubs.wall", club_id=club_id, key=viewer)
    return render_template("club.html", state=state, key=key, role=role, wall=wall, wall_qr=qr_svg(wall),
                           games=list(GAMES.values()), error=error, error_at=error_at,
                           typed=typed,
                           **club_view(state, key, viewer)), status


def refused_here(club_id: str, key: str, error: RefereeError, anchor: str, typed: str | None = None):
    """A refused form: the club's page again (its address ends with the part's anchor, so the phone shows the part),
    the sentence at the top of the part the form was in, what was typed in its field."""
    return render_club(club_id, key, "club", refusal(error), anchor, status_of(error), typed)


@bp.post("/clubs/<club_id>/members")
def add_member(club_id):
    key, _role = opened(club_id, write=True)
    try:
        clubs().add_member(club_id, request.form.get("name", ""))
    except RefereeError as error:
        return refused_here(club_id, key, error, "members", request.form.get("name", ""))
    return back(club_id, key, "#members")


@bp.post("/clubs/<club_id>/members/<player_id>")
def change_member(club_id, player_id):
    """Rename (``name``) or remove (``remove`` with ``confirm``: the member's name erased everywhere, R-CLUB-1)."""
    key, _role = opened(club_id, write=True)
    try:
        if request.form.get("op") == "remove":
            if request.form.get("confirm") != "yes":
                abort(400)
            clubs().remove_member(club_id, player_id, word=_("former member"))
        else:
            clubs().rename_member(club_id, player_id, request.form.get("name", ""))
    except RefereeError as error:
        return refused_here(club_id, key, error, "members")
    return back(club_id, key, "#members")


@bp.get("/clubs/<club_id>/members/<player_id>/remove")
def confirm_removal(club_id, player_id):
    """The removal's own page: what it erases and what it keeps, then one button."""
    key, _role = opened(club_id, write=True)
    state = clubs().state(club_id)
    member = next((m for m in state["members"] if m["id"] == player_id), None)
    if member is None:
        abort(404)
    return render_template("club_remove.html", state=state, key=key, member=member)


@bp.post("/clubs/<club_id>/season")
def season(club_id):
    key, _role = opened(club_id, write=True)
    try:
        clubs().set_season(club_id, request.form.get("season", "") if request.form.get("op") != "clear" else None)
    except RefereeError as error:
        return refused_here(club_id, key, error, "season")
    return back(club_id, key, "#season")


@bp.get("/clubs/<club_id>/players/<player_id>")
def member(club_id, player_id):
    key, role = opened(club_id)
    state = clubs().state(club_id)
    view = member_view(state, player_id, clubs().viewer_key(club_id))
    if view is None:
        abort(404)
    charts = [(get_game(game), rating_chart(points, get_game(game).names)) for game, points in view["curves"].items()]
    return render_template("club_member.html", state=state, key=key, role=role, charts=charts, **view)
