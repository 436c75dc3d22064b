"""The game's events as the API's document declares them (read by ``referee/web/api/openapi_events.py``): per
event, (the fields its parser needs, the ones it may take), a field left out or null being not given; and one body per
event that its parser reads at a table of 4 players, the document's examples (tests/test_openapi.py parses them, which
holds the two in step with the parser)."""
from referee.games.events import TRICK_EVENT_FIELDS

EVENT_FIELDS = {**TRICK_EVENT_FIELDS, "capture": (("side", "cards"), ("announces", "marriages", "declare")),
                "announce": (("player", "cards"), ()), "declare": (("player", "call"), ()),
                "tally": (("points",), ("cape", "announces", "marriages", "declare"))}

EVENT_EXAMPLES = {"deal": {"trump": "AH", "dealer": 0}, "trick": {"cards": ["KH", "QH", "JH", "AH"]},
                  "capture": {"side": 0, "cards": ["KH", "QH", "JH", "AH"], "announces": [{"player": 0, "cards": [
                      "KS", "QS"]}], "marriages": [{"side": 0, "cards": ["KH", "QH", "JH"]}],
                              "declare": {"player": 0, "call": "cape_dehors"}},
                  "announce": {"player": 0, "cards": ["KS", "QS"]}, "declare": {"player": 2, "call": "cape_dehors"},
                  "tally": {"points": [69, 51], "cape": None, "announces": [{"player": 0, "cards": ["KS", "QS"]}],
                            "marriages": [{"side": 1, "cards": ["KC", "QC"]}], "declare": None}}
