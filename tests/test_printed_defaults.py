"""What a game gets on paper without writing its own (``referee/games/printed.py``'s defaults, issue 39): a trick
game's card values in its strength order with the rules every game shares (R-COMMON-2, 6, 7, 7b), and a score sheet of
deals, each side's points and the totals, drawn by the shared ``_sheet_print_deals.html`` (R-COMMON-6), with the rows
a blank sheet offers left to write in after a series under way's deals."""
import pytest

from referee.games.base import GAMES
from referee.games.tricks import TrickGame
from referee.summaries import summary
from referee.web.printing.sheets import sheet_model


class Dozen(TrickGame):
    """A game with nothing of its own on paper: three ranks, two sides."""

    id = "dozen"
    names = {"fr": "Douzaine", "en": "Dozen"}
    description = direction = {"fr": "—", "en": "—"}
    strength = {"Q": 1, "A": 3, "K": 2}
    points = {"A": 11, "K": 4}
    points_rule = "R-COMMON-5"


@pytest.fixture
def dozen():
    """The game in the registry for one test, and out of it after."""
    GAMES["dozen"] = game = Dozen()
    yield game
    del GAMES["dozen"]


def test_r_common_2_6_7_a_summary_of_a_game_without_its_own_gives_its_card_values_and_the_common_rules(dozen):
    doc = summary("dozen")
    assert [(v["label"]["en"], v["points"]) for v in doc["values"]] == [("ace", 11), ("king", 4), ("queen", 0)]
    assert doc["strength"]["fr"] == "as > roi > dame" and doc["values_rule"] == "R-COMMON-5"
    assert [item["rule"] for item in doc["items"]] == ["R-COMMON-2", "R-COMMON-6", "R-COMMON-7", "R-COMMON-7b"]
    assert "the winner of each trick leads the next" in doc["items"][0]["en"]  # a game of tricks (plays_tricks)


def test_r_common_6_a_blank_sheet_of_deals_offers_its_rows_and_a_filled_one_room_after_the_deals(dozen):
    blank = sheet_model(dozen, None)
    assert blank["names"] == [None, None] and blank["rows"] == [None] * 12 and blank["blank"] is True
    assert (blank["lines"], blank["width"]) == (14, 32)
    state = {"sides": [{"name": "Ana"}, {"name": "Bo"}], "totals": [15, 0], "series": {"finished": False},
             "deals": [{"number": 1, "complete": True, "points": [15, 0]}, {"number": 2, "complete": False}]}
    filled = sheet_model(dozen, state)
    assert filled["names"] == ["Ana", "Bo"] and filled["totals"] == [15, 0]
    assert filled["rows"] == [{"number": 1, "points": [15, 0]}] + [None] * 11  # up to a blank sheet's 12
    state["series"]["finished"] = True
    assert sheet_model(dozen, state)["rows"] == [{"number": 1, "points": [15, 0]}]  # over: no room left


def test_r_common_6_the_blank_sheet_page_of_a_game_without_its_own_template_draws_the_sheet_of_deals(client, dozen):
    page = client.get("/sheet/dozen?lang=en").get_data(as_text=True)
    assert "Dozen — Score sheet" in page and page.count('<tr class="row">') == 12
    assert page.count('<th scope="col" class="side">') == 2 and '<tr class="total"><th scope="row">Total</th>' in page
