"""Duel's events as the API's document declares them (read by ``referee/web/api/openapi_events.py``, as every game's
declared.py): per event, (the fields its parser needs, the ones it may take), and one body per event that its parser
reads at a table of 2 players, the document's examples."""
from referee.games.events import TRICK_EVENT_FIELDS

EVENT_FIELDS = {**TRICK_EVENT_FIELDS, "tally": (("points",), ())}

EVENT_EXAMPLES = {"deal": {"trump": "AH", "dealer": 0}, "trick": {"cards": ["KS", "AS"]},
                  "capture": {"side": 0, "cards": ["KS", "AS", "QH", "JH"]}, "tally": {"points": [18, 12]}}
