"""Brouc engine (R-BROUC-1 … 8) with exact values. Players in order of play: Ana 0, Bo 1, Cy 2, Di 3; sides
{Ana, Cy} = 0 and {Bo, Di} = 1. Every deal below is worked by hand in its comments."""
import pytest

from referee.games.brouc.slate import tens
from tests.support.deals import (ANNOUNCES_E, DEAL_A, DEAL_B, DEAL_D, DEAL_E, PILE_44, PILE_46, PILE_55, PILE_64,
                                 PILE_76, trick, tricks)
from tests.support.engine import Driver

DRIVER = Driver("brouc")
GAME, play, refused, out = DRIVER.game, DRIVER.play, DRIVER.refused, DRIVER.out

# Card points: Ana & Cy 20 + 19 + 20 + 10 = 69 -> 7; Bo & Di 10 + 11 + 18 + 12 = 51 -> 5.
# Marriages: Ana & Cy +6 +3 +3 -2 = +10; Bo & Di -10. Slate: 17 and -5.

# Ana & Cy 11 + 4 + 19 + 20 + 10 = 64 -> 6; Bo & Di 26 + 18 + 12 = 56 -> 6.
# Slate: Ana & Cy 6 + 4 (announce) + 3 + 3 - 2 = 14; Bo & Di 6 - 3 - 3 + 2 = 2.

# The same deal missed: Bo's AC takes trick 7, Ana's KC takes trick 8.
DEAL_D_MISSED = DEAL_D[:6] + [["10C", "AC", "QC", "JC"], ["9C", "8C", "7C", "KC"]]


def table(dealer=0, **options):
    return GAME.new_table(["Ana", "Bo", "Cy", "Di"], options, dealer)


def deal(trump):
    return {"type": "deal", "trump": trump}


def captured(state, pile, trump="7D"):
    return play(state, deal(trump), {"type": "capture", "side": 0, "cards": pile})


@pytest.mark.parametrize("points, expected", [(44, 4), (46, 5), (55, 6), (65, 7), (0, 0), (5, 1), (120, 12),
                                              (76, 8), (74, 7), (64, 6), (56, 6), (115, 12)])
def test_r_brouc_6_tens(points, expected):
    assert tens(points) == expected


@pytest.mark.parametrize("pile, points, slate", [(PILE_44, [44, 76], [4, 8]), (PILE_46, [46, 74], [5, 7]),
                                                 (PILE_55, [55, 65], [6, 7])])
def test_r_brouc_6_a_deals_slate_in_tens(pile, points, slate):
    state = out(captured(table(), pile))
    assert state["deals"][0]["points"] == points and state["deals"][0]["slate"] == slate
    assert state["totals"] == slate


def test_r_brouc_6_sur_le_point_makes_13_and_says_so():
    deal_state = out(captured(table(), PILE_55))["deals"][0]
    assert sum(deal_state["slate"]) == 13
    assert deal_state["slate_why"][0]["rounding"]["fr"] == "55 points, sur le point\u00a0: 6"
    assert deal_state["slate_why"][1]["rounding"]["en"] == "65 points, on the point: 7"


def test_r_brouc_1_the_turned_card_stays_in_the_dealers_hand():
    state = play(table(), deal("AH"))
    assert out(state)["deals"][0]["known"] == {"AH": 0}
    error = refused(state, trick(["AH", "QH", "JH", "KH"]))  # Bo leads: he cannot play Ana's card
    assert (error.code, error.card, error.player) == ("card_in_other_hand", "AH", 1)


def test_r_brouc_5_deal_with_table_marriages_in_trump_and_others():
    state = play(table(), deal("AH"), *tricks(DEAL_A))
    first = out(state)["deals"][0]["tricks"][0]
    assert first["winner"] == 0 and first["marriages"] == [
        {"trick": 1, "suit": "H", "cards": ["KH", "QH", "JH"], "points": 60, "side": 0, "cancelled": False}]
    result = out(state)
    assert result["deals"][0]["points"] == [69, 51]
    assert result["deals"][0]["slate"] == [17, -5] and result["totals"] == [17, -5]
    assert result["deals"][0]["flags"] == []
    assert result["next"] == {"action": "deal", "player": 1}


def test_r_brouc_4_announce_in_trump_is_40():
    state = play(table(), deal("KH"), trick(DEAL_B[0]))
    state = play(state, {"type": "announce", "player": 0, "cards": ["KH", "QH"]})
    assert out(state)["totals"] == [4, 0]  # R-BROUC-6: counted from the moment it is made
    assert out(state)["deals"][0]["known"] == {"KH": 0, "QH": 0}
    error = refused(state, trick(["KH", "QH", "8H", "9H"]))  # Ana leads trick 2: Bo cannot play her shown QH
    assert (error.code, error.card, error.player) == ("card_in_other_hand", "QH", 1)
    state = play(state, *tricks(DEAL_B[1:]))
    result = out(state)["deals"][0]
    assert result["announces"] == [{"player": 0, "side": 0, "cards": ["KH", "QH"], "points": 40, "tens": 4,
                                    "after_trick": 1}]
    assert result["points"] == [64, 56] and result["slate"] == [14, 2] and out(state)["totals"] == [14, 2]


def test_r_brouc_4_announce_refusals():
    state = play(table(), deal("KH"))
    error = refused(state, {"type": "announce", "player": 1, "cards": ["KS", "QS"]})
    assert (error.code, error.rule) == ("announce_first_card", "R-BROUC-4")
    state = play(state, trick(DEAL_B[0]))  # Ana wins trick 1
    error = refused(state, {"type": "announce", "player": 3, "cards": ["KC", "QC"]})
    assert (error.code, error.player) == ("announce_needs_trick", 3)
    assert refused(state, {"type": "announce", "player": 0, "cards": ["KH", "JH"]}).code == "bad_announce"
    assert refused(state, {"type": "announce", "player": 0, "cards": ["KH", "QS"]}).code == "bad_announce"
    assert refused(state, {"type": "announce", "player": 0, "cards": ["KD", "9S"]}).code == "bad_announce"
    error = refused(state, {"type": "announce", "player": 0, "cards": ["AS", "KS"]})
    assert error.code == "bad_announce"
    state = play(state, {"type": "announce", "player": 0, "cards": ["KH", "QH"]})
    assert refused(state, {"type": "announce", "player": 0, "cards": ["KH", "QH"]}).code == "announce_twice"


def test_r_brouc_8b_an_announce_cannot_be_extended():
    state = play(table(), deal("KH"), trick(DEAL_B[0]), {"type": "announce", "player": 0, "cards": ["KH", "QH"]})
    error = refused(state, {"type": "announce", "player": 0, "cards": ["KH", "QH", "JH"]})
    assert (error.code, error.rule, error.card, error.player) == ("announce_extended", "R-BROUC-8b", "JH", 0)
    assert error.message == ("The king and queen of hearts were already announced: an announce cannot be extended "
                             "with the jack; each card is announced once.")
    assert out(state)["totals"] == [4, 0]  # nothing stored: the K+Q of trump's 40 alone


def test_r_brouc_4_an_announced_card_already_played_is_refused():
    state = play(table(), deal("KH"), trick(DEAL_B[0]), trick(DEAL_B[1]))  # KH was played in trick 2
    error = refused(state, {"type": "announce", "player": 0, "cards": ["KH", "QH"]})
    assert (error.code, error.card) == ("card_already_played", "KH")


def test_r_brouc_3_under_trump_flagged_then_turned_into_a_revoke():
    # Trump hearts (Ana turned 7H... she keeps it). Bo leads AS; Cy trumps with AH; Di under-trumps with 8H.
    state = play(table(), deal("7H"), trick(["AS", "AH", "8H", "7S"]))
    flags = out(state)["deals"][0]["flags"]
    assert [(f["code"], f["player"], f["trick"], f["rule"]) for f in flags] == [("under_trump", 3, 1, "R-BROUC-3")]
    state = play(state, trick(["AD", "7D", "8D", "9D"]))  # Cy leads; Di plays 7D: he held a non-trump
    flags = out(state)["deals"][0]["flags"]
    assert [(f["code"], f["player"], f["trick"]) for f in flags] == [("revoke", 3, 1)]
    assert flags[0]["message"] == "Di under-trumped in trick 1 while holding another card, as 7D shows."


def test_r_brouc_3_under_trump_to_make_a_table_marriage_is_allowed():
    # Spades led, Cy trumps with the ace of hearts, Di under-trumps with KH and Ana adds QH: a marriage in trump.
    state = play(table(), deal("7H"), trick(["AS", "AH", "KH", "QH"]))
    assert out(state)["deals"][0]["flags"] == []  # under the ace, but making K Q of trump on the table
    state = play(state, trick(["AD", "7D", "8D", "9D"]))
    assert out(state)["deals"][0]["flags"] == []


def test_r_brouc_3_revoke_when_a_player_who_did_not_follow_plays_the_suit_later():
    state = play(table(), deal("7H"), trick(["AS", "AH", "8H", "7S"]), trick(["AD", "7D", "8D", "9D"]))
    state = play(state, trick(["8S", "9C", "10C", "JC"]))  # Cy, who trumped spades in trick 1, plays 8S
    flags = out(state)["deals"][0]["flags"]
    assert ("revoke", 2, 1) in [(f["code"], f["player"], f["trick"]) for f in flags]
    cy = next(f for f in flags if f["player"] == 2)
    assert cy["message"] == "Cy did not follow spades in trick 1, yet held 8S."


def test_r_brouc_3_the_dealer_who_does_not_follow_trump_is_caught_by_his_turned_card():
    state = play(table(), deal("7H"), trick(["AH", "KH", "QH", "AS"]))  # trump led, Ana (holding 7H) plays AS
    flags = out(state)["deals"][0]["flags"]
    assert [(f["code"], f["player"], f["trick"]) for f in flags] == [("revoke", 0, 1)]


# --- R-BROUC-7: the partie ----------------------------------------------------------------------------------

def test_r_brouc_7_a_partie_reaching_31_gives_one_coche_and_clears_the_slate():
    state = table()
    for number in range(1, 5):
        state = captured(state, PILE_44)  # Bo & Di: 8 a deal
        totals = out(state)["totals"]
        assert totals == ([4 * number, 8 * number] if number < 4 else [0, 0])
    result = out(state)
    assert result["deals"][3]["partie_end"]["loser"] == 0 and result["deals"][3]["partie_end"]["slate"] == [16, 32]
    assert result["series"]["coches"] == [1, 0] and result["series"]["parties"][0]["last_deal"] == 4
    assert result["deals"][3]["coches"] == [1, 0] and result["series"]["finished"] is False
    assert result["next"] == {"action": "deal", "player": 0}  # four deals: the dealer went round


def test_r_brouc_7_both_out_the_higher_slate_wins():
    state = table()
    for pile in [PILE_64] * 5 + [PILE_55]:  # 6/6 five times: 30/30, then 6/7: 36/37
        state = captured(state, pile)
    result = out(state)
    assert result["deals"][5]["partie_end"]["slate"] == [36, 37] and result["series"]["coches"] == [1, 0]


def test_r_brouc_7_both_out_with_equal_slates_play_one_more_deal():
    state = table()
    for _ in range(6):
        state = captured(state, PILE_64)  # 36/36: both out, equal
    assert out(state)["totals"] == [36, 36] and out(state)["deals"][5]["partie_end"] is None
    state = captured(state, PILE_44)
    assert out(state)["deals"][6]["partie_end"]["loser"] == 0 and out(state)["series"]["coches"] == [1, 0]


def test_r_brouc_7_coches_to_lose_ends_the_evening():
    state = table(coches_to_lose=1)
    for _ in range(4):
        state = captured(state, PILE_44)
    series = out(state)["series"]
    assert series == {"finished": True, "winner": 1, "coches": [1, 0], "coches_to_lose": 1,
                      "parties": series["parties"], "standing": series["standing"]}
    assert (series["standing"]["unit"], series["standing"]["values"], series["standing"]["winners"]) == (
        "coches", [1, 0], [1])  # the evening over: its coches say who won it, the fewer the better


# --- R-BROUC-8: la cape -------------------------------------------------------------------------------------

def test_r_brouc_8b_cape_gives_2_coches_cancels_table_marriages_and_writes_no_card_points():
    state = play(table(), deal("10H"), *tricks(DEAL_D))
    result = out(state)["deals"][0]
    assert result["points"] == [120, 0] and result["slate"] == [0, 0]
    assert result["slate_why"][0]["rule"] == "R-BROUC-8b" and result["slate_why"][0]["card_tens"] == 0
    assert result["slate_why"][0]["rounding"]["en"] == \
        "120 points, undeclared cape: not written on the slate (paid in coches)"
    assert len(result["marriages"]) == 4 and all(m["cancelled"] for m in result["marriages"])
    assert result["cape"]["loser"] == 1 and result["cape"]["coches"] == 2 and result["coches"] == [0, 2]
    assert result["cape"]["rule"] == "R-BROUC-8b"
    assert out(state)["totals"] == [0, 0] and result["partie_end"] is None  # the partie goes on
    assert out(state)["next"] == {"action": "deal", "player": 1}  # the dealer moves on


def before_the_cape(call=None, missed=False):
    """Three captured deals (76/44: 8 and 4 tens) put Ana & Cy at 24, Bo & Di at 12; Ana deals the fourth."""
    state = table(dealer=1)
    for _ in range(3):
        state = captured(state, PILE_76)
    assert out(state)["totals"] == [24, 12] and out(state)["next"]["player"] == 0
    cards = DEAL_D_MISSED if missed else DEAL_D
    state = play(state, deal("10H"), *tricks(cards[:6]))
    if call:
        state = play(state, {"type": "declare", "player": 2, "call": call})
    return play(state, *tricks(cards[6:]))


def test_r_brouc_8_la_cape_et_dehors_gives_3_coches_and_the_dealer_stays():
    result = out(before_the_cape("cape_dehors"))
    last = result["deals"][3]
    assert last["cape"]["coches"] == 3 and last["cape"]["came_true"] is True and last["coches"] == [0, 3]
    assert result["series"]["coches"] == [0, 3] and result["totals"] == [0, 0]
    assert last["partie_end"]["slate"] == [36, 12]
    assert result["next"] == {"action": "deal", "player": 0}  # Ana deals again


def test_r_brouc_8_pas_dedouble_gives_4_coches():
    result = out(before_the_cape("cape_dehors_pas_dedouble"))
    assert result["deals"][3]["coches"] == [0, 4] and result["series"]["coches"] == [0, 4]
    assert result["next"] == {"action": "deal", "player": 0}


def test_r_brouc_8_a_failed_declaration_gives_the_coches_to_the_declarers():
    result = out(before_the_cape("cape_dehors", missed=True))
    last = result["deals"][3]
    assert last["cape"]["came_true"] is False and last["coches"] == [3, 0] and result["series"]["coches"] == [3, 0]
    assert result["next"] == {"action": "deal", "player": 0}


def test_r_brouc_8b_an_undeclared_cape_at_24_pays_2_coches_only_and_the_partie_goes_on():
    result = out(before_the_cape())
    last = result["deals"][3]
    assert last["points"] == [120, 0] and last["slate"] == [0, 0]  # the cape's card points are not written
    assert last["coches"] == [0, 2] and result["series"]["coches"] == [0, 2]
    assert result["totals"] == [24, 12] and last["partie_end"] is None and result["series"]["parties"] == []
    assert result["next"] == {"action": "deal", "player": 1}  # the dealer moves on


def test_r_brouc_8b_an_undeclared_cape_whose_announces_reach_31_ends_the_partie_with_1_plus_2_coches():
    state = table(dealer=1)
    for _ in range(3):
        state = captured(state, PILE_76)
    state = play(state, deal("AH"), trick(DEAL_E[0]), *ANNOUNCES_E)
    assert out(state)["totals"] == [32, 12]  # 24 + 6 + 2, counted when made (R-BROUC-6)
    result = out(play(state, *tricks(DEAL_E[1:])))
    last = result["deals"][3]
    assert last["points"] == [120, 0] and last["slate"] == [8, 0] and last["flags"] == []
    assert last["coches"] == [0, 3] and result["series"]["coches"] == [0, 3]  # the cape's 2 + the partie's 1
    assert last["partie_end"]["loser"] == 1 and last["partie_end"]["slate"] == [32, 12]
    assert result["totals"] == [0, 0] and result["next"] == {"action": "deal", "player": 1}


def test_r_brouc_8b_a_cape_cannot_be_declared_once_the_side_has_lost_a_trick():
    state = table(dealer=1)
    for _ in range(3):
        state = captured(state, PILE_76)  # Ana & Cy at 24 could declare, but for the lost trick
    state = play(state, deal("AH"), *tricks(DEAL_A[:6]))  # Di took trick 2 and trick 3
    assert GAME.players_for(state, "declare") == [] and "declare" not in GAME.possible(state)
    error = refused(state, {"type": "declare", "player": 0, "call": "cape_dehors"})
    assert (error.code, error.rule, error.player) == ("declare_trick_lost", "R-BROUC-8b", 0)
    assert error.message == "Ana's side has lost a trick in this deal: la cape can no longer be declared."


def test_r_brouc_8_declaration_refusals():
    state = table(dealer=1)
    for _ in range(3):
        state = captured(state, PILE_76)
    early = play(state, deal("10H"), *tricks(DEAL_D[:5]))
    error = refused(early, {"type": "declare", "player": 0, "call": "cape_dehors"})
    assert (error.code, error.rule) == ("declare_wrong_time", "R-BROUC-8")
    ready = play(early, trick(DEAL_D[5]))
    error = refused(ready, {"type": "declare", "player": 1, "call": "cape_dehors"})  # Bo & Di lost every trick
    assert (error.code, error.rule) == ("declare_trick_lost", "R-BROUC-8b")
    fresh = play(table(), deal("10H"), *tricks(DEAL_D[:6]))
    error = refused(fresh, {"type": "declare", "player": 0, "call": "cape_dehors"})  # Ana & Cy have 0
    assert (error.code, error.params["value"]) == ("declare_not_dehors", 0)
    assert refused(ready, {"type": "declare", "player": 0, "call": "la_cape"}).code == "bad_event"
    declared = play(ready, {"type": "declare", "player": 0, "call": "cape_dehors"})
    assert refused(declared, {"type": "declare", "player": 2, "call": "cape_dehors"}).code == "declare_twice"


def test_r_brouc_8_pas_dedouble_needs_the_other_side_at_14_or_less():
    state = table(dealer=0)
    for pile in (PILE_76, PILE_76, PILE_76, PILE_64):  # 8+8+8+6 = 30 and 4+4+4+6 = 18; Ana deals the fifth
        state = captured(state, pile)
    state = play(state, deal("10H"), *tricks(DEAL_D[:6]))
    assert out(state)["totals"] == [30, 18]
    error = refused(state, {"type": "declare", "player": 0, "call": "cape_dehors_pas_dedouble"})
    assert (error.code, error.params["value"]) == ("declare_dedouble", 18)
    declared = play(state, {"type": "declare", "player": 0, "call": "cape_dehors"})
    assert out(declared)["deals"][4]["declaration"] == {"player": 0, "side": 0, "call": "cape_dehors", "coches": 3}


def test_r_brouc_3_under_trump_proved_by_a_higher_trump_later_and_flagged_once():
    state = play(table(), deal("7H"), trick(["AS", "10H", "8H", "7S"]))  # Di under-trumps Cy's 10H
    state = play(state, trick(["9H", "AH", "7H", "JH"]))  # Cy leads 9H; Di's AH proves he held a higher trump
    flags = out(state)["deals"][0]["flags"]
    assert [(f["code"], f["player"], f["trick"]) for f in flags] == [("revoke", 3, 1)]
    state = play(table(), deal("7H"), trick(["AS", "10H", "8H", "7S"]), trick(["9D", "8S", "8D", "10D"]))
    flags = out(state)["deals"][0]["flags"]  # Di plays the suit led later: one fault, one flag
    assert [(f["code"], f["player"], f["trick"]) for f in flags] == [("revoke", 3, 1)]


def test_r_brouc_4_an_announce_the_hand_cannot_hold_is_refused():
    # Ana deals and turns 10C (trump clubs), then wins six tricks: two cards left, one of them the 10C she kept.
    state = play(table(), deal("10C"), *tricks(DEAL_D[:6]))
    error = refused(state, {"type": "announce", "player": 0, "cards": ["KC", "QC"]})
    assert (error.code, error.params["left"]) == ("announce_too_many", 2)
    other = play(table(), deal("10H"), *tricks(DEAL_D[:6]))  # 10H was played: the two cards may be K and Q
    assert out(play(other, {"type": "announce", "player": 0, "cards": ["KC", "QC"]}))["totals"] == [2, 0]


def test_r_common_4b_an_announce_proves_an_earlier_revoke_at_once():
    # Trump spades (Ana turned 7S). Bo leads 7D; Cy discards KC; later Cy, who won trick 2, announces K Q of
    # diamonds: he held a diamond at trick 1, so trick 1 is flagged the moment the announce is entered.
    # Ana's 9D takes trick 1; she leads 7C and Cy's AC takes trick 2.
    state = play(table(), deal("7S"), trick(["7D", "KC", "8D", "9D"]), trick(["7C", "QC", "AC", "10C"]))
    assert out(state)["deals"][0]["tricks"][1]["winner"] == 2 and out(state)["deals"][0]["flags"] == []
    announced = play(state, {"type": "announce", "player": 2, "cards": ["KD", "QD"]})
    flags = out(announced)["deals"][0]["flags"]
    assert [(f["code"], f["player"], f["trick"], f["rule"]) for f in flags] == [("revoke", 2, 1, "R-BROUC-3")]
    assert flags[0]["message"] == "Cy did not follow diamonds in trick 1, yet held KD."
    assert out(state)["deals"][0]["flags"] == []  # the state before the announce is unchanged


def test_r_common_4b_the_announce_proved_revoke_is_undone_with_the_announce(ledger):
    state, _, _ = ledger.create_table("brouc", ["Ana", "Bo", "Cy", "Di"], {})
    for entry in (deal("7S"), trick(["7D", "KC", "8D", "9D"]), trick(["7C", "QC", "AC", "10C"])):
        ledger.append(state["id"], entry)
    _, stored = ledger.append(state["id"], {"type": "announce", "player": 2, "cards": ["KD", "QD"]})
    assert [(f["code"], f["player"], f["trick"]) for f in stored["deals"][0]["flags"]] == [("revoke", 2, 1)]
    assert ledger.undo(state["id"])["deals"][0]["flags"] == []


def test_r_common_6_a_brouc_deal_entered_as_piles_says_how_it_was_entered_and_raises_no_flag():
    result = out(captured(table(), PILE_44))["deals"][0]
    assert result["entry"] == "capture" and result["flags"] == []


# --- R-COMMON-4: a hand the app knows wholly, from a recorded deal --------------------------------------------

def test_r_common_4_r_brouc_1_r_brouc_4_the_dealers_turned_card_and_his_announce_are_his_whole_hand():
    """Raphaël deals and keeps the turned KS (R-BROUC-1) and announces KD QD after trick 4 (R-BROUC-4): from trick
    6 his three cards are all known. Each card of another hand tapped for him is refused at that tap; his own are
    taken, to the end of the deal."""
    state, events, _ = DRIVER.recorded("brouc_announce", 7)
    assert out(state)["deals"][0]["known"] == {"KD": 0, "KS": 0, "QD": 0}
    assert events[7]["cards"] == ["QD", "JC", "10S", "10H"]  # Raphaël leads trick 6
    assert DRIVER.offered(state, 0) == ["KS", "KD", "QD"]
    error = DRIVER.partial(state, ["JC"])
    assert (error.code, error.rule, error.card, error.player) == ("card_not_in_known_hand", "R-COMMON-4", "JC", 0)
    assert error.message == "Every card Raphaël still holds is known, and JC is not one of them."
    assert error.params["held"] == ["KS", "KD", "QD"]
    state = play(state, events[7])
    assert events[8]["cards"] == ["9H", "KC", "KD", "AC"]  # trick 7: Raphaël third
    error = DRIVER.partial(state, ["9H", "KC", "AC"])
    assert (error.code, error.card, error.player) == ("card_not_in_known_hand", "AC", 0)
    state = play(state, events[8])
    assert events[9]["cards"] == ["9S", "7S", "KS", "7C"]
    assert DRIVER.partial(state, ["9S", "7S", "7C"]).message == "Raphaël's last card is known: it is KS, not 7C."
    assert out(play(state, events[9]))["deals"][0]["complete"] is True
