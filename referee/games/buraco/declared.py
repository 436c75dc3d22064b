"""The game's events as the API's document declares them (read by ``referee/web/api/openapi_events.py``): per
event, (the fields its parser needs, the ones it may take), a field left out or null being not given; and one body per
event that its parser reads at a table of 4 players, the document's examples (tests/test_openapi.py parses them, which
holds the two in step with the parser)."""
EVENT_FIELDS = {"deal": ((), ("dealer",)), "meld": (("side", "cards"), ()),
                "extend": (("side", "meld", "cards"), ("at",)), "replace": (("side", "meld", "card"), ()),
                "pot": (("side",), ()),
                "count": (("hands",), ("closed_by", "melds")), "tally": (("sides",), ("closed_by", "teams"))}

EVENT_EXAMPLES = {"deal": {"dealer": 1}, "meld": {"side": 0, "cards": ["5H", "JK", "7H"]},
                  "extend": {"side": 0, "meld": 0, "cards": ["8H"], "at": "end"},
                  "replace": {"side": 0, "meld": 0, "card": "6H"}, "pot": {"side": 1},
                  "count": {"closed_by": 2, "hands": [[], ["4S"], [], ["JK"]],
                            "melds": [[["KC", "QC", "JC"]], [["5S", "5H", "5D"]]]},
                  "tally": {"closed_by": None, "sides": [
                      {"melds": 65, "burracos": {"pure": 1}, "pot": True, "hand": 0},
                      {"melds": 20, "burracos": None, "pot": False, "hand": 15}]}}
