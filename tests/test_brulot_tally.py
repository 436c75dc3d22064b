"""A Brûlot deal by its numbers (contract "A deal by its numbers: `tally`"; R-BRULOT-1, 5, 6, R-COMMON-5, 6), through
the JSON API. Each pair is one deal played to the rules by tests/support/simulate.py, entered card by card on one table and
by its numbers on another: points, totals and series are the same. Every refusal answers 422 with its code and
leaves the table exactly as it was."""
import pytest

from tests.support.simulate import brulot_deal

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]

# The recorded deals (Ana deals), the penalties each player took by the simulator's own count, and the widow.
THREE = brulot_deal(3, 0, 3)  # widow QH, turned: 2 penalty points out of play
FOUR = brulot_deal(4, 0, 11, "dealer_last_card")  # no widow: Ana shows 3H, her last card
FIVE = brulot_deal(5, 0, 15)  # widow AS (turned) and AH: 8
SIX = brulot_deal(6, 0, 22)  # widow AC (turned), KS, QH, 6S: 9


def test_r_brulot_1_the_recorded_deals_and_their_widows():
    assert (THREE[1], THREE[2]) == ([17, 10, 11], ["QH"])
    assert (FOUR[1], FOUR[2], FOUR[0][0]["trump"]) == ([13, 15, 10, 2], [], "3H")
    assert (FIVE[1], FIVE[2]) == ([0, 3, 6, 5, 18], ["AS", "AH"])
    assert (SIX[1], SIX[2]) == ([5, 9, 0, 6, 0, 11], ["AC", "KS", "QH", "6S"])


class Api:
    """One table through the JSON API: ``post`` an entry, ``state`` as ``GET /api/v1/tables/<id>`` answers it."""

    def __init__(self, client, n, **options):
        response = client.post("/api/v1/tables", json={"game": "brulot", "players": NAMES[:n], "options": options})
        assert response.status_code == 201, response.get_json()
        self.client, created = client, response.get_json()
        self.id, self.headers = created["id"], {"Authorization": f"Bearer {created['scorer_key']}"}

    def post(self, *bodies):
        for body in bodies:
            response = self.client.post(f"/api/v1/tables/{self.id}/events", json=body, headers=self.headers)
            assert response.status_code == 201, response.get_json()
        return self

    def state(self) -> dict:
        response = self.client.get(f"/api/v1/tables/{self.id}", headers=self.headers)
        assert response.status_code == 200
        return response.get_json()

    def refused(self, body) -> dict:
        """The refusal's error body; the table answers exactly as before (R-COMMON-5: nothing is stored)."""
        before = self.state()
        response = self.client.post(f"/api/v1/tables/{self.id}/events", json=body, headers=self.headers)
        assert response.status_code == 422, response.get_json()
        assert self.state() == before
        return response.get_json()["error"]


def tally(penalties, widow=None) -> dict:
    body = {"type": "tally", "penalties": penalties}
    if widow is not None:
        body["widow"] = widow
    return body


# What a deal says the same way however it was entered; the rest (tricks, flags, the widow's unplayed cards) only
# card entry can know.
SAME = ("number", "dealer", "trump", "trump_suit", "complete", "points", "penalties", "check")


def same_game(cards: dict, numbers: dict) -> None:
    for key in ("totals", "series", "next", "possible", "sides"):
        assert cards[key] == numbers[key], key
    for by_cards, by_numbers in zip(cards["deals"], numbers["deals"], strict=True):
        assert {k: by_cards[k] for k in SAME} == {k: by_numbers[k] for k in SAME}


def pair(client, n, deal, **options):
    """One recorded deal entered card by card and by its numbers: the two states."""
    events, penalties, _ = deal
    by_cards = Api(client, n, **options).post(*events).state()
    by_numbers = Api(client, n, **options).post(events[0], tally(penalties)).state()
    same_game(by_cards, by_numbers)
    return by_cards, by_numbers


def test_r_brulot_5_three_players_a_tally_scores_as_the_cards_did_40_minus_the_widows_queen(client):
    by_cards, by_numbers = pair(client, 3, THREE)
    deal = by_numbers["deals"][0]
    assert deal["points"] == [17, 10, 11] == by_numbers["totals"]
    assert deal["check"] == {"taken": 38, "widow": 2, "deck": 40, "rule": "R-BRULOT-5"}
    assert deal["entry"] == "tally" and by_cards["deals"][0]["entry"] == "tricks"
    assert deal["tally"] == {"penalties": [17, 10, 11], "widow": None} and deal["widow"] == ["QH"]
    # nothing is claimed that only the cards could prove: no trick, flag, brûlé or shown hand
    assert (deal["tricks"], deal["flags"], deal["brule"], deal["shown"], deal["known"]) == ([], [], {}, {}, {})
    assert by_numbers["next"] == {"action": "deal", "player": 1}


def test_r_brulot_5_four_players_no_widow_a_tally_holds_all_40(client):
    _, by_numbers = pair(client, 4, FOUR)
    assert by_numbers["deals"][0]["points"] == [13, 15, 10, 2]
    assert by_numbers["deals"][0]["check"] == {"taken": 40, "widow": 0, "deck": 40, "rule": "R-BRULOT-5"}


def test_r_brulot_6_four_players_in_partnership_partners_add_their_penalties(client):
    _, by_numbers = pair(client, 4, FOUR, partnership=True)
    deal = by_numbers["deals"][0]
    assert deal["points"] == [23, 17] == deal["penalties"] and by_numbers["totals"] == [23, 17]
    assert deal["tally"]["penalties"] == [13, 15, 10, 2]  # each player's number, for the board to explain a side's


def test_r_brulot_5_six_players_clean_deal_bonus_and_the_widow_not_all_known(client):
    _, by_numbers = pair(client, 6, SIX, clean_deal_bonus=5)
    deal = by_numbers["deals"][0]
    assert deal["penalties"] == [5, 9, 0, 6, 0, 11] and deal["points"] == [5, 9, -5, 6, -5, 11]
    assert deal["check"] == {"taken": 31, "widow": 9, "deck": 40, "rule": "R-BRULOT-5"}
    assert deal["widow"] == ["AC"]  # only the turned card is known: the other three are not claimed


def test_r_brulot_6_six_players_in_partnership(client):
    _, by_numbers = pair(client, 6, SIX, partnership=True)
    assert by_numbers["deals"][0]["points"] == [11, 9, 11] and by_numbers["totals"] == [11, 9, 11]


def series(client, n, seeds, by_numbers, rule="widow", **options) -> list:
    """A whole series (everyone deals once, R-BRULOT-6), each deal entered by its numbers or card by card: the state
    after each deal."""
    table, states = Api(client, n, **options), []
    for number, seed in enumerate(seeds):
        events, penalties, _ = brulot_deal(n, number % n, seed, rule)
        table.post(*([events[0], tally(penalties)] if by_numbers else events))
        states.append(table.state())
    return states


@pytest.mark.parametrize("n, seeds, rule, options, points, totals, winner", [
    (3, (3, 4, 5), "widow", {}, [[17, 10, 11], [11, 19, 8], [9, 13, 14]], [37, 42, 33], 2),
    (4, (11, 12, 13, 14), "dealer_last_card", {"partnership": True},
     [[23, 17], [19, 21], [29, 11], [5, 35]], [76, 84], 0),
    (6, (22, 23, 24, 25, 26, 27), "widow", {"clean_deal_bonus": 5},
     [[5, 9, -5, 6, -5, 11], [2, 18, 8, -5, 7, 2], [-5, -5, 12, 5, 15, 8], [-5, 5, 3, 10, 6, 8],
      [8, -5, 15, -5, 6, 6], [-5, 10, 12, 13, 3, -5]], [0, 32, 45, 24, 32, 30], 0),
])
def test_r_brulot_6_a_series_by_numbers_ends_as_by_cards_lowest_total_wins(client, n, seeds, rule, options, points,
                                                                            totals, winner):
    for by_cards, by_numbers in zip(series(client, n, seeds, False, rule, **options),
                                    series(client, n, seeds, True, rule, **options), strict=True):
        same_game(by_cards, by_numbers)  # deal after deal: points, totals, the next dealer, the series
    assert [d["points"] for d in by_numbers["deals"]] == points and by_numbers["totals"] == totals
    assert by_numbers["series"] == {"finished": True, "winner": winner, "winners": [winner], "deals": n,
                                    "lowest_wins": True, "standing": by_numbers["series"]["standing"]}
    assert (by_numbers["series"]["standing"]["values"], by_numbers["series"]["standing"]["winners"]) == (
        totals, [winner])  # R-BRULOT-6: the penalty totals, the lowest first
    assert by_numbers["next"] == {"action": "none", "player": None}
    assert [d["entry"] for d in by_numbers["deals"]] == ["tally"] * n


def test_r_brulot_6_equal_lowest_totals_share_the_win_by_numbers(client):
    table = Api(client, 3, deals=2)
    table.post({"type": "deal", "trump": "2D"}, tally([9, 13, 18]), {"type": "deal", "trump": "2D"},
               tally([13, 9, 18]))
    state = table.state()
    assert state["totals"] == [22, 22, 36]
    assert (state["series"]["winner"], state["series"]["winners"]) == (None, [0, 1])
    assert table.refused(tally([9, 13, 18]))["code"] == "series_finished"


def test_r_brulot_1_the_tally_completes_the_widow_then_the_sum_is_exact(client):
    table = Api(client, 5).post(FIVE[0][0])
    error = table.refused(tally([0, 3, 6, 5, 19], ["AH"]))  # AS and AH in the widow: 40 - 8 = 32, not 33
    assert error == {"code": "tally_penalties_sum", "rule": "R-BRULOT-5", "total": 33, "held": 32, "whole": 40,
                     "widow": 8, "message": "The players' penalties add up to 33; this deal holds 32: 40 minus the "
                                            "widow's 8."}
    deal = table.post(tally([0, 3, 6, 5, 18], ["AH"])).state()["deals"][0]
    assert deal["widow"] == ["AS", "AH"] and deal["tally"] == {"penalties": [0, 3, 6, 5, 18], "widow": ["AH"]}
    assert deal["check"] == {"taken": 32, "widow": 8, "deck": 40, "rule": "R-BRULOT-5"}


def test_r_brulot_1_a_tally_may_repeat_the_widow_the_deal_entered(client):
    deal = {"type": "deal", "trump": "2S", "widow": ["2S", "3S", "4S", "5S"]}
    state = Api(client, 6).post(deal, tally([0, 0, 10, 10, 10, 10], ["5S", "2S"])).state()
    assert state["deals"][0]["widow"] == ["2S", "3S", "4S", "5S"] and state["totals"] == [0, 0, 10, 10, 10, 10]


# --- refusals: 422, the code, the sentence naming the number and the rule, nothing stored --------------------

def test_r_brulot_5_penalties_above_40_minus_the_widows_are_refused(client):
    table = Api(client, 3).post(THREE[0][0])  # the widow is the turned QH: the players hold 38
    error = table.refused(tally([17, 10, 13]))
    assert error == {"code": "tally_penalties_sum", "rule": "R-BRULOT-5", "total": 40, "held": 38, "whole": 40,
                     "widow": 2, "message": "The players' penalties add up to 40; this deal holds 38: 40 minus the "
                                            "widow's 2."}
    assert table.refused(tally([17, 10, 10]))["total"] == 37  # below is refused as well


def test_r_brulot_5_a_players_penalties_above_what_is_left_are_refused(client):
    table = Api(client, 3).post(THREE[0][0])
    error = table.refused(tally([39, 0, 0]))
    assert error == {"code": "tally_penalties_range", "rule": "R-BRULOT-5", "player": 0, "name": "Ana",
                     "penalties": 39, "most": 38,
                     "message": "Ana cannot have 39 penalty points: a player takes 0 to 38 in this deal."}
    error = table.refused(tally([17, -1, 11]))
    assert (error["code"], error["player"], error["penalties"]) == ("tally_penalties_range", 1, -1)


def test_r_brulot_5_a_number_no_penalty_cards_make_is_refused(client):
    table = Api(client, 3, penalties=[5, 5, 5, 5]).post(THREE[0][0])  # every penalty card is worth 5
    error = table.refused(tally([3, 30, 42]))
    assert error == {"code": "tally_penalties_impossible", "rule": "R-BRULOT-5", "player": 0, "name": "Ana",
                     "penalties": 3,
                     "message": "No penalty cards of this deal add up to 3: Ana cannot have 3 penalty points."}
    assert table.post(tally([5, 30, 40])).state()["totals"] == [5, 30, 40]  # 80 minus the widow's 5


def test_r_brulot_5_with_the_widow_known_in_part_the_sum_lies_between_what_it_could_hold(client):
    table = Api(client, 5).post(FIVE[0][0])  # AS turned (4), one widow card unknown: 0 to 4 more
    error = table.refused(tally([0, 3, 6, 5, 12]))
    assert error == {"code": "tally_penalties_sum", "rule": "R-BRULOT-5", "total": 26, "unknown": 1, "low": 32,
                     "high": 36, "message": "The players' penalties add up to 26; with the widow known only in part, "
                                            "this deal holds 32 to 36."}
    assert table.refused(tally([0, 3, 6, 5, 23]))["total"] == 37
    assert table.post(tally([0, 3, 6, 5, 22])).state()["deals"][0]["check"]["widow"] == 4  # the turned ace alone


def test_r_brulot_5_numbers_possible_alone_but_not_together_are_refused(client):
    deal = {"type": "deal", "trump": "2S", "widow": ["2S", "3S", "4S", "5S"]}  # no penalty in the widow
    table = Api(client, 6).post(deal)
    error = table.refused(tally([1, 1, 1, 1, 1, 35]))  # five players at 1 need five jacks: there are four
    assert error == {"code": "tally_penalties_split", "rule": "R-BRULOT-5", "penalties": [1, 1, 1, 1, 1, 35],
                     "numbers": "Ana 1, Bo 1, Cy 1, Di 1, Ed 1, Flo 35",
                     "message": "No sharing of this deal's penalty cards gives Ana 1, Bo 1, Cy 1, Di 1, Ed 1, Flo 35: "
                                "each number is possible alone, not all together."}
    assert table.post(tally([1, 1, 1, 1, 2, 34])).state()["totals"] == [1, 1, 1, 1, 2, 34]


def test_r_brulot_5_a_sum_no_unknown_widow_can_leave_is_refused(client):
    # Aces worth 10: the turned AC is out, three widow cards unknown. The players hold 54 less 0 to 30, but 25
    # would leave 29 to three cards worth 10, 3, 2, 1 or 0 each: no three of them make 29.
    table = Api(client, 6, penalties=[10, 3, 2, 1]).post(SIX[0][0])
    assert table.refused(tally([10, 10, 5, 0, 0, 0]))["code"] == "tally_penalties_split"
    error = table.refused(tally([5, 5, 5, 5, 3, 0]))
    assert (error["code"], error["low"], error["high"]) == ("tally_penalties_sum", 24, 54)
    state = table.post(tally([5, 5, 5, 5, 4, 0])).state()  # the widow holds the four aces
    assert state["deals"][0]["check"] == {"taken": 24, "widow": 40, "deck": 64, "rule": "R-BRULOT-5"}


@pytest.mark.parametrize("n, widow, code, card, message", [
    (3, ["QH", "2S"], "bad_widow", None, "With 3 players the widow holds 1 cards."),
    (3, ["2S"], "widow_disagrees", "2S", "2S is not in the widow entered with the deal."),
    (6, ["KS", "KS"], "card_twice", "KS", "KS is entered twice in the widow."),
    (6, ["KS", "QH", "6S", "2C"], "widow_disagrees", "AC",
     "AC was turned from the widow with the deal; the widow given here leaves it out."),
    (4, ["2S"], "bad_widow", None, "With 4 players the widow holds 0 cards."),
])
def test_r_brulot_1_a_tallys_widow_must_agree_with_the_deal(client, n, widow, code, card, message):
    deal = {3: THREE, 4: FOUR, 6: SIX}[n]
    table = Api(client, n).post(deal[0][0])
    error = table.refused(tally(deal[1], widow))
    assert (error["code"], error.get("card"), error["message"], error["rule"]) == (code, card, message, "R-BRULOT-1")


def test_r_common_6_a_tally_is_not_mixed_with_cards_and_needs_an_open_deal(client):
    table = Api(client, 3)
    error = table.refused(tally([17, 10, 11]))
    assert (error["code"], error["rule"]) == ("no_deal", "R-COMMON-2")
    table.post(*THREE[0][:2])
    error = table.refused(tally([17, 10, 11]))
    assert (error["code"], error["rule"]) == ("entry_mixed", "R-COMMON-6")
    table = Api(client, 3).post(THREE[0][0], tally([17, 10, 11]))
    assert table.refused(tally([17, 10, 11]))["code"] == "no_deal"  # the tally closed the deal


@pytest.mark.parametrize("body, code", [
    ({"type": "tally", "penalties": [17, 10]}, "bad_event"),
    ({"type": "tally", "penalties": [17, 10, "11"]}, "bad_event"),
    ({"type": "tally", "penalties": [17, 10, True]}, "bad_event"),
    ({"type": "tally"}, "bad_event"),
    ({"type": "tally", "penalties": [17, 10, 11], "widow": ["QX"]}, "unknown_card"),
    ({"type": "tally", "penalties": [17, 10, 11], "widow": "QH"}, "bad_event"),
])
def test_r_common_5_a_tally_that_cannot_be_read_is_refused(client, body, code):
    table = Api(client, 3).post(THREE[0][0])
    assert table.refused(body)["code"] == code


def test_r_common_6_an_undone_tally_reopens_the_deal_for_its_cards(client):
    table = Api(client, 3).post(THREE[0][0], tally([17, 10, 11]))
    response = table.client.post(f"/api/v1/tables/{table.id}/undo", headers=table.headers)
    assert response.status_code == 200 and response.get_json()["state"]["totals"] == [0, 0, 0]
    state = table.post(*THREE[0][1:]).state()
    assert state["deals"][0]["entry"] == "tricks" and state["totals"] == [17, 10, 11]
