"""Brouc's slate and coches as pure functions (referee/games/brouc/slate.py), each case a ruling's own."""
import pytest

from referee.cards import PIQUET_32
from referee.games.brouc import slate


@pytest.mark.parametrize("points, tens", [(0, 0), (4, 0), (44, 4), (45, 5), (46, 5), (55, 6), (64, 6), (120, 12)])
def test_r_brouc_6_points_to_tens_sur_le_point_rounds_up(points, tens):
    assert slate.tens(points) == tens


def test_r_brouc_6_the_reason_says_which_way_it_rounded():
    assert slate.tens_why(44)["en"] == "44 points, rounded down: 4"
    assert slate.tens_why(45)["en"] == "45 points, on the point: 5"
    assert slate.tens_why(46)["en"] == "46 points, rounded up: 5"
    assert slate.tens_why(46)["fr"] == "46 points, arrondi vers le haut\u00a0: 5"


def test_r_brouc_4_and_5_announce_values_doubled_in_trump():
    assert slate.announce_points({"K", "Q"}, False) == 20
    assert slate.announce_points({"K", "Q"}, True) == 40
    assert slate.announce_points({"K", "Q", "J"}, False) == 30
    assert slate.announce_points({"K", "Q", "J"}, True) == 60


def test_r_brouc_5_table_marriages_found_in_a_trick():
    cards = PIQUET_32.parse_many(["KH", "QH", "JH", "7S"])
    assert slate.marriages_in(cards, "H") == [("H", ["K", "Q", "J"], 60)]
    assert slate.marriages_in(PIQUET_32.parse_many(["KS", "QS", "AH", "7H"]), "H") == [("S", ["K", "Q"], 20)]
    assert slate.marriages_in(PIQUET_32.parse_many(["KS", "QH", "AH", "7H"]), "H") == []


@pytest.mark.parametrize("board, loser", [([30, 12], None), ([31, 12], 1), ([12, 33], 0), ([32, 31], 1),
                                           ([31, 31], None)])
def test_r_brouc_7_a_partie_ends_at_31_the_lower_slate_losing(board, loser):
    assert slate.partie_over(board) == loser


def test_r_brouc_8_declarations_need_dehors_and_pas_dedouble():
    assert slate.declaration_refusal("cape_dehors", [18, 10], 0)[0] == "declare_not_dehors"
    assert slate.declaration_refusal("cape_dehors", [19, 20], 0) is None
    assert slate.declaration_refusal("cape_dehors_pas_dedouble", [19, 15], 0)[0] == "declare_dedouble"
    assert slate.declaration_refusal("cape_dehors_pas_dedouble", [19, 14], 0) is None


def test_r_brouc_8_and_8b_coches_for_a_cape_and_for_declarations():
    made = slate.cape_outcome({"call": "cape_dehors", "side": 0}, 0)
    assert (made["loser"], made["coches"], made["ends_partie"], made["rule"]) == (1, 3, True, "R-BROUC-8")
    missed = slate.cape_outcome({"call": "cape_dehors_pas_dedouble", "side": 0}, None)
    assert (missed["loser"], missed["coches"], missed["came_true"]) == (0, 4, False)
    undeclared = slate.cape_outcome(None, 1)
    assert (undeclared["loser"], undeclared["coches"], undeclared["ends_partie"], undeclared["rule"]) == \
        (0, 2, False, "R-BROUC-8b")
    assert slate.cape_outcome(None, None) is None
