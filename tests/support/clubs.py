"""A club's shared shapes for its tests (tests/test_clubs_api.py, test_clubs_pages.py): the key's header, a Brisca
series won 3–0 by the first side by its numbers (R-BRISCA-6), a Buraco hand won by the first side (R-BURACO-6)."""

BRISCA_WON_BY_FIRST = [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}] * 3
BURACO_HAND = {"type": "tally", "closed_by": 0, "sides": [
    {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0},
    {"melds": 150, "pot": True, "hand": 30}]}


def bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}
