"""The scorer's page and its entries. Every form posts and redirects without JavaScript; with htmx the same post
answers the ``_scorer.html`` fragment in place. The entry in progress (mode, a pile's or a meld's cards, a sheet)
lives in the address; a trick's cards tapped so far are the table's trick under way, on the server
(``Ledger.set_draft``), so that a reload, a co-scorer and the viewers see them."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import wraps
from urllib.parse import quote

from flask import g, make_response, redirect, render_template, request, url_for

from referee.errors import Conflict, ParseError, RefereeError
from referee.games import get_game
from referee.store import Once
from referee.web.i18n import refusal
from referee.web.services import is_htmx, ledger, request_key
from referee.web.tables import bp
from referee.web.tables.correcting import kept_reason, signing_context
from referee.web.tables.offline_data import offline_data
from referee.web.tables.sheet import capture_extras, tally_body
from referee.web.tables.tapped import render_tap, tap_changes_alone, tapped_ahead
from referee.web.tables.views import (LAYING, SHOWING, ScorerInput, card_order, last_trick, next_player, number, picker,
                                      read_entry)


def table_mode(game, stored: str | None) -> str:
    """How the table enters its deals, as a phone chose it for every phone (the table's row, R-COMMON-6); the game's
    first way when none chose."""
    return stored if stored in game.entry_modes else game.entry_modes[0]


def page_context(table_id: str, key: str, entry: ScorerInput | None = None, error: str | None = None,
                 looked: tuple | None = None) -> dict:
    """``looked``: the table as ``Ledger.look`` gives it, when the request already read it (a card tapped)."""
    state, table, draft, stored_mode = looked or ledger().look(table_id)
    game = get_game(state["game"])
    deck = game.deck_for(table)
    entry = (entry or read_entry(request.args, game, table)).with_draft(draft, deck)
    remembered = table_mode(game, stored_mode)
    if entry.mode == "trick" and not entry.pending and game.untouched(table) and remembered in ("capture", "numbers"):
        entry = ScorerInput(remembered) if remembered == "capture" else read_entry({"mode": "numbers"}, game, table)
    if entry.mode == "numbers" and not game.untouched(table):
        entry = ScorerInput()
    possible = game.possible(table)
    extra, tricks = {}, game.plays_tricks
    if entry.mode == "numbers":
        extra.update(sheet_preview(game, table, entry))
        if error:  # the refusal is said once, in the status
            extra["preview_error"] = None
        extra["whole"] = game.numbers_whole(table)
        extra["bounds"] = game.numbers_bounds(table)
    if game.trick_entry == "melds" and table.current is not None and not table.current.complete:  # Buraco
        extra["counts"] = game.copies_left(table, taken(entry))  # R-BURACO-1
        extra["rows"] = card_order(game, deck) + [(None, [c for c in deck.cards if c.suit is None][:1])]
        if entry.mode == "count":
            extra["preview"], refused = count_preview(game, table, entry)
            extra["preview_error"] = refusal(refused, deck) if refused else None
    return {
        **extra,
        "state": state, "table": table, "game": game, "deck": deck, "key": key, "entry": entry, "error": error,
        "possible": possible, "picker": picker(game, table, entry) if tricks else [],
        "next_player": next_player(table, entry) if tricks else None,
        "last_trick": last_trick(state), "actors": {action: game.players_for(table, action) for action in possible},
        "turned_card": game.turned_card(table),
        "entry_modes": game.entry_modes, "remembered": remembered, "untouched": game.untouched(table),
        "offline": offline_data(game, table, state, entry, key),  # static/offline.js: tricks entered offline
        **signing_context(table_id, key),
    }



@bp.app_template_global()
def new_event_id() -> str:
    """Each form's own id (``_entry_fields.html``): a resent post is stored once, and two forms never share one."""
    return uuid.uuid4().hex


def render_scorer(table_id: str, key: str, entry: ScorerInput | None = None, error: str | None = None, status=200,
                  refused: str | None = None, context: dict | None = None):
    """The scorer's page, or its fragment for htmx; ``refused`` is the card a refusal names (it shakes)."""
    context = context or page_context(table_id, key, entry, error)
    context.update(refused_card=refused, trick_done=g.get("trick_done", False))
    template = "_scorer.html" if is_htmx() else "scorer.html"
    response = make_response(render_template(template, **context), status)
    if is_htmx():
        response.headers["HX-Replace-Url"] = url_for("tables.table", table_id=table_id, key=key,
                                                     **context["entry"].query(), **kept_reason())
        if error:  # static/offline.js, sending what waited: the refusal's sentence in the page's language
            response.headers["Referee-Refusal"] = quote(error, safe="")
    return response


def done(table_id: str, key: str, entry: ScorerInput):
    """After an entry: the fragment for htmx (a card tapped: only what it changed), a redirect (post/redirect/get)
    without JavaScript."""
    if is_htmx() and g.get("tapped") is not None:
        context = page_context(table_id, key, entry, looked=g.get("looked"))  # a trick under way: read once
        if tap_changes_alone(context):
            return render_tap(context, g.tapped, g.get("trick_done", False))
        return render_scorer(table_id, key, entry)
    if is_htmx():
        return render_scorer(table_id, key, entry)
    return redirect(url_for("tables.table", table_id=table_id, key=key, _anchor=anchor(entry), **entry.query(),
                            **kept_reason()), code=303)


def anchor(entry: ScorerInput) -> str:
    """Without JavaScript the page comes back where the finger was: the picker or the numbers' sheet."""
    return "sheet" if entry.mode == "numbers" else "picker"


@dataclass
class Post:
    """One scorer's form post: the table, its game and deck, the entry in progress, and the key that opened it."""

    table_id: str
    key: str
    game: object
    table: object
    deck: object
    entry: ScorerInput
    revision: int  # the table's, as this post found it
    looked: tuple = ()  # the table as ``Ledger.look`` gave it to this post

    def card(self):
        return self.deck.parse(request.form.get("card", ""))

    def number(self, field: str, optional: bool = False, reads: str = "player"):
        """The index a form field holds: of a player, of the ``dealer`` (a player) or of a ``side``; what it
        cannot read is refused in those words."""
        raw = request.form.get(field, "")
        if optional and raw == "":
            return None
        value = number(raw)
        if value is not None:
            return value
        if reads == "side":
            raise ParseError("bad_event", "There is no side {index}: sides are 0 to {last}.", index=raw[:20],
                             last=len(self.table.sides) - 1, field=field)
        if reads == "dealer":
            raise ParseError("bad_event", "There is no player {index} to deal.", index=raw[:20], field=field)
        raise ParseError("bad_event", "There is no player {index}: players are 0 to {last}.", index=raw[:20],
                         last=len(self.table.players) - 1)

    def seen(self) -> int | None:
        """The revision this phone's page showed: an entry made on an older view is refused (409)."""
        return number(request.form.get("revision", ""))

    def draft_seen(self) -> tuple | None:
        """The trick under way this phone's page showed (its cards' codes), in the trick mode; None in the others."""
        return tuple(c.code for c in self.entry.pending) if self.entry.mode == "trick" else None

    def set_draft(self, cards) -> tuple:
        """The trick under way becomes ``cards`` (codes), if it is still the one this page showed; returns them."""
        revision = self.seen() if self.seen() is not None else self.revision
        return ledger().set_draft(self.table_id, cards, revision, seen=self.draft_seen() or (), key=self.key)

    def event_id(self) -> str | None:
        """The form's own id (the page writes one per form), checked as the API checks ``client_event_id``."""
        value = request.form.get("event_id") or None
        if value is not None and not Once.valid(value):
            raise ParseError("bad_form", "This form is damaged: load the page again and enter it again.")
        return value

    def retried(self) -> bool:
        """This very form was already stored (a double tap, a resent post): answer with the state, store nothing."""
        event_id = self.event_id()
        return bool(event_id) and ledger().has_event(self.table_id, event_id)

    def store(self, body: dict, keep_draft: bool = False) -> tuple:
        """Stores the entry if the table, trick under way included, is as this phone saw it (a co-scorer may have
        entered first); ``keep_draft``: that trick stays under way beside the entry. (status, state) as
        ``Ledger.append`` answers."""
        return ledger().append(self.table_id, body, client_event_id=self.event_id(), expected_revision=self.seen(),
                               expected_draft=self.draft_seen(), keep_draft=keep_draft, key=self.key,
                               reason=self.reason())

    def reason(self) -> str | None:
        """The director's reason for a correction (R-COMMON-8), carried by every form of the page that asked it."""
        return request.form.get("reason") or None


def scorer_post(rule: str, ahead=None):
    """Registers a scorer's form post: scorer key checked (401/403), engine refusals shown on the page. ``ahead``:
    the post's short way (``tapped_ahead``), tried first: the entry it answers when it stored the post, else None
    and nothing stored (then the post goes the long way below)."""
    def register(view):
        @bp.post(rule, endpoint=view.__name__)
        @wraps(view)
        def handle(table_id):
            key = request_key() or request.form.get("key")
            answered = ahead(table_id, key) if ahead is not None else None
            if answered is not None:
                return done(table_id, key, answered)
            looked = ledger().look(table_id, key, write=True)  # the key checked on the same read
            state, table = looked[:2]
            game = get_game(state["game"])
            deck = game.deck_for(table)
            entry = read_entry(request.form, game, table)
            post = Post(table_id, key, game, table, deck, entry, state["revision"], looked)
            try:
                # A form stored before moved the revision it shows: only a stale (or revision-less) one is looked up.
                stale = post.seen() != state["revision"]
                if stale and post.retried():
                    return done(table_id, key, entry.next_meld())
                if stale and post.seen() is not None:  # another phone entered first
                    raise Conflict("version_conflict", "The table changed meanwhile: look at the new state and "
                                   "enter it again if it is still needed.")
                return done(table_id, key, view(post))
            except Conflict as error:  # stored by another phone between this page's check and its entry
                return render_scorer(table_id, key, entry, refusal(error, deck), status=409)
            except RefereeError as error:
                # The page again, the engine's sentence beside the picker, nothing stored. Answered 200, as a form
                # shown again is: a 4xx would put an error in the browser's console (the API answers 422).
                return render_scorer(table_id, key, post.entry, refusal(error, deck), refused=error.card)
        return handle
    return register


@scorer_post("/t/<table_id>/tap", ahead=tapped_ahead)
def tap(post: Post) -> ScorerInput:
    card, entry = post.card(), post.entry
    if entry.mode in LAYING:  # Buraco: a meld, an extension or a hand left, in the order laid
        return lay(post, card)
    if not post.game.plays_tricks and entry.mode not in ("replace",):
        raise ParseError("bad_event", "{game} has no tricks: a card is tapped into a meld or a hand.",
                         game=post.game.names["en"])
    if entry.mode == "replace":  # the natural card that takes the wild card's place (R-BURACO-7)
        post.store({"type": "replace", "side": entry.side, "meld": entry.meld, "card": card.code})
        return entry.next_meld()
    if entry.mode != "trick":  # a pile or a claim being gathered: tapping again takes the card back
        return entry.with_pending([c for c in entry.pending if c != card] if card in entry.pending
                                  else [*entry.pending, card])
    cards = [c.code for c in [*entry.pending, card]]
    g.tapped = picker(post.game, post.table, entry)  # the deck as this page showed it: the answer swaps what changed
    if len(cards) < len(post.table.players):  # the trick under way, for every phone (checked there, R-COMMON-4)
        state, table, _, mode = post.looked
        g.looked = (state, table, post.set_draft(cards), mode)  # the table as read, with this trick under way
        return ScorerInput()
    status, state = post.store({"type": "trick", "cards": cards})
    g.trick_done = True  # the fragment shows the trick's winner where the finger is
    if status == 201:  # the page drawn from the state this write answered, not read again
        g.looked = ledger().written(state, post.looked[3])
    return ScorerInput()


def lay(post: Post, card) -> ScorerInput:
    """Buraco: a tap takes a card into the meld being laid (or the hand counted), in the order tapped; a tap on a card
    already taken takes it back, all its copies, so that a wrong tap tapped again leaves nothing. One more copy of a
    card taken comes from its own button, + (``copy=another``), while the two decks hold one (R-BURACO-1)."""
    entry, tapped = post.entry, post.entry.tapped
    if card in tapped and request.form.get("copy") != "another":
        return entry.with_tapped([c for c in tapped if c != card], len(post.table.players))
    post.game.verify_another_copy(post.table, taken(entry), card)  # R-BURACO-1
    return entry.with_tapped([*tapped, card], len(post.table.players))


@scorer_post("/t/<table_id>/undo")
def undo(post: Post) -> ScorerInput:
    entry = post.entry
    if entry.mode == "count":  # the count only takes back the cards tapped in it, never a stored entry
        return entry.with_tapped(entry.tapped[:-1], len(post.table.players))
    if entry.pending and entry.mode == "trick":  # one tap takes back the last card of the trick under way
        post.set_draft(post.draft_seen()[:-1])
        return ScorerInput()
    if entry.pending:  # one tap takes back the last card tapped
        return post.entry.with_pending(post.entry.pending[:-1])
    # A whole trick undone reopens without its last card, as the trick under way: for every phone.
    last = post.table.current
    ledger().undo(post.table_id, expected_revision=post.seen(), client_event_id=post.event_id(),
                  expected_draft=post.draft_seen(), reopen=True, key=post.key, reason=post.reason())
    if last is not None and last.complete and last.entry == "tally":  # a deal entered by its numbers, undone, comes
        ledger().set_entry_mode(post.table_id, "numbers")  # back on its numbers, the table's way now (R-COMMON-6)
        return read_entry({"mode": "numbers"}, post.game, post.table)
    return entry.next_meld()  # Buraco: the side stays chosen


@scorer_post("/t/<table_id>/draft")
def draft(post: Post) -> ScorerInput:
    """The trick under way as tapped offline (``static/offline.js``), sent back: kept if still the one that phone
    began from (``pending``), else refused (409): another phone's taps are never merged into it."""
    if post.entry.mode != "trick":
        raise ParseError("bad_form", "This form is damaged: load the page again and enter it again.")
    post.set_draft([code for code in request.form.get("cards", "").split(".") if code])
    return ScorerInput()


@scorer_post("/t/<table_id>/deal")
def deal(post: Post) -> ScorerInput:
    body = {"type": "deal", "trump": request.form.get("card") or None}
    dealer = post.number("dealer", optional=True, reads="dealer")
    if dealer is not None:
        body["dealer"] = dealer
    post.store(body)
    way = request.form.get("way")  # the way of entry the page showed: the deal is entered so on every phone
    if way in post.game.entry_modes:
        ledger().set_entry_mode(post.table_id, way)
    return ScorerInput()


@scorer_post("/t/<table_id>/save")
def save(post: Post) -> ScorerInput:
    """Stores what was gathered in the picker: a pile (R-COMMON-6), a claim or an announce."""
    entry, cards = post.entry, [c.code for c in post.entry.pending]
    if entry.mode not in SHOWING + LAYING:  # a save only ends what the picker gathers: never a trick, a sheet
        raise ParseError("bad_form", "This form is damaged: load the page again and enter it again.")
    if entry.mode in LAYING:  # Buraco (R-BURACO-7): after a meld, the next meld of the same side
        post.store(buraco_body(entry, len(post.table.players)))
        return entry.next_meld()
    if entry.mode == "capture":
        body = {"type": "capture", "side": entry.side, "cards": cards, **capture_extras(post.game.id, entry.sheet)}
        if request.form.get("last_trick") in ("yes", "no"):
            body["last_trick"] = request.form["last_trick"] == "yes"
    else:  # a claim (Brisca), an announce (Brouc), a shown hand (Brûlot): a player shows cards
        body = {"type": entry.mode, "player": entry.player if entry.player is not None else -1, "cards": cards}
    post.store(body)
    if entry.mode == "capture":  # more piles to enter (three or more sides): go on with the next side
        state = ledger().state(post.table_id)
        deal = state["deals"][-1] if state["deals"] else None
        if deal is not None and not deal["complete"] and deal.get("captures"):
            missing = [s for s, pile in enumerate(deal["captures"]) if pile is None]
            if missing:
                return ScorerInput("capture", (), missing[0])
    return ScorerInput()


@bp.get("/t/<table_id>/entry/<mode>")
def choose_entry(table_id, mode):
    """One tap chooses how this table enters its deals (cards, piles, numbers), for every phone that opens it: kept
    on the table's row (``Ledger.set_entry_mode``: never an event), so that a co-scorer, a reload on another phone
    and the director's correction enter the deal the same way (R-COMMON-6). A link, so that it works without
    JavaScript; only a key that writes may choose."""
    key = request_key()
    state, _table = ledger().snapshot(table_id, key, write=True)
    game = get_game(state["game"])
    if mode not in game.entry_modes:
        mode = game.entry_modes[0]
    ledger().set_entry_mode(table_id, mode)
    return redirect(url_for("tables.table", table_id=table_id, key=key, **({} if mode == "trick" else
                                                                          {"mode": mode}), **kept_reason()), code=303)


def sheet_preview(game, table, entry: ScorerInput) -> dict:
    """What the sheet would give: ``preview`` (the state), or ``preview_error`` (the engine's refusal), or
    ``preview_prompt`` (what is still to type: a sheet not finished is no mistake)."""
    if not game.untouched(table) or not any(entry.sheet.values):
        return {"preview": None, "preview_error": None, "preview_prompt": None}
    try:
        body = tally_body(game.id, entry.sheet, game.numbers_whole(table), table)
        after = game.apply(table, game.parse_event(table, body))
    except RefereeError as error:
        said = refusal(error, game.deck_for(table))
        unfinished = error.code.startswith("sheet_")
        return {"preview": None, "preview_error": None if unfinished else said,
                "preview_prompt": said if unfinished else None}
    return {"preview": game.serialise(after), "preview_error": None, "preview_prompt": None}


@scorer_post("/t/<table_id>/declare")
def declare(post: Post) -> ScorerInput:
    post.store({"type": "declare", "player": post.number("player"), "call": request.form.get("call", "")},
               keep_draft=True)
    return post.entry


@scorer_post("/t/<table_id>/exchange")
def exchange(post: Post) -> ScorerInput:
    post.store({"type": "exchange", "player": post.number("player")}, keep_draft=True)
    return post.entry


@scorer_post("/t/<table_id>/pot")
def pot(post: Post) -> ScorerInput:
    # The button names the side taking its pot in "pot": "side" is the entry's, the side chosen for the next meld.
    post.store({"type": "pot", "side": post.number("pot", reads="side")})
    return post.entry


def buraco_body(entry: ScorerInput, n_players: int) -> dict:
    cards = [c.code for c in entry.pending]
    if entry.mode == "meld":
        return {"type": "meld", "side": entry.side, "cards": cards}
    if entry.mode == "extend":
        return {"type": "extend", "side": entry.side, "meld": entry.meld if entry.meld is not None else -1,
                "cards": cards, "at": entry.at}
    hands = [[c.code for c in hand] for hand in entry.hands] + [[]] * (n_players - len(entry.hands))
    return {"type": "count", "closed_by": entry.closed_by, "hands": hands}


def taken(entry: ScorerInput) -> list:
    """Buraco: the cards this entry has tapped and not stored yet (a meld's, the hands counted)."""
    return [*entry.pending, *(c for h in entry.hands for c in h)]


def count_preview(game, table, entry: ScorerInput):
    """The count's breakdown before it is saved, or the engine's refusal (R-BURACO-5, 6)."""
    body = buraco_body(entry, len(table.players))
    try:
        counted = game.apply(table, game.parse_event(table, body))
    except RefereeError as error:
        return None, error
    return game.serialise_deal(counted, counted.deals[-1]), None
