"""Brûlot engine (R-BRULOT-1 … 6): widow, trump, brûlé, penalties, partnership, series. Whole deals are played to
the rules by tests/support/simulate.py, whose own count (written apart from the engine) gives the expected penalties."""
import pytest

from referee.errors import ParseError
from tests.support.deals import ANA, BO
from tests.support.engine import Driver
from tests.support.simulate import PENALTY, brulot_deal

DRIVER = Driver("brulot")
GAME, play, refused, out = DRIVER.game, DRIVER.play, DRIVER.refused, DRIVER.out
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]


def table(n, dealer=0, **options):
    return GAME.new_table(NAMES[:n], options, dealer)


def widow_penalty(widow):
    return sum(PENALTY.get(code[:-1], 0) for code in widow)


@pytest.mark.parametrize("n, tricks, widow", [(3, 17, 1), (5, 10, 2), (6, 8, 4)])
def test_r_brulot_1_widow_and_tricks_by_player_count(n, tricks, widow):
    events, penalties, cards = brulot_deal(n, 0, 7 + n)
    result = out(play(table(n), *events))["deals"][0]
    assert len(result["tricks"]) == tricks and len(result["widow"]) == widow and result["widow"][0] == cards[0]
    assert sorted(result["widow"]) == sorted(cards)  # the unplayed cards, once the deal is over
    assert result["points"] == penalties and result["flags"] == []  # played to the rules: no flag
    assert result["check"]["taken"] + result["check"]["widow"] == 40 == result["check"]["deck"]
    assert result["check"]["widow"] == widow_penalty(cards)
    assert result["trump_suit"] == cards[0][-1]


def test_r_brulot_2_four_players_dealer_shows_his_last_card():
    events, penalties, widow = brulot_deal(4, 0, 11, "dealer_last_card")
    state = play(table(4), events[0])
    shown = events[0]["trump"]
    assert out(state)["deals"][0]["known"] == {shown: 0} and widow == []
    error = refused(state, {"type": "trick", "cards": [shown, "2S", "3S", "4S"]})  # Bo leads: not his card
    assert (error.code, error.card, error.player) == ("card_in_other_hand", shown, 1)
    result = out(play(state, *events[1:]))["deals"][0]
    assert len(result["tricks"]) == 13 and result["points"] == penalties and sum(penalties) == 40
    assert result["flags"] == []


def test_r_brulot_2_four_players_without_trump():
    events, penalties, _ = brulot_deal(4, 0, 12, "none")
    state = play(table(4, no_trump=True), *events)
    assert out(state)["deals"][0]["trump_suit"] is None and out(state)["deals"][0]["points"] == penalties
    assert refused(table(4, no_trump=True), {"type": "deal", "trump": "2S"}).code == "bad_event"


def test_r_brulot_2_one_trump_option_and_the_former_four_player_one_read_as_it():
    """"Sans atout" is offered once: `no_trump`. A table stored, exported or asked for with the former
    `trump_without_widow` plays as it did: "none" is no trump at a 4-player table (the only one it spoke of)."""
    assert [o.name for o in GAME.options if "trump" in o.name] == ["no_trump"]
    assert GAME.new_table(["A", "B", "C", "D"], {"trump_without_widow": "none"}).options["no_trump"] is True
    assert GAME.new_table(["A", "B", "C", "D"], {"trump_without_widow": "dealer_last_card"}).options[
        "no_trump"] is False
    assert GAME.new_table(["A", "B", "C", "D", "E"], {"trump_without_widow": "none"}).options["no_trump"] is False
    assert "trump_without_widow" not in GAME.new_table(["A", "B", "C", "D"], {"trump_without_widow": "none"}).options
    with pytest.raises(ParseError) as bad:
        GAME.new_table(["A", "B", "C", "D"], {"trump_without_widow": "never"})
    assert bad.value.code == "bad_option" and "trump_without_widow" in bad.value.message


def test_r_brulot_2_no_trump_variant_with_a_widow():
    events, penalties, _ = brulot_deal(5, 0, 13, "none")
    result = out(play(table(5, no_trump=True), *events))["deals"][0]
    assert result["trump_suit"] is None and result["points"] == penalties


def test_r_brulot_1_a_widow_card_is_refused():
    events, _, widow = brulot_deal(6, 0, 21, full_widow=True)
    state = play(table(6), events[0])
    first = events[1]["cards"]
    error = refused(state, {"type": "trick", "cards": [widow[2]] + first[1:]})
    assert (error.code, error.card, error.rule) == ("card_out_of_play", widow[2], "R-COMMON-4")
    assert refused(table(6), {"type": "deal", "trump": widow[0], "widow": widow[:3]}).code == "bad_widow"


# A hand-made start without trump (4 players, no_trump): Ana deals, Bo leads.
def brule_start():
    state = play(table(4, no_trump=True), {"type": "deal", "trump": None})
    return play(state, {"type": "trick", "cards": ["AS", "2H", "3S", "4S"]})  # Cy plays a heart: brûlé


SHOWN = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "2C"]


def test_r_brulot_4_brule_player_shows_his_hand_then_illegal_plays_are_refused():
    state = brule_start()
    assert out(state)["deals"][0]["brule"] == {"2": 1} and "reveal" in GAME.possible(state)
    assert refused(state, {"type": "reveal", "player": 3, "cards": SHOWN}).code == "not_brule"
    assert refused(state, {"type": "reveal", "player": 2, "cards": SHOWN[:11]}).code == "reveal_wrong_count"
    state = play(state, {"type": "reveal", "player": 2, "cards": SHOWN})
    assert "reveal" not in GAME.possible(state)
    error = refused(state, {"type": "trick", "cards": ["5C", "AH", "4D", "6C"]})  # Cy: AH is not in his hand
    assert (error.code, error.card, error.player) == ("not_in_shown_hand", "AH", 2)
    error = refused(state, {"type": "trick", "cards": ["5C", "3H", "4D", "6C"]})  # he showed 2C: follow clubs
    assert (error.code, error.player, error.rule) == ("must_follow", 2, "R-BRULOT-4")
    error = refused(state, {"type": "trick", "cards": ["5C", "2C", "KH", "6C"]})  # Di cannot play Cy's KH
    assert (error.code, error.card) == ("card_in_other_hand", "KH")
    state = play(state, {"type": "trick", "cards": ["5C", "2C", "4D", "6C"]})
    assert out(state)["deals"][0]["brule"] == {"2": 1, "3": 2}


def test_r_brulot_3_a_revoke_is_flagged():
    state = play(brule_start(), {"type": "trick", "cards": ["5C", "2C", "4D", "6C"]})  # Di does not follow clubs
    state = play(state, {"type": "trick", "cards": ["7C", "8C", "3H", "9C"]})  # … then plays 9C
    flags = out(state)["deals"][0]["flags"]
    assert [(f["code"], f["player"], f["trick"], f["rule"]) for f in flags] == [("revoke", 3, 2, "R-BRULOT-3")]
    assert flags[0]["message"] == "Di did not follow clubs in trick 2, yet held 9C."


CLEAN = ["2S", "3S", "4S", "2H", "3H", "4H"]  # no penalty card


def captured(state, *piles, trump="2D"):
    state = play(state, {"type": "deal", "trump": trump})
    for side, pile in enumerate(piles):
        state = play(state, {"type": "capture", "side": side, "cards": pile})
    return state


def test_r_common_6_captured_piles_and_the_last_one_worked_out():
    result = out(captured(table(3), ANA, BO))
    assert result["deals"][0]["points"] == [9, 13, 18] and result["totals"] == [9, 13, 18]
    assert result["deals"][0]["check"] == {"taken": 40, "widow": 0, "deck": 40, "rule": "R-BRULOT-5"}


def test_r_brulot_5_clean_deal_bonus_and_penalty_values():
    result = out(captured(table(3, clean_deal_bonus=5), CLEAN, BO))
    assert result["deals"][0]["penalties"] == [0, 13, 27] and result["deals"][0]["points"] == [-5, 13, 27]
    result = out(captured(table(3, penalties=[10, 3, 2, 1]), ANA, BO))
    assert result["deals"][0]["points"] == [15, 31, 18]  # aces at 10: a deal holds 4 x (10+3+2+1) = 64
    assert result["deals"][0]["check"]["deck"] == 64


def test_r_brulot_6_partnership_adds_partners_penalties():
    events, penalties, _ = brulot_deal(4, 0, 11, "dealer_last_card")
    result = out(play(table(4, partnership=True), *events))
    assert [s["players"] for s in result["sides"]] == [[0, 2], [1, 3]]
    assert result["deals"][0]["points"] == [penalties[0] + penalties[2], penalties[1] + penalties[3]]
    six = out(table(6, partnership=True))
    assert [s["players"] for s in six["sides"]] == [[0, 3], [1, 4], [2, 5]]
    with pytest.raises(ParseError):
        table(5, partnership=True)


def test_r_brulot_6_series_lowest_total_wins_and_the_dealer_goes_round():
    state = table(3)
    for piles in ((ANA, BO), (BO, ANA), (ANA, BO)):  # 9 13 18, 13 9 18, 9 13 18
        state = captured(state, *piles)
    result = out(state)
    assert [d["dealer"] for d in result["deals"]] == [0, 1, 2]
    assert result["totals"] == [31, 35, 54] and result["series"]["finished"] is True
    assert result["series"]["winner"] == 0 and result["series"]["winners"] == [0] and result["series"]["lowest_wins"]
    assert refused(state, {"type": "deal", "trump": "2D"}).code == "series_finished"


def test_r_brulot_6_equal_lowest_totals_share_the_win():
    state = table(3, deals=2)
    state = captured(captured(state, ANA, BO), BO, ANA)  # Ana 22, Bo 22, Cy 36
    result = out(state)
    assert result["totals"] == [22, 22, 36] and result["series"]["winner"] is None
    assert result["series"]["winners"] == [0, 1]


def test_r_brulot_3_a_discard_then_a_trump_is_no_revoke():
    # 3 players, trump diamonds (2D turned), Bo leads. Cy cannot follow spades and discards a club (brûlé);
    # in trick 2 (Bo leads again) Cy trumps: that proves nothing, R-BRULOT-3 lets him play anything.
    state = play(table(3), {"type": "deal", "trump": "2D"}, {"type": "trick", "cards": ["AS", "3C", "4S"]})
    state = play(state, {"type": "trick", "cards": ["5H", "4D", "6H"]})
    assert out(state)["deals"][0]["flags"] == []


def test_r_brulot_1_a_widow_card_entered_twice_is_refused():
    error = refused(table(5), {"type": "deal", "trump": "2D", "widow": ["2D", "2D"]})
    assert (error.code, error.card) == ("card_twice", "2D")


def test_r_brulot_4_the_shown_hand_must_hold_the_cards_known_in_it():
    # 4 players: Ana shows 2H for trump (it stays in her hand), then discards a club on spades: brûlé.
    state = play(table(4), {"type": "deal", "trump": "2H"}, {"type": "trick", "cards": ["AS", "KS", "QS", "3C"]})
    hand = ["4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "3H"]
    error = refused(state, {"type": "reveal", "player": 0, "cards": hand})
    assert (error.code, error.card) == ("shown_hand_incomplete", "2H")
    state = play(state, {"type": "reveal", "player": 0, "cards": hand[:-1] + ["2H"]})
    assert out(state)["deals"][0]["shown"]["0"][-1] == "2H"


# --- R-COMMON-4: a hand the app knows wholly, from recorded deals ---------------------------------------------

def test_r_common_4_r_brulot_2_the_dealers_shown_last_card_is_her_last_card():
    """Four players, no widow: Ginette deals and shows her last card, QH, for trump (R-BRULOT-2). In trick 13 it is
    her only card: Sylvie's 8D tapped for her is refused at once; her QH is taken."""
    state, events, _ = DRIVER.recorded("brulot_4p_dealer_card", 13)
    assert out(state)["deals"][0]["known"] == {"QH": 0}
    assert events[13]["cards"] == ["JD", "QH", "8D", "5D"] and DRIVER.offered(state, 0) == ["QH"]
    error = DRIVER.partial(state, ["JD", "8D"])
    assert (error.code, error.rule, error.card, error.player) == ("card_not_in_known_hand", "R-COMMON-4", "8D", 0)
    assert error.message == "Ginette's last card is known: it is QH, not 8D."
    result = out(play(state, events[13]))["deals"][0]
    assert result["complete"] is True and sum(result["points"]) == 40


def test_r_brulot_4_a_shown_hand_is_all_a_brule_player_may_play_and_the_picker_offers_only_it():
    """Réjean is brûlé in trick 4 and shows his nine cards: in trick 5 Gaétan's 5C tapped for him is refused with
    the brûlé rule (R-BRULOT-4, checked before the known hand's R-COMMON-4), and only his cards are offered."""
    state, events, _ = DRIVER.recorded("brulot_4p_reveal", 6)
    assert events[5]["type"] == "reveal" and events[5]["player"] == 2
    assert events[6]["cards"] == ["9C", "KC", "5C", "4C"]  # Sylvie leads trick 5, Réjean plays second
    assert sorted(DRIVER.offered(state, 2)) == sorted(events[5]["cards"])
    error = DRIVER.partial(state, ["9C", "5C"])
    assert (error.code, error.rule, error.card, error.player) == ("not_in_shown_hand", "R-BRULOT-4", "5C", 2)
    assert DRIVER.partial(state, ["9C", "KC"]) is None
    result = out(play(state, *events[6:]))["deals"][0]
    assert result["complete"] is True and sorted(result["shown"]) == ["1", "2", "3"]
