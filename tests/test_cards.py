import pytest

from referee.cards import BURACO_108, FRENCH_52, PIQUET_32, SPANISH_40, SPANISH_48, SPANISH_SUITS, Card, piquet_30
from referee.languages import LANGUAGES
from referee.errors import ParseError


def test_deck_sizes():
    assert (FRENCH_52.size, PIQUET_32.size, SPANISH_40.size, SPANISH_48.size, BURACO_108.size) == (52, 32, 40, 48, 108)
    assert piquet_30(["7H", "7C"]).size == 30
    assert len(set(BURACO_108.cards)) == 53 and BURACO_108.counts[Card("JK", None)] == 4
    assert BURACO_108.counts[FRENCH_52.parse("QS")] == 2


def test_parsing_is_case_insensitive_and_takes_t_for_ten():
    assert FRENCH_52.parse("th") == FRENCH_52.parse("10H") == Card("10", "H")
    assert SPANISH_40.parse("1o").code == "1O"
    assert SPANISH_48.parse("12b").code == "12B"
    assert BURACO_108.parse("jk").code == "JK"
    assert repr(SPANISH_40.parse("3E")) == "Card('3E')"


@pytest.mark.parametrize("deck, text", [(SPANISH_40, "8O"), (SPANISH_40, "9C"), (PIQUET_32, "6S"),
                                        (FRENCH_52, "JK"), (FRENCH_52, "1S"), (SPANISH_40, "zz"), (FRENCH_52, "")])
def test_unknown_card_names_the_input_and_the_deck(deck, text):
    with pytest.raises(ParseError) as refused:
        deck.parse(text)
    assert refused.value.code == "unknown_card"
    if text:
        assert text in refused.value.message and deck.name("en") in refused.value.message


def test_piquet_30_removes_the_two_chosen_sevens():
    deck = piquet_30(["7D", "7S"])
    assert PIQUET_32.parse("7D") not in deck and PIQUET_32.parse("7S") not in deck
    assert PIQUET_32.parse("7H") in deck and PIQUET_32.parse("7C") in deck
    with pytest.raises(ParseError):
        piquet_30(["7H", "8C"])


def test_display_names_in_french_and_english():
    assert FRENCH_52.parse("AH").name("fr") == "as de cœur"
    assert FRENCH_52.parse("QS").name("en") == "queen of spades"
    assert FRENCH_52.parse("10C").short() == "10♣"
    assert SPANISH_40.parse("1O").name("fr") == "as d'oros (focs)"
    assert SPANISH_40.parse("12B").name("en") == "king of bastos (bolets)"
    assert SPANISH_40.parse("11E").name("fr") == "cavalier d'espadas (falçs)"
    assert SPANISH_40.parse("10C").name("fr") == "sota de copas (porrons)"
    assert SPANISH_40.parse("12B").short() == "12 bastos"


def test_a_cards_label_writes_its_rank_as_the_players_of_the_language_write_it():
    """Issue 24: the corner letters of a French-suited deck: R D V in French, K D B in German; es, ca, it and pt_BR
    players keep the English K Q J; the ace, 2 to 10 and the Spanish deck's numbers are the same everywhere."""
    langs = list(LANGUAGES)  # fr, en, es, ca, it, pt_BR, de
    assert [PIQUET_32.parse(code).short("fr") for code in ("AH", "KH", "QS", "JC", "10D", "7C")] == [
        "A♥", "R♥", "D♠", "V♣", "10♦", "7♣"]
    assert [PIQUET_32.parse(code).short("de") for code in ("KH", "QS", "JC")] == ["K♥", "D♠", "B♣"]
    assert [FRENCH_52.parse("QH").short(lang) for lang in langs] == ["D♥", "Q♥", "Q♥", "Q♥", "Q♥", "Q♥", "D♥"]
    assert [FRENCH_52.parse("JS").letter(lang) for lang in langs] == ["V", "J", "J", "J", "J", "J", "B"]
    assert [SPANISH_40.parse("12B").short(lang) for lang in ("fr", "it", "de")] == [
        "12 bastos", "12 bastoni", "12 Stäbe"]  # the Spanish deck keeps its numbers (10 sota, 11 caballo, 12 rey)
    assert BURACO_108.parse("JK").short("fr") == "★" and BURACO_108.parse("JK").code == "JK"  # codes stay codes
    assert [suit.label("it") for suit in SPANISH_SUITS.values()] == ["den", "cop", "spa", "bas"]


@pytest.mark.parametrize("deck", [FRENCH_52, SPANISH_48, BURACO_108], ids=lambda d: d.id)
def test_a_decks_labels_are_each_cards_short_label_made_once_per_language(deck):
    """``Deck.labels`` (the scorer's offline copy hands them over at every tap): each card once, by its code, as
    ``Card.short`` writes it in the language; asked again, the same dict."""
    for lang in LANGUAGES:
        labels = deck.labels(lang)
        assert labels == {card.code: card.short(lang) for card in deck.cards}
        assert list(labels) == list(dict.fromkeys(card.code for card in deck.cards))
        assert deck.labels(lang) is labels
    assert FRENCH_52.labels("fr")["KH"] == "R♥" and FRENCH_52.labels("en")["KH"] == "K♥"
    assert SPANISH_48.labels("es")["12B"] == "12 bastos"
