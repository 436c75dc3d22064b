"""A tournament or a club evening, organised from the home page: the new-tournament form and the director's page
(every table's progress, seating the next round, closing one, entrants withdrawn or added between rounds).

Every form posts and redirects without JavaScript (post/redirect/get); the form's own buttons (a game, a round more
or less) re-render it, swapped in place by htmx. The director's key is in the page's address, like a table's scorer
key; nothing needs an account. The standings (``live.py``) and the printed pages
(``prints.py``) register on the same blueprint (``__init__.py``).
"""
from __future__ import annotations

from flask import current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from referee.errors import RefereeError
from referee.games import GAMES, get_game
from referee.tournament.scoring import VP_TABLES
from referee.tournament.store import MAX_TITLE, round_unit
from referee.web.i18n import refusal
from referee.web.services import clubs, form_once, is_htmx, made, phone_link, see_other
from referee.web.services import tournaments as store
from referee.web.shared.requests import key_of
from referee.web.shared.club_forms import club_of_form
from referee.web.tournaments import bp
from referee.web.tournaments.board import asked, board
from referee.web.tournaments.common import round_part, viewer_key, withdrawn
from referee.web.tournaments.form import (DEFAULT_HANDS, FORM_ROUNDS, MAX_ENTRANTS, default_plan, entrants_from_text,
                                         read_plan, read_vp_rows)
from referee.web.tournaments.spreadsheets import read_upload

VP_CHOICES = ("burraco_3", "burraco_4", "own")


def games():
    return list(GAMES.values())


def form_values() -> dict:
    """The form as posted (or its first look): game, name, entrants' text, plan, VP table choice and rows."""
    first = next((g.id for g in GAMES.values() if g.tournament_first), next(iter(GAMES)))
    game = request.form.get("game", first)
    if game not in GAMES:
        game = first
    plan = read_plan(request.form.getlist("movement"), request.form.getlist("length"), game) \
        if request.method == "POST" else default_plan(game)
    vp = request.form.get("vp", "burraco_3")
    return {"game": game, "name": request.form.get("name", "").strip(),  # never cut: too long is refused
            "entrants": request.form.get("entrants", ""), "plan": plan or default_plan(game),
            "vp": vp if vp in VP_CHOICES else "burraco_3", "vp_rows": request.form.get("vp_rows", ""),
            "require_signatures": request.form.get("require_signatures") == "yes",
            # a club's chips seat pairs at first where the game is played four-handed (a tap: pairs or not)
            "pairs": request.form.get("pairs") == "yes" if request.method == "POST"
            else 4 in GAMES[game].player_counts()}


def with_member(club: dict | None, member_id: str, text: str, pairs: bool) -> str:
    """The entrants' text with a member tapped (R-CLUB-1): on a line of their own, or beside the last line's lone
    name when the entrants are pairs; tapped again, taken off the list."""
    member = next((m for m in (club or {}).get("members", []) if m["id"] == member_id), None)
    if member is None:
        return text
    lines = entrants_from_text(text)
    if any(member["name"].casefold() in {n.casefold() for n in line} for line in lines):
        lines = [[n for n in line if n.casefold() != member["name"].casefold()] for line in lines]
    elif pairs and lines and len(lines[-1]) == 1:
        lines[-1].append(member["name"])
    else:
        lines.append([member["name"]])
    return "\n".join(" & ".join(line) for line in lines if line)


def render_form(values: dict, error: str | None = None, status: int = 200, warnings: list | None = None):
    """The form; ``warnings``: the sentences of a file's rows left out (nothing created yet). A club's form
    (``?club=…&key=…``) offers its members as chips (``club_chips``)."""
    club = club_of_form()
    if club:
        listed = {n.casefold() for e in entrants_from_text(values["entrants"]) for n in e}
        club = {**club, "members": [{**m, "seated": m["name"].casefold() in listed} for m in club["members"]]}
    context = {**values, "games": games(), "unit": round_unit(values["game"]),
               "error": error, "form_rounds": FORM_ROUNDS, "max_title": MAX_TITLE, "warnings": warnings or [],
               "club": club}
    template = "_tournament_form.html" if is_htmx() else "tournament_new.html"
    return make_response(render_template(template, **context), status)


@bp.get("/tournaments/new")
def new():
    return render_form(form_values())


@bp.post("/tournaments/new")
def change():
    values = form_values()
    op = request.form.get("op", "create")
    verb, _sep, arg = op.partition(":")
    if verb == "game" and arg in GAMES:
        values.update(game=arg, plan=[{k: v for k, v in r.items() if k == "movement"} for r in values["plan"]])
        if round_unit(arg) == "hands":
            values["plan"] = [{**r, "hands": DEFAULT_HANDS} for r in values["plan"]]
        return render_form(values)
    if verb == "add" and len(values["plan"]) < FORM_ROUNDS:
        values["plan"].append(dict(values["plan"][-1]))
        return render_form(values)
    if verb == "remove" and arg.isdigit() and len(values["plan"]) > 1 and int(arg) < len(values["plan"]):
        values["plan"].pop(int(arg))
        return render_form(values)
    if verb == "member":
        values["entrants"] = with_member(club_of_form(), arg, values["entrants"], values["pairs"])
        return render_form(values)
    if verb != "create":
        return render_form(values)
    return create(values)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error):
    """A post larger than the app takes (MAX_CONTENT_LENGTH): the new-tournament form again with a sentence (none
    of its fields could be read); any other page's post, the error page. To htmx a 200, which it swaps in place."""
    if request.endpoint != "tournaments.change":
        return make_response(render_template("error.html", error=error), 413)
    request.form, request.files = ImmutableMultiDict(), ImmutableMultiDict()  # the body is never read
    said = _("The file is larger than the form takes (%(kib)s KiB): keep only the list of entrants in it and choose "
             "it again.", kib=current_app.config["MAX_CONTENT_LENGTH"] // 1024)
    return render_form(form_values(), said, status=200 if is_htmx() else 413)


def create(values: dict):
    entrants = entrants_from_text(values["entrants"])
    upload = request.files.get("entrants_file")
    if upload and upload.filename:
        try:
            read, unread = read_upload(upload.read(), upload.filename)
        except RefereeError as error:  # not a file of entrants: its sentence
            return render_form(values, refusal(error))
        entrants += read
        values["entrants"] = "\n".join(" & ".join(e) for e in entrants)  # shown again if something is refused
        if unread:  # nothing created: the rows left out are said, the rows read wait in the list
            return render_form(values, warnings=[refusal(row.warning()) for row in unread])
    if not values["name"]:
        return render_form(values, _("Give the tournament a name."))
    if len(entrants) < 2:
        return render_form(values, _("Write at least two entrants, one a line (a pair as “Ana & Bo”)."))
    if len(entrants) > MAX_ENTRANTS:
        return render_form(values, _("At most %(n)s entrants.", n=MAX_ENTRANTS))
    vp_table = None
    if values["game"] in GAMES and GAMES[values["game"]].scored_by_vp_table:
        vp_table = values["vp"]
        if vp_table == "own":
            try:
                vp_table = read_vp_rows(values["vp_rows"])
            except ValueError as line:
                return render_form(values, _("This row of the VP table cannot be read: “%(line)s”. Write the most "
                                             "MP difference, the winner's VP and the loser's VP.", line=str(line)))
            if not vp_table:
                return render_form(values, _("Write your VP table, a row a line."))
    try:
        club, seats = club_of_form(), None
        if club:  # a name that is a member's is that member; any other a guest's (R-CLUB-1)
            sizes = [len(e) for e in entrants]
            flat, members = clubs().seating(club["id"], [n for e in entrants for n in e], by_name=True)
            entrants, seats, at = [], [], 0
            for size in sizes:
                entrants.append(flat[at:at + size])
                seats.append(members[at:at + size])
                at += size
        state, director_key, _viewer = made(store().create(values["game"], values["name"], entrants,
                                                           values["plan"], vp_table=vp_table, once=form_once(),
                                                           require_signatures=values["require_signatures"],
                                                           club=(club["id"], seats) if club else None))
    except RefereeError as error:  # the plan's or the VP table's own sentence (referee/tournament/)
        if error.code == "vp_table_needed":
            return vp_table_needed(values)
        return render_form(values, refusal(error))
    return see_other(url_for("tournaments.director", tournament_id=state["id"], key=director_key))


def vp_table_needed(values: dict):
    """R-TOURN-4: the VP table chosen was not made for the rounds' length. Rounds all of 3 or all of 4 hands: the
    table made for them is chosen, to confirm; any other length: the director's own table, its rows started from
    the 3-hand table's to edit (never applied as they are)."""
    lengths = sorted({spec.get("hands", DEFAULT_HANDS) for spec in values["plan"]})
    shown = ", ".join(str(n) for n in lengths)
    if lengths in ([3], [4]):
        made_for = 4 if values["vp"] == "burraco_4" else 3
        values = {**values, "vp": f"burraco_{lengths[0]}"}
        return render_form(values, _("The table for rounds of %(made)s hands does not fit rounds of %(hands)s hands: "
                                     "the table for their length is chosen now; check it, then create the "
                                     "tournament.", made=made_for, hands=shown))
    if not values["vp_rows"].strip():
        rows = VP_TABLES["burraco_3"]
        values = {**values, "vp_rows": "\n".join(
            [f"{top} {winner} {loser}" for top, winner, loser in rows[:-1]]
            + [_("over %(mp)s: %(winner)s – %(loser)s", mp=rows[-2][0], winner=rows[-1][1], loser=rows[-1][2])])}
    return render_form({**values, "vp": "own"}, _(
        "The VP tables offered are made for rounds of 3 hands or of 4 hands, all alike; these rounds are of "
        "%(hands)s hands. Your own table below starts from the 3-hand table's rows: make it fit these rounds, then "
        "create the tournament.", hands=shown))


# --- the director's page -------------------------------------------------------------------------------------

@bp.get("/tournaments/<tournament_id>")
def director(tournament_id):
    key = key_of()
    if store().authorize(tournament_id, key) != "director":  # a viewer's link: the standings
        return redirect(url_for("tournaments.standings", tournament_id=tournament_id, key=key), code=303)
    return render_director(tournament_id, key, done=request.args.get("done"))


def render_director(tournament_id: str, key: str, error: str | None = None, done: str | None = None,
                    status: int = 200, typed: dict | None = None):
    """The director's page; ``typed``: what a refused form held (``form``: which one), given back to it."""
    state = store().state(tournament_id)
    part = round_part(tournament_id, state)
    viewer_key_ = viewer_key(tournament_id)
    viewer = phone_link("tournaments.standings", tournament_id=tournament_id, key=viewer_key_)
    shown = board(part["tables"], part["names"], *asked())
    if is_htmx() and request.headers.get("HX-Target") == "board":  # a filter or a search: the board alone
        response = make_response(render_template("_tournament_director_board.html", state=state, key=key,
                                                 board=shown, filter_oob=True, **part))
        response.headers["Cache-Control"] = "no-store"
        response.vary.add("HX-Target")
        return response
    response = make_response(render_template(
        "tournament_director.html", state=state, key=key, **part, board=shown,
        more=len(state["rounds"]) < len(state.get("plan") or ()), error=error,
        done=done if done in ("seated", "closed", "withdrawn", "added", "arbitral", "penalty") else None,
        viewer=viewer,
        viewer_key=viewer_key_,
        game=get_game(state["game"]), withdrawn=withdrawn(state),
        results=round_results(state, part["cards"]), typed=typed or {}), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def round_results(state: dict, cards: dict) -> list:
    """The closed rounds, newest first, each table's result and a link to correct it on its own scorer page."""
    done = []
    for round_ in reversed(state["rounds"]):
        if round_["status"] == "closed":
            done.append({**round_, "tables": [{**t, "link": url_for("tables.table", table_id=t["table_id"],
                                                                    key=cards.get(t["number"]))}
                                              for t in round_["tables"]]})
    return done


def act(tournament_id: str, action, done: str):
    """A director's post: done, then back to the page (303); refused, the page again with the sentence (the
    store's refusal, or the one ``action`` returns)."""
    key = key_of()
    store().authorize(tournament_id, key, write=True)
    typed = {**request.form.to_dict(), "form": request.endpoint.rpartition(".")[2]}
    try:
        refused = action()
    except RefereeError as error:
        return render_director(tournament_id, key, error=refusal(error), typed=typed)
    if isinstance(refused, str):
        return render_director(tournament_id, key, error=refused, typed=typed)
    return redirect(url_for("tournaments.director", tournament_id=tournament_id, key=key, done=done), code=303)


@bp.post("/tournaments/<tournament_id>/rounds")
def seat_round(tournament_id):
    return act(tournament_id, lambda: store().next_round(tournament_id, once=form_once()) and None, "seated")


@bp.get("/tournaments/<tournament_id>/rounds")
@bp.get("/tournaments/<tournament_id>/rounds/<int:number>/close")
def director_act_page(tournament_id, number=None):
    """The address a refused act's page stays at (its form posted there), opened again (a reload, a bookmark): the
    director's page, never a 405."""
    return redirect(url_for("tournaments.director", tournament_id=tournament_id, key=key_of()), code=303)


@bp.post("/tournaments/<tournament_id>/rounds/<int:number>/close")
def close_round(tournament_id, number):
    force = request.form.get("force") == "yes"
    reason = request.form.get("reason", "").strip()[:300] or None

    def close():
        if force and not reason:
            return _("Write why the open tables are finished: the sentence is kept in the tournament's log.")
        done = store().close_round(tournament_id, number, force=force, reason=reason, once=form_once())
        if not done["closed"]:
            still = ", ".join(str(t["number"]) for t in done["open_tables"])
            return ngettext("Table %(list)s is still playing: tick “Finish them as they stand” and say why.",
                            "Tables %(list)s are still playing: tick “Finish them as they stand” and say why.",
                            len(done["open_tables"]), list=still)
        return None
    return act(tournament_id, close, "closed")


@bp.post("/tournaments/<tournament_id>/entrants/<int:index>/withdraw")
def withdraw(tournament_id, index):
    return act(tournament_id, lambda: store().withdraw(tournament_id, index, once=form_once()) and None, "withdrawn")


@bp.post("/tournaments/<tournament_id>/entrants")
def add_entrant(tournament_id):
    names = (entrants_from_text(request.form.get("names", "")) or [[]])[0]

    def add():
        if not names:
            return _("Write the new entrant's names (a pair as “Ana & Bo”).")
        return store().add_entrant(tournament_id, names, once=form_once()) and None
    return act(tournament_id, add, "added")



# --- the director's decisions (R-TOURN-1, R-TOURN-2) -----------------------------------------------------------------

def form_number(name: str, whole: bool = True):
    """A number typed in the director's form ("12", "12,5", "-2"), None when it is none."""
    raw = request.form.get(name, "").strip().replace(",", ".").replace("−", "-")
    try:
        value = float(raw)
    except ValueError:
        return None
    if whole:
        return int(value) if value.is_integer() else None
    return int(value) if value.is_integer() else value


@bp.post("/tournaments/<tournament_id>/arbitral")
def arbitral(tournament_id):
    """An arbitral result (R-TOURN-1): a round, a table, each side's VP and the reason."""
    vp = [form_number("vp_ns", whole=False), form_number("vp_ew", whole=False)]

    def give():
        if None in vp:
            return _("Write each side's VP, from 0 to 20.")
        return store().arbitral(tournament_id, form_number("round"), form_number("table"), vp,
                                request.form.get("reason"), once=form_once()) and None
    return act(tournament_id, give, "arbitral")


@bp.post("/tournaments/<tournament_id>/penalty")
def penalty(tournament_id):
    """A penalty in VP (R-TOURN-2): an entrant, its VP (negative; a positive number typed is taken as its
    negative), the round if any, and the reason."""
    vp = form_number("vp")
    round_number = form_number("round") if request.form.get("round", "").strip() else None

    def give():
        if vp is None or vp == 0:
            return _("Write the penalty in VP, a whole number such as 2.")
        return store().penalty(tournament_id, form_number("entrant"), -abs(vp), request.form.get("reason"),
                               round_number, once=form_once()) and None
    return act(tournament_id, give, "penalty")


@bp.post("/tournaments/<tournament_id>/standings/hide")
def hide_standings(tournament_id):
    """The director's switch (``_tournament_hide_standings.html``): ``hidden`` 1 hides the standings from the wall
    and the phones, 0 shows them again."""
    hidden = {"1": True, "0": False}.get(request.form.get("hidden", ""))

    def switch():
        if hidden is None:
            return _("Choose whether the standings are hidden or shown.")
        return store().hide_standings(tournament_id, hidden, once=form_once()) and None
    return act(tournament_id, switch, "standings")
