"""Reading events (games/events.py): "cannot parse" errors name the field or the card."""
import pytest

from referee.errors import ParseError
from referee.games import events as ev
from referee.games import get_game

BRISCA = get_game("brisca")
TABLE = BRISCA.new_table(["Ana", "Bo", "Cy", "Di"])


def test_parsed_events_are_frozen_values():
    deal = ev.parse_deal(BRISCA, TABLE, {"type": "deal", "trump": "11e", "dealer": 2})
    assert (deal.type, deal.trump.code, deal.dealer) == ("deal", "11E", 2)
    trick = ev.parse_trick(BRISCA, TABLE, {"type": "trick", "cards": ["1c", "11O", "2C", "6o"]})
    assert [c.code for c in trick.cards] == ["1C", "11O", "2C", "6O"]
    with pytest.raises(AttributeError):
        trick.cards = ()
    capture = ev.parse_capture(BRISCA, TABLE, {"type": "capture", "side": 1, "cards": [], "last_trick": True})
    assert (capture.side, capture.cards, capture.last_trick) == (1, (), True)
    assert ev.parse_exchange(BRISCA, TABLE, {"type": "exchange", "player": 3}) == ev.Exchange(3, None)


@pytest.mark.parametrize("parser, body, field", [
    (ev.parse_deal, {"type": "deal", "dealer": 4}, "dealer"),
    (ev.parse_deal, {"type": "deal", "dealer": "1"}, "dealer"),
    (ev.parse_trick, {"type": "trick"}, "cards"),
    (ev.parse_capture, {"type": "capture", "cards": []}, "side"),
    (ev.parse_capture, {"type": "capture", "side": 0, "cards": [], "last_trick": "yes"}, "last_trick"),
    (ev.parse_exchange, {"type": "exchange", "player": -1}, "player"),
    (ev.parse_claim, {"type": "claim", "player": 1}, "cards"),
])
def test_bad_fields_are_named(parser, body, field):
    with pytest.raises(ParseError) as error:
        parser(BRISCA, TABLE, body)
    assert error.value.code == "bad_event" and error.value.params["field"] == field


def test_a_card_that_cannot_be_read_is_named():
    with pytest.raises(ParseError) as error:
        ev.parse_trick(BRISCA, TABLE, {"type": "trick", "cards": ["1C", "13C", "2C", "3C"]})
    assert (error.value.code, error.value.card) == ("unknown_card", "13C")
