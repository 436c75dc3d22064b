"""Buraco's tournament round (R-BURACO-6, the ``hands`` option): the series ends after that many hands whatever the
totals, the higher total wins, equal totals have no winner; 0 (the default) plays to the target as before."""
import pytest

from referee.errors import ParseError, RuleError
from referee.games import get_game

BURACO = get_game("buraco")
DEAL = {"type": "deal", "trump": None}


def tally(a_melds, a_hand, b_melds, b_hand, closed_by=None):
    """A hand by its numbers with 4 players: each side took its pot, no burraco; nobody closed unless asked."""
    side = lambda melds, hand, burracos: {"melds": melds, "burracos": burracos, "pot": True, "hand": hand}  # noqa: E731
    return {"type": "tally", "closed_by": closed_by,
            "sides": [side(a_melds, a_hand, {}), side(b_melds, b_hand, {})]}


def play(options, *hands):
    table = BURACO.new_table(["Ana", "Bo", "Cy", "Di"], options)
    for hand in hands:
        table = BURACO.apply(table, BURACO.parse_event(table, DEAL))
        table = BURACO.apply(table, BURACO.parse_event(table, hand))
    return table


def test_r_buraco_6_a_round_of_3_hands_ends_after_the_third_and_the_higher_total_wins():
    table = play({"hands": 3}, tally(100, 10, 50, 20), tally(60, 5, 90, 0))
    assert table.totals == [145, 120] and not table.finished  # 90 + 55; 30 + 90
    table = play({"hands": 3}, tally(100, 10, 50, 20), tally(60, 5, 90, 0), tally(40, 15, 80, 5))
    assert table.totals == [170, 195]  # 145 + 25; 120 + 75
    assert table.finished and table.winner == 1
    with pytest.raises(RuleError) as refused:
        BURACO.apply(table, BURACO.parse_event(table, DEAL))
    assert refused.value.code == "series_finished"


def test_r_buraco_6_a_round_of_hands_ignores_the_target_and_equal_totals_have_no_winner():
    table = play({"hands": 2, "target": 100}, tally(200, 0, 50, 20), tally(30, 10, 210, 0))
    assert table.totals == [220, 240] and table.finished and table.winner == 1  # 200 passed the target: no end
    table = play({"hands": 2}, tally(100, 10, 60, 0), tally(40, 0, 70, 0))
    assert table.totals == [130, 130] and table.finished and table.winner is None


def test_r_buraco_6_without_hands_the_target_ends_the_series_as_before():
    table = play({"target": 210}, tally(200, 0, 50, 20), tally(30, 10, 15, 5))
    assert table.options["hands"] == 0 and table.totals == [220, 40] and table.finished and table.winner == 0


def test_r_buraco_6_a_negative_number_of_hands_is_refused():
    with pytest.raises(ParseError) as refused:
        BURACO.new_table(["Ana", "Bo"], {"hands": -1})
    assert refused.value.code == "bad_option"
