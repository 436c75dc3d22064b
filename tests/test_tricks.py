"""Shared trick mechanics (games/tricks.py): R-COMMON-2 leader, winners, card accounting, revoke hook, the hands
the app knows wholly (R-COMMON-4)."""
import pytest

from referee.cards import FRENCH_52, SPANISH_40
from referee.games import get_game
from referee.games.brisca.engine import STRENGTH
from referee.games.trick_deal import Absence, TrickDeal, check_revoke, record_absence
from referee.games.tricks import trick_winner
from tests.support import simulate

FRENCH = {r: 14 - i for i, r in enumerate(("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"))}


def cards(deck, *codes):
    return [deck.parse(c) for c in codes]


def test_highest_of_the_suit_led_wins_without_trump():
    assert trick_winner(cards(SPANISH_40, "4C", "1O", "3C", "12C"), "E", STRENGTH) == 2


def test_any_trump_beats_the_suit_led_and_the_highest_trump_wins():
    assert trick_winner(cards(SPANISH_40, "1C", "2E", "3C", "4E"), "E", STRENGTH) == 3
    assert trick_winner(cards(FRENCH_52, "AS", "2H", "KS"), "H", FRENCH) == 1


def test_a_card_of_a_third_suit_never_wins():
    assert trick_winner(cards(FRENCH_52, "5D", "AS", "AC", "6D"), None, FRENCH) == 3


def test_r_common_2_leader_is_the_player_after_the_dealer():
    assert TrickDeal(1, dealer=3, n_players=4, trump=None, trump_suit=None).leader == 0
    assert TrickDeal(1, dealer=0, n_players=2, trump=None, trump_suit=None).leader == 1


def absence(player=1, suits="H", trick=2):
    return Absence(player, frozenset(suits), trick, "revoke", "R-COMMON-4", "did not follow hearts, then played "
                   "{proof_card}")


def test_r_common_4_revoke_is_flagged_when_a_later_card_proves_it():
    deal = TrickDeal(1, dealer=0, n_players=4, trump=None, trump_suit="S")
    assert record_absence(deal, absence()) is None and deal.flags == []
    assert check_revoke(deal, 2, FRENCH_52.parse("5H")) == []  # another player: proves nothing
    assert check_revoke(deal, 1, FRENCH_52.parse("5D")) == []  # another suit: proves nothing
    flags = check_revoke(deal, 1, FRENCH_52.parse("5H"))
    assert [(f.code, f.player, f.trick, f.rule) for f in flags] == [("revoke", 1, 2, "R-COMMON-4")]
    assert flags[0].message == "did not follow hearts, then played 5H"
    assert check_revoke(deal, 1, FRENCH_52.parse("9H")) == []  # flagged once


def test_r_common_4_revoke_is_flagged_at_once_when_the_hand_was_shown():
    deal = TrickDeal(1, dealer=0, n_players=4, trump=None, trump_suit="S")
    deal.known[FRENCH_52.parse("QH")] = 1
    flag = record_absence(deal, absence())
    assert (flag.code, flag.player, flag.trick) == ("revoke", 1, 2) and deal.flags == [flag]


def known_hands_met(game_id: str, players: int, options: dict, events: list) -> int:
    """Replays a deal played to the rules, checking at every card that a hand the app knows wholly holds the card
    played (the refusal never falls on a true deal); how many cards were played from such a hand."""
    game = get_game(game_id)
    table = game.new_table(["Ana", "Bo", "Cy", "Di", "Ed"][:players], options)
    met = 0
    for body in events:
        if body["type"] == "trick":
            deal = table.current
            for i, code in enumerate(body["cards"]):
                hand = game.known_hand(table, deal, (deal.leader + i) % players)
                assert hand is None or game.deck_for(table).parse(code) in hand, (body, i, hand)
                met += hand is not None
        game.step(table, game.parse_event(table, body))
    assert table.deals[-1].complete
    return met


@pytest.mark.parametrize("game_id, players, options, deal_of", [
    ("brisca", 2, {}, lambda seed: simulate.brisca_deal(2, 0, seed)),
    ("brisca", 4, {}, lambda seed: simulate.brisca_deal(4, 0, seed, exchange=True)),
    ("brusquembille", 3, {}, lambda seed: simulate.brusquembille_deal(3, 0, seed)),
    ("brusquembille", 5, {"turned_card_last": True}, lambda seed: simulate.brusquembille_deal(5, 0, seed, True)),
    ("brulot", 4, {}, lambda seed: simulate.brulot_deal(4, 0, seed, "dealer_last_card", reveal=True)[0]),
    ("brouc", 4, {}, lambda seed: simulate.brouc_deal(seed % 4, seed, announce=True)),
], ids=["brisca-2", "brisca-4-exchange", "brusquembille-3", "brusquembille-5-last", "brulot-4-reveal", "brouc"])
def test_r_common_4_a_known_hand_never_refuses_a_card_of_a_deal_played_to_the_rules(game_id, players, options,
                                                                                    deal_of):
    met = sum(known_hands_met(game_id, players, options, deal_of(seed)) for seed in range(60))
    assert met > 0  # the check was met, and passed each time
