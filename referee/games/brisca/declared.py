"""The game's events as the API's document declares them (read by ``referee/web/api/openapi_events.py``): per
event, (the fields its parser needs, the ones it may take), a field left out or null being not given; and one body per
event that its parser reads at a table of 4 players, the document's examples (tests/test_openapi.py parses them, which
holds the two in step with the parser)."""
from referee.games.events import TRICK_EVENT_FIELDS

EVENT_FIELDS = {**TRICK_EVENT_FIELDS, "capture": (("side", "cards"), ("last_trick",)),
                "exchange": (("player",), ("card",)),
                "claim": (("player", "cards"), ()), "tally": (("points",), ("last_trick",))}

EVENT_EXAMPLES = {"deal": {"trump": "4O", "dealer": 0}, "trick": {"cards": ["1C", "11O", "2C", "6O"]},
                  "capture": {"side": 0, "cards": ["1C", "11O", "2C", "6O"], "last_trick": True},
                  "exchange": {"player": 1, "card": "7O"}, "claim": {"player": 2, "cards": ["1O", "3O", "12O"]},
                  "tally": {"points": [60, 60], "last_trick": 1}}
