"""Each game's series standing, as its engine says it (``series.standing``, referee/games/standing.py): the unit the
series is counted in, each side's number, the leader (or that the sides are level) and, once over, the winner (or
the shared win). Brisca counts deals won (R-BRISCA-6, 7), Brouc the partie's slate beside the evening's coches
(R-BROUC-6, 7, 8), Brûlot penalty points, the lowest leading (R-BRULOT-6), Brusquembille points beside the jetons
(R-BRUSQ-4, 5), Buraco points toward the target (R-BURACO-6)."""
from referee.games import get_game
from tests.support.engine import Driver

BRISCA_DEALS = [[61, 59], [20, 100], [61, 59], [20, 100], [61, 59]]  # Montse 3 deals to 2, 223 card points to 377


def brisca(points, players=("Montse", "Jordi"), **options):
    driver = Driver("brisca")
    state = get_game("brisca").new_table(list(players), options)
    for deal in points:
        trump = [] if options.get("trump_rotation") else [{"type": "deal", "trump": "1O"}]
        state = driver.play(state, *(trump or [{"type": "deal"}]), {"type": "tally", "points": deal})
    return driver.out(state)["series"]["standing"]


def without(standing, *names):
    return {k: v for k, v in standing.items() if k not in names}


def test_r_brisca_6_the_series_is_counted_in_deals_won_and_won_by_the_side_with_fewer_card_points():
    standing = brisca(BRISCA_DEALS)
    assert without(standing, "label", "beside") == {
        "unit": "deals_won", "values": [3, 2], "rule": "R-BRISCA-6", "order": [0, 1], "leader": 0,
        "lowest_leads": False, "finished": True, "winners": [0], "decided_by": None}
    assert standing["label"] == {"fr": "donnes gagnées", "en": "deals won"}
    assert standing["beside"] == [{"unit": "card_points", "label": {"fr": "points des cartes", "en": "card points"},
                                   "values": [223, 377], "rule": "R-BRISCA-1", "headline": False}]


def test_r_brisca_6_during_the_series_the_side_with_more_deals_leads_and_equal_deals_are_level():
    assert [(s["values"], s["order"], s["leader"], s["winners"], s["finished"])
            for s in (brisca(BRISCA_DEALS[:n]) for n in range(5))] == [
        ([0, 0], [0, 1], None, [], False),
        ([1, 0], [0, 1], 0, [], False),
        ([1, 1], [0, 1], None, [], False),  # level, whatever the card points (81 to 159)
        ([2, 1], [0, 1], 0, [], False),
        ([2, 2], [0, 1], None, [], False)]
    assert brisca([[20, 100]])["order"] == [1, 0] and brisca([[20, 100]])["leader"] == 1  # Jordi leads 1–0


def test_r_brisca_6_a_deal_won_with_more_than_100_counts_two_deals():
    standing = brisca([[101, 19]], double_over_100=True)
    assert (standing["values"], standing["leader"]) == ([2, 0], 0)


def test_r_brisca_7_with_the_trump_rotation_equal_deal_wins_are_broken_by_the_card_points():
    rotation = {"trump_rotation": True}
    level = brisca([[70, 50], [50, 70]], **rotation)
    assert (level["values"], level["leader"], level["decided_by"]) == ([1, 1], None, None)  # 120–120 too
    ahead = brisca([[70, 50], [50, 70], [20, 100]], **rotation)
    assert (ahead["values"], ahead["order"], ahead["leader"], ahead["decided_by"]) == ([1, 2], [1, 0], 1, None)
    won = brisca([[70, 50], [50, 70], [61, 59], [20, 100]], **rotation)  # 2–2, 201 card points to 279
    assert without(won, "label", "beside") == {
        "unit": "deals_won", "values": [2, 2], "rule": "R-BRISCA-7", "order": [1, 0], "leader": 1,
        "lowest_leads": False, "finished": True, "winners": [1],
        "decided_by": {"fr": "aux points", "en": "on points"}}
    tied = brisca([[70, 50], [50, 70], [50, 70], [70, 50]], **rotation)  # 2–2 and 240–240: no winner
    assert (tied["values"], tied["leader"], tied["winners"], tied["finished"], tied["decided_by"]) == (
        [2, 2], None, [], True, None)


def brouc(*points, **options):
    driver = Driver("brouc")
    state = get_game("brouc").new_table(["Ana", "Bo", "Cy", "Di"], options)
    for deal in points:
        state = driver.play(state, {"type": "deal", "trump": "7D"}, {"type": "tally", "points": deal})
    return driver.out(state)["series"]["standing"]


def test_r_brouc_6_the_partie_s_slate_in_tens_leads_with_the_evening_s_coches_beside_it():
    standing = brouc([90, 30], [44, 76])  # 9 + 4 to 3 + 8: Ana & Cy 13, Bo & Di 11
    assert without(standing, "label", "beside") == {
        "unit": "slate", "values": [13, 11], "rule": "R-BROUC-6", "order": [0, 1], "leader": 0,
        "lowest_leads": False, "finished": False, "winners": [], "decided_by": None}
    assert standing["label"] == {"fr": "à l'ardoise", "en": "on the slate"}
    assert standing["beside"] == [{"unit": "coches", "label": {"fr": "coches", "en": "coches"}, "values": [0, 0],
                                   "rule": "R-BROUC-7", "headline": True}]
    assert (brouc([65, 55])["values"], brouc([65, 55])["leader"]) == ([7, 6], 0)  # 5 rounds up for both


def test_r_brouc_7_after_a_partie_the_slates_start_level_and_the_loser_s_coche_stays_beside():
    standing = brouc(*[[90, 30]] * 4)  # 36–12: out at 31, a coche to Bo & Di
    assert (standing["values"], standing["leader"], standing["beside"][0]["values"]) == ([0, 0], None, [0, 1])


def test_r_brouc_7_once_the_evening_is_over_its_coches_say_who_won_it_the_fewer_the_better():
    standing = brouc(*[[90, 30]] * 4, coches_to_lose=1)
    assert without(standing, "label") == {
        "unit": "coches", "values": [0, 1], "rule": "R-BROUC-7", "order": [0, 1], "leader": 0,
        "lowest_leads": True, "finished": True, "winners": [0], "decided_by": None, "beside": []}


def brulot(*penalties, **options):
    driver = Driver("brulot")
    state = get_game("brulot").new_table(["Ginette", "Sylvie", "Réjean"], options)
    for deal in penalties:
        state = driver.play(state, {"type": "deal", "trump": "2D"}, {"type": "tally", "penalties": deal})
    return driver.out(state)["series"]["standing"]


def test_r_brulot_6_the_lowest_penalty_total_leads_and_equal_lowest_totals_share_the_win():
    during = brulot([9, 13, 18], deals=2)
    assert without(during, "label") == {
        "unit": "penalty_points", "values": [9, 13, 18], "rule": "R-BRULOT-6", "order": [0, 1, 2], "leader": 0,
        "lowest_leads": True, "finished": False, "winners": [], "decided_by": None, "beside": []}
    assert during["label"] == {"fr": "points de pénalité", "en": "penalty points"}
    assert (brulot([13, 9, 18])["order"], brulot([13, 9, 18])["leader"]) == ([1, 0, 2], 1)
    shared = brulot([9, 13, 18], [13, 9, 18], deals=2)  # 22, 22, 36
    assert (shared["values"], shared["order"], shared["leader"], shared["winners"], shared["finished"]) == (
        [22, 22, 36], [0, 1, 2], None, [0, 1], True)
    won = brulot([9, 13, 18], [9, 13, 18], deals=2)
    assert (won["order"], won["leader"], won["winners"]) == ([0, 1, 2], 0, [0])


def brusquembille(*deals, players=("Ana", "Bo", "Cy"), **options):
    driver = Driver("brusquembille")
    state = get_game("brusquembille").new_table(list(players), options)
    for points, aces in deals:
        state = driver.play(state, {"type": "deal", "trump": "9S"},
                            {"type": "tally", "points": points, "brusquembilles": aces})
    return driver.out(state)["series"]["standing"]


ANA_ACE = [{"card": "AH", "player": 0, "outcome": "won"}]  # R-BRUSQ-4: 2 jetons from each opponent


def test_r_brusq_5_points_lead_with_the_jetons_beside_them_and_equal_highest_totals_share_the_series():
    during = brusquembille(([60, 40, 20], ANA_ACE), deals=2)
    assert without(during, "label") == {
        "unit": "points", "values": [60, 40, 20], "rule": "R-BRUSQ-5", "order": [0, 1, 2], "leader": 0,
        "lowest_leads": False, "finished": False, "winners": [], "decided_by": None,
        "beside": [{"unit": "jetons", "label": {"fr": "jetons", "en": "jetons"}, "values": [4, -2, -2],
                    "rule": "R-BRUSQ-4", "headline": True}]}
    assert during["label"] == {"fr": "points", "en": "points"}  # a series of 2 deals
    shared = brusquembille(([60, 40, 20], ANA_ACE), ([20, 40, 60], []), deals=2)  # 80 each
    assert (shared["values"], shared["leader"], shared["winners"], shared["finished"]) == (
        [80, 80, 80], None, [0, 1, 2], True)


def test_r_brusq_5_to_a_target_the_first_past_it_wins_and_teams_add_their_jetons():
    won = brusquembille(([70, 50], ANA_ACE), ([70, 50], []), players=("Ana", "Bo", "Cy", "Di"), target_points=130)
    assert (won["values"], won["order"], won["leader"], won["winners"], won["finished"]) == (
        [140, 100], [0, 1], 0, [0], True)
    assert won["label"] == {"fr": "fin à 130", "en": "to 130"}
    assert won["beside"][0]["values"] == [4, -4]  # Ana's 2 from Bo and 2 from Di, for Ana & Cy


HAND = {"type": "tally", "closed_by": 0, "sides": [{"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0},
                                                   {"melds": 150, "pot": True, "hand": 40}]}


def buraco(*hands, **options):
    driver = Driver("buraco")
    state = get_game("buraco").new_table(["Ana", "Bo"], options)
    for hand in hands:
        state = driver.play(state, {"type": "deal"}, hand)
    return driver.out(state)["series"]["standing"]


def test_r_buraco_6_the_totals_toward_the_target_the_higher_leads_and_wins():
    during = buraco(HAND, target=1000)
    assert without(during, "label") == {
        "unit": "points", "values": [600, 110], "rule": "R-BURACO-6", "order": [0, 1], "leader": 0,
        "lowest_leads": False, "finished": False, "winners": [], "decided_by": None, "beside": []}
    assert during["label"] == {"fr": "fin à 1000", "en": "to 1000"}
    won = buraco(HAND, HAND, target=1000)
    assert (won["values"], won["leader"], won["winners"], won["finished"]) == ([1200, 220], 0, [0], True)
    assert buraco()["label"] == {"fr": "fin à 2005", "en": "to 2005"}


def test_r_buraco_6_a_round_of_hands_ends_level_without_a_winner():
    even = {"type": "tally", "closed_by": None, "sides": [{"melds": 100, "pot": True, "hand": 10}] * 2}
    level = buraco(even, hands=1)
    assert (level["values"], level["leader"], level["winners"], level["finished"]) == ([90, 90], None, [], True)
    assert level["label"] == {"fr": "points", "en": "points"}  # a round of hands: the target does not count
