"""Brisca's deal and series results as pure functions (referee/games/brisca/score.py), each case a ruling's own."""
import pytest

from referee.games.brisca.score import deal_outcome, series_result

DEFAULTS = {"mexican_11": False, "tie_rule": "draw", "double_over_100": False, "wins_needed": 3,
            "trump_rotation": False}


def outcome(points, last=None, **options):
    found = deal_outcome({**DEFAULTS, **options}, points, last)
    return found["winner"], found["wins"], found["counted"], found["rule"], found["reason"]["en"]


def test_r_brisca_6_more_than_60_wins_the_deal():
    assert outcome([65, 55]) == (0, 1, True, "R-BRISCA-6", "65 points, more than 60: the deal is won.")
    assert outcome([40, 80]) == (1, 1, True, "R-BRISCA-6", "80 points, more than 60: the deal is won.")


def test_r_brisca_6_more_than_100_counts_twice_only_with_the_option():
    assert outcome([101, 19], double_over_100=True)[:2] == (0, 2)
    assert outcome([100, 20], double_over_100=True)[:2] == (0, 1)  # 100 is not more than 100
    assert outcome([101, 19])[:2] == (0, 1)


@pytest.mark.parametrize("rule, last, expected", [
    ("draw", None, (None, 0, True, "R-BRISCA-6", "60–60: a draw.")),
    ("replay", None, (None, 0, False, "R-BRISCA-6", "60–60: the deal does not count and is replayed.")),
    ("last_trick", 1, (1, 1, True, "R-BRISCA-6", "60–60: won by the side that took the last trick.")),
])
def test_r_brisca_6_a_60_60_tie_follows_the_tie_rule(rule, last, expected):
    assert outcome([60, 60], last, tie_rule=rule) == expected


def test_r_brisca_8_mexican_the_side_with_11_or_fewer_wins():
    assert outcome([109, 11], mexican_11=True) == (1, 1, True, "R-BRISCA-8",
                                                   "11 points, 11 or fewer: the deal is won.")
    assert outcome([108, 12], mexican_11=True) == (None, 0, True, "R-BRISCA-8",
                                                   "No side took 11 points or fewer: a draw.")


def test_the_french_reason_is_written_from_the_same_values():
    reason = deal_outcome(DEFAULTS, [65, 55], None)["reason"]["fr"]
    assert reason == "65 points, plus de 60\u00a0: partie gagnée."


def test_r_brisca_6_the_series_ends_at_wins_needed():
    assert series_result(DEFAULTS, [2, 1], [200, 160], 3) == (False, None)
    assert series_result(DEFAULTS, [1, 3], [180, 180], 4) == (True, 1)
    assert series_result({**DEFAULTS, "wins_needed": 5}, [4, 3], [0, 0], 7) == (False, None)


def test_r_brisca_7_rotation_four_deals_most_wins_then_most_points():
    rotation = {**DEFAULTS, "trump_rotation": True}
    assert series_result(rotation, [3, 0], [300, 180], 3) == (False, None)  # three deals: not over
    assert series_result(rotation, [2, 2], [250, 230], 4) == (True, 0)  # equal wins: more points
    assert series_result(rotation, [1, 2], [260, 220], 4) == (True, 1)
    assert series_result(rotation, [2, 2], [240, 240], 4) == (True, None)  # equal on both: no winner
