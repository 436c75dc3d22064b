"""Standings (issue 17): total VP, then total MP difference, then the VP the tied entrants took from each other, then
the entrant's index (equal on every key but the index: one rank); a bye scores its round's average VP (one decimal),
MP 0, and counts as played. As in the federation's competition code, art. 17, as summarised by player sites."""
from referee.tournament.scoring import bye_vp, standings, table_result, vp_table

A, B, C, D, E = 1, 2, 3, 4, 5
ENTRANTS = [{"index": i, "names": [name]} for i, name in ((A, "Ana"), (B, "Bo"), (C, "Cy"), (D, "Di"))]
ROWS = vp_table("burraco_3")


def table(round_number, ns, ew, mp, rows=ROWS):
    return {"round": round_number, "ns": ns, "ew": ew, "mp": list(mp),
            "vp": table_result("buraco", {"totals": list(mp), "series": {"finished": True}}, rows)["vp"], "bye": None}


def brief(rows):
    return [(r["rank"], r["entrant"], r["vp"], r["mp"], r["mp_difference"], r["played"]) for r in rows]


def test_vp_first_then_mp_difference_then_the_result_between_the_tied():
    results = [
        table(1, A, B, (700, 600)),  # A 11, B 9
        table(1, C, D, (500, 500)),  # 10, 10
        table(2, C, A, (600, 400)),  # C 12, A 8
        table(2, B, D, (450, 450)),  # 10, 10
    ]
    # A and B: 19 VP and -100 MP each; A took 11 VP from B, B 9 from A
    assert brief(standings(ENTRANTS, results)) == [
        (1, C, 22, 1100, 200, 2),
        (2, D, 20, 950, 0, 2),
        (3, A, 19, 1100, -100, 2),
        (4, B, 19, 1050, -100, 2),
    ]
    rows = standings(ENTRANTS, results)
    assert rows[2]["last"] == {"round": 2, "vp": 8, "mp": 400} and rows[0]["last"] == {"round": 2, "vp": 12, "mp": 600}
    assert [r["head_to_head"] for r in rows] == [0, 0, 11, 9]


def test_equal_vp_the_mp_difference_decides():
    results = [table(1, A, B, (900, 840)), table(1, C, D, (500, 400))]  # 60 and 100: both 11-9
    assert brief(standings(ENTRANTS, results)) == [
        (1, C, 11, 500, 100, 1), (2, A, 11, 900, 60, 1), (3, B, 9, 840, -60, 1), (4, D, 9, 400, -100, 1)]


def test_equal_on_every_key_one_rank_in_index_order():
    results = [
        table(1, A, B, (600, 500)), table(1, C, D, (500, 600)),  # A 11 B 9, C 9 D 11
        table(2, A, C, (500, 600)), table(2, B, D, (600, 500)),  # A 9 C 11, B 11 D 9
    ]
    assert brief(standings(ENTRANTS, results)) == [
        (1, A, 20, 1100, 0, 2), (1, B, 20, 1100, 0, 2), (1, C, 20, 1100, 0, 2), (1, D, 20, 1100, 0, 2)]
    # tied ones who never met: one rank too
    results = [table(1, A, B, (600, 500)), table(1, C, D, (600, 500))]
    assert brief(standings(ENTRANTS, results)) == [
        (1, A, 11, 600, 100, 1), (1, C, 11, 600, 100, 1), (3, B, 9, 500, -100, 1), (3, D, 9, 500, -100, 1)]


def test_a_bye_scores_its_rounds_average_vp_and_mp_0():
    own = vp_table([[0, 2, 2], [None, 3, 0]])  # the average is not always half the table's sum
    five = ENTRANTS + [{"index": E, "names": ["Ed"]}]
    results = [table(1, A, B, (300, 100), own), table(1, C, D, (200, 200), own), {"round": 1, "bye": E},
               table(2, A, E, (100, 400), own), table(2, B, C, (250, 100), own), {"round": 2, "bye": D}]
    assert bye_vp(results, 1) == 1.8  # (3 + 0 + 2 + 2) / 4 = 1.75, one decimal
    assert bye_vp(results, 2) == 1.5
    assert brief(standings(five, results)) == [
        (1, E, 4.8, 400, 300, 2),  # 1.8 (bye) + 3
        (2, D, 3.5, 200, 0, 2),  # 2 + 1.5 (bye)
        (3, B, 3, 350, -50, 2),
        (4, A, 3, 400, -100, 2),
        (5, C, 2, 300, -150, 2),
    ]
    rows = {r["entrant"]: r for r in standings(five, results)}
    assert rows[D]["last"] == {"round": 2, "vp": 1.5, "mp": 0} and rows[E]["last"] == {"round": 2, "vp": 3, "mp": 400}


def test_a_bye_waits_for_its_rounds_first_result_and_may_be_given():
    five = ENTRANTS + [{"index": E, "names": ["Ed"]}]
    playing = [{"round": 1, "ns": A, "ew": B, "mp": None, "vp": None, "bye": None}, {"round": 1, "bye": E}]
    assert [(r["entrant"], r["vp"], r["played"]) for r in standings(five, playing)] == [
        (A, 0, 0), (B, 0, 0), (C, 0, 0), (D, 0, 0), (E, 0, 0)]
    given = [table(1, A, B, (600, 500)), {"round": 1, "bye": E, "vp": [12], "mp": [0]}]
    assert {r["entrant"]: r["vp"] for r in standings(five, given)} == {A: 11, B: 9, C: 0, D: 0, E: 12}


def test_r_brulot_6_the_lower_penalty_difference_ranks_first():
    def played(round_number, ns, ew, mp, vp):
        return {"round": round_number, "ns": ns, "ew": ew, "mp": list(mp), "vp": list(vp), "bye": None}
    results = [played(1, A, B, (12, 40), (2, 0)), played(1, C, D, (30, 31), (2, 0))]
    assert [(r["rank"], r["entrant"], r["mp_difference"]) for r in standings(ENTRANTS, results, "brulot")] == [
        (1, A, -28), (2, C, -1), (3, D, 1), (4, B, 28)]
    assert [r["entrant"] for r in standings(ENTRANTS, results)] == [C, A, B, D]
