"""Brûlot's and Buraco's numbers screens without JavaScript (Flask's client posting the page's own forms): the sheet's
taps (closer, pots, burraco steppers), the tally each writes, what the last Brûlot field holds (R-BRULOT-1, 5), the
hand saved from the form and scored by the engine (R-BURACO-1b, 5, 6), refusals keeping what was typed, the preview
storing nothing."""
import re

import pytest

from referee.errors import ParseError
from referee.games import get_game
from referee.web.tables.sheet import Sheet, tally_body
from tests.support.sheet import Phone

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]


@pytest.fixture
def csrf_client(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


def dealt(game_id, n, deal=None, **options):
    """An engine table of ``n`` players with its first deal open (no card of it entered)."""
    game = get_game(game_id)
    table = game.new_table(NAMES[:n], options)
    return game, game.apply(table, game.parse_event(table, deal or {"type": "deal", "trump": None}))


def preview_numbers(page) -> list:
    preview = re.search(r'id="sheet-preview".*?</div>', page, re.S).group(0)
    return re.findall(r'<td class="num[^"]*">(-?\d+)', preview)


# --- the sheet alone ---------------------------------------------------------------------------------------------

def test_steppers_add_and_remove_one_row_and_a_flip_leaves_the_others_of_its_kind():
    sheet = Sheet(("", "", "", "")).act("more:u:0:pure").act("more:u:0:pure").act("more:u:1:dirty")
    assert sheet.items == ("u:0:pure", "u:0:pure", "u:1:dirty")
    assert sheet.act("less:u:0:pure").items == ("u:0:pure", "u:1:dirty")
    assert sheet.act("less:u:1:semi") == sheet  # none of that class: nothing to remove
    flipped = Sheet().act("flip:n:0").act("flip:n:1")
    assert flipped.items == ("n:0", "n:1") and flipped.act("flip:n:0").items == ("n:1",)
    assert Sheet().act("more:<script>").items == () and Sheet().act("flip:x").items == ()


def test_r_brulot_5_the_player_left_blank_took_what_remains_of_the_deal():
    assert tally_body("brulot", Sheet(("13", "15", "10", "")), 40) == {"type": "tally", "penalties": [13, 15, 10, 2]}
    assert tally_body("brulot", Sheet(("0", "17", "11")), 38) == {"type": "tally", "penalties": [0, 17, 11]}
    with pytest.raises(ParseError) as error:
        tally_body("brulot", Sheet(("13", "", "10", "")), 40)
    assert error.value.message == "Type the penalties of every player but one."
    with pytest.raises(ParseError) as error:  # 5 players, one widow card unknown: nothing is worked out
        tally_body("brulot", Sheet(("0", "3", "6", "5", "")), None)
    assert error.value.message == ("Type the penalties of every player: with the widow known only in part, none is "
                                   "worked out.")
    assert tally_body("brulot", Sheet(("0", "3", "6", "5", "18")), None)["penalties"] == [0, 3, 6, 5, 18]


def test_r_brulot_1_5_the_whole_is_known_when_the_whole_widow_is():
    game, four = dealt("brulot", 4, {"type": "deal", "trump": "3H"})  # no widow: all 40 penalty points in play
    assert game.numbers_whole(four) == 40
    assert game.numbers_bounds(four) == {"most": 40, "total": 40, "step": 1, "rule": "R-BRULOT-5", "low": 40, "high": 40}
    game, three = dealt("brulot", 3, {"type": "deal", "trump": "QH"})  # the widow is the turned queen: 2 out
    assert game.numbers_whole(three) == 38
    game, options = dealt("brulot", 3, {"type": "deal", "trump": "AS"}, penalties=[10, 5, 3, 2])
    assert game.numbers_whole(options) == 4 * 20 - 10
    game, five = dealt("brulot", 5, {"type": "deal", "trump": "AS"})  # one widow card unknown: a range
    assert game.numbers_whole(five) is None
    assert game.numbers_bounds(five) == {"most": 36, "total": 36, "step": 1, "rule": "R-BRULOT-5", "low": 32,
                                        "high": 36}  # the other card: an ace at most
    game, six = dealt("brulot", 6, {"type": "deal", "trump": "2S"})  # three unknown: up to three aces
    assert game.numbers_whole(six) is None
    assert {k: game.numbers_bounds(six)[k] for k in ("most", "total", "low", "high")} == {"most": 40, "total": 40,
                                                                                        "low": 28, "high": 40}


@pytest.mark.parametrize("game_id, n, deal, bounds", [
    ("brisca", 2, {"type": "deal", "trump": "1O"}, {"most": 120, "total": 120, "step": 1, "rule": "R-BRISCA-1"}),
    ("brisca", 6, {"type": "deal", "trump": "1O"}, {"most": 120, "total": 120, "step": 1, "rule": "R-BRISCA-1"}),
    ("brouc", 4, {"type": "deal", "trump": "KH"}, {"most": 120, "total": 120, "step": 1, "rule": "R-BROUC-2"}),
    ("brusquembille", 3, {"type": "deal", "trump": "9S"}, {"most": 120, "total": 120, "step": 1,
                                                            "rule": "R-BRUSQ-3"}),
    ("buraco", 4, {"type": "deal"}, {"most": 1080, "total": 1080, "step": 5, "rule": "R-BURACO-4"}),
    ("buraco", 3, {"type": "deal"}, {"most": 1080, "total": 1080, "step": 5, "rule": "R-BURACO-4"}),
], ids=["brisca-2", "brisca-6", "brouc", "brusquembille-3", "buraco-4", "buraco-3"])
def test_r_brisca_1_r_brouc_2_r_brusq_3_r_buraco_4_every_field_has_the_bound_of_the_engines_card_values(
        game_id, n, deal, bounds):
    game, table = dealt(game_id, n, deal)
    assert game.numbers_bounds(table) == bounds


def test_r_buraco_6_the_tally_a_four_player_sheet_writes():
    game, table = dealt("buraco", 4)
    sheet = Sheet(("250", "", "120", "45"), ("k:0", "u:0:pure", "u:1:dirty", "u:1:dirty"))
    assert tally_body("buraco", sheet, None, table) == {"type": "tally", "closed_by": 0, "sides": [
        {"melds": 250, "burracos": {"pure": 1, "semi": 0, "dirty": 0}, "pot": True, "hand": 0},
        {"melds": 120, "burracos": {"pure": 0, "semi": 0, "dirty": 2}, "pot": True, "hand": 45}]}
    untaken = tally_body("buraco", Sheet(("", "70", "95", "0"), ("k:3", "n:0")), None, table)
    assert [s["pot"] for s in untaken["sides"]] == [False, True] and untaken["sides"][0]["melds"] == 0
    assert untaken["closed_by"] == 3 and untaken["sides"][1]["hand"] == 0  # typed 0 is 0
    with pytest.raises(ParseError) as error:  # nobody closed: every side's hand is typed
        tally_body("buraco", Sheet(("250", "", "120", "45")), None, table)
    assert error.value.message == "Type the card points left in the hand of Ana & Cy."


def test_r_buraco_1b_three_players_the_teams_follow_the_pots():
    game, table = dealt("buraco", 3)
    values = ("100", "", "60", "20", "40", "15")
    alone = tally_body("buraco", Sheet(("100", "5") + values[2:], ("e:1",)), None, table)  # no 18: no 11 either
    assert alone["teams"] == [[0], [1], [2]] and [s["pot"] for s in alone["sides"]] == [False, False, False]
    body = tally_body("buraco", Sheet(values, ("k:0", "p:0", "e:2", "u:0:pure")), None, table)
    assert body["teams"] == [[0], [1, 2]] and [s["pot"] for s in body["sides"]] == [True, False, True]
    assert body["sides"][0]["hand"] == 0 and body["closed_by"] == 0


# --- the numbers screens through the pages -------------------------------------------------------------------------

def test_r_brulot_5_a_four_player_deal_by_numbers_from_the_page(csrf_client):
    phone = Phone(csrf_client, "brulot", NAMES[:4])
    phone.numbers()
    phone.deal("3H")  # Ana shows her last card, the 3 of hearts: trump hearts
    assert [f for f in phone.form() if f.startswith("v")] == ["v", "v0", "v1", "v2", "v3"]
    assert 'data-whole="40"' in phone.page and 'data-max="40"' in phone.page
    assert "the last is worked out (40 in this deal)" in phone.page
    phone.post("sheet", {**phone.form(), "v0": "13", "v1": "15", "v2": "10", "act": "save"})
    state = phone.state()
    assert state["deals"][0]["penalties"] == [13, 15, 10, 2] and state["deals"][0]["entry"] == "tally"
    assert state["totals"] == [13, 15, 10, 2]


def test_r_brulot_5_a_refused_deal_says_why_and_keeps_what_was_typed(csrf_client):
    phone = Phone(csrf_client, "brulot", NAMES[:4])
    phone.numbers()
    phone.deal("3H")
    before = phone.state()
    phone.post("sheet", {**phone.form(), "v0": "39", "v1": "5", "v2": "", "act": "save"})
    assert "Type the penalties of every player but one." in phone.page
    phone.post("sheet", {**phone.form(), "v0": "39", "v1": "5", "v2": "0", "act": "save"})  # Di's is -4
    assert "Di cannot have -4 penalty points: a player takes 0 to 40 in this deal." in phone.page
    assert 'name="v0" value="39"' in phone.page and phone.state() == before


def test_r_brulot_5_five_players_every_penalty_is_typed_within_the_range(csrf_client):
    phone = Phone(csrf_client, "brulot", NAMES[:5])
    phone.numbers()
    phone.deal("AS")
    assert "data-whole" not in phone.page
    assert "with the widow known only in part, they add up to 32 to 36." in phone.page
    phone.post("sheet", {**phone.form(), "v0": "0", "v1": "3", "v2": "6", "v3": "5", "v4": "18", "act": "save"})
    assert phone.state()["deals"][0]["penalties"] == [0, 3, 6, 5, 18]


def test_r_buraco_6_a_four_player_hand_by_numbers_from_the_page(csrf_client):
    phone = Phone(csrf_client, "buraco", NAMES[:4])
    phone.numbers()
    phone.post("deal", phone.form_posting_to("deal"))  # "Start hand 1" lands on the numbers screen
    assert 'id="sheet"' in phone.page and 'name="v3"' in phone.page and "Save hand 1" in phone.page
    phone.act("toggle:k:0", v0="250")
    assert 'value="toggle:k:0" class="button chip current"' in phone.page and 'name="v0" value="250"' in phone.page
    phone.act("more:u:0:pure", v1="15")
    phone.act("more:u:1:semi")
    phone.act("less:u:1:semi")
    assert phone.form()["x"] == "k:0~u:0:pure"
    phone.act("flip:n:1", v2="120", v3="45")  # Bo & Di never took their pot
    assert preview_numbers(phone.page) == ["250", "120", "200", "0", "-15", "-45", "100", "0", "0", "-100",
                                           "535", "-25", "535", "-25"]
    assert phone.state()["version"] == 1  # taps and the preview store nothing
    phone.act("save")
    hand = phone.state()["deals"][0]
    assert hand["entry"] == "tally" and hand["closed_by"] == 0 and hand["points"] == [535, -25]
    assert hand["breakdown"][0] == {"melds": 250, "burracos": 200, "hand": -15, "closing": 100, "pot": 0}
    assert phone.state()["totals"] == [535, -25]


def test_r_buraco_5_a_refused_hand_says_the_engines_sentence_and_keeps_the_sheet(csrf_client):
    phone = Phone(csrf_client, "buraco", NAMES[:4])
    phone.numbers()
    phone.post("deal", phone.form_posting_to("deal"))
    phone.act("toggle:k:0", v0="250", v2="120", v3="45")  # Ana closes without a burraco
    before = phone.state()
    phone.act("save")
    assert "Ana cannot close: missing a burraco." in phone.page
    assert 'name="v0" value="250"' in phone.page and phone.form()["x"] == "k:0" and phone.state() == before


def test_r_buraco_1b_three_players_one_alone_against_a_team_from_the_page(csrf_client):
    phone = Phone(csrf_client, "buraco", NAMES[:3])
    phone.numbers()
    phone.post("deal", phone.form_posting_to("deal"))
    assert 'value="toggle:e:' not in phone.page  # the team's 11 is offered once someone took the 18
    phone.act("toggle:p:0")
    assert 'value="toggle:e:1"' in phone.page and 'value="toggle:e:0"' not in phone.page
    phone.act("toggle:e:2")
    phone.act("toggle:k:0")
    assert re.search(r'name="v1" value=""[^>]*placeholder="0" data-skip', phone.page)  # the closer's hand: 0
    phone.act("more:u:0:pure", v0="100", v2="60", v3="20", v4="40", v5="15")
    assert preview_numbers(phone.page) == ["100", "100", "200", "0", "0", "-35", "100", "0", "0", "0", "400", "65",
                                           "400", "400", "33", "33", "33", "33"]  # per team, then a row per player
    phone.act("save")
    hand = phone.state()["deals"][0]
    # Ana alone: 100 + 200 + 100 = 400. Bo & Cy: melds 100, hands -35, their 11 taken: 65, shared rounded up: 33
    assert hand["teams"][0]["players"] == [0] and hand["teams"][0]["points"] == 400
    assert hand["teams"][1]["breakdown"] == {"melds": 100, "burracos": 0, "hand": -35, "closing": 0, "pot": 0}
    assert hand["points"] == [400, 33, 33]


def test_the_buraco_preview_stores_nothing_and_answers_the_engines_sentence(csrf_client):
    phone = Phone(csrf_client, "buraco", NAMES[:4])
    phone.numbers()
    phone.post("deal", phone.form_posting_to("deal"))
    fields = {**phone.form(), "v0": "252", "v1": "0", "v2": "120", "v3": "45"}
    response = csrf_client.post(f"/t/{phone.id}/sheet/preview?key={phone.key}", data=fields)
    assert "Ana &amp; Cy cannot have laid 252 card points: every card is worth a multiple of 5." in response.text
    fields["v0"] = "250"
    response = csrf_client.post(f"/t/{phone.id}/sheet/preview?key={phone.key}", data=fields)
    assert preview_numbers(response.text) == ["250", "120", "0", "0", "0", "-45", "0", "0", "0", "0",
                                              "250", "75", "250", "75"]
    assert phone.state()["version"] == 1
