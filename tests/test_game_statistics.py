"""A series' statistics per player, for a club's member pages (issue 29; referee/games/statistics.py): each game's
``statistics`` and ``player_statistics(state)``, from tables built through the engines, deals played card by card,
by their piles and by their numbers, with exact counts per player seat. Only complete deals count; a count of a side
counts for each of its players; a deal entered by its numbers counts what its numbers say."""
import pytest

from referee.games import GAMES, get_game
from referee.games.base import Game
from referee.games.statistics import Stat
from tests.support.deals import (CLEAN_RUN, DEAL_4P, DEAL_D, HAND_4P_A, HAND_4P_B, PILE_76, count, meld, pot, side,
                                 tally, tricks)
from tests.support.engine import Driver

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def stats(game_id: str, state) -> list:
    """``player_statistics`` of a table's state as the API gives it."""
    game = get_game(game_id)
    return game.player_statistics(game.serialise(state))


def per_player(keys: tuple, *rows) -> list:
    """One dict per player from rows of counts in the order of ``keys``."""
    return [dict(zip(keys, row)) for row in rows]


# --- the interface --------------------------------------------------------------------------------------------

EXPECTED_KEYS = {
    "brisca": ("deals_won", "sixty_sixty"),
    "brouc": ("capes", "coches"),
    "brulot": ("brules", "clean_deals"),
    "brusquembille": ("jetons_won", "jetons_lost"),
    "buraco": ("burracos_pure", "burracos_semi_pure", "burracos_dirty", "hands_closed"),
}


@pytest.mark.parametrize("game_id", sorted(EXPECTED_KEYS))
def test_every_game_says_its_statistics_with_words_and_a_ruling_of_its_own(game_id):
    game = get_game(game_id)
    assert tuple(s.key for s in game.statistics) == EXPECTED_KEYS[game_id]
    for stat in game.statistics:
        assert isinstance(stat, Stat) and stat.rule.startswith("R-") and stat.label["fr"] and stat.label["en"]
        assert stat.describe() == {"key": stat.key, "label": {"fr": stat.label["fr"], "en": stat.label["en"]},
                                   "rule": stat.rule}
    players = NAMES[:4]
    state = game.serialise(game.new_table(players))
    assert game.player_statistics(state) == [dict.fromkeys(EXPECTED_KEYS[game_id], 0)] * 4  # nothing played yet


def test_every_registered_game_has_statistics_and_the_base_counts_nothing():
    assert set(GAMES) == set(EXPECTED_KEYS)
    assert Game.statistics == () and Game.player_statistics(Game(), {"players": ["A", "B"], "deals": []}) == [{}, {}]


# --- Brisca (R-BRISCA-6) ----------------------------------------------------------------------------------------

BRISCA = Driver("brisca")
BRISCA_KEYS = EXPECTED_KEYS["brisca"]
PILE_65 = [c for cards, winner, _ in DEAL_4P if winner in (0, 2) for c in cards]  # Ana & Cy's 65 (tests/test_brisca)


def brisca_table(n=4, **options):
    return BRISCA.game.new_table(NAMES[:n], options)


def brisca_tally(points, trump="1O", **extra):
    return [{"type": "deal", "trump": trump}, {"type": "tally", "points": points, **extra}]


def test_brisca_deals_won_by_tricks_piles_and_numbers_count_for_both_partners_r_brisca_6():
    state = BRISCA.play(brisca_table(), {"type": "deal", "trump": "11E"}, *tricks([c for c, _, _ in DEAL_4P]))
    state = BRISCA.play(state, *brisca_tally([60, 60]), *brisca_tally([20, 100]))  # a draw, then Bo & Di's
    state = BRISCA.play(state, {"type": "deal", "trump": "11E"}, {"type": "capture", "side": 0, "cards": PILE_65})
    assert BRISCA.out(state)["series"]["wins"] == [2, 1]
    expected = per_player(BRISCA_KEYS, (2, 1), (1, 1), (2, 1), (1, 1))
    assert stats("brisca", state) == expected
    # Ana deals the fifth deal: three tricks of it entered, nothing of it counts while it is open
    open_deal = BRISCA.play(state, {"type": "deal", "trump": "11E"}, *tricks([c for c, _, _ in DEAL_4P[:3]]))
    assert BRISCA.out(open_deal)["deals"][-1]["complete"] is False
    assert stats("brisca", open_deal) == expected


@pytest.mark.parametrize("options, points, extra, won, sixty", [
    ({"tie_rule": "last_trick"}, [60, 60], {"last_trick": 1}, [0, 1, 0, 1], 1),  # the last trick's side wins
    ({"tie_rule": "replay"}, [60, 60], {}, [0, 0, 0, 0], 1),  # the deal does not count: still a 60–60
    ({"double_over_100": True}, [105, 15], {}, [1, 0, 1, 0], 0),  # two wins, one deal won
    ({"mexican_11": True}, [10, 110], {}, [1, 0, 1, 0], 0),  # R-BRISCA-8: 11 or fewer wins
    ({"mexican_11": True}, [60, 60], {}, [0, 0, 0, 0], 1),  # nobody at 11 or fewer: a draw, and a 60–60
])
def test_brisca_sixty_sixty_counts_for_both_sides_whatever_the_tie_rule_r_brisca_6(options, points, extra, won,
                                                                                   sixty):
    state = BRISCA.play(brisca_table(**options), *brisca_tally(points, **extra))
    assert stats("brisca", state) == [{"deals_won": w, "sixty_sixty": sixty} for w in won]


def test_brisca_two_players_alone_r_brisca_6():
    state = BRISCA.play(brisca_table(2), *brisca_tally([61, 59]), *brisca_tally([60, 60]), *brisca_tally([0, 120]),
                        *brisca_tally([0, 120]))
    assert stats("brisca", state) == per_player(BRISCA_KEYS, (1, 1), (2, 1))


# --- Brouc (R-BROUC-7, 8, 8b) -----------------------------------------------------------------------------------

BROUC = Driver("brouc")
BROUC_KEYS = EXPECTED_KEYS["brouc"]
BROUC_DEAL = {"type": "deal", "trump": "7D"}


def brouc_tally(points, **extra):
    return [BROUC_DEAL, {"type": "tally", "points": points, **extra}]


def test_brouc_capes_made_declared_or_not_and_the_coches_each_side_got_r_brouc_8():
    state = BROUC.game.new_table(NAMES[:4])
    # 1. Ana & Cy take all eight tricks, undeclared (R-BROUC-8b): their cape, 2 coches to Bo & Di
    state = BROUC.play(state, {"type": "deal", "trump": "10H"}, *tricks(DEAL_D))
    # 2-4. by numbers: 11 and 1 tens twice (22 to 2), then Ana declares and makes "la cape, dehors et pas dédoublé"
    state = BROUC.play(state, *brouc_tally([110, 10]), *brouc_tally([110, 10]), *brouc_tally(
        [120, 0], cape=0, declare={"player": 0, "call": "cape_dehors_pas_dedouble"}))  # 4 coches to Bo & Di
    # 5-7. Bo & Di go out at 33 by numbers: one coche to Ana & Cy (R-BROUC-7), no cape
    for _ in range(3):
        state = BROUC.play(state, *brouc_tally([10, 110]))
    # 8-10. Bo & Di reach 22, then Bo declares la cape and misses it: its 3 coches go to Bo & Di
    state = BROUC.play(state, *brouc_tally([10, 110]), *brouc_tally([10, 110]), *brouc_tally(
        [20, 100], declare={"player": 1, "call": "cape_dehors"}))
    # 11. a cape by the piles: Bo & Di's pile holds all 32 cards
    everything = [c.code for c in BROUC.game.deck_for(state).cards]
    state = BROUC.play(state, BROUC_DEAL, {"type": "capture", "side": 1, "cards": everything})
    result = BROUC.out(state)
    assert [d["coches"] for d in result["deals"]] == [[0, 2], [0, 0], [0, 0], [0, 4], [0, 0], [0, 0], [1, 0],
                                                      [0, 0], [0, 0], [0, 3], [2, 0]]
    assert result["series"]["coches"] == [3, 9]
    expected = per_player(BROUC_KEYS, (2, 3), (1, 9), (2, 3), (1, 9))
    assert stats("brouc", state) == expected
    # an open deal counts nothing yet, not even the cape it is heading for
    open_deal = BROUC.play(state, {"type": "deal", "trump": "10H"}, *tricks(DEAL_D[:7]))
    assert stats("brouc", open_deal) == expected


def test_brouc_a_declared_cape_made_by_tricks_is_one_cape_and_its_coches_r_brouc_8():
    state = BROUC.game.new_table(NAMES[:4], None, 1)
    for _ in range(3):  # Ana & Cy at 24, Bo & Di at 12 (tests/test_brouc.py's before_the_cape)
        state = BROUC.play(state, BROUC_DEAL, {"type": "capture", "side": 0, "cards": PILE_76})
    state = BROUC.play(state, {"type": "deal", "trump": "10H"}, *tricks(DEAL_D[:6]),
                       {"type": "declare", "player": 2, "call": "cape_dehors"}, *tricks(DEAL_D[6:]))
    assert BROUC.out(state)["series"]["coches"] == [0, 3]
    assert stats("brouc", state) == per_player(BROUC_KEYS, (1, 0), (0, 3), (1, 0), (0, 3))


# --- Brûlot (R-BRULOT-4, 5) -------------------------------------------------------------------------------------

BRULOT = Driver("brulot")
BRULOT_KEYS = EXPECTED_KEYS["brulot"]


def brulot_tally(penalties, trump="2D"):
    return [{"type": "deal", "trump": trump}, {"type": "tally", "penalties": penalties}]


def test_brulot_brules_by_tricks_only_and_clean_deals_however_entered_r_brulot_4():
    # 1. by tricks (tests/recorded/deals/brulot_4p_reveal.json, trump spades): Réjean (2) is brûlé in trick 4, then
    # Gaétan (3) in trick 7, Sylvie (1) in trick 8, and Ginette (0) with her last card, 4D on hearts; everyone took
    # a penalty card
    state, events, _ = BRULOT.recorded("brulot_4p_reveal", 0)
    state = BRULOT.play(BRULOT.game.new_table(state.players, {"deals": 5}, 0), *events)
    first = BRULOT.out(state)["deals"][0]
    assert first["brule"] == {"2": 4, "3": 7, "1": 8, "0": 13} and first["penalties"] == [16, 12, 9, 3]
    # 2. by its numbers: Ana and Di take no penalty card; who became brûlé the numbers do not say
    state = BRULOT.play(state, *brulot_tally([0, 20, 20, 0]))
    # 3. by piles: Ana, Bo and Cy take one trick each without a penalty card; Di takes the rest
    state = BRULOT.play(state, {"type": "deal", "trump": "10D"},
                        {"type": "capture", "side": 0, "cards": ["2S", "3S", "4S", "5S"]},
                        {"type": "capture", "side": 1, "cards": ["2H", "3H", "4H", "5H"]},
                        {"type": "capture", "side": 2, "cards": ["6S", "7S", "8S", "9S"]})
    assert BRULOT.out(state)["deals"][2]["penalties"] == [0, 0, 0, 40]
    assert stats("brulot", state) == per_player(BRULOT_KEYS, (1, 2), (1, 1), (1, 1), (1, 1))


def test_brulot_a_brule_in_an_open_deal_counts_once_the_deal_is_complete_r_brulot_4():
    state = BRULOT.play(BRULOT.game.new_table(NAMES[:4], {"no_trump": True}), {"type": "deal", "trump": None},
                        {"type": "trick", "cards": ["AS", "2H", "3S", "4S"]})  # Cy plays a heart: brûlé
    assert BRULOT.out(state)["deals"][0]["brule"] == {"2": 1}
    assert stats("brulot", state) == per_player(BRULOT_KEYS, (0, 0), (0, 0), (0, 0), (0, 0))


def test_brulot_a_clean_deal_in_partnership_is_the_sides_with_or_without_a_bonus_r_brulot_5():
    state = BRULOT.game.new_table(NAMES[:4], {"partnership": True, "clean_deal_bonus": 5, "deals": 3})
    state = BRULOT.play(state, *brulot_tally([0, 20, 0, 20]),  # Ana & Cy took nothing: a clean deal, 5 off
                        *brulot_tally([0, 20, 5, 15]))  # Ana took nothing, Cy did: no clean deal for either
    assert BRULOT.out(state)["totals"] == [0, 40 + 35]
    assert stats("brulot", state) == per_player(BRULOT_KEYS, (0, 1), (0, 0), (0, 1), (0, 0))
    plain = BRULOT.play(BRULOT.game.new_table(NAMES[:3]), *brulot_tally([0, 13, 27]))  # no bonus: still clean
    assert BRULOT.out(plain)["deals"][0]["points"] == [0, 13, 27]
    assert stats("brulot", plain) == per_player(BRULOT_KEYS, (0, 1), (0, 0), (0, 0))


# --- Brusquembille (R-BRUSQ-4) ----------------------------------------------------------------------------------

BRUSQ = Driver("brusquembille")
BRUSQ_KEYS = EXPECTED_KEYS["brusquembille"]


def test_brusquembille_jetons_won_and_lost_by_numbers_r_brusq_4():
    """Three alone, trump spades: Ana's AH won earns 2 from Bo and from Cy; Bo's 10H trumped pays 1 to Ana and 1 to
    Cy; Cy's AD beaten by a higher card moves nothing."""
    state = BRUSQ.play(BRUSQ.game.new_table(NAMES[:3]), {"type": "deal", "trump": "9S"}, {
        "type": "tally", "points": [60, 30, 30], "brusquembilles": [
            {"card": "AH", "player": 0, "outcome": "won"}, {"card": "10H", "player": 1, "outcome": "trumped"},
            {"card": "AD", "player": 2, "outcome": "beaten"}]})
    assert BRUSQ.out(state)["jetons"] == [5, -4, -1]
    assert stats("brusquembille", state) == per_player(BRUSQ_KEYS, (5, 0), (0, 4), (1, 2))


def test_brusquembille_jetons_in_partnership_go_to_each_opponent_never_the_partner_r_brusq_4():
    """Four in two sides: Cy's AH won earns 2 from Bo and 2 from Di (Ana, his partner, gets nothing); Di's 10S
    trumped pays 1 to Ana and 1 to Cy. By the piles, with the brusquembilles entered beside them."""
    pile = ["AH", "KH", "QH", "JH", "10S", "7S", "AC", "KC"]  # Ana & Cy's two tricks: 11+4+3+2 and 10+11+4
    state = BRUSQ.play(BRUSQ.game.new_table(NAMES[:4]), {"type": "deal", "trump": "9C"},
                       {"type": "capture", "side": 0, "cards": pile, "brusquembilles": [
                           {"card": "AH", "player": 2, "outcome": "won"},
                           {"card": "10S", "player": 3, "outcome": "trumped"}]})
    assert BRUSQ.out(state)["jetons"] == [1, -2, 5, -4]
    assert stats("brusquembille", state) == per_player(BRUSQ_KEYS, (1, 0), (0, 2), (5, 0), (0, 4))


# tests/recorded/deals/brusquembille_3p.json, trump spades, worked by hand trick by trick (Hortense 0, Basile 1,
# Colette 2): 2. Basile's 10H won; 3. Hortense's 10D trumped by 9S; 4. Basile's AC won; 5. Colette's 10S won; 8.
# Basile's AD won (Hortense's AH beaten by it: nothing); 9. Hortense's AS won; 10. Hortense's 10C trumped by KS.
MOVES_3P = [(1, "won", 1), (0, "coupe", 1), (1, "won", 2), (2, "won", 1), (1, "won", 2), (0, "won", 2),
            (0, "coupe", 1)]
# Hortense receives 4 (9.) and pays 1 + 2 + 2 + 1 + 2 + 2; Basile receives 2 + 1 + 4 + 4 + 1 and pays 1 + 2;
# Colette receives 1 + 2 + 1 and pays 1 + 2 + 2 + 2.
COUNTS_3P = [(4, 10), (12, 3), (4, 7)]


def test_brusquembille_jetons_of_a_deal_played_by_tricks_count_once_it_is_complete_r_brusq_4():
    state, events, _ = BRUSQ.recorded("brusquembille_3p", 0)
    first = BRUSQ.play(state, *events[:3])  # two tricks in: jetons moved, nothing counted yet
    assert BRUSQ.out(first)["jetons"] != [0, 0, 0]
    assert stats("brusquembille", first) == per_player(BRUSQ_KEYS, (0, 0), (0, 0), (0, 0))
    result = BRUSQ.out(BRUSQ.play(state, *events))
    counted = BRUSQ.game.player_statistics(result)
    moves = [(m["player"], m["kind"], m["jetons"]) for m in result["deals"][0]["movements"]]
    assert moves == MOVES_3P
    assert counted == per_player(BRUSQ_KEYS, *COUNTS_3P)
    assert [c["jetons_won"] - c["jetons_lost"] for c in counted] == result["jetons"]


# --- Buraco (R-BURACO-3, 5) -------------------------------------------------------------------------------------

BURACO = Driver("buraco")
BURACO_KEYS = EXPECTED_KEYS["buraco"]
HAND = {"type": "deal", "trump": None}
DIRTY_RUN = ["5H", "6H", "7H", "JK", "9H", "10H", "JH"]  # the joker inside: dirty (R-BURACO-3)


def test_buraco_burracos_by_class_and_hands_closed_by_melds_and_by_numbers_r_buraco_3():
    melds_a, tally_a, _ = HAND_4P_A  # Ana & Cy: a pure burraco, Cy closes
    melds_b, tally_b, _ = HAND_4P_B  # Bo & Di: a pure and a semi-pure burraco, Bo closes
    state = BURACO.play(BURACO.game.new_table(NAMES[:4]), HAND, *melds_a, HAND, tally_b, HAND, *melds_b,
                        HAND, tally_a,
                        HAND, meld(0, DIRTY_RUN), count(None, [["3S"], [], [], []]))  # the stock ran out
    result = BURACO.out(state)
    assert [d["closed_by"] for d in result["deals"]] == [2, 1, 1, 2, None]
    expected = per_player(BURACO_KEYS, (2, 0, 1, 2), (2, 2, 0, 2), (2, 0, 1, 2), (2, 2, 0, 2))
    assert stats("buraco", state) == expected
    open_hand = BURACO.play(state, HAND, meld(0, CLEAN_RUN))  # a pure burraco laid, the hand not counted yet
    assert stats("buraco", open_hand) == expected


def test_buraco_three_players_count_for_the_team_the_hand_ended_with_r_buraco_1b():
    state = BURACO.play(
        BURACO.game.new_table(NAMES[:3]),
        # 1. by melds: Ana takes the 18 and lays a pure burraco, closes; Bo & Cy's team lays none
        HAND, meld(1, ["3D", "4D", "5D"]), meld(2, ["9S", "9H", "9D"]), pot(0), meld(0, CLEAN_RUN),
        {"type": "extend", "side": 2, "meld": 0, "cards": ["6D"], "at": "end"}, pot(1),
        count(0, [[], ["KS"], ["7H", "8H"]]),
        # 2. by numbers: Cy takes the 18 and a pure burraco; Ana & Bo's dirty set is written under Bo
        HAND, tally(None, side(30, False, 5), side(80, False, 0, dirty=1), side(65, True, 30, pure=1),
                    teams=[[0, 1], [2]]),
        # 3. by numbers: Bo & Cy's pure burraco written under Cy, who closes
        HAND, tally(2, side(0, True, 20), side(40, False, 0), side(15, True, 0, pure=1), teams=[[0], [1, 2]]),
        # 4. by melds: nobody reaches a pot, Bo lays a dirty burraco alone
        HAND, meld(1, DIRTY_RUN), count(None, [["AS"], [], ["JK"]]))
    assert [[t["players"] for t in d["teams"]] for d in BURACO.out(state)["deals"]] == [
        [[0], [1, 2]], [[2], [0, 1]], [[0], [1, 2]], [[0], [1], [2]]]
    assert stats("buraco", state) == per_player(BURACO_KEYS, (1, 0, 1, 1), (1, 0, 2, 1), (2, 0, 0, 1))


def test_buraco_a_semi_pure_set_and_five_players_by_numbers_r_buraco_3():
    state = BURACO.play(BURACO.game.new_table(NAMES[:5]), HAND, tally(
        3, side(0, True, 5), side(15, False, 10), side(0, False, 0), side(65, True, 0, pure=1), side(15, False, 30),
        teams=[[3], [0, 1, 2, 4]]))  # Di alone with a pure burraco, closes; the team of four lays none
    assert stats("buraco", state) == per_player(BURACO_KEYS, *[(0, 0, 0, 0)] * 3, (1, 0, 0, 1), (0, 0, 0, 0))
    two = BURACO.play(BURACO.game.new_table(NAMES[:2]), HAND, pot(0),
                      meld(0, ["QH", "QS", "QD", "QC", "QH", "QS", "QD", "JK"]),  # 7 queens and a joker: semi-pure
                      count(0, [[], ["4S"]]))
    assert BURACO.out(two)["deals"][0]["melds"]["0"][0]["burraco"] == "semi_pure"
    assert stats("buraco", two) == per_player(BURACO_KEYS, (0, 1, 0, 1), (0, 0, 0, 0))
