"""Brusquembille engine (R-BRUSQ-1 … 5): the stock, points, jetons, settlement and series, with exact values.
Three players Ana 0, Bo 1, Cy 2 play alone with 30 cards (7H and 7C removed); Ana deals, Bo leads, 9S is turned."""
import pytest

from referee.errors import ParseError, RuleError
from referee.games.settle import settle
from tests.support.deals import PILE_100
from tests.support.engine import Driver
from tests.support.simulate import brusquembille_deal

DRIVER = Driver("brusquembille")
GAME, play, refused, out = DRIVER.game, DRIVER.play, DRIVER.refused, DRIVER.out
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def table(n=3, **options):
    return GAME.new_table(NAMES[:n], options)


def first_trick(cards, n=3, **options):
    return GAME.serialise(play(table(n, **options), {"type": "deal", "trump": "9S"},
                               {"type": "trick", "cards": cards}))


def moves(state):
    return [(m["player"], m["card"], m["kind"], m["jetons"]) for m in state["deals"][0]["movements"]]


def test_r_brusq_4_an_ace_winning_its_trick_earns_2_from_each_opponent():
    state = first_trick(["AH", "KH", "8H"])  # Bo, Cy, Ana
    assert moves(state) == [(1, "AH", "won", 2)] and state["jetons"] == [-2, 4, -2]


def test_r_brusq_4_an_ace_trumped_pays_2_to_each_opponent():
    state = first_trick(["AH", "8S", "KH"])  # Cy trumps Bo's ace
    assert moves(state) == [(1, "AH", "coupe", 2)] and state["jetons"] == [2, -4, 2]
    assert state["deals"][0]["movements"][0]["by"] == "8S"


def test_r_brusq_4_a_ten_beaten_by_the_ace_of_its_suit_moves_nothing():
    state = first_trick(["10H", "AH", "8H"])  # only Cy's winning ace counts
    assert moves(state) == [(2, "AH", "won", 2)] and state["jetons"] == [-2, -2, 4]


def test_r_brusq_4_the_ace_of_trump_wins_and_the_trump_ten_under_it_is_not_coupe():
    state = first_trick(["AS", "10S", "KS"])
    assert moves(state) == [(1, "AS", "won", 2)] and state["jetons"] == [-2, 4, -2]


def test_r_brusq_4_a_ten_trumped_pays_one_to_each():
    state = first_trick(["10H", "KS", "AD"])  # Cy trumps; Ana's off-suit ace is beaten by a trump too
    assert moves(state) == [(1, "10H", "coupe", 1), (0, "AD", "coupe", 2)]
    assert state["jetons"] == [-4 + 1, -2 + 2, 1 + 2] == [-3, 0, 3]


def test_r_brusq_4_in_partnership_the_opponents_are_the_other_side():
    state = first_trick(["8H", "AH", "KH", "9H"], n=4)  # Bo, Cy, Di, Ana: Cy's ace wins for Ana & Cy
    assert moves(state) == [(2, "AH", "won", 2)] and state["jetons"] == [0, -2, 4, -2]
    state = first_trick(["AH", "7S", "KS", "8D"], n=4)  # Di's KS wins: Bo's ace, on the winning side, earns
    assert moves(state) == [(1, "AH", "won", 2)] and state["jetons"] == [-2, 4, -2, 0]
    assert [s["players"] for s in state["sides"]] == [[0, 2], [1, 3]]


def test_r_brusq_1_a_removed_seven_is_refused():
    state = play(table(), {"type": "deal", "trump": "9S"})
    with pytest.raises(ParseError) as error:
        play(state, {"type": "trick", "cards": ["7H", "KH", "8H"]})
    assert (error.value.code, error.value.card) == ("unknown_card", "7H")
    state5 = play(table(5, removed=["7D", "7S"]), {"type": "deal", "trump": "9S"})
    assert GAME.deck_for(state5).size == 30 and GAME.parse_event(state5, {"type": "trick", "cards": [
        "7H", "7C", "8H", "8C", "9H"]})
    with pytest.raises(ParseError) as error:
        table(3, removed=["7H", "7D"])
    assert error.value.code == "bad_option"
    assert GAME.deck_for(play(table(4), {"type": "deal", "trump": "9S"})).size == 32


def test_r_brusq_2_the_turned_card_goes_to_the_first_tricks_winner():
    state = play(table(), {"type": "deal", "trump": "9S"})
    with pytest.raises(RuleError) as error:
        play(state, {"type": "trick", "cards": ["9S", "KH", "8H"]})
    assert error.value.code == "card_on_stock"
    state = play(state, {"type": "trick", "cards": ["AH", "KH", "8H"]})
    assert GAME.serialise(state)["deals"][0]["known"] == {"9S": 1} and GAME.serialise(state)["deals"][0]["stock"] == 18


@pytest.mark.parametrize("n, turned_last, tricks", [(3, False, 10), (4, False, 8), (5, True, 6)])
def test_r_brusq_3_a_whole_deal_holds_120_points_and_jetons_add_to_zero(n, turned_last, tricks):
    events = brusquembille_deal(n, 0, 40 + n, turned_last)
    state = GAME.serialise(play(table(n, turned_card_last=turned_last), *events))
    deal = state["deals"][0]
    assert len(deal["tricks"]) == tricks and sum(deal["points"]) == 120 and deal["complete"] is True
    assert sum(state["jetons"]) == 0 and state["jetons"] == deal["jetons"]


def test_settlement_of_a_3_player_ledger_in_the_fewest_payments():
    state = first_trick(["10H", "KS", "AD"], jeton_value=0.5)  # Ana -3, Bo 0, Cy +3
    assert state["settlement"] == [{"from": 0, "to": 2, "jetons": 3, "amount": 1.5}]
    state = first_trick(["AH", "KH", "8H"], jeton_value=2)  # Ana -2, Bo +4, Cy -2
    assert state["money"] == [-4, 8, -4]
    assert state["settlement"] == [{"from": 0, "to": 1, "jetons": 2, "amount": 4},
                                   {"from": 2, "to": 1, "jetons": 2, "amount": 4}]
    assert len(settle([4, -4, 3, -3])) == 2  # two pairs settle apart: 2 payments, not 3
    assert len(settle([5, -1, -1, -3])) == 3


PILE_60 = ["AS", "AH", "AD", "AC", "10S", "KS", "JS", "9H", "8H"]


def captured(state, pile):
    """Ana's pile, Bo's three queens (9 points), Cy the rest (R-COMMON-6)."""
    return play(state, {"type": "deal", "trump": "9S"}, {"type": "capture", "side": 0, "cards": pile},
                {"type": "capture", "side": 1, "cards": ["QS", "QH", "QD"]})


def test_r_brusq_5_series_by_deals():
    state = captured(captured(table(3, deals=2), PILE_100), PILE_60)
    result = GAME.serialise(state)
    assert result["deals"][0]["points"] == [100, 9, 11] and result["deals"][1]["points"] == [60, 9, 51]
    assert result["totals"] == [160, 18, 62]
    assert result["series"]["finished"] is True and result["series"]["winner"] == 0


def test_r_brusq_5_series_by_target_points():
    state = captured(table(3, target_points=150), PILE_100)
    assert GAME.serialise(state)["series"]["finished"] is False
    result = GAME.serialise(captured(state, PILE_60))
    assert result["totals"][0] == 160 and result["series"]["finished"] is True and result["series"]["winner"] == 0
    assert result["series"]["target_points"] == 150


# --- R-COMMON-4: a hand the app knows wholly, from recorded deals ---------------------------------------------

def test_r_common_4_r_brusq_2_hortenses_last_card_is_the_turned_card_she_drew_last_and_no_other_is_taken():
    """With turned_card_last the turned 8S is the stock's last card: Hortense draws it after trick 7 (the player
    before Colette, who won it) and keeps it. In trick 10 she holds only it: Basile's QS tapped for her is refused
    at that tap, naming the rule, the card and the player, and her 8S is taken."""
    state, events, _ = DRIVER.recorded("brusquembille_3p_turned_last", 8)  # after trick 7, the last draw
    assert out(state)["deals"][0]["known"] == {"8S": 0} and out(state)["deals"][0]["stock"] == 0
    assert len(DRIVER.offered(state, 0)) == 9  # three cards in her hand, one known: she may hold any other
    state = play(state, *events[8:10])
    assert events[10]["cards"] == ["QH", "8S", "QS"]  # Colette leads trick 10, then Hortense, then Basile
    assert DRIVER.offered(state, 0) == ["8S"] and DRIVER.partial(state, ["QH"]) is None
    error = DRIVER.partial(state, ["QH", "QS"])
    assert (error.code, error.rule, error.card, error.player) == ("card_not_in_known_hand", "R-COMMON-4", "QS", 0)
    assert error.message == "Hortense's last card is known: it is 8S, not QS." and error.params["held"] == ["8S"]
    error = refused(state, {"type": "trick", "cards": ["QH", "QS", "8S"]})  # the whole trick: the same refusal
    assert (error.code, error.card, error.player) == ("card_not_in_known_hand", "QS", 0)
    assert out(play(state, events[10]))["deals"][0]["complete"] is True


def test_r_common_4_r_brusq_2_the_first_tricks_winner_keeps_the_turned_card_to_his_last_card():
    """By default the first trick's winner draws the turned card first: Basile wins trick 1 and takes KS, which is
    his last card in trick 10; Hortense's QS tapped for him is refused, his KS is taken."""
    state, events, _ = DRIVER.recorded("brusquembille_3p", 2)
    assert out(state)["deals"][0]["known"] == {"KS": 1}
    state = play(state, *events[2:10])
    assert events[10]["cards"] == ["10C", "KS", "QS"] and DRIVER.offered(state, 1) == ["KS"]
    error = DRIVER.partial(state, ["10C", "QS"])
    assert (error.code, error.rule, error.card, error.player) == ("card_not_in_known_hand", "R-COMMON-4", "QS", 1)
    assert error.message == "Basile's last card is known: it is KS, not QS."
    assert DRIVER.partial(state, ["10C", "KS"]) is None and out(play(state, events[10]))["deals"][0]["complete"]
