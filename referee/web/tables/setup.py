"""Starting a table: the game, how many play (one chip per count the game allows), the players in order of play
(add, remove, reorder: never more seats than the game's most players, never fewer than its fewest), the options from
the engine's schema in plain words, the first dealer. Works as plain form posts; with htmx the form swaps in place.
Seats left empty are dropped when the table is created: a name is never invented, and a name too long is refused
with the engine's sentence, never cut. The form carries its own id (``form_id``): posted twice, it makes one table
(``referee/store/once.py``). The players of the tables made here are offered again by static/setup.js from the browser's
own storage. A club's set-up (``?club=...&key=...``, R-CLUB-1) offers the club's members as chips, the last players
first: a tap seats one at the next empty seat (a plain post, the form drawn again); a name typed that is a member's
is that member, any other a guest's. Back after "Create" is the table that form made (below), never an empty form;
a name typed in a seat is that seat's name at once in the dealer's list and the partners' sentence (static/setup.js)."""
from __future__ import annotations

import re

from flask import make_response, render_template, request, session, url_for
from flask_babel import gettext as _

from referee.errors import RefereeError
from referee.games import get_game
from referee.games.base import MAX_NAME
from referee.web.i18n import lang, refusal
from referee.web.services import clubs, form_once, is_htmx, ledger, made, see_other
from referee.web.shared.requests import number
from referee.web.shared.club_forms import club_of_form
from referee.web.tables import bp
from referee.web.tables.views import seating

MAX_SEATS = 12


def default_count(game) -> int:
    counts = game.player_counts()
    return 4 if 4 in counts else counts[0]


def read_form(game) -> tuple:
    players = [p.strip() for p in request.form.getlist("player")][:MAX_SEATS]
    options = {}
    for option in game.options:
        field = "opt_" + option.name
        if option.type == "bool":
            options[option.name] = field in request.form
        elif option.type == "cards" and field in request.form:  # one box per card offered, or typed codes
            options[option.name] = form_value(option.type, " ".join(request.form.getlist(field)))
        elif field in request.form:
            options[option.name] = form_value(option.type, request.form[field])
    dealer = request.form.get("dealer", "0")
    return players, options, number(dealer) or 0


def form_value(kind: str, raw: str):
    """An option typed in a form, as the options schema wants it (the schema then says if it is wrong)."""
    raw = raw.strip()
    items = [x for x in raw.strip("[]").replace(",", " ").split() if x]
    try:
        if kind == "int":
            return int(raw) if re.fullmatch(r"-?[0-9]{1,9}", raw) else raw
        if kind == "number":
            value = float(raw.replace(",", "."))
            return int(value) if value.is_integer() and len(raw) < 10 else value
        if kind == "ints":
            return [int(x) for x in items if re.fullmatch(r"[0-9]{1,9}", x)] if all(
                re.fullmatch(r"[0-9]{1,9}", x) for x in items) else raw
    except ValueError:
        return raw
    return [x.upper() for x in items] if kind == "cards" else raw


def apply_op(op: str, players: list, dealer: int, counts: tuple = (1, MAX_SEATS)) -> tuple:
    """add, remove:i, up:i, down:i, count:n on the seats (the dealer stays with the same person). Seats stay within
    the game's player ``counts``: no seat added past the most, none removed under the fewest, a count only one the
    game is played by."""
    verb, _sep, index = op.partition(":")
    i = number(index) if number(index) is not None else -1
    dealer_name = players[dealer] if 0 <= dealer < len(players) else None
    if verb == "add" and len(players) < min(counts[-1], MAX_SEATS):
        players.append("")
    elif verb == "remove" and 0 <= i < len(players) and len(players) > counts[0]:
        players.pop(i)
    elif verb == "count" and i in counts and 1 <= i <= MAX_SEATS:
        players = seats_for(players, i)
    elif verb in ("up", "down"):
        j = i - 1 if verb == "up" else i + 1
        if 0 <= i < len(players) and 0 <= j < len(players):
            players[i], players[j] = players[j], players[i]
    if dealer_name is not None and dealer_name in players and dealer_name:
        dealer = players.index(dealer_name)
    return players, min(dealer, max(len(players) - 1, 0))


def seats_for(players: list, count: int) -> list:
    """``count`` seats: empty ones added at the end, or taken away from the end, the empty ones first (a name
    written is the last thing to go)."""
    players = players + [""] * (count - len(players))
    while len(players) > count:
        empty = [i for i, p in enumerate(players) if not p]
        players.pop(empty[-1] if empty else -1)
    return players


def seated(players: list, dealer: int) -> tuple:
    """The names written, in order, without the empty seats; the dealer's seat among them (the first player when
    the dealer's seat was left empty, R-COMMON-2)."""
    names = [p for p in players if p]
    if 0 <= dealer < len(players) and players[dealer]:
        return names, sum(1 for p in players[:dealer] if p)
    return names, 0


def seat_member(club: dict | None, op: str, players: list, counts: tuple) -> list:
    """``member:<id>``: the member takes the first empty seat (a seat added when every one is taken and the game
    allows more); tapped again, the member leaves their seat."""
    member = next((m for m in (club or {}).get("members", []) if m["id"] == op.partition(":")[2]), None)
    if member is None:
        return players
    seated = [i for i, p in enumerate(players) if p.casefold() == member["name"].casefold()]
    if seated:
        players[seated[0]] = ""
        return players
    if "" in players:
        players[players.index("")] = member["name"]
    elif len(players) < min(counts[-1], MAX_SEATS):
        players.append(member["name"])
    return players


def render_setup(game, players, options, dealer, error=None, club=None):
    names = [p or _("Player %(n)s", n=i + 1) for i, p in enumerate(players)]
    if club:
        taken = {p.casefold() for p in players if p}
        club = {**club, "members": [{**m, "seated": m["name"].casefold() in taken} for m in club["members"]]}
    context = {"game": game, "players": players, "names": names, "options": options, "dealer": dealer,
               "error": error, "opposite": seating(list(range(len(names)))),  # seats: setup.js writes names typed
               "counts": game.player_counts(), "max_name": MAX_NAME, "club": club}
    template = "_setup_form.html" if is_htmx() else "setup.html"
    response = make_response(render_template(template, **context))
    response.headers["Cache-Control"] = "no-store"  # Back asks again: a form that made its table leads to it
    return response


# --- Back after "Create" (issue 38) ----------------------------------------------------------------------------------
# The set-up page's address names its form (``?form=<id>``, static/setup.js writes it). The forms that made a table
# in this browser are kept in its session (the form's id and the table's, the last few; never a key): the page asked
# again with such a form (Back) is that table, its scorer key worked out again by the ledger from the form's id
# (``Ledger.made_by``), never an empty form that would make a second table. A post of that form (a page kept from
# before) is the form's as before: the same set-up is the same table, a set-up mended another (``referee/store/once.py``).
MADE = "made_here"
KEEP_MADE = 5


def remember_made(form: str | None, table_id: str) -> None:
    if form:
        kept = [pair for pair in session.get(MADE, []) if isinstance(pair, list) and pair[:1] != [form]]
        session[MADE] = [[form, table_id], *kept][:KEEP_MADE]


def table_made_by(form: str | None):
    """The scorer page of the table this browser made with ``form``, or None."""
    table_id = next((pair[1] for pair in session.get(MADE, []) if isinstance(pair, list) and len(pair) == 2
                     and pair[0] == form), None) if form else None
    once = form_once(form) if table_id else None
    key = ledger().made_by(table_id, once) if once else None
    return url_for("tables.table", table_id=table_id, key=key) if key else None


@bp.get("/new/<game_id>")
def new(game_id):
    game = get_game(game_id)
    made_already = table_made_by(request.args.get("form"))
    if made_already:  # Back to a set-up that made its table: the table
        return see_other(made_already)
    return render_setup(game, [""] * default_count(game), {o.name: o.default for o in game.options}, 0,
                        club=club_of_form())


@bp.post("/new/<game_id>")
def change(game_id):
    game = get_game(game_id)
    club = club_of_form()
    players, options, dealer = read_form(game)
    op = request.form.get("op", "create")
    if op.startswith("member:"):
        return render_setup(game, seat_member(club, op, players, game.player_counts()), options, dealer, club=club)
    if op != "create":
        players, dealer = apply_op(op, players, dealer, game.player_counts())
        return render_setup(game, players, options, dealer, club=club)
    names, first = seated(players, dealer)
    least = game.player_counts()[0]
    if len(names) < least:
        counts = ", ".join(map(str, game.player_counts()))
        return render_setup(game, players, options, dealer, _(
            "Write at least %(n)s names: %(game)s is played by %(counts)s players.", n=least,
            game=game.names[lang()], counts=counts), club=club)
    try:
        seats = None
        if club:  # a name typed that is a member's is that member; any other is a guest's (R-CLUB-1)
            names, members = clubs().seating(club["id"], names, by_name=True)
            seats = (club["id"], members)
        state, scorer_key, _viewer = made(ledger().create_table(
            game.id, names, options, first, once=form_once(), club=seats))
    except RefereeError as error:
        return render_setup(game, players, options, dealer, refusal(error), club=club)
    remember_made(request.form.get("form_id") if form_once() else None, state["id"])
    return see_other(url_for("tables.table", table_id=state["id"], key=scorer_key))
