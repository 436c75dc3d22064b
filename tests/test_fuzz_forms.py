"""Every scorer form of every game, posted with what a hand-made post can hold (hypothesis): any mode on any game,
cards of another deck, numbers out of range, text where a number goes, NULs and long ids; and the set-up form of
every game. No answer is a 5xx; a refused form is a page with a sentence, never an error trace. On SQLite and on
PostgreSQL (TEST_DATABASE_URL), where a NUL or a long id reaching a query fails differently."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import GAMES, get_game
from referee.web.tables.views import MODES
from tests.support.fuzzing import seat_tables

pytestmark = pytest.mark.slow  # fuzzing: every form of every game, tens of seconds

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))  # per database; FUZZ_EXAMPLES=5000 explores further
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

SCORER_POSTS = ("tap", "save", "undo", "deal", "sheet", "sheet/preview", "declare", "exchange", "pot")
ALL_CARDS = sorted({c.code for game in GAMES.values() for n in game.player_counts()
                    for c in game.deck_for(game.new_table([f"P{i}" for i in range(n)])).cards})
ODD_TEXT = ["", " ", "-1", "1.5", "1e3", "0x1", "٣", "99", "999999999", "9999999999", "x" * 200, "x\x00",
            "\x00", "é", "<b>", "None", "null", "true", "..", "~", "~~", ":", "a:0", "b:AH:0:won"]
NUMBERS = st.one_of(st.sampled_from(["0", "1", "2", "3", "4", "5"]), st.sampled_from(ODD_TEXT),
                    st.integers(-3, 10**10).map(str))
TEXT = st.text(max_size=40)
SHEET_ACTS = ["save", "pick:a:0", "pick:m:1", "pick:b:AH", "add:a:H:KQ", "add:m:S:KQJ", "cycle:AH", "cycle:10S",
              "who:AH:1", "who:AH:9", "toggle:c:0", "toggle:d:0:cape_dehors", "toggle:l:1", "flip:n:0",
              "flip:n:7", "more:u:0:pure", "more:u:9:dirty", "less:u:0:pure", "del:0", "del:99", "toggle:k:0",
              "flip:p:0", "flip:e:1", "more:x:0"]
ROWS = ["a:0:KH.QH", "m:1:KC.QC.JC", "b:AH:0:won", "b:10S::trumped", "c:0", "d:1:cape_dehors", "l:1", "k:0",
        "u:0:pure", "u:1:semi", "n:0", "p:1", "e:0", "a:9:KH.QH", "b:AH:0:lost", "zz"]


def cards(table_cards):
    """Mostly a card of the table's deck (so that a form gets past its cards to its rules), else another deck's,
    lower case, or any text."""
    own = st.sampled_from(table_cards)
    return st.one_of(own, own, own, st.sampled_from(ALL_CARDS), st.sampled_from(ALL_CARDS).map(str.lower), TEXT)


def card_lists(table_cards, joiner="."):
    """Cards of the table's deck, now and then one that is not."""
    own = st.lists(st.sampled_from(table_cards), max_size=7)
    return st.one_of(own, own, own, st.lists(cards(table_cards), max_size=4)).map(joiner.join)


def form_fields(seat):
    """Every field a scorer's form or address carries, each with plausible and hostile values."""
    card = cards(seat.cards)
    return {
        "card": card, "pending": card_lists(seat.cards),
        "hands": st.lists(card_lists(seat.cards), max_size=6).map("~".join),
        "mode": st.one_of(st.sampled_from(MODES), st.sampled_from(["", "bogus", "TRICK"]), TEXT),
        "side": NUMBERS, "player": NUMBERS, "meld": NUMBERS, "closed_by": NUMBERS, "dealer": NUMBERS, "pot": NUMBERS,
        "copy": st.sampled_from(["another", "", "other"]),
        "revision": NUMBERS, "at": st.sampled_from(["start", "end", "middle", ""]),
        "act": st.one_of(st.sampled_from(SHEET_ACTS), TEXT), "pick": st.one_of(st.sampled_from(ROWS), TEXT),
        "x": st.lists(st.sampled_from(ROWS), max_size=30).map("~".join), "v": st.lists(NUMBERS, max_size=8)
        .map(".".join), **{f"v{i}": NUMBERS for i in range(7)},
        "call": st.sampled_from(["cape_dehors", "cape_dehors_pas_dedouble", "", "bogus"]),
        "last_trick": st.sampled_from(["yes", "no", "maybe"]),
        "event_id": st.one_of(st.uuids().map(lambda u: u.hex), st.sampled_from(["x" * 129, "x\x00", "é" * 64])),
    }


@st.composite
def scorer_forms(draw, seats):
    seat = draw(st.sampled_from(seats))
    fields = form_fields(seat)
    required = {name: fields.pop(name) for name in ("mode", "card", "pending")}
    form = draw(st.fixed_dictionaries(required, optional=fields))
    form["key"] = draw(st.sampled_from([seat.scorer_key] * 8 + [seat.viewer_key, "", "nope"]))
    return seat, draw(st.sampled_from(SCORER_POSTS)), form


def answered(client, response) -> None:
    """No 5xx, and a redirect's page answers too (the address carries the entry the post made)."""
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code in (302, 303):
        page = client.get(response.headers["Location"])
        assert page.status_code < 500, (response.headers["Location"], page.get_data(as_text=True)[:300])


def test_no_scorer_form_answers_5xx(fuzz_app):
    client = fuzz_app.test_client()
    seats = seat_tables(client)

    @FUZZ
    @given(scorer_forms(seats), st.booleans())
    def post(drawn, htmx):
        seat, endpoint, form = drawn
        headers = {"HX-Request": "true"} if htmx else {}
        answered(client, client.post(f"/t/{seat.id}/{endpoint}", data=form, headers=headers))
        # The same fields in the page's address: the entry in progress is read from there too.
        answered(client, client.get(f"/t/{seat.id}", query_string=form, headers=headers))

    post()


def test_every_mode_of_every_form_on_every_game_answers(fuzz_app):
    """The sweep the fuzzer samples: each form that reads a mode, in each mode, on each game with a deal under way
    or over, with a card of the table's deck and one of another (the 500s of issue 14: Buraco's modes on the other
    games, a Buraco card tapped outside a meld)."""
    client = fuzz_app.test_client()
    seats = [seat for seat in seat_tables(client) if seat.stage in ("dealt", "under_way", "deal_over")
             and seat.players == get_game(seat.game).player_counts()[0]]
    for seat in seats:
        for mode in MODES:
            for endpoint in ("tap", "save", "undo", "sheet", "sheet/preview"):
                for card in {seat.cards[-1], "4D" if seat.game != "buraco" else "1O"}:
                    form = {"key": seat.scorer_key, "mode": mode, "card": card, "pending": seat.cards[0],
                            "meld": "0", "hands": seat.cards[1], "player": "1", "side": "1", "act": "save"}
                    answered(client, client.post(f"/t/{seat.id}/{endpoint}", data=form))
            answered(client, client.get(f"/t/{seat.id}", query_string={"key": seat.scorer_key, "mode": mode,
                                                                     "pending": seat.cards[0], "meld": "0"}))
            answered(client, client.get(f"/t/{seat.id}/entry/{mode}", query_string={"key": seat.scorer_key}))


@st.composite
def setup_forms(draw):
    game = get_game(draw(st.sampled_from(sorted(GAMES))))
    form = {"op": draw(st.one_of(st.sampled_from(["create", "add", "remove:0", "remove:9", "up:1", "down:0",
                                                   "count:3", "count:0", "count:99", "up:", "bogus"]), TEXT)),
            "player": draw(st.lists(st.one_of(st.sampled_from(["Ana", "Bo", "", " ", "x" * 60, "\x00"]), TEXT),
                                    max_size=14)),
            "dealer": draw(NUMBERS)}
    for option in game.options:
        if draw(st.booleans()):
            values = [str(option.default), "", "x", "-1", "1,5", "1e400", "nan", "inf", "[1, 2]", "AH 7H",
                      "9" * 30, *(str(c) for c in (option.choices or ()))]
            form["opt_" + option.name] = draw(st.lists(st.one_of(st.sampled_from(values), TEXT), min_size=1,
                                                       max_size=3))
    return game.id, form


def test_no_setup_form_answers_5xx(fuzz_app):
    client = fuzz_app.test_client()

    @FUZZ
    @given(setup_forms(), st.booleans())
    def post(drawn, htmx):
        game_id, form = drawn
        response = client.post(f"/new/{game_id}", data=form, headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code < 500, response.get_data(as_text=True)[:300]
        if response.status_code == 303:  # created: the new table's scorer page opens
            assert client.get(response.headers["Location"]).status_code == 200

    post()
