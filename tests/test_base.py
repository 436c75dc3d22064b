"""The engine interface (games/base.py): options schema, table set-up, event dispatch, registry."""
import pytest

from referee.errors import ParseError
from referee.games import GAMES, get_game
from referee.games.options import Option

BRISCA = get_game("brisca")


@pytest.mark.parametrize("option, good, bad", [
    (Option("o", "bool", False, {}), True, "yes"),
    (Option("o", "int", 3, {}, (3, 5, 7)), 5, 4),
    (Option("o", "int", 3, {}), 12, True),
    (Option("o", "choice", "a", {}, ("a", "b")), "b", "c"),
    (Option("o", "cards", [], {}), ["7H", "7C"], "7H"),
])
def test_option_validation(option, good, bad):
    assert option.validate(good) == good
    with pytest.raises(ParseError) as error:
        option.validate(bad)
    assert error.value.code == "bad_option" and error.value.params["option"] == "o"


def test_every_option_explains_itself_in_both_languages():
    for game in GAMES.values():
        for option in game.options:
            assert set(option.help) == {"fr", "en"} and all(option.help.values()), option.name
            assert option.rule and option.rule.startswith("R-"), option.name
            option.validate(option.default)


def test_resolve_options_fills_defaults_and_refuses_unknown_ones():
    assert BRISCA.resolve_options({"wins_needed": 5}, 4) == {
        "tie_rule": "draw", "double_over_100": False, "wins_needed": 5, "trump_rotation": False,
        "mexican_11": False, "exchange_requires": "player"}
    with pytest.raises(ParseError) as error:
        BRISCA.resolve_options({"colour": "red"}, 4)
    assert error.value.message == "Brisca has no option colour; it has tie_rule, double_over_100, wins_needed, " \
        "trump_rotation, mexican_11, exchange_requires."
    with pytest.raises(ParseError):
        BRISCA.resolve_options(["wins_needed"], 4)


@pytest.mark.parametrize("players, dealer, code", [
    (["Ana", "ana", "Cy", "Di"], None, "bad_players"),
    (["Ana", " ", "Cy", "Di"], None, "bad_players"),
    (["Ana", "B" * 41, "Cy", "Di"], None, "bad_players"),
    ("Ana, Bo", None, "bad_players"),
    (["Ana", "Bo", "Cy", "Di"], 4, "bad_dealer"),
    (["Ana", "Bo", "Cy", "Di"], True, "bad_dealer"),
])
def test_new_table_refusals(players, dealer, code):
    with pytest.raises(ParseError) as error:
        BRISCA.new_table(players, {}, dealer)
    assert error.value.code == code


def test_r_common_1_and_2_names_are_trimmed_and_the_first_player_deals_by_default():
    table = BRISCA.new_table([" Ana ", "Bo"])
    assert table.players == ["Ana", "Bo"] and table.first_dealer == 0 and table.totals == [0, 0]


@pytest.mark.parametrize("body", [None, [], {"type": "castle"}, {"type": ["trick"]}, {"kind": "trick"}])
def test_parse_event_refuses_what_is_not_an_event(body):
    with pytest.raises(ParseError) as error:
        BRISCA.parse_event(BRISCA.new_table(["Ana", "Bo"]), body)
    assert error.value.code == "bad_event"


def test_registry():
    assert get_game("brisca") is BRISCA and BRISCA.describe()["players"] == [2, 6]
    with pytest.raises(ParseError) as error:
        get_game("chess")
    assert error.value.code == "unknown_game" and "brisca" in error.value.message
