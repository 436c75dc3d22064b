"""A Burraco evening of 150 tables (300 pairs, require_signatures), its first Mitchell round of 3 hands seated and
played through the API to every status the director's board counts (issue 40, referee/web/tournaments/board.py):
what tests/test_director_board*.py start from. ``post(path, body, key)`` is the caller's: Flask's test client or a
served app's HTTP.

Seating (Mitchell): table n holds North-South pair n-1 and East-West pair 149+n. Every pair is "Plnnn a & Plnnn b"
but pair 7 (table 8), "Élodie Dubois & Hans Müller", and pair 160 (table 11), "Elodie Marchand & Zoe Roy".
"""
from __future__ import annotations

TABLES = 150
PAIRS = [[f"Pl{i:03d} a", f"Pl{i:03d} b"] for i in range(2 * TABLES)]
PAIRS[7] = ["Élodie Dubois", "Hans Müller"]
PAIRS[160] = ["Elodie Marchand", "Zoe Roy"]
PLAN = [{"movement": "mitchell", "hands": 3}, {"movement": "danish", "hands": 3}]

ONE_HAND = range(11, 21)  # one hand of three entered: playing
TO_CONFIRM = range(21, 31)  # three hands, nobody signed
SIGNED = range(31, 41)  # both sides signed (R-COMMON-7)
CALLED = range(41, 44)  # East-West called the director (R-COMMON-7)
CORRECTED = range(44, 46)  # signed, then the director entered the last hand again (R-COMMON-7b)
ARBITRAL = 46  # the director's VP (R-TOURN-1), nothing entered
COUNTS = {"playing": 124, "to_confirm": 10, "called": 3, "corrected": 3, "signed": 10, "not_played": 0}


def side(melds: int, left: int) -> dict:
    return {"melds": melds, "burracos": {}, "pot": True, "hand": left}


def hand(post, table: dict, key: str, ns: int = 300, ew: int = 100) -> None:
    events = f"/api/v1/tables/{table['table_id']}/events"
    post(events, {"type": "deal", "trump": None}, key)
    post(events, {"type": "tally", "closed_by": None, "sides": [side(ns, 0), side(ew, 0)]}, key)


def card_key(table: dict) -> str:
    return table["scorer_url"].split("key=")[1]


def big_round(post) -> dict:
    """The tournament made and round 1 played as COUNTS says: {"id", "director", "viewer", "tables"} (round 1's
    tables in their numbers' order)."""
    made = post("/api/v1/tournaments", {"game": "buraco", "name": "Campionato nazionale", "entrants": PAIRS,
                                        "rounds": PLAN, "require_signatures": True}, None)
    tid, director = made["id"], made["director_key"]
    tables = post(f"/api/v1/tournaments/{tid}/rounds", {}, director)["rounds"][0]["tables"]
    assert len(tables) == TABLES and tables[7]["entrants"] == [7, 157] and tables[10]["entrants"] == [10, 160]
    for table in tables:
        number, key = table["number"], card_key(table)
        events = f"/api/v1/tables/{table['table_id']}/events"
        if number in ONE_HAND:
            hand(post, table, key)
        elif number in (*TO_CONFIRM, *SIGNED, *CALLED, *CORRECTED):
            for _ in range(3):
                hand(post, table, key)
            if number in CALLED:
                post(events, {"type": "dispute", "side": 1, "message": f"Table {number}: a pot counted twice"}, key)
            elif number not in TO_CONFIRM:
                post(events, {"type": "confirm", "side": 0}, key)
                post(events, {"type": "confirm", "side": 1}, key)
            if number in CORRECTED:  # R-COMMON-7b: the last hand's tally withdrawn and entered again
                post(f"/api/v1/tables/{table['table_id']}/undo", {"reason": "East-West held 15 in hand"}, director)
                post(events, {"type": "tally", "closed_by": None, "sides": [side(300, 0), side(100, 15)],
                              "reason": "East-West held 15 in hand"}, director)
    post(f"/api/v1/tournaments/{tid}/rounds/1/tables/{ARBITRAL}/result",
         {"vp": [12, 8], "reason": "A card fell: the hand could not be replayed"}, director)
    return {"id": tid, "director": director, "viewer": made["viewer_key"], "tables": tables}
