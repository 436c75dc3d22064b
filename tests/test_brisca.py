"""Brisca engine (R-BRISCA-1 … 9) with exact values. Players in order of play: Ana 0, Bo 1, Cy 2, Di 3;
sides {Ana, Cy} = 0 and {Bo, Di} = 1 (R-COMMON-3)."""
import pytest

from referee.errors import ParseError, RuleError
from tests.support.deals import DEAL_4P
from tests.support.engine import Driver
from tests.support.simulate import brisca_deal

DRIVER = Driver("brisca")
GAME, play, refused, out = DRIVER.game, DRIVER.play, DRIVER.refused, DRIVER.out
PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]

# Ana & Cy: 0+0+0+0+0+12+0+29+14+10 = 65; Bo & Di: 14+6+23+12 = 55.


def table(n=4, **options):
    return GAME.new_table(["Ana", "Bo", "Cy", "Di", "Ed", "Flo"][:n], options)


def deal(trump, **extra):
    return {"type": "deal", "trump": trump, **extra}


def trick(*codes):
    return {"type": "trick", "cards": list(codes)}


def test_r_brisca_1_full_4_player_deal_trick_by_trick_matches_the_hand_count():
    state = play(table(), deal("11E"))
    for cards, winner, points in DEAL_4P:
        state = play(state, trick(*cards))
        last = GAME.serialise(state)["deals"][0]["tricks"][-1]
        assert (last["winner"], last["points"]) == (winner, points), cards
    out = GAME.serialise(state)
    assert out["deals"][0]["points"] == [65, 55] and sum(out["deals"][0]["points"]) == 120
    assert out["deals"][0]["complete"] is True
    assert out["deals"][0]["outcome"]["winner"] == 0 and out["deals"][0]["outcome"]["rule"] == "R-BRISCA-6"
    assert out["totals"] == [65, 55] and out["series"]["wins"] == [1, 0]
    assert out["next"] == {"action": "deal", "player": 1}  # R-COMMON-2: the dealer moves on


def test_r_common_6_same_deal_as_captured_cards_gives_the_same_points():
    pile = [c for cards, winner, _ in DEAL_4P if winner in (0, 2) for c in cards]
    state = play(table(), deal("11E"), {"type": "capture", "side": 0, "cards": pile})
    out = GAME.serialise(state)["deals"][0]
    assert out["points"] == [65, 55] and out["complete"] is True and len(out["captures"][1]) == 16
    assert GAME.serialise(state)["series"]["wins"] == [1, 0]


def test_r_common_6_capture_refusals():
    state = play(table(), deal("11E"))
    assert refused(state, {"type": "capture", "side": 0, "cards": ["1O", "1O", "2O", "3O"]}).code == "card_twice"
    assert refused(state, {"type": "capture", "side": 0, "cards": ["1O", "2O", "3O"]}).code == "bad_capture"
    assert refused(state, {"type": "capture", "side": 2, "cards": []}).code == "bad_side"
    after_trick = play(state, trick(*DEAL_4P[0][0]))
    assert refused(after_trick, {"type": "capture", "side": 0, "cards": []}).code == "entry_mixed"


def test_r_brisca_2_turned_card_lies_under_the_stock_until_the_last_draw():
    state = play(table(), deal("11E"))
    for cards, _, _ in DEAL_4P[:6]:
        state = play(state, trick(*cards))
    assert GAME.serialise(state)["deals"][0]["stock"] == 4
    error = refused(state, trick("11E", "4C", "7C", "2B"))
    assert (error.code, error.card, error.player, error.rule) == ("card_under_stock", "11E", 0, "R-BRISCA-2")
    state = play(state, trick(*DEAL_4P[6][0]))  # trick 7, won by Ana: the last draw; Di, before her, draws 11E
    out = GAME.serialise(state)["deals"][0]
    assert out["stock"] == 0 and out["known"] == {"11E": 3} and out["under_stock"] is None
    error = refused(state, trick("3E", "12O", "11E", "12E"))
    assert (error.code, error.card, error.player) == ("card_in_other_hand", "11E", 2)


def test_r_common_4_card_played_twice_and_wrong_trick_size():
    state = play(table(), deal("11E"), trick(*DEAL_4P[0][0]))
    error = refused(state, trick("5C", "11B", "1C", "6B"))
    assert (error.code, error.card, error.player) == ("card_already_played", "1C", 3)
    assert refused(state, trick("5C", "11B", "11C")).code == "wrong_trick_size"
    assert refused(state, trick("5C", "11B", "11C", "11C")).code == "card_twice"
    assert refused(state, trick("5C", "11B", "11C", "8O")).code == "unknown_card"


def test_r_brisca_2_two_players_play_20_tricks_and_the_stock_runs_out_after_17():
    events = brisca_deal(2, 0, 42)
    state = play(table(2), events[0])
    stocks = []
    for body in events[1:]:
        state = play(state, body)
        stocks.append(GAME.serialise(state)["deals"][0]["stock"])
    assert len(events) - 1 == 20  # R-BRISCA-9: one card each per trick
    # 40 - 2 x 3 dealt = 34 in the stock (turned card included), two cards drawn after each trick
    assert stocks == [32, 30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0, 0, 0, 0]
    out = GAME.serialise(state)
    assert out["deals"][0]["points"] == [78, 42] and out["deals"][0]["complete"] is True


def test_r_brisca_1_six_players_use_48_cards_and_play_8_tricks():
    state = table(6)
    assert [s for s in GAME.serialise(state)["sides"]] == [{"name": "Ana & Cy & Ed", "players": [0, 2, 4]},
                                                           {"name": "Bo & Di & Flo", "players": [1, 3, 5]}]
    events = brisca_deal(6, 0, 42)
    state = play(state, *events)
    out = GAME.serialise(state)["deals"][0]
    assert len(out["tricks"]) == 8 and out["points"] == [116, 4] and out["complete"] is True
    assert any("8" in c[:-1] or "9" in c[:-1] for t in out["tricks"] for c in t["cards"])
    assert refused(play(table(4), deal("4O")), trick("8O", "1C", "2C", "3C")).code == "unknown_card"
    assert refused(table(4), deal("9B")).code == "unknown_card"


def test_r_brisca_2_three_or_five_players_are_refused():
    with pytest.raises(ParseError) as error:
        table(3)
    assert error.value.code == "bad_players"


# --- R-BRISCA-4: the trump exchange -------------------------------------------------------------------------

def exchange(player, card=None):
    return {"type": "exchange", "player": player, **({"card": card} if card else {})}


def test_r_brisca_4_exchange_allowed_and_the_app_knows_who_holds_the_old_turned_card():
    state = play(table(), deal("11E"), trick(*DEAL_4P[0][0]))  # Bo won trick 1
    assert "exchange" in GAME.possible(state)
    state = play(state, exchange(1))
    out = GAME.serialise(state)["deals"][0]
    assert out["exchange"] == {"player": 1, "gave": "7E", "took": "11E", "after_trick": 1}
    assert out["known"] == {"11E": 1} and out["under_stock"] == "7E"
    error = refused(state, trick("5C", "11B", "11C", "11E"))  # Bo leads: the fourth card is Ana's, not Bo's
    assert (error.code, error.card, error.player) == ("card_in_other_hand", "11E", 0)
    assert refused(state, trick("5C", "7E", "11C", "6B")).code == "card_under_stock"  # the 7 is under the stock now


def test_r_brisca_4_the_two_of_trump_takes_a_turned_four_to_seven():
    state = play(table(), deal("5O"), trick("1C", "11E", "2C", "6E"))  # Bo wins with 1C
    error = refused(state, exchange(1, "7O"))
    assert (error.code, error.rule, error.card) == ("exchange_wrong_card", "R-BRISCA-4", "7O")
    assert "does not outrank the 7" in error.message
    out = GAME.serialise(play(state, exchange(1)))["deals"][0]["exchange"]
    assert (out["gave"], out["took"]) == ("2O", "5O")


def test_r_brisca_4_nothing_is_exchanged_for_a_turned_two():
    state = play(table(), deal("2O"), trick("1C", "11E", "2C", "6E"))
    assert refused(state, exchange(1)).code == "exchange_impossible"


def test_r_brisca_4_exchange_needs_a_trick_won_by_the_player():
    state = play(table(), deal("11E"), trick(*DEAL_4P[0][0]))  # Bo won, not Di
    error = refused(state, exchange(3))
    assert (error.code, error.player, error.rule) == ("exchange_needs_trick", 3, "R-BRISCA-4")
    assert refused(play(table(), deal("11E")), exchange(1)).code == "exchange_needs_trick"


def test_r_brisca_4_exchange_requires_side_or_nothing():
    state = play(table(exchange_requires="side"), deal("11E"), trick(*DEAL_4P[0][0]))
    assert GAME.serialise(play(state, exchange(3)))["deals"][0]["exchange"]["player"] == 3  # Di, Bo's partner
    assert refused(state, exchange(0)).code == "exchange_needs_trick"
    fresh = play(table(exchange_requires="nothing"), deal("11E"))
    assert GAME.serialise(play(fresh, exchange(2)))["deals"][0]["exchange"]["player"] == 2


def test_r_brisca_4_exchange_after_the_last_draw_is_refused():
    state = play(table(exchange_requires="nothing"), deal("11E"), *[trick(*c) for c, _, _ in DEAL_4P[:5]])
    state6 = play(state, trick(*DEAL_4P[5][0]))  # 7E is played in trick 6: use the two of a turned 4 instead
    assert refused(state6, exchange(0)).code == "card_already_played"
    state7 = play(state6, trick(*DEAL_4P[6][0]))
    error = refused(state7, exchange(0))
    assert (error.code, error.rule) == ("exchange_too_late", "R-BRISCA-4")


def test_r_brisca_4_exchange_only_once_per_deal():
    state = play(table(), deal("11E"), trick(*DEAL_4P[0][0]), exchange(1))
    assert refused(state, exchange(1)).code == "exchange_twice"


# --- R-BRISCA-5: claims ------------------------------------------------------------------------------------

def after(n_tricks, **options):
    return play(table(**options), deal("11E"), *[trick(*c) for c, _, _ in DEAL_4P[:n_tricks]])


def claim(player, *codes):
    return {"type": "claim", "player": player, "cards": list(codes)}


def test_r_brisca_5_valid_claim_takes_every_card_not_yet_played():
    # Still out after 7 tricks: trumps 1E 3E 12E 11E 6E (11E known in Di's hand); the three highest: 1E 3E 12E.
    state = play(after(7), claim(0, "1E", "3E", "12E"))
    out = GAME.serialise(state)["deals"][0]
    # Ana & Cy had 12; the 12 cards out are worth 10+4+11+4+0+0+11+3+0+0+0+10 = 53.
    assert out["points"] == [65, 55] and out["complete"] is True
    assert out["claim"]["points"] == 53 and len(out["claim"]["taken"]) == 12


def test_r_brisca_5_two_card_claim_with_a_known_card():
    # After 8 tricks: trumps out 1E 11E 6E; Bo shows 1E and 11E (Di drew 11E: his partner's).
    out = GAME.serialise(play(after(8), claim(1, "1E", "11E")))["deals"][0]
    assert out["points"] == [41, 79]  # Bo & Di: 55 + 6E 5B 1E 11E 5O 4O 7O 3B = 55 + 24


def test_r_brisca_5_invalid_claims():
    error = refused(after(7), claim(0, "3E", "12E", "6E"))
    assert (error.code, error.card) == ("claim_not_highest", "1E")
    error = refused(after(7), claim(0, "1E", "3E", "11E"))
    assert (error.code, error.card) == ("card_in_other_hand", "11E")
    assert refused(after(6), claim(0, "1E", "3E", "12E")).code == "claim_too_early"
    assert refused(after(7), claim(0, "1E", "3E")).code == "claim_wrong_count"
    assert refused(after(7), claim(0, "1E", "3E", "3B")).code == "claim_not_trump"
    assert refused(after(9), claim(0, "1E")).code == "claim_wrong_time"


# --- R-BRISCA-6: results and series -------------------------------------------------------------------------

# Two piles of 60: aces, 3O, 12O, 10O and 13 blanks; the rest (threes, kings, knights, sotas) also make 60.
# PILE_106: four aces 44, four threes 40, four kings 16, two knights 6 = 106, leaving 14 to the other side.
PILE_60 = ["1O", "1C", "1E", "1B", "3O", "12O", "10O", "2O", "4O", "5O", "6O", "7O", "2C", "4C", "5C", "6C", "7C",
           "2E", "4E", "5E"]
PILE_106 = ["1O", "1C", "1E", "1B", "3O", "3C", "3E", "3B", "12O", "12C", "12E", "12B", "11O", "11C", "2O", "4O"]


def captured(state, trump, pile, **extra):
    return play(state, deal(trump), {"type": "capture", "side": 0, "cards": pile, **extra})


@pytest.mark.parametrize("tie_rule, winner, wins, counted, totals", [
    ("draw", None, [0, 0], True, [60, 60]),
    ("last_trick", 1, [0, 1], True, [60, 60]),
    ("replay", None, [0, 0], False, [0, 0]),
])
def test_r_brisca_6_sixty_all_under_each_tie_rule(tie_rule, winner, wins, counted, totals):
    state = play(table(tie_rule=tie_rule), *brisca_deal(4, 0, 32))  # a real deal ending 60-60, Bo takes the last
    out = GAME.serialise(state)
    assert out["deals"][0]["points"] == [60, 60]
    assert out["deals"][0]["outcome"]["winner"] == winner and out["deals"][0]["outcome"]["counted"] is counted
    assert out["series"]["wins"] == wins and out["totals"] == totals


def test_r_brisca_6_sixty_all_by_captured_cards_asks_for_the_last_trick():
    state = table(tie_rule="last_trick")
    with pytest.raises(RuleError) as error:
        captured(state, "4O", PILE_60)
    assert error.value.code == "last_trick_needed"
    out = GAME.serialise(captured(state, "4O", PILE_60, last_trick=True))
    assert out["deals"][0]["outcome"]["winner"] == 0 and out["series"]["wins"] == [1, 0]


def test_r_brisca_6_series_ends_at_wins_needed():
    state = table()
    for number in range(1, 4):
        state = captured(state, "4O", PILE_106)
        assert GAME.serialise(state)["series"]["finished"] is (number == 3)
    out = GAME.serialise(state)
    assert out["series"]["wins"] == [3, 0] and out["series"]["winner"] == 0 and out["totals"] == [318, 42]
    assert out["next"] == {"action": "none", "player": None}
    assert refused(state, deal("4O")).code == "series_finished"


def test_r_brisca_6_double_over_100_ends_the_series_sooner():
    state = captured(table(double_over_100=True), "4O", PILE_106)
    out = GAME.serialise(state)
    assert out["deals"][0]["outcome"]["wins"] == 2 and out["series"]["wins"] == [2, 0]
    assert out["series"]["finished"] is False
    out = GAME.serialise(captured(state, "4O", PILE_106))
    assert out["series"]["wins"] == [4, 0] and out["series"]["finished"] is True and out["series"]["winner"] == 0


def test_r_brisca_6_wins_needed_five():
    state = table(wins_needed=5)
    for _ in range(4):
        state = captured(state, "4O", PILE_106)
    assert GAME.serialise(state)["series"]["finished"] is False
    assert GAME.serialise(captured(state, "4O", PILE_106))["series"]["winner"] == 0


def test_r_brisca_7_trump_rotation_fixes_the_suits():
    state = play(table(trump_rotation=True), deal("4C"))  # copas turned, yet oros is trump in the first deal
    state = play(state, trick("1C", "2O", "3C", "5C"))
    assert GAME.serialise(state)["deals"][0]["tricks"][0]["winner"] == 2  # Cy's 2O beats Bo's ace of copas
    state = table(trump_rotation=True, tie_rule="replay")
    suits = []
    for pile in (PILE_106, PILE_60, PILE_106, PILE_106, PILE_106):
        state = captured(state, "4C", pile)
        suits.append(GAME.serialise(state)["deals"][-1]["trump_suit"])
    assert suits == ["O", "C", "C", "E", "B"]  # the replayed 60-60 deal keeps its suit
    out = GAME.serialise(state)
    assert out["series"]["finished"] is True and out["series"]["wins_needed"] is None


PILE_100 = ["1O", "1C", "1E", "1B", "3O", "3C", "3E", "3B", "12O", "12C", "12E", "12B"]  # 44 + 40 + 16
PILE_14 = ["1O", "11O", "2O", "4O"]  # 11 + 3: the other side takes 106
PILE_11 = ["1O", "2O", "4O", "5O"]


def test_r_brisca_6_exactly_100_is_a_single_win():
    out = GAME.serialise(captured(table(double_over_100=True), "4O", PILE_100))
    assert out["deals"][0]["points"] == [100, 20] and out["series"]["wins"] == [1, 0]


def test_r_brisca_8_exactly_11_wins_the_mexican_deal():
    out = GAME.serialise(captured(table(mexican_11=True), "4O", PILE_11))
    assert out["deals"][0]["points"] == [11, 109] and out["deals"][0]["outcome"]["winner"] == 0


def test_r_brisca_8_sixty_all_is_a_draw_even_under_last_trick():
    out = GAME.serialise(captured(table(mexican_11=True, tie_rule="last_trick"), "4O", PILE_60))
    assert out["deals"][0]["outcome"]["winner"] is None and out["series"]["wins"] == [0, 0]


@pytest.mark.parametrize("piles, wins, totals, winner", [
    ((PILE_106, PILE_106, PILE_11, PILE_11), [2, 2], [234, 246], 1),  # 2-2 in wins: more points wins
    ((PILE_106, PILE_106, PILE_14, PILE_14), [2, 2], [240, 240], None),  # level on both: no winner
])
def test_r_brisca_7_rotation_ties_on_wins_are_broken_by_points(piles, wins, totals, winner):
    state = table(trump_rotation=True)
    for pile in piles:
        state = captured(state, "4O", pile)
    out = GAME.serialise(state)
    assert out["series"]["wins"] == wins and out["totals"] == totals
    assert out["series"]["finished"] is True and out["series"]["winner"] == winner


def test_r_brisca_7_rotation_winner_has_most_deal_wins_ties_broken_by_points():
    state = table(trump_rotation=True)
    for pile in (PILE_106, PILE_106, PILE_60, PILE_60):
        state = captured(state, "4O", pile)
    out = GAME.serialise(state)
    assert out["series"]["wins"] == [2, 0] and out["series"]["finished"] is True and out["series"]["winner"] == 0


def test_r_brisca_8_mexican_11_small_pile_wins():
    small = ["12O", "11O", "10O", "2O"]  # 4 + 3 + 2 = 9 points
    out = GAME.serialise(captured(table(mexican_11=True), "4O", small))
    assert out["deals"][0]["points"] == [9, 111]
    assert out["deals"][0]["outcome"]["winner"] == 0 and out["deals"][0]["outcome"]["rule"] == "R-BRISCA-8"
    out = GAME.serialise(captured(table(mexican_11=True), "4O", PILE_60))
    assert out["deals"][0]["outcome"]["winner"] is None


def test_options_schema_refuses_unknown_and_bad_options():
    with pytest.raises(ParseError) as error:
        table(tie_rle="draw")
    assert error.value.code == "bad_option" and "tie_rle" in error.value.message
    with pytest.raises(ParseError) as error:
        table(wins_needed=4)
    assert error.value.code == "bad_option" and "3, 5, 7" in error.value.message
    with pytest.raises(ParseError):
        table(double_over_100="yes")


def test_next_says_who_deals_and_who_leads():
    state = table()
    assert GAME.serialise(state)["next"] == {"action": "deal", "player": 0}
    state = play(state, deal("11E"))
    assert GAME.serialise(state)["next"] == {"action": "trick", "player": 1}
    state = play(state, trick(*DEAL_4P[0][0]), trick(*DEAL_4P[1][0]))
    assert GAME.serialise(state)["next"] == {"action": "trick", "player": 3}  # Di won trick 2


def test_apply_never_changes_the_given_state():
    state = play(table(), deal("11E"))
    before = GAME.serialise(state)
    play(state, trick(*DEAL_4P[0][0]))
    refused(state, trick("1C", "1C", "2C", "3C"))
    assert GAME.serialise(state) == before


# --- R-COMMON-4: a hand the app knows wholly, from recorded deals ---------------------------------------------

def test_r_common_4_r_brisca_2_the_turned_card_drawn_last_is_jordis_last_card():
    """Two players: after trick 17 the stock is empty and Jordi, the player before the winner, drew the turned 5E
    (R-BRISCA-2). He leads trick 20 with one card, that one: Montse's 11E tapped for him is refused at once."""
    state, events, _ = DRIVER.recorded("brisca_2p", 18)
    assert out(state)["deals"][0]["known"] == {"5E": 1} and out(state)["deals"][0]["stock"] == 0
    assert len(DRIVER.offered(state, 1)) == 6  # three cards in hand, one known: any of the six out but Montse's
    state = play(state, *events[18:20])
    assert events[20]["cards"] == ["5E", "11E"] and DRIVER.offered(state, 1) == ["5E"]
    error = DRIVER.partial(state, ["11E"])
    assert (error.code, error.rule, error.card, error.player) == ("card_not_in_known_hand", "R-COMMON-4", "11E", 1)
    assert error.message == "Jordi's last card is known: it is 5E, not 11E."
    done = out(play(state, events[20]))["deals"][0]
    assert done["complete"] is True and sum(done["points"]) == 120


def test_r_common_4_r_brisca_4_the_exchanged_card_is_dis_last_card():
    """Di gives the 7 of oros for the turned 12O after trick 6 (R-BRISCA-4): the app knows he holds it, and in
    trick 10 it is his only card: Ana's 12B tapped for him is refused; his 12O is taken."""
    state, events, _ = DRIVER.recorded("brisca_4p_exchange", 8)
    assert events[7] == {"type": "exchange", "player": 3} and out(state)["deals"][0]["known"] == {"12O": 3}
    state = play(state, *events[8:11])
    assert events[11]["cards"] == ["10B", "12O", "12B", "6O"] and DRIVER.offered(state, 3) == ["12O"]
    error = DRIVER.partial(state, ["10B", "12B"])
    assert (error.code, error.rule, error.card, error.player) == ("card_not_in_known_hand", "R-COMMON-4", "12B", 3)
    assert error.message == "Di's last card is known: it is 12O, not 12B."
    assert out(play(state, events[11]))["deals"][0]["complete"] is True
