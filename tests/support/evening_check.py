"""What the rehearsed evening (tests/support/evening.py) must leave behind, read back through the API and worked out
again here from what the phones entered, never from the server's own scoring: every acknowledged entry stored once
(``entries_not_once``), every table signed or settled (``unsettled``), and the standings (``standings_differences``)
from the hands entered, the VP table, the arbitral results and the penalties."""
from __future__ import annotations

from collections import Counter

# R-TOURN-4: the federation's VP table for a round of 3 hands, as printed (largest MP difference, winner's VP,
# loser's VP); a difference over 1,500 gives 20 to 0. Written out here, not read from scoring.py.
VP_3_HANDS = [(50, 10, 10), (150, 11, 9), (250, 12, 8), (350, 13, 7), (500, 14, 6), (650, 15, 5), (800, 16, 4),
              (1000, 17, 3), (1250, 18, 2), (1500, 19, 1)]
SETTLED = {"signed", "arbitral", "corrected"}  # R-COMMON-7, R-COMMON-7b: what lets a signed round close


def entries_not_once(evening, phone) -> list:
    """Every table's log against what its phones and the director were told was stored: (table, what is wrong) for
    each acknowledged ``client_event_id`` stored other than once, each stored entry nobody was told of, and each
    withdrawn entry other than a corrected table's last tally."""
    wrong = []
    for ident, acknowledged in evening.entries.items():
        status, log = phone.call("GET", f"/api/v1/tables/{ident}/events?key={evening.director_key}")
        assert status == 200, log
        stored = Counter(event.get("client_event_id") for event in log["events"])
        for client_id in acknowledged:
            if stored[client_id] != 1:
                wrong.append((ident, f"{client_id} stored {stored[client_id]} times"))
        for client_id in set(stored) - set(acknowledged):
            wrong.append((ident, f"{client_id} stored, never acknowledged"))
        withdrawn = [event["client_event_id"] for event in log["events"] if event["withdrawn"]]
        expected = [f"{ident}-2-tally"] if ident in evening.corrected else []
        if withdrawn != expected:
            wrong.append((ident, f"withdrawn {withdrawn}, expected {expected}"))
    return wrong


def unsettled(state: dict) -> list:
    """(round, table number, status) of every table neither signed, arbitral nor corrected."""
    return [(r["number"], t["number"], t["status"]) for r in state["rounds"] for t in r["tables"]
            if t["status"] not in SETTLED]


def victory_points(ns: int, ew: int) -> tuple:
    """R-TOURN-4: the VP of a table from its MP, by the 3-hand table above; equal MP share the first row's 10."""
    difference = abs(ns - ew)
    winner, loser = next(((w, l) for top, w, l in VP_3_HANDS if difference <= top), (20, 0))
    return (winner, loser) if ns >= ew else (loser, winner)


def recomputed(evening, state: dict) -> dict:
    """entrant -> {"vp", "mp", "played"}: each table's MP the sum of its hands' points, melds less cards left
    (R-BURACO-6: stock ended, pots taken, no burraco: no other term), its VP from the table above; an arbitral
    table the director's VP and no MP (R-COMMON-7); then the penalties (R-TOURN-2)."""
    rows = {e["index"]: {"vp": 0, "mp": 0, "played": 0} for e in state["entrants"]}
    for round_ in state["rounds"]:
        for table in round_["tables"]:
            ns, ew = table["entrants"]
            if table["table_id"] in evening.arbitral:
                (vp_ns, vp_ew), (mp_ns, mp_ew) = evening.arbitral[table["table_id"]], (0, 0)
            else:
                hands = evening.hands[table["table_id"]]
                mp_ns = sum(melds - left for (melds, left), _ in hands)
                mp_ew = sum(melds - left for _, (melds, left) in hands)
                vp_ns, vp_ew = victory_points(mp_ns, mp_ew)
            for entrant, vp, mp in ((ns, vp_ns, mp_ns), (ew, vp_ew, mp_ew)):
                rows[entrant]["vp"] += vp
                rows[entrant]["mp"] += mp
                rows[entrant]["played"] += 1
    for penalty in evening.penalties:
        rows[penalty["entrant"]]["vp"] += penalty["vp"]
    return rows


def standings_differences(evening, state: dict) -> list:
    """(entrant, the API's row, the one worked out here) wherever they differ, and the rows out of order (total VP
    first, R-TOURN-3)."""
    mine = recomputed(evening, state)
    theirs = {row["entrant"]: {"vp": row["vp"], "mp": row["mp"], "played": row["played"]} for row in state["standings"]}
    wrong = [(entrant, theirs.get(entrant), row) for entrant, row in mine.items() if theirs.get(entrant) != row]
    vps = [row["vp"] for row in state["standings"]]
    if vps != sorted(vps, reverse=True):
        wrong.append(("order", vps[:10], "by VP"))
    return wrong
