"""The game's events as the API's document declares them (read by ``referee/web/api/openapi_events.py``): per
event, (the fields its parser needs, the ones it may take), a field left out or null being not given; and one body per
event that its parser reads at a table of 4 players, the document's examples (tests/test_openapi.py parses them, which
holds the two in step with the parser)."""
from referee.games.events import TRICK_EVENT_FIELDS

EVENT_FIELDS = {**TRICK_EVENT_FIELDS, "deal": ((), ("trump", "dealer", "widow")), "reveal": (("player", "cards"), ()),
                "tally": (("penalties",), ("widow",))}

EVENT_EXAMPLES = {"deal": {"trump": "2H", "dealer": 0, "widow": None}, "trick": {"cards": ["AS", "KS", "QS", "JS"]},
                  "capture": {"side": 0, "cards": ["AS", "KS", "QS", "JS"]}, "reveal": {"player": 1, "cards": ["2C"]},
                  "tally": {"penalties": [10, 10, 10, 10], "widow": []}}
