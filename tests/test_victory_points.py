"""Match points to victory points (issue 17): both shipped Burraco tables at every boundary, for both lines (North-
South winning and East-West winning), the director's own tables accepted and refused, and a table's result read from
its state. The tables are the federation's competition code, art. 17, as summarised by player sites."""
import pytest

from referee.tournament.scoring import (VP_TABLES, PlanError, better, match_points, table_result, trick_result,
                                        victory_points, vp_table)
from referee.web.services import status_of

# MP difference -> (VP winner, VP loser), written out from the shared tables at each boundary.
THREE_HANDS = {0: (10, 10), 50: (10, 10), 55: (11, 9), 150: (11, 9), 155: (12, 8), 250: (12, 8), 255: (13, 7),
               350: (13, 7), 355: (14, 6), 500: (14, 6), 505: (15, 5), 650: (15, 5), 655: (16, 4), 800: (16, 4),
               805: (17, 3), 1000: (17, 3), 1005: (18, 2), 1250: (18, 2), 1255: (19, 1), 1500: (19, 1),
               1505: (20, 0), 4000: (20, 0)}
FOUR_HANDS = {0: (10, 10), 100: (10, 10), 105: (11, 9), 300: (11, 9), 305: (12, 8), 500: (12, 8), 505: (13, 7),
              700: (13, 7), 705: (14, 6), 900: (14, 6), 905: (15, 5), 1100: (15, 5), 1105: (16, 4), 1300: (16, 4),
              1305: (17, 3), 1500: (17, 3), 1505: (18, 2), 1700: (18, 2), 1705: (19, 1), 2000: (19, 1),
              2005: (20, 0), 5000: (20, 0)}


@pytest.mark.parametrize("name, expected", [("burraco_3", THREE_HANDS), ("burraco_4", FOUR_HANDS)])
def test_every_boundary_for_both_lines(name, expected):
    rows = vp_table(name)
    for difference, (winner, loser) in expected.items():
        assert victory_points((1200 + difference, 1200), rows) == (winner, loser), (name, difference, "NS wins")
        assert victory_points((-300, -300 - difference), rows) == (winner, loser), (name, difference, "NS, negative")
        assert victory_points((1200, 1200 + difference), rows) == (loser, winner), (name, difference, "EW wins")
        assert sum(victory_points((difference, 0), rows)) == 20


def test_the_shipped_tables_row_for_row():
    assert VP_TABLES["burraco_3"][0] == (50, 10, 10) and VP_TABLES["burraco_3"][-1] == (None, 20, 0)
    assert VP_TABLES["burraco_4"][0] == (100, 10, 10) and VP_TABLES["burraco_4"][-1] == (None, 20, 0)
    assert [len(VP_TABLES[n]) for n in ("burraco_3", "burraco_4")] == [11, 11]
    assert vp_table("burraco_4") == VP_TABLES["burraco_4"] and vp_table("burraco_4") is not VP_TABLES["burraco_4"]


def test_a_difference_between_two_rows_takes_the_higher_row():
    assert victory_points((52, 0), vp_table("burraco_3")) == (11, 9)


def test_a_directors_own_table():
    rows = vp_table([[0, 10, 10], [200, 13, 7], [None, 16, 4]])  # a 2-hand table of the director's own
    assert rows == [(0, 10, 10), (200, 13, 7), (None, 16, 4)]
    assert victory_points((400, 400), rows) == (10, 10)
    assert victory_points((400, 405), rows) == (7, 13)
    assert victory_points((600, 400), rows) == (13, 7)
    assert victory_points((605, 400), rows) == (16, 4)
    capped = vp_table([[100, 10, 10], [300, 12, 8]])  # no "over" row: past 300 the last row
    assert victory_points((0, 900), capped) == (8, 12)
    uneven = vp_table([[0, 2, 2], [100, 3, 0]])  # winner + loser need not be constant
    assert victory_points((50, 0), uneven) == (3, 0)
    assert victory_points((5, 5), vp_table([[10, 3, 1], [None, 4, 0]])) == (2, 2)  # a tie shares the first row


@pytest.mark.parametrize("spec, sentence", [
    ("burraco_5", "There is no victory-point table called burraco_5."),
    ([], "A victory-point table is a name or a list of rows."),
    (17, "A victory-point table is a name or a list of rows."),
    ([[50, 10]], "Row 1 of the victory-point table needs three numbers: the largest difference, the winner's VP "
                 "and the loser's VP."),
    ([[50, 10, 10], [None, 12, 8], [300, 14, 6]], "Only the last row of the victory-point table may leave its "
                                                  "largest difference empty (over the row before)."),
    ([[50, "10", 10]], "Row 1 of the victory-point table needs three numbers: the largest difference, the "
                       "winner's VP and the loser's VP."),
    ([[50, True, 10]], "Row 1 of the victory-point table needs three numbers: the largest difference, the "
                       "winner's VP and the loser's VP."),
    ([[150, 10, 10], [150, 12, 8]], "Row 2 of the victory-point table: its largest difference must be above the "
                                    "row before's."),
    ([[-5, 10, 10]], "Row 1 of the victory-point table: its largest difference must be above the row before's."),
    ([[50, 10, 10], [150, 8, 12]], "Row 2 of the victory-point table: the winner cannot take fewer VP than the "
                                   "loser."),
    ([[50, 12, 8], [150, 11, 7]], "Row 2 of the victory-point table: a larger difference cannot give the winner "
                                  "fewer VP or the loser more."),
])
def test_a_table_that_cannot_be_read_is_refused_with_a_sentence(spec, sentence):
    with pytest.raises(ValueError) as refused:
        vp_table(spec)
    assert str(refused.value) == sentence
    assert isinstance(refused.value, PlanError) and status_of(refused.value) == 422
    assert refused.value.code in ("bad_vp_table", "bad_vp_row")


def state(totals, finished=True, winner=None, **series):
    return {"totals": totals, "series": {"finished": finished, "winner": winner, **series}}


def test_r_buraco_a_tables_result_from_its_totals():
    rows = vp_table("burraco_3")
    assert match_points("buraco", state([1235, 680])) == (1235, 680)
    assert table_result("buraco", state([1235, 680], winner=0), rows) == {"mp": [1235, 680], "vp": [15, 5]}
    assert table_result("buraco", state([-120, 40], winner=1), rows) == {"mp": [-120, 40], "vp": [8, 12]}
    with pytest.raises(PlanError) as refused:
        match_points("buraco", state([10, 20, 30]))
    assert str(refused.value) == "A tournament table has two sides; this one has 3."


def test_trick_games_win_draw_loss():
    assert trick_result("brisca", state([2, 1], winner=0)) == (2, 0)
    assert trick_result("brouc", state([3, 7], winner=1)) == (0, 2)
    assert trick_result("brusquembille", state([60, 60], winner=None)) == (1, 1)
    assert table_result("brisca", state([71, 49], winner=0)) == {"mp": [71, 49], "vp": [2, 0]}
    # a table closed by the director before its series ended: its totals as they stand
    assert trick_result("brouc", state([40, 10], finished=False)) == (2, 0)
    assert trick_result("brouc", state([10, 10], finished=False)) == (1, 1)


def test_r_brulot_6_lowest_wins_and_equal_lowest_share():
    assert better("brulot", 12, 30) and not better("brisca", 12, 30) and better("buraco", 30, 12)
    assert trick_result("brulot", state([12, 30], winner=0, winners=[0])) == (2, 0)
    assert trick_result("brulot", state([30, 12], winner=1, winners=[1])) == (0, 2)
    assert trick_result("brulot", state([20, 20], winner=None, winners=[0, 1])) == (1, 1)
    assert trick_result("brulot", state([20, 35], finished=False)) == (2, 0)
    assert table_result("brulot", state([20, 35], winner=0, winners=[0])) == {"mp": [20, 35], "vp": [2, 0]}
