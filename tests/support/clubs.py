"""A club's shared shapes for its tests (tests/test_clubs_api.py, test_clubs_pages.py, test_club_import*.py): the
key's header, a Brisca series won 3–0 by the first side by its numbers (R-BRISCA-6), a Buraco hand won by the first
side (R-BURACO-6), a club's export of any size (``club_export``)."""

BRISCA_WON_BY_FIRST = [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}] * 3
BURACO_HAND = {"type": "tally", "closed_by": 0, "sides": [
    {"melds": 300, "burracos": {"pure": 1}, "pot": True, "hand": 0},
    {"melds": 150, "pot": True, "hand": 30}]}


def bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def club_export(tables: int, first: str = "2026-03-01T20:00:00Z") -> dict:
    """A club's export (``referee-club/1``) as a club page writes it: four members and ``tables`` Brisca series of
    two members each, won 3–0 by the first seat (``BRISCA_WON_BY_FIRST``), one after the other from ``first`` (a
    minute an entry), so that they finish in the file's order. About 900 bytes a table."""
    from datetime import datetime, timedelta

    start = datetime.fromisoformat(first.replace("Z", "+00:00"))
    members = [{"id": f"m{n}", "name": name} for n, name in enumerate(("Ana", "Bo", "Cy", "Di"))]
    made = []
    for number in range(tables):
        seats = [members[number % 4], members[(number + 1) % 4]]
        events = [{**body, "seq": seq, "by": "scorer", "withdrawn": False,
                   "at": (start + timedelta(minutes=number * 6 + seq)).isoformat().replace("+00:00", "Z")}
                  for seq, body in enumerate(BRISCA_WON_BY_FIRST, 1)]
        made.append({"table": {"game": "brisca", "players": [s["name"] for s in seats],
                               "options": {"wins_needed": 3}, "dealer": 0},
                     "events": events, "members": [s["id"] for s in seats]})
    return {"format": "referee-club/1", "club": {"name": "Le jeudi", "season": None}, "members": members,
            "tables": made, "tournaments": []}
