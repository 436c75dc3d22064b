"""The game's events as the API's document declares them (read by ``referee/web/api/openapi_events.py``): per
event, (the fields its parser needs, the ones it may take), a field left out or null being not given; and one body per
event that its parser reads at a table of 4 players, the document's examples (tests/test_openapi.py parses them, which
holds the two in step with the parser)."""
from referee.games.events import TRICK_EVENT_FIELDS

EVENT_FIELDS = {**TRICK_EVENT_FIELDS, "capture": (("side", "cards"), ("brusquembilles",)),
                "tally": (("points",), ("brusquembilles",))}

EVENT_EXAMPLES = {"deal": {"trump": "AS"}, "trick": {"cards": ["10H", "KH", "QH", "JH"]},
                  "capture": {"side": 0, "cards": ["10H", "KH", "QH", "JH"], "brusquembilles": [
                      {"card": "10H", "player": 1, "outcome": "won"}]},
                  "tally": {"points": [70, 50], "brusquembilles": [
                      {"card": "AH", "player": 1, "outcome": "trumped"}]}}
