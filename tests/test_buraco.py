"""Buraco (R-BURACO-1 … 7): melds, burracos, values, pots, closing, the count and the series, with exact values."""
import pytest

from referee.cards import BURACO_108
from referee.errors import RuleError
from referee.games.buraco.melds import read_meld
from tests.support.deals import CLEAN_RUN
from tests.support.engine import Driver

DRIVER = Driver("buraco")
GAME, play, refused, out = DRIVER.game, DRIVER.play, DRIVER.refused, DRIVER.out
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def meld(*codes):
    return read_meld([BURACO_108.parse(c) for c in codes])


def refused_meld(*codes):
    with pytest.raises(RuleError) as error:
        meld(*codes)
    return error.value.code


@pytest.mark.parametrize("codes, kind", [
    (["AH", "2H", "3H"], "run"), (["QH", "KH", "AH"], "run"), (["3S", "4S", "5S", "6S"], "run"),
    (["9D", "8D", "7D"], "run"), (["KH", "KS", "KD"], "set"), (["KH", "KH", "KS"], "set"),
    (["7H", "7S", "JK"], "set"), (["5H", "JK", "7H"], "run"), (["2H", "3H", "4H"], "run"),
])
def test_r_buraco_2_valid_melds(codes, kind):
    assert meld(*codes).kind == kind


@pytest.mark.parametrize("codes, code", [
    (["5H", "JK", "7H", "2S"], "two_wild_cards"),  # a joker and a pinella
    (["JK", "JK", "KH"], "two_wild_cards"),
    (["KH", "AH", "2H"], "not_a_sequence"),  # no wrapping past K-A-2
    (["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"], "run_two_aces"),
    (["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "JK", "JK"], "run_too_long"),
    (["KH", "KH", "KS", "KS", "KD", "KD", "KC", "KC", "JK", "JK"], "two_wild_cards"),
    (["2H", "2S", "2D"], "meld_all_wild"), (["JK", "JK", "JK"], "meld_all_wild"),
    (["5H", "6S", "7H"], "run_mixed_suits"), (["KH", "QH"], "meld_too_short"),
])
def test_r_buraco_2_refused_melds(codes, code):
    assert refused_meld(*codes) == code


def test_r_buraco_2_a_set_of_ten_is_refused():
    with pytest.raises(RuleError) as error:
        read_meld([BURACO_108.parse(c) for c in ["QH", "QH", "QS", "QS", "QD", "QD", "QC", "QC", "JK"]] +
                  [BURACO_108.parse("QH")])
    assert error.value.code == "set_too_long"


def test_r_buraco_2_a_two_is_natural_in_its_place_and_wild_elsewhere():
    natural = meld("AH", "2H", "3H")
    assert natural.wild is None and natural.value() == 5 + 5 + 5
    pinella = meld("AH", "2S", "3H")
    assert pinella.wild == 1 and pinella.represents.code == "2H" and pinella.value() == 5 + 20 + 5
    assert meld("4H", "2H", "6H").represents.code == "5H"


def test_r_buraco_2_the_wild_cards_represented_card():
    assert meld("5H", "JK", "7H").represents.code == "6H"
    assert meld("JK", "QD", "KD").represents.code == "JD"
    assert meld("QD", "KD", "JK").represents.code == "AD"
    assert meld("KH", "KS", "JK").represents.rank == "K"


def test_r_buraco_3_burraco_classes():
    assert meld(*CLEAN_RUN).burraco == "pure"
    assert meld("JK", "KC", "QC", "JC", "10C", "9C", "8C", "7C").burraco == "semi_pure"  # wild at an end, 8 cards
    assert meld("KH", "KH", "KS", "KS", "KD", "KD", "KC", "KC", "JK").burraco == "semi_pure"  # a set of 8 + wild
    assert meld("KC", "QC", "JK", "10C", "9C", "8C", "7C", "6C").burraco == "dirty"  # wild inside
    assert meld("KC", "QC", "JC", "10C", "9C", "8C", "JK").burraco == "dirty"  # 7 cards with a wild
    assert meld("KC", "QC", "JC", "10C", "9C", "8C").burraco is None


def test_r_buraco_4_values_and_the_low_ace_option():
    assert meld("AH", "2H", "3H").value(low_ace_counts_5=True) == 15
    assert meld("AH", "2H", "3H").value(low_ace_counts_5=False) == 25
    assert meld("QH", "KH", "AH").value() == 35


def table(n=4, **options):
    return GAME.new_table(NAMES[:n], options)


def count(closed_by, hands, melds=None):
    body = {"type": "count", "closed_by": closed_by, "hands": hands}
    if melds is not None:
        body["melds"] = melds
    return body


def test_r_buraco_6_a_clean_run_is_265_in_the_sides_melds():
    state = play(table(), {"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": CLEAN_RUN},
                 {"type": "pot", "side": 0}, {"type": "pot", "side": 1}, count(None, [[], [], [], []]))
    hand = GAME.serialise(state)["deals"][0]
    assert hand["breakdown"][0] == {"melds": 65, "burracos": 200, "hand": 0, "closing": 0, "pot": 0}
    assert hand["points"] == [265, 0]


def test_r_buraco_1_a_third_copy_is_refused():
    state = play(table(), {"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": ["KH", "KH", "KS"]})
    error = refused(state, {"type": "meld", "side": 1, "cards": ["KH", "KD", "KC"]})
    assert (error.code, error.card) == ("third_copy", "KH")


def test_r_buraco_5_closing_refusals_name_what_is_missing():
    state = play(table(), {"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": ["5H", "6H", "7H"]})
    error = refused(state, count(0, [[], ["3S"], [], []]))
    assert error.code == "cannot_close" and error.message == "Ana cannot close: missing the pot, a burraco."
    state = play(state, {"type": "pot", "side": 0})
    assert refused(state, count(0, [[], [], [], []])).message == "Ana cannot close: missing a burraco."
    state = play(state, {"type": "extend", "side": 0, "meld": 0, "cards": ["8H", "9H", "10H", "JH"], "at": "end"})
    assert refused(state, count(2, [[], [], ["4D"], []])).message == "Cy cannot close: missing no card left."
    assert GAME.serialise(play(state, count(2, [[], [], [], []])))["deals"][0]["closed_by"] == 2


def test_r_buraco_7_replace_moves_the_wild_to_the_end():
    state = play(table(), {"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": ["5H", "JK", "7H"]})
    error = refused(state, {"type": "replace", "side": 0, "meld": 0, "card": "8H"})
    assert error.code == "wrong_replacement"
    state = play(state, {"type": "replace", "side": 0, "meld": 0, "card": "6H"})
    result = GAME.serialise(state)["deals"][0]["melds"]["0"][0]
    assert result["cards"] == ["5H", "6H", "7H", "JK"] and result["represents"] == "8H"


# A whole hand for 4 players in teams, worked by hand. Ana & Cy closed (Cy, no card left); Bo & Di never took the pot.
def test_r_buraco_6_a_full_hand_for_4_players():
    state = play(table(), {"type": "deal", "trump": None},
                 {"type": "meld", "side": 0, "cards": CLEAN_RUN},  # 65, pure 200
                 {"type": "meld", "side": 0, "cards": ["QH", "QS", "JK"]},  # 10 + 10 + 30 = 50
                 {"type": "pot", "side": 0},
                 {"type": "meld", "side": 1, "cards": ["3D", "4D", "5D", "6D"]},  # 20
                 {"type": "meld", "side": 1, "cards": ["AS", "AH", "2C"]},  # 15 + 15 + 20 = 50
                 {"type": "extend", "side": 0, "meld": 1, "cards": ["QD"], "at": "end"},  # + 10
                 count(2, [["4S"], ["KD", "JK"], [], ["2H", "9S"]]))
    hand = GAME.serialise(state)["deals"][0]
    # Ana & Cy: melds 65 + 60 = 125, burraco 200, hand -5 (Ana's 4S), closing 100, pot 0 = 420
    # Bo & Di: melds 20 + 50 = 70, hand -(10 + 30 + 20 + 10) = -70, pot -100 = -100
    assert hand["breakdown"] == [{"melds": 125, "burracos": 200, "hand": -5, "closing": 100, "pot": 0},
                                 {"melds": 70, "burracos": 0, "hand": -70, "closing": 0, "pot": -100}]
    assert hand["points"] == [420, -100] and GAME.serialise(state)["totals"] == [420, -100]
    assert GAME.serialise(state)["next"] == {"action": "deal", "player": 1}


def test_r_buraco_5_a_hand_ending_with_an_empty_stock_has_no_closer():
    state = play(table(2), {"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": CLEAN_RUN},
                 {"type": "pot", "side": 0}, count(None, [["5S"], ["KS", "KD"]]))
    hand = GAME.serialise(state)["deals"][0]
    assert hand["closed_by"] is None and hand["points"] == [265 - 5, -20 - 100]


def test_r_buraco_1b_three_players_the_team_forms_mid_hand():
    state = play(table(3), {"type": "deal", "trump": None},
                 {"type": "meld", "side": 1, "cards": ["3D", "4D", "5D"]},  # Bo, alone for now: 15
                 {"type": "meld", "side": 2, "cards": ["9S", "9H", "9D"]},  # Cy: 30
                 {"type": "pot", "side": 0},  # Ana takes the 18-card pot: Bo and Cy become one team
                 {"type": "meld", "side": 0, "cards": CLEAN_RUN},  # Ana: 65 + 200
                 {"type": "extend", "side": 2, "meld": 0, "cards": ["6D"], "at": "end"},  # Cy extends Bo's run
                 {"type": "pot", "side": 1},  # Bo takes the 11-card pot for the team
                 count(0, [[], ["KS"], ["7H", "8H"]]))
    hand = GAME.serialise(state)["deals"][0]
    assert hand["teams"][0]["players"] == [0] and hand["teams"][1]["players"] == [1, 2]
    assert hand["teams"][0]["breakdown"] == {"melds": 65, "burracos": 200, "hand": 0, "closing": 100, "pot": 0}
    # the team: melds 20 + 30 = 50, hand -(10 + 5 + 10) = -25: 25, shared by two, rounded up: 13 each
    assert hand["teams"][1]["points"] == 25 and hand["points"] == [365, 13, 13]
    assert refused(play(table(3), {"type": "deal", "trump": None}, {"type": "pot", "side": 0}),
                   {"type": "pot", "side": 0}).code == "pot_twice"


def test_r_buraco_1b_three_players_nobody_reaches_a_pot():
    state = play(table(3), {"type": "deal", "trump": None}, {"type": "meld", "side": 1, "cards": ["3D", "4D", "5D"]},
                 count(None, [["AS"], [], ["JK"]]))
    hand = GAME.serialise(state)["deals"][0]
    assert [t["players"] for t in hand["teams"]] == [[0], [1], [2]]
    assert hand["points"] == [-15 - 100, 15 - 100, -30 - 100]


def test_r_buraco_7_melds_entered_all_at_once_at_the_count():
    state = play(table(2), {"type": "deal", "trump": None}, {"type": "pot", "side": 0},
                 count(0, [[], ["4S"]], melds=[[CLEAN_RUN, ["5H", "5S", "5D"]], []]))
    assert GAME.serialise(state)["deals"][0]["points"] == [65 + 200 + 15 + 100, -5 - 100]
    error = refused(play(table(2), {"type": "deal", "trump": None}), count(None, [[], []], melds=[[["5H", "6S"]]]))
    assert error.code == "meld_too_short"


def test_r_buraco_6_series_to_2005_and_both_sides_crossing():
    state = table(2)  # target 2005 by default
    pure = {"type": "meld", "side": 0, "cards": CLEAN_RUN}
    for number in range(1, 7):  # 265 + 100 closing each hand, the other side -100 (no pot)
        state = play(state, {"type": "deal", "trump": None}, pure, {"type": "pot", "side": 0}, count(0, [[], []]))
        assert GAME.serialise(state)["series"]["finished"] is (number == 6)
    result = GAME.serialise(state)
    assert result["totals"] == [2190, -600] and result["series"]["winner"] == 0
    both = table(2, target=300)
    both = play(both, {"type": "deal", "trump": None}, pure, {"type": "meld", "side": 1, "cards": [
        "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H"]}, {"type": "pot", "side": 0}, {"type": "pot", "side": 1},
        count(1, [["5S"], []]))
    result = GAME.serialise(both)
    # Ana: 265 - 5 = 260, below 300; Bo: 70 + 200 + 100 = 370 crosses alone and wins.
    assert result["totals"] == [260, 370] and result["series"]["winner"] == 1
    # Both cross in one hand: Ana 365, Bo 265: the higher total wins.
    two = play(table(2, target=250), {"type": "deal", "trump": None}, pure, {"type": "meld", "side": 1, "cards": [
        "KH", "QH", "JH", "10H", "9H", "8H", "7H"]}, {"type": "pot", "side": 0}, {"type": "pot", "side": 1},
        count(0, [[], []]))
    result = GAME.serialise(two)
    assert result["totals"] == [365, 265] and result["series"]["finished"] is True and result["series"]["winner"] == 0
