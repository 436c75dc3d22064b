"""Buraco by its numbers (the contract's ``tally``), through the JSON API: a hand written as on paper scores exactly as
the same hand entered meld by meld and counted (each pair from one recorded hand), and every number a hand cannot
hold is refused with 422, leaving the table exactly as it was (R-COMMON-5)."""
import pytest

from referee.cards import BURACO_108
from referee.games.buraco.melds import read_meld
from referee.games.buraco.tally import LEAST
from tests.support.deals import BURACO_DEAL as DEAL, CLEAN_RUN, HAND_4P_A, HAND_4P_B, count, meld, pot, side, tally

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


# --- recorded hands: the events a scorer entered, and the numbers the same hand gives on paper -----------------

# 2 players. Ana lays a clean run (65, pure) and three 5s (15) at the count, takes her pot and closes; Bo keeps 4S.
HAND_2P_CLOSED = ([pot(0), count(0, [[], ["4S"]], melds=[[CLEAN_RUN, ["5H", "5S", "5D"]], []])],
                  tally(0, side(80, True, 0, pure=1), side(0, False, 5)), [380, -105])
# 2 players, the stock runs out: Ana keeps 5S (5), Bo KS KD (20) and never took his pot.
HAND_2P_STOCK = ([meld(0, CLEAN_RUN), pot(0), count(None, [["5S"], ["KS", "KD"]])],
                 tally(None, side(65, True, 5, pure=1), side(0, False, 20)), [260, -120])


# 3 players. Bo and Cy meld alone; Ana takes the 18 and plays alone (65 + 200, closes: 365); Cy extends Bo's run,
# Bo takes the team's 11. The team: 15 + 35 = 50 laid, KS and 7H 8H left (25): 25, shared by two rounded up: 13.
HAND_3P_TEAM = ([meld(1, ["3D", "4D", "5D"]), meld(2, ["9S", "9H", "9D"]), pot(0), meld(0, CLEAN_RUN),
                 {"type": "extend", "side": 2, "meld": 0, "cards": ["6D"], "at": "end"}, pot(1),
                 count(0, [[], ["KS"], ["7H", "8H"]])],
                tally(0, side(65, True, 0, pure=1), side(15, True, 10), side(35, False, 15), teams=[[0], [1, 2]]),
                [365, 13, 13])
# 3 players, nobody reaches a pot: everyone alone, each loses 100.
HAND_3P_ALONE = ([meld(1, ["3D", "4D", "5D"]), count(None, [["AS"], [], ["JK"]])],
                 tally(None, side(0, False, 15), side(15, False, 0), side(0, False, 30), teams=[[0], [1], [2]]),
                 [-115, -85, -130])
# 3 players. Cy takes the 18 (65 + 200, AS AD left: 235); Ana & Bo never take the 11: KH KS KD (30) and a dirty set
# of six queens and a 2 (80, 100), 5H left: 30 + 80 + 100 - 5 - 100 = 105, shared by two rounded up: 53.
HAND_3P_NO_11 = ([pot(2), meld(2, CLEAN_RUN), meld(0, ["KH", "KS", "KD"]),
                  meld(1, ["QH", "QS", "QD", "QC", "QH", "QS", "2D"]), count(None, [["5H"], [], ["AS", "AD"]])],
                 tally(None, side(30, False, 5), side(80, False, 0, dirty=1), side(65, True, 30, pure=1),
                       teams=[{"players": [0, 1]}, {"players": [2]}]), [53, 53, 235])
# 5 players. Di takes the 18 (65 + 200, closes: 365); Ana takes the team's 11; the team lays 15 + 15, keeps 5S, KS,
# JK (45): -15, shared by four rounded up: -3 each.
HAND_5P = ([pot(3), meld(3, CLEAN_RUN), pot(0), meld(4, ["7S", "7H", "7D"]), meld(1, ["3S", "4S", "5S"]),
            count(3, [["5S"], ["KS"], [], [], ["JK"]])],
           tally(3, side(0, True, 5), side(15, False, 10), side(0, False, 0), side(65, True, 0, pure=1),
                 side(15, False, 30), teams=[[3], [0, 1, 2, 4]]), [-3, -3, -3, 365, -3])


# --- the API ------------------------------------------------------------------------------------------------

def new_table(client, n, **options):
    response = client.post("/api/v1/tables", json={"game": "buraco", "players": NAMES[:n], "options": options})
    assert response.status_code == 201
    return response.get_json()


def auth(created):
    return {"Authorization": f"Bearer {created['scorer_key']}"}


def post(client, created, body):
    return client.post(f"/api/v1/tables/{created['id']}/events", json=body, headers=auth(created))


def enter(client, created, *bodies):
    for body in bodies:
        response = post(client, created, body)
        assert response.status_code == 201, response.get_json()
    return state_of(client, created)


def state_of(client, created):
    return client.get(f"/api/v1/tables/{created['id']}", headers=auth(created)).get_json()


def refused(client, created, body):
    """The 422 error of a refused entry, after checking that the table is exactly as it was."""
    before = state_of(client, created)
    response = post(client, created, body)
    assert response.status_code == 422, response.get_json()
    assert state_of(client, created) == before
    return response.get_json()["error"]


SAME = ("number", "dealer", "complete", "points", "breakdown", "teams", "pots", "closed_by", "flags", "tricks")


def play_both(client, n, hands, **options):
    """Each recorded hand entered twice, meld by meld at one table and by its numbers at the other; after every
    hand the two tables agree on the hand, the totals, the series and what comes next."""
    by_melds, by_numbers = new_table(client, n, **options), new_table(client, n, **options)
    for events, numbers, points in hands:
        left = enter(client, by_melds, DEAL, *events)
        right = enter(client, by_numbers, DEAL, numbers)
        hand, tallied = left["deals"][-1], right["deals"][-1]
        assert tallied["points"] == hand["points"] == points
        assert {k: tallied[k] for k in SAME} == {k: hand[k] for k in SAME}
        assert (hand["entry"], hand["tally"], tallied["entry"], tallied["melds"]) == ("melds", None, "tally", {})
        assert tallied["tally"]["sides"] == [{**s, "burracos": {"pure": 0, "semi": 0, "dirty": 0, **s["burracos"]}}
                                             for s in numbers["sides"]]
        for key in ("totals", "series", "next", "possible"):
            assert right[key] == left[key], key
    return by_melds, by_numbers, right


def test_r_buraco_6_two_players_a_tallied_hand_scores_as_its_count(client):
    *_, state = play_both(client, 2, [HAND_2P_CLOSED, HAND_2P_STOCK])
    assert state["totals"] == [640, -225]
    assert state["deals"][0]["breakdown"] == [{"melds": 80, "burracos": 200, "hand": 0, "closing": 100, "pot": 0},
                                              {"melds": 0, "burracos": 0, "hand": -5, "closing": 0, "pot": -100}]


def test_r_buraco_6_four_players_tallied_hands_play_the_series_to_its_end_as_counted_ones(client):
    *_, state = play_both(client, 4, [HAND_4P_A, HAND_4P_B, HAND_4P_A], target=800)
    assert state["totals"] == [810, 385] and state["series"] == {"finished": True, "winner": 0,
                                                                 "standing": state["series"]["standing"]}
    assert (state["series"]["standing"]["values"], state["series"]["standing"]["winners"]) == ([810, 385], [0])
    assert state["next"] == {"action": "none", "player": None}
    assert state["deals"][1]["breakdown"][1] == {"melds": 150, "burracos": 350, "hand": -15, "closing": 100,
                                                 "pot": 0}


def test_r_buraco_1b_three_players_tallied_hands_form_the_same_teams_as_counted_ones(client):
    *_, state = play_both(client, 3, [HAND_3P_TEAM, HAND_3P_ALONE, HAND_3P_NO_11])
    assert state["totals"] == [303, -19, 118]
    team, alone, no_11 = state["deals"]
    assert [t["players"] for t in team["teams"]] == [[0], [1, 2]] and team["pots"] == {"0": "18", "1": "11"}
    assert team["teams"][1]["breakdown"] == {"melds": 50, "burracos": 0, "hand": -25, "closing": 0, "pot": 0}
    assert [t["players"] for t in alone["teams"]] == [[0], [1], [2]] and alone["pots"] == {}
    assert [t["players"] for t in no_11["teams"]] == [[2], [0, 1]] and no_11["pots"] == {"0": "18"}
    assert no_11["tally"]["teams"] == [[0, 1], [2]]  # as entered: a team may be written as in the state


def test_r_buraco_1b_five_players_a_team_of_four_shares_a_loss_rounded_up(client):
    *_, state = play_both(client, 5, [HAND_5P])
    assert state["deals"][0]["teams"][1] == {"players": [0, 1, 2, 4], "points": -15, "breakdown": {
        "melds": 30, "burracos": 0, "hand": -45, "closing": 0, "pot": 0}}


def test_r_buraco_6_a_tallied_table_replays_from_its_stored_events(client):
    _, by_numbers, state = play_both(client, 3, [HAND_3P_TEAM, HAND_3P_NO_11])
    exported = client.get(f"/api/v1/tables/{by_numbers['id']}/export.json", headers=auth(by_numbers)).get_json()
    imported = client.post("/api/v1/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    again = imported.get_json()["state"]
    assert again["totals"] == state["totals"] == [418, 66, 248]
    assert [d["tally"] for d in again["deals"]] == [d["tally"] for d in state["deals"]]


def test_r_common_6_tally_is_possible_only_in_an_untouched_hand(client):
    created = new_table(client, 2)
    assert "tally" in enter(client, created, DEAL)["possible"]
    state = enter(client, created, meld(0, ["5H", "6H", "7H"]))
    assert "tally" not in state["possible"]
    error = refused(client, created, tally(None, side(15, False, 0), side(0, False, 0)))
    assert error["code"] == "entry_mixed" and error["rule"] == "R-COMMON-6"
    assert error["message"] == ("Melds or pots of this hand were already entered: a hand by its numbers cannot be "
                                "mixed with them; undo them first.")
    pot_first = new_table(client, 2)
    enter(client, pot_first, DEAL, pot(1))
    assert refused(client, pot_first, tally(None, side(0, False, 0), side(0, True, 0)))["code"] == "entry_mixed"
    assert client.post(f"/api/v1/tables/{pot_first['id']}/undo", headers=auth(pot_first)).status_code == 200
    state = enter(client, pot_first, tally(None, side(0, False, 0), side(0, True, 0)))
    assert state["deals"][0]["points"] == [-100, 0] and state["deals"][0]["entry"] == "tally"


def test_r_common_2_a_tally_needs_an_open_hand(client):
    created = new_table(client, 2)
    assert refused(client, created, tally(None, side(0, False, 0), side(0, False, 0)))["code"] == "no_deal"


def test_r_buraco_4_the_least_burracos_are_worth_35_55_and_50():
    cheapest = {"pure": ["3S", "3S", "3H", "3H", "3D", "3D", "3C"], "semi": ["3S", "3S", "3H", "3H", "3D", "3D",
                                                                            "3C", "2H"],
                "dirty": ["3S", "3S", "3H", "3H", "3D", "3D", "2H"]}
    for kind, codes in cheapest.items():
        laid = read_meld([BURACO_108.parse(c) for c in codes])
        assert (laid.burraco, laid.value()) == ({"semi": "semi_pure"}.get(kind, kind), LEAST[kind])
    low_run = read_meld([BURACO_108.parse(c) for c in ["AH", "2H", "3H", "4H", "5H", "6H", "7H"]])
    assert (low_run.burraco, low_run.value(True), low_run.value(False)) == ("pure", 35, 45)


def dealt(client, n=2):
    """A table of ``n`` with its first hand dealt."""
    created = new_table(client, n)
    enter(client, created, DEAL)
    return created


@pytest.mark.parametrize("numbers, code, message", [
    (side(62, True, 0), "tally_melds_multiple",
     "Ana cannot have laid 62 card points: every card is worth a multiple of 5."),
    (side(60, True, 13), "tally_hand_multiple",
     "Ana cannot hold 13 card points in hand: every card is worth a multiple of 5."),
    (side(-5, True, 0), "tally_melds_negative", "Ana cannot have laid -5 card points: melds are worth 0 or more."),
    (side(60, True, -20), "tally_hand_negative",
     "Ana's cards left in hand are entered as the card points they are worth, 0 or more, not -20."),
])
def test_r_buraco_4_card_points_are_multiples_of_5_and_never_negative(client, numbers, code, message):
    error = refused(client, dealt(client), tally(None, numbers, side(0, False, 0)))
    assert (error["code"], error["message"], error["rule"], error["side"]) == (code, message, "R-BURACO-4", 0)


def test_r_buraco_2_melds_worth_less_than_15_are_refused(client):
    error = refused(client, dealt(client), tally(None, side(0, False, 0), side(10, False, 0)))
    assert (error["code"], error["rule"]) == ("tally_melds_small", "R-BURACO-2")
    assert error["message"] == "Bo cannot have laid 10 card points: a meld has at least 3 cards, worth 15 or more."


@pytest.mark.parametrize("burracos, melds, least", [
    ({"pure": 2}, 65, 70), ({"semi": 1}, 50, 55), ({"dirty": 1}, 45, 50), ({"pure": 1, "semi": 1, "dirty": 1}, 135,
                                                                           140)])
def test_r_buraco_3_burracos_need_the_card_points_of_their_cards(client, burracos, melds, least):
    error = refused(client, dealt(client), tally(None, side(melds, True, 0, **burracos), side(0, False, 0)))
    count = sum(burracos.values())
    assert (error["code"], error["rule"], error["least"]) == ("tally_burracos_melds", "R-BURACO-3", least)
    words = "burraco holds" if count == 1 else "burracos hold"  # one sentence, through ngettext (issue 38)
    assert error["message"] == (f"Ana's {count} {words} at least {least} card points (a pure one 35, a "
                                f"semi-pure 55, a dirty 50): more than the {melds} entered for its melds.")


def test_r_buraco_3_burracos_at_their_least_card_points_are_accepted(client):
    state = enter(client, dealt(client), tally(None, side(140, True, 0, pure=1, semi=1, dirty=1),
                                                     side(0, False, 0)))
    assert state["deals"][0]["points"] == [140 + 200 + 150 + 100, -100]


def test_r_buraco_1_burracos_needing_more_than_108_cards_are_refused(client):
    error = refused(client, dealt(client), tally(None, side(280, True, 0, pure=8), side(280, True, 0, pure=8)))
    assert (error["code"], error["rule"], error["cards"], error["available"]) == (
        "tally_burracos_cards", "R-BURACO-1", 112, 108)
    assert error["message"] == ("The burracos entered need at least 112 cards, more than the 108 in play (108, less "
                                "the pots nobody took).")


def test_r_buraco_1_a_pot_nobody_took_holds_11_cards_no_burraco_can_use(client):
    fourteen = tally(None, side(280, True, 0, pure=8), side(210, False, 0, pure=6))  # 98 cards
    error = refused(client, dealt(client), fourteen)
    assert (error["code"], error["cards"], error["available"]) == ("tally_burracos_cards", 98, 97)
    fourteen["sides"][1]["pot"] = True
    state = enter(client, dealt(client), fourteen)
    assert state["deals"][0]["points"] == [280 + 1600, 210 + 1200]


def test_r_buraco_2_burracos_needing_more_than_12_wild_cards_are_refused(client):
    error = refused(client, dealt(client), tally(None, side(350, True, 0, dirty=7), side(300, True, 0, dirty=6)))
    assert (error["code"], error["rule"], error["wild"]) == ("tally_burracos_wild", "R-BURACO-2", 13)
    assert error["message"] == ("The burracos entered need 13 wild cards, one in each semi-pure or dirty burraco; two "
                                "decks hold 12: 4 jokers and 8 twos.")


def test_r_buraco_2_fifteen_pure_burracos_need_105_natural_cards_and_a_joker_is_always_wild(client):
    error = refused(client, dealt(client), tally(None, side(280, True, 0, pure=8), side(245, True, 0, pure=7)))
    assert (error["code"], error["rule"], error["naturals"], error["wild"]) == (
        "tally_burracos_natural", "R-BURACO-2", 105, 0)


def test_r_buraco_4_a_side_cannot_lay_more_card_points_than_the_cards_in_play(client):
    error = refused(client, dealt(client), tally(None, side(1085, True, 0), side(0, True, 0)))
    assert (error["code"], error["most"], error["message"]) == (
        "tally_melds_too_many", 1080, "Ana cannot have laid 1085 card points: the cards in play are worth 1080.")
    # Bo never took his pot: its 11 cards are out of play, at least 55 card points (eleven cards worth 5).
    error = refused(client, dealt(client), tally(None, side(1030, True, 0), side(0, False, 0)))
    assert (error["code"], error["most"]) == ("tally_melds_too_many", 1025)


def test_r_buraco_4_melds_and_hands_together_hold_no_more_than_the_two_decks(client):
    error = refused(client, dealt(client), tally(None, side(600, True, 0), side(0, True, 500)))
    assert (error["code"], error["total"], error["most"]) == ("tally_cards_too_many", 1100, 1080)
    assert error["message"] == "The melds and hands add up to 1100 card points: the cards in play are worth 1080."


@pytest.mark.parametrize("ana, missing", [
    (side(65, True, 0), "a burraco"), (side(65, False, 0, pure=1), "the pot"),
    (side(65, True, 5, pure=1), "no card left"), (side(0, False, 10), "the pot, a burraco, no card left")])
def test_r_buraco_5_a_side_that_closed_without_its_pot_a_burraco_or_an_empty_hand_is_refused(client, ana, missing):
    error = refused(client, dealt(client), tally(0, ana, side(0, False, 0)))
    assert (error["code"], error["rule"], error["player"]) == ("cannot_close", "R-BURACO-5", 0)
    assert error["message"] == f"Ana cannot close: missing {missing}."


def test_r_buraco_5_a_side_that_closed_without_a_burraco_is_refused(client):
    error = refused(client, dealt(client, 4), tally(3, side(0, False, 0), side(65, True, 0)))
    assert error["message"] == "Di cannot close: missing a burraco."


def test_r_buraco_5_with_4_players_the_closers_partner_may_still_hold_cards(client):
    state = enter(client, dealt(client, 4), tally(1, side(0, False, 30), side(65, True, 40, pure=1)))
    assert state["deals"][0]["breakdown"][1] == {"melds": 65, "burracos": 200, "hand": -40, "closing": 100,
                                                 "pot": 0}
    assert state["deals"][0]["points"] == [-130, 325]


def test_r_buraco_1b_a_pot_taken_while_everyone_plays_alone_is_refused(client):
    error = refused(client, dealt(client, 3), tally(None, side(0, False, 0), side(0, True, 0), side(0, False, 0),
                                                         teams=[[0], [1], [2]]))
    assert (error["code"], error["rule"], error["player"]) == ("tally_pot_without_team", "R-BURACO-1b", 1)
    assert error["message"] == ("Bo took a pot, so the others became a team: the first to go to the pot plays alone "
                                "against all the others.")


def test_r_buraco_1b_a_teams_pot_taken_before_its_team_exists_is_refused(client):
    error = refused(client, dealt(client, 3), tally(None, side(0, False, 0), side(0, True, 0), side(0, False, 0),
                                                         teams=[[0], [1, 2]]))
    assert (error["code"], error["rule"], error["player"]) == ("tally_lone_without_pot", "R-BURACO-1b", 0)
    assert error["message"] == ("Ana plays alone against a team only after going to the pot first and taking its 18 "
                                "cards.")


def test_r_buraco_1b_a_team_takes_one_pot_of_11(client):
    error = refused(client, dealt(client, 3), tally(None, side(0, True, 0), side(0, True, 0), side(0, True, 0),
                                                         teams=[[0], [1, 2]]))
    assert (error["code"], error["player"]) == ("tally_pot_shared", 2)
    assert error["message"] == "Bo and Cy cannot both have taken a pot: their team takes one pot of 11 cards."


@pytest.mark.parametrize("n, teams, code", [
    (3, [[0], [1]], "tally_teams"), (3, [[0], [1, 2], [2]], "tally_teams"), (3, [[0], [1, 1, 2]], "tally_teams"),
    (5, [[0, 1], [2, 3, 4]], "tally_teams_shape"), (5, [[0], [1], [2, 3, 4]], "tally_teams_shape")])
def test_r_buraco_1b_the_teams_are_everyone_alone_or_one_against_the_rest(client, n, teams, code):
    sides = [side(0, p == 0, 0) for p in range(n)]
    error = refused(client, dealt(client, n), tally(None, *sides, teams=teams))
    assert (error["code"], error["rule"]) == (code, "R-BURACO-1b")


def test_r_buraco_5_with_3_players_a_team_without_its_11_cannot_close(client):
    error = refused(client, dealt(client, 3), tally(1, side(65, True, 0, pure=1), side(65, False, 0, pure=1),
                                                         side(0, False, 10), teams=[[0], [1, 2]]))
    assert error["message"] == "Bo cannot close: missing the pot."
    error = refused(client, dealt(client, 3), tally(0, side(65, True, 5, pure=1), side(0, True, 0),
                                                         side(0, False, 0), teams=[[0], [1, 2]]))
    assert error["message"] == "Ana cannot close: missing no card left."


def test_r_buraco_1b_a_teams_burraco_may_be_written_under_either_player(client):
    # Bo laid 9H…4H (40), Cy made it a pure burraco with 10H and 3H (15): the burraco is written under Cy.
    state = enter(client, dealt(client, 3), tally(2, side(0, True, 20), side(40, False, 0),
                                                       side(15, True, 0, pure=1), teams=[[0], [1, 2]]))
    assert state["deals"][0]["teams"][1]["breakdown"] == {"melds": 55, "burracos": 200, "hand": 0, "closing": 100,
                                                          "pot": 0}
    assert state["deals"][0]["points"] == [-20, 178, 178]


@pytest.mark.parametrize("n, body, field", [
    (2, tally(None, side(0, False, 0)), "sides"),
    (2, tally(None, side(0, False, 0), {"melds": 0, "pot": False}), "sides[1].hand"),
    (2, tally(None, side(0, False, 0), side(0, "yes", 0)), "sides[1].pot"),
    (2, tally(None, side(0, False, 0), side("15", False, 0)), "sides[1].melds"),
    (2, tally(None, side(0, False, 0), side(65, False, 0, semi_pure=1)), "sides[1].burracos"),
    (2, tally(None, side(0, False, 0), side(65, False, 0, pure=-1)), "sides[1].burracos.pure"),
    (2, tally(None, side(0, False, 0), [0, False, 0]), "sides[1]"),
    (4, tally(None, side(0, False, 0), side(0, False, 0), teams=[[0, 2], [1, 3]]), "teams"),
    (3, tally(None, side(0, False, 0), side(0, False, 0), side(0, False, 0)), "teams"),
    (3, tally(None, side(0, False, 0), side(0, False, 0), side(0, False, 0), teams=[0, 1, 2]), "teams"),
    (3, tally(7, side(0, False, 0), side(0, False, 0), side(0, False, 0), teams=[[0], [1], [2]]), "closed_by"),
])
def test_r_common_5_a_tally_that_cannot_be_read_names_its_field(client, n, body, field):
    error = refused(client, dealt(client, n), body)
    assert (error["code"], error["field"]) == ("bad_event", field)


def test_the_openapi_document_describes_buracos_tally(client):
    schema = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["Event_tally"]
    assert {"closed_by", "sides", "teams"} <= set(schema["properties"])
    entry = schema["properties"]["sides"]["items"]
    assert set(entry["properties"]) == {"melds", "burracos", "pot", "hand"}
    assert set(entry["properties"]["burracos"]["properties"]) == {"pure", "semi", "dirty"}
