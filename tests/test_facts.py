"""What a page asks of a game, answered by the game (referee/games/facts.py and each engine): the exact word or
number each game gives, read from a new table's state as the templates read it (``game_of(state)``)."""
from __future__ import annotations

import pytest

from referee.games import get_game

FOUR = ["Ana", "Bo", "Cy", "Di"]


def state_of(game_id: str, options: dict | None = None, players=FOUR) -> tuple:
    game = get_game(game_id)
    return game, game.serialise(game.new_table(players, options or {}))


WORDS = {  # game: (deal_word, penalty_points, trick_entry, numbers_fields, entry_modes, pile_fields, round_unit,
    #              scored_by_vp_table, deals_a_widow, points_rule)
    "brisca": ("deal", False, "cards", "sides", ("trick", "capture", "numbers"), (), None, False, False,
               "R-BRISCA-1"),
    "brouc": ("deal", False, "cards", "sides", ("trick", "capture", "numbers"), ("announces", "marriages", "declare"),
              None, False, False, "R-BROUC-2"),
    "brulot": ("deal", True, "cards", "players", ("trick", "capture", "numbers"), (), "deals", False, True,
               "R-BRULOT-5"),
    "brusquembille": ("deal", False, "cards", "sides", ("trick", "capture", "numbers"), ("brusquembilles",), "deals",
                      False, False, "R-BRUSQ-3"),
    "buraco": ("hand", False, "melds", "melds", ("trick", "numbers"), (), "hands", True, False, "R-BURACO-4"),
}


@pytest.mark.parametrize("game_id", sorted(WORDS))
def test_each_game_says_its_own_words_r_common_6(game_id):
    game = get_game(game_id)
    assert (game.deal_word, game.penalty_points, game.trick_entry, game.numbers_fields, game.entry_modes,
            game.pile_fields, game.round_unit, game.scored_by_vp_table, game.deals_a_widow,
            game.points_rule) == WORDS[game_id]
    assert game.piles_have_extras == bool(WORDS[game_id][5])
    assert bool(game.piles_carry) == bool(WORDS[game_id][5])  # said in words where a pile carries more


def test_r_brouc_6_the_board_draws_the_other_side_then_the_scorer_s():
    game, state = state_of("brouc", {"scorer_side": 0})
    assert game.side_order(state) == [1, 0]
    game, state = state_of("brouc", {"scorer_side": 1})
    assert game.side_order(state) == [0, 1]
    game, state = state_of("brisca")
    assert game.side_order(state) == [0, 1]


def test_r_common_2_each_card_of_the_trick_under_way_is_played_in_turn_from_the_leader():
    game, state = state_of("brulot", players=["Ana", "Bo", "Cy"])
    leader = state["next"]["player"]
    assert [game.trick_seat(state, i) for i in range(4)] == [leader, (leader + 1) % 3, (leader + 2) % 3, leader]


def test_how_a_series_is_won_and_how_long_it_is():
    cases = [  # (game, options, planned_deals, points_target, series_word)
        ("brisca", {}, 0, None, "wins"),  # R-BRISCA-6
        ("brisca", {"trump_rotation": True}, 4, None, "rotation"),  # R-BRISCA-7
        ("brouc", {}, 0, None, "slate"),  # R-BROUC-6, 7
        ("brulot", {"deals": 6}, 6, None, "deals"),  # R-BRULOT-6
        ("brusquembille", {"deals": 5}, 5, None, "highest"),  # R-BRUSQ-5
        ("brusquembille", {"target_points": 500}, 0, 500, "target_points"),
        ("buraco", {}, 0, 2005, "target"),  # R-BURACO-6
        ("buraco", {"hands": 3}, 3, None, "round"),
    ]
    for game_id, options, planned, target, word in cases:
        game, state = state_of(game_id, options)
        assert (game.planned_deals(state), game.points_target(state), game.series_word(state)) == \
            (planned, target, word), (game_id, options)


def test_r_brisca_6_earlier_deals_in_one_row_count_only_the_deals_that_count():
    game, state = state_of("brisca")
    deals = [{"complete": True, "points": [70, 50], "outcome": {"winner": 0, "counted": True}},
             {"complete": True, "points": [60, 60], "outcome": {"winner": None, "counted": False}},
             {"complete": True, "points": [101, 19], "outcome": {"winner": 0, "wins": 2, "counted": True}},
             {"complete": False, "points": [11, 0]}]
    assert game.summed_deals(state, deals) == {"points": [171, 69], "wins": [3, 0]}
    game, state = state_of("brusquembille", {"deals": 5})
    assert game.summed_deals(state, deals) == {"points": [231, 129, 0, 0][:len(state["sides"])],
                                               "wins": [0] * len(state["sides"])}


def test_a_deal_is_untouched_until_its_first_trick_or_meld():
    brulot = get_game("brulot")
    deal = [{"type": "deal", "trump": "AH"}]
    table = brulot.replay(["Ana", "Bo", "Cy"], {}, 0, deal)
    assert brulot.untouched(table) is True
    buraco = get_game("buraco")
    hand = buraco.replay(FOUR, {}, 0, [{"type": "deal", "trump": None}])
    assert buraco.untouched(hand) is True
    laid = buraco.replay(FOUR, {}, 0, [{"type": "deal", "trump": None},
                                       {"type": "meld", "side": 0, "cards": ["3D", "4D", "5D"]}])
    assert buraco.untouched(laid) is False
