"""Movements with exact seatings (issue 17): Mitchell on 4, 5, 6 and 7 tables over all its rounds, the skip with an
even number of tables, the phantom of an odd field; Danish from a given standing, repeats avoided (by the next one
down, and by revising a choice above); all-play-all for 6 and 7 entrants. Practice as in the federation's
competition code, art. 17, as summarised by player sites."""
from itertools import combinations

import pytest

from referee.tournament.movements import (PlanError, danish, mitchell, mitchell_rounds, mitchell_seating,
                                          mitchell_shift, round_robin, round_robin_rounds)


def meetings(tables_by_round):
    return [frozenset(pair) for tables in tables_by_round for pair in tables]


def test_mitchell_rounds_without_a_repeat():
    assert [mitchell_rounds(n) for n in (1, 2, 3, 4, 5, 6, 7, 8, 50)] == [1, 1, 3, 3, 5, 5, 7, 7, 49]
    with pytest.raises(ValueError):
        mitchell_rounds(0)


def test_mitchell_4_tables_exact_with_the_skip_in_round_3():
    # (ns_line, ew_line) at tables 1..4; EW moves up one table a round, and skips one from round 3 (index 2) on.
    assert [mitchell(4, r) for r in range(3)] == [
        [(0, 0), (1, 1), (2, 2), (3, 3)],
        [(0, 3), (1, 0), (2, 1), (3, 2)],
        [(0, 1), (1, 2), (2, 3), (3, 0)],  # the skip: EW line 0 goes from table 2 to table 4, not 3
    ]
    assert [mitchell_shift(4, r) for r in range(3)] == [0, 1, 3]
    with pytest.raises(PlanError) as refused:
        mitchell(4, 3)
    assert refused.value.code == "mitchell_over"
    assert str(refused.value) == "A Mitchell on 4 tables has 3 rounds without a repeat meeting; round 4 would be " \
        "one too many."


def test_mitchell_5_tables_exact():
    assert [mitchell(5, r) for r in range(5)] == [
        [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
        [(0, 4), (1, 0), (2, 1), (3, 2), (4, 3)],
        [(0, 3), (1, 4), (2, 0), (3, 1), (4, 2)],
        [(0, 2), (1, 3), (2, 4), (3, 0), (4, 1)],
        [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)],
    ]
    assert [mitchell_shift(5, r) for r in range(5)] == [0, 1, 2, 3, 4]  # odd: no skip
    with pytest.raises(ValueError):
        mitchell(5, 5)


def ew_table(tables, round_index, line):
    return next(t for t, (_ns, ew) in enumerate(mitchell(tables, round_index)) if ew == line)


@pytest.mark.parametrize("tables", [4, 5, 6, 7])
def test_mitchell_nobody_meets_anyone_twice_and_ns_stay(tables):
    rounds = [mitchell(tables, r) for r in range(mitchell_rounds(tables))]
    pairs = [(("ns", ns), ("ew", ew)) for seating in rounds for ns, ew in seating]
    assert len(pairs) == len(set(pairs)) == tables * mitchell_rounds(tables)
    for seating in rounds:
        assert [ns for ns, _ew in seating] == list(range(tables))  # North-South lines stay at their table
        assert sorted(ew for _ns, ew in seating) == list(range(tables))  # every East-West line seated once


def test_mitchell_6_tables_the_skip_happens_in_round_4():
    shifts = [mitchell_shift(6, r) for r in range(5)]
    assert shifts == [0, 1, 2, 4, 5]
    # where EW line 0 sits, round by round (0-based tables): one up a round, two up from round 3 to round 4
    assert [ew_table(6, r, 0) for r in range(5)] == [0, 1, 2, 4, 5]
    assert [ew_table(6, 3, e) for e in range(6)] == [4, 5, 0, 1, 2, 3]
    with pytest.raises(ValueError):
        mitchell(6, 5)


def test_mitchell_7_tables_no_skip():
    assert [mitchell_shift(7, r) for r in range(7)] == list(range(7))
    assert [ew_table(7, r, 6) for r in range(7)] == [6, 0, 1, 2, 3, 4, 5]
    assert mitchell(7, 6) == [(t, (t - 6) % 7) for t in range(7)]


def test_mitchell_seating_of_eight_pairs():
    pairs = [10, 11, 12, 13, 20, 21, 22, 23]  # first half North-South, second half East-West
    assert mitchell_seating(pairs, 0) == ([(10, 20), (11, 21), (12, 22), (13, 23)], None)
    assert mitchell_seating(pairs, 1) == ([(10, 23), (11, 20), (12, 21), (13, 22)], None)
    assert mitchell_seating(pairs, 2) == ([(10, 21), (11, 22), (12, 23), (13, 20)], None)  # the skip
    with pytest.raises(ValueError):
        mitchell_seating(pairs, 3)


def test_mitchell_seating_of_seven_pairs_a_phantom_gives_a_bye_each_round():
    pairs = [1, 2, 3, 4, 5, 6, 7]  # NS 1, 2, 3 and the phantom at table 4; EW 4, 5, 6, 7
    assert [mitchell_seating(pairs, r) for r in range(3)] == [
        ([(1, 4), (2, 5), (3, 6)], 7),
        ([(1, 7), (2, 4), (3, 5)], 6),
        ([(1, 5), (2, 6), (3, 7)], 4),  # the skip (4 tables counting the phantom's)
    ]
    seen = meetings(mitchell_seating(pairs, r)[0] for r in range(3))
    assert len(seen) == len(set(seen)) == 9


def test_mitchell_seating_needs_two_entrants():
    with pytest.raises(PlanError) as refused:
        mitchell_seating([1], 0)
    assert refused.value.code == "too_few_entrants"
    assert mitchell_seating([1, 2], 0) == ([(1, 2)], None)
    assert mitchell_seating([1, 2, 3], 0) == ([(1, 2)], 3)


def test_danish_pairs_the_standing_in_order():
    assert danish([5, 3, 8, 1, 2, 7], set()) == ([(5, 3), (8, 1), (2, 7)], None)


def test_danish_first_and_second_met_so_first_plays_third():
    met = {frozenset((5, 3))}
    assert danish([5, 3, 8, 1, 2, 7], met) == ([(5, 8), (3, 1), (2, 7)], None)


def test_danish_revises_a_choice_above_so_that_the_last_two_need_not_meet_again():
    # 1v2 and 3v4 leave 5 and 6, who met: the search takes 3v5 and 4v6 instead.
    met = {frozenset((5, 6))}
    assert danish([1, 2, 3, 4, 5, 6], met) == ([(1, 2), (3, 5), (4, 6)], None)
    # deeper: 1 met 2; 1v3 leaves 2, 4 … with 4-5 and 5-6 met, 5 needs 2: 1v3, 2v5, 4v6
    met = {frozenset(p) for p in ((1, 2), (4, 5), (5, 6), (3, 5))}
    assert danish([1, 2, 3, 4, 5, 6], met) == ([(1, 3), (2, 5), (4, 6)], None)


def test_danish_accepts_a_repeat_only_when_none_can_be_avoided():
    everyone = {frozenset(p) for p in combinations([1, 2, 3, 4], 2)}
    assert danish([1, 2, 3, 4], everyone) == ([(1, 2), (3, 4)], None)
    nearly = everyone - {frozenset((1, 4))}  # only 1v4 is new: 2v3 is then forced, one repeat
    assert danish([1, 2, 3, 4], nearly) == ([(1, 4), (2, 3)], None)


def test_danish_odd_count_the_lowest_ranked_has_the_bye():
    assert danish([4, 2, 9, 1, 3], set()) == ([(4, 2), (9, 1)], 3)
    assert danish([4, 2, 9, 1, 3], {frozenset((9, 1))}) == ([(4, 9), (2, 1)], 3)


def test_danish_odd_count_the_bye_goes_to_the_lowest_ranked_without_one_yet():
    # The last-ranked pair had the bye last round (its VP the round's average): the next one up has it this time,
    # and only when every entrant has had one does the lowest-ranked have a second.
    assert danish([4, 2, 9, 1, 3], set(), byes={3}) == ([(4, 2), (9, 3)], 1)
    assert danish([4, 2, 9, 1, 3], set(), byes={3, 1}) == ([(4, 2), (1, 3)], 9)
    assert danish([4, 2, 9, 1, 3], set(), byes={4, 2, 9, 1, 3}) == ([(4, 2), (9, 1)], 3)


def test_danish_a_large_field_is_quick():
    ranking = list(range(400))
    met = {frozenset((a, a + 1)) for a in range(0, 400, 2)} | {frozenset((a, a + 2)) for a in range(400)}
    pairs, bye = danish(ranking, met)
    assert bye is None and sorted(x for p in pairs for x in p) == ranking
    assert not [p for p in pairs if frozenset(p) in met]
    assert pairs[:3] == [(0, 3), (1, 2), (4, 7)]


@pytest.mark.parametrize("count", [6, 7])
def test_round_robin_everyone_meets_everyone_exactly_once(count):
    entrants = [100 + i for i in range(count)]
    assert round_robin_rounds(count) == (5 if count == 6 else 7)
    rounds = [round_robin(entrants, r) for r in range(round_robin_rounds(count))]
    seen = meetings(pairs for pairs, _bye in rounds)
    assert len(seen) == len(set(seen)) == count * (count - 1) // 2
    assert set(seen) == {frozenset(p) for p in combinations(entrants, 2)}
    for pairs, bye in rounds:
        seated = [x for p in pairs for x in p] + ([bye] if bye is not None else [])
        assert sorted(seated) == entrants  # everyone once a round
        assert len(pairs) == count // 2
    byes = [bye for _pairs, bye in rounds]
    assert byes == ([None] * 5 if count == 6 else entrants)  # with 7: a bye each round, each entrant one


def test_round_robin_six_exact():
    assert [round_robin([1, 2, 3, 4, 5, 6], r)[0] for r in range(5)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 2), (3, 1), (4, 5)],
        [(3, 6), (4, 2), (5, 1)],
        [(6, 4), (5, 3), (1, 2)],
        [(5, 6), (1, 4), (2, 3)],
    ]
    with pytest.raises(PlanError) as refused:
        round_robin([1, 2, 3, 4, 5, 6], 5)
    assert refused.value.code == "round_robin_over"
