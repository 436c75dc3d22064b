"""The standings, live: on every player's phone (/tournaments/<id>/standings) and on the club's wall
(/tournaments/<id>/screen): rank, names, VP, MP, last round's result, penalties apart (R-TOURN-2), the current
round's tables still playing and its results in; while the director hides the standings (the last round's secret),
a sentence instead of the rows, but to the director's key on the phones' page; and the director's page's round (its
live part, ``view=director``). The wall shows every entrant (``wall_layout``): what does not fit scrolls
(``referee/static/wall-scroll.js``, at the pace of the wall's address: ``wall_pace``).

Each page holds a stream (``stream.py``) and falls back to asking every second whether the tournament changed
(``/tournaments/<id>/live?since=<revision>``), as a table's live view does (``referee/web/tables/watch.py``): a
keyed live view (``referee/web/shared/live.py``). Each process keeps (``KeyedWatch``), per tournament, its revision
as read at most ``LIVE_REFRESH_SECONDS`` ago (by the process's watcher, ``serving/live_streams.py``, while a stream
is open; else by a poll) and the keys it has seen open it, and the fragment last rendered per view, language and
role: 300 phones watching cost the database a few revision reads a second, and an
unchanged standing is sent or answered without rendering anything. A change made through another worker is seen at
the next read of the revision.
"""
from __future__ import annotations

from flask import Response, render_template, request

from referee.errors import Forbidden
from referee.tournament.director import SETTLED
from referee.web.i18n import lang
from referee.web.services import phone_link, standings_watch
from referee.web.services import tournaments as store
from referee.web.shared.visible import standings_hidden, visible_penalties, visible_standings
from referee.web.shared.live import Fragment, keyed_poll, poll_guard, refresh_seconds
from referee.web.shared.qr import qr_svg
from referee.web.shared.requests import key_of
from referee.web.tournaments import bp
from referee.web.tournaments.board import board, live_rows
from referee.web.tournaments.common import entrant_names, open_round, round_length, round_part, viewer_key


def standings_view(state: dict, role: str = "viewer") -> dict:
    """What both views show: the standings with names and the last round's result (none while the director hides
    them, but to the director's own key), the round under way, its tables still playing and its results in, the
    penalties apart (R-TOURN-2) and the wall's layout."""
    playing = open_round(state)
    still = [t for t in playing["tables"] if not t["finished"]] if playing else []
    length = round_length(state, playing["number"]) if playing else None
    hidden = standings_hidden(state)  # the director's switch, until the last round is over
    rows = visible_standings(state, role)
    names = entrant_names(state)
    penalties = [{**p, "names": names.get(p["entrant"], "")} for p in visible_penalties(state, role)]
    return {"rows": rows, "playing": playing, "still": still, "length": length, "results_in": results_in(playing, bool(state.get("require_signatures"))),
            "hidden": hidden, "penalties": penalties, "wall": wall_layout(len(rows)),
            "pen": any(row["penalties"] for row in rows)}


def results_in(round_: dict | None, signatures: bool = False) -> dict | None:
    """A round's ``{"done", "all", "to_sign"}``: its tables with a result (signed, to confirm, arbitral, not played:
    finished) over its tables; None without a round. When the tournament requires signatures (R-COMMON-7), a result
    is in once it stands (signed, arbitral, corrected by the director: R-COMMON-7b; or not played), and the
    finished tables not yet signed are ``to_sign`` (their numbers), never counted in."""
    if round_ is None:
        return None
    if not signatures:
        return {"done": sum(1 for t in round_["tables"] if t["finished"]), "all": len(round_["tables"]),
                "to_sign": []}
    standing = [t for t in round_["tables"] if t["status"] in SETTLED + ("not_played",)]
    return {"done": len(standing), "all": len(round_["tables"]),
            "to_sign": [t["number"] for t in round_["tables"] if t["finished"] and t not in standing]}


WALL_SCROLLS = 32  # past so many rows, the wall's fixed size of type (2 columns of 16 at 1280×720), scrolled


def wall_layout(count: int) -> dict:
    """How the wall sets ``count`` rows out: ``cols`` columns (1, or 2: at 1280×720 a third leaves a name a few
    letters), each a table of the rows in rank order; ``rows`` the row class whose type fills the screen's height
    (``tournament.css``); ``scroll`` past ``WALL_SCROLLS``: a fixed size of type read across the hall, in a box
    that scrolls. Any box that does not fit (long names wrap) scrolls by hand, and by itself with
    ``wall-scroll.js``."""
    cols = 1 if count <= 10 else 2
    per = -(-count // cols)
    return {"cols": cols, "scroll": count > WALL_SCROLLS,
            "rows": next((rows for rows in (8, 12, 16, 20, 28) if rows >= per), 28)}


VIEWS = {"screen": "_tournament_screen_live.html", "director": "_tournament_round_live.html"}  # else the phones'


def live_view(role: str) -> str | None:
    """The live part asked (``view``): the wall's, the director's (a director's key only: 403), else the phones'."""
    view = request.args.get("view")
    if view == "director" and role != "director":
        raise Forbidden("read_only_key", "This is the viewer key: it shows the tournament but cannot change it.")
    return view if view in VIEWS else None


def render_live(tournament_id: str, key: str, view: str | None, role: str) -> Fragment:
    state = store().state(tournament_id)
    template = VIEWS.get(view, "_tournament_standings_live.html")
    # the wall is the hall's, whatever key opened it: hidden standings stay hidden there
    seen = round_part(tournament_id, state) if view == "director" else standings_view(
        state, "viewer" if view == "screen" else role)
    if view == "director":  # the board's counts out of band, then every row: parts of their own (board.py)
        seen = {**seen, "board": board(seen["tables"], seen["names"]), "oob": True}
        return Fragment.of_parts(state["revision"], (render_template(template, state=state, key=key, **seen),
                                                     *live_rows(seen["tables"], {**seen, "key": key})))
    body = render_template(template, state=state, key=key, **seen).encode()
    return Fragment.drawn(state["revision"], body)


def drawn_once(tournament_id: str, page: str, key: str, role: str, draw):
    """A page every phone of the hall opens at once (the phones' standings, the wall: two thousand as a round
    closes), drawn once per revision, language and address for all of them (``KeyedWatch.fragment``, as its live
    part), gzipped once, with an ETag (304 while current). ``draw(state)`` renders it. The director's key draws its
    own (it sees what the phones do not: the standings the director hides)."""
    if role != "viewer":
        return draw(store().state(tournament_id))

    def render() -> Fragment:
        state = store().state(tournament_id)
        body = draw(state).encode()
        return Fragment.drawn(state["revision"], body)

    revision = standings_watch().revision(tournament_id, refresh_seconds())
    variant = (tournament_id, "page", page, lang(), key, request.full_path)
    return standings_watch().fragment(variant, revision, render).response()


@bp.get("/tournaments/<tournament_id>/standings")
def standings(tournament_id):
    key = key_of()
    role = standings_watch().role(tournament_id, key)
    return drawn_once(tournament_id, "standings", key, role, lambda state: render_template(
        "tournament_standings.html", state=state, key=key, role=role, **standings_view(state, role)))


@bp.get("/tournaments/<tournament_id>/screen")
def screen(tournament_id):
    key = key_of()
    standings_watch().role(tournament_id, key)

    def draw(state):
        # The phones' link: the viewer key (read only), whatever key opened the wall.
        link = phone_link("tournaments.standings", tournament_id=tournament_id, key=viewer_key(tournament_id))
        return render_template("tournament_screen.html", state=state, key=key, phones=link, phones_qr=qr_svg(link),
                               pace=wall_pace(), **standings_view(state))
    return drawn_once(tournament_id, "screen", key, "viewer", draw)  # the hall's, whatever key opened it


def wall_pace() -> dict:
    """The auto-scroll's pace (``wall-scroll.js``): ``row`` seconds for a row to pass, ``pause`` seconds at the
    top and at the bottom; a club (or a test) may set them in the wall's address (``?pace=…&pause=…``)."""
    def seconds(name, default, low, high):
        try:
            value = float(request.args.get(name, default))
        except ValueError:
            return default
        return min(high, max(low, value)) if value == value else default  # NaN: the default
    return {"row": seconds("pace", 2.0, 0.02, 20), "pause": seconds("pause", 6.0, 0, 120)}


@bp.get("/tournaments/<tournament_id>/live")
def live(tournament_id):
    """204 while the tournament's revision is ``since``; else the live fragment (the phone's standings, the wall's
    with ``view=screen``, the director's round with ``view=director``), with an ETag (304 while current)."""
    key = key_of()
    role = poll_guard(lambda: standings_watch().role(tournament_id, key))
    if isinstance(role, Response):
        return role

    def fragment_at(revision):
        view = live_view(role)
        return standings_watch().fragment((tournament_id, view, lang(), role, key), revision,
                                          lambda: render_live(tournament_id, key, view, role))

    return keyed_poll(standings_watch(), tournament_id, fragment_at)
