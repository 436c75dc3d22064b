"""The VP scale follows the round's length (R-TOURN-4, issue 38 item 13): Burraco's shipped VP tables are made for
rounds of 3 and of 4 hands. A tournament whose rounds are not all of 3 or all of 4 hands (2 hands, or 3 and 4 mixed),
or that names a shipped table made for another length, and gives no rows of its own, is refused (422
``vp_table_needed``, nothing stored); the form says so in a sentence and offers the 3-hand table's rows to edit. A
2-hand round is then scored by the director's rows, never by the 3-hand table (which gave 16–4 before)."""
import re
from html import unescape

import pytest
from sqlmodel import Session, func, select

from referee.store.records import TournamentRecord

PAIRS = [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]
OWN = [[100, 10, 10], [None, 15, 5]]  # up to 100 MP of difference 10–10, over it 15–5
NEEDED = ("The shipped VP tables are made for rounds of 3 hands or of 4 hands, all alike; these rounds are of "
          "{hands} hands: give the VP table's rows (vp_table).")


def rounds(*hands) -> list:
    return [{"movement": "round_robin", "hands": n} for n in hands]


def create(client, hands: list, vp_table=None):
    body = {"game": "buraco", "name": "Evening", "entrants": PAIRS, "rounds": rounds(*hands)}
    if vp_table is not None:
        body["vp_table"] = vp_table
    return client.post("/api/v1/tournaments", json=body)


def stored(client) -> int:
    with Session(client.application.extensions["referee.ledger"].engine) as session:
        return session.exec(select(func.count()).select_from(TournamentRecord)).one()


@pytest.mark.parametrize("hands, vp_table, said", [
    ([2], None, "2"), ([2, 2], "burraco_3", "2"), ([3, 4], None, "3, 4"), ([3, 4], "burraco_4", "3, 4"),
    ([4, 4], "burraco_3", "4"), ([3], "burraco_4", "3"), ([5], None, "5")])
def test_r_tourn_4_a_shipped_table_never_applies_to_a_round_length_it_was_not_made_for(client, hands, vp_table,
                                                                                      said):
    answer = create(client, hands, vp_table)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == {"code": "vp_table_needed", "message": NEEDED.format(hands=said),
                                          "rule": "R-TOURN-4", "hands": said, "field": "vp_table"}
    assert stored(client) == 0


@pytest.mark.parametrize("hands, vp_table, first_row", [
    ([3, 3], None, [50, 10, 10]), ([4, 4], None, [100, 10, 10]), ([3], "burraco_3", [50, 10, 10]),
    ([4], "burraco_4", [100, 10, 10]), ([2], OWN, [100, 10, 10]), ([3, 4], OWN, [100, 10, 10])])
def test_r_tourn_4_the_table_made_for_the_rounds_or_the_directors_rows_are_taken(client, hands, vp_table, first_row):
    answer = create(client, hands, vp_table)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["state"]["vp_table"][0] == first_row


def score(client, table: dict, hands: list) -> None:
    key = table["scorer_url"].split("key=")[1]
    for ns, ew in hands:
        for body in ({"type": "deal", "trump": None}, {"type": "tally", "closed_by": None, "sides": [
                {"melds": ns, "burracos": {}, "pot": True, "hand": 0},
                {"melds": ew, "burracos": {}, "pot": True, "hand": 0}]}):
            answer = client.post(f"/api/v1/tables/{table['table_id']}/events", json=body,
                                 headers={"Authorization": f"Bearer {key}"})
            assert answer.status_code == 201, answer.get_json()


def test_r_tourn_4_a_2_hand_round_is_scored_by_the_directors_rows_exactly(client):
    made = create(client, [2], OWN).get_json()
    director = {"Authorization": f"Bearer {made['director_key']}"}
    table = client.post(f"/api/v1/tournaments/{made['id']}/rounds", headers=director).get_json()["rounds"][0][
        "tables"][0]
    score(client, table, [(300, 100), (200, 100)])  # 500 v 200: 300 MP apart (the 3-hand table: 13–7)
    state = client.get(f"/api/v1/tournaments/{made['id']}", headers=director).get_json()
    result = state["rounds"][0]["tables"][0]
    assert result["finished"] is True and result["result"] == {
        "mp": [500, 200], "vp": [15, 5], "series": {"unit": "points", "values": [500, 200], "winners": [0]}}


# --- the form --------------------------------------------------------------------------------------------------

def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def form(lengths: list, vp: str, vp_rows: str = "") -> dict:
    return {"op": "create", "game": "buraco", "name": "Evening", "form_id": "f" * 32, "vp": vp, "vp_rows": vp_rows,
            "entrants": "\n".join(" & ".join(pair) for pair in PAIRS), "movement": ["round_robin"] * len(lengths),
            "length": [str(n) for n in lengths]}


@pytest.fixture
def page_client(client):
    client.application.config["WTF_CSRF_ENABLED"] = False
    client.set_cookie("lang", "en")
    return client


def test_r_tourn_4_the_form_offers_the_3_hand_rows_to_edit_for_2_hand_rounds_and_applies_none(page_client):
    answer = page_client.post("/tournaments/new", data=form([2, 2], "burraco_3"), content_type="multipart/form-data")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and stored(page_client) == 0
    assert ("The VP tables offered are made for rounds of 3 hands or of 4 hands, all alike; these rounds are of 2 "
            "hands. Your own table below starts from the 3-hand table's rows: make it fit these rounds, then create "
            "the tournament.") in words(page)
    assert re.search(r'<input type="radio" name="vp" value="own" checked', page)
    rows = unescape(re.search(r'<textarea id="t-vp-rows"[^>]*>(.*?)</textarea>', page, re.S).group(1))
    assert rows.splitlines()[:2] == ["50 10 10", "150 11 9"] and rows.splitlines()[-1] == "over 1500: 20 – 0"
    edited = rows.replace("50 10 10", "30 10 10")
    made = page_client.post("/tournaments/new", data=form([2, 2], "own", edited), content_type="multipart/form-data")
    assert made.status_code == 303 and stored(page_client) == 1
    tid = re.search(r"/tournaments/([\w-]+)\?key=([\w-]+)", made.headers["Location"])
    state = page_client.get(f"/api/v1/tournaments/{tid.group(1)}?key={tid.group(2)}").get_json()
    assert state["vp_table"][:2] == [[30, 10, 10], [150, 11, 9]] and state["vp_table"][-1] == [None, 20, 0]


def test_r_tourn_4_the_form_chooses_the_4_hand_table_for_4_hand_rounds_to_confirm(page_client):
    answer = page_client.post("/tournaments/new", data=form([4, 4], "burraco_3"), content_type="multipart/form-data")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and stored(page_client) == 0
    assert ("The table for rounds of 3 hands does not fit rounds of 4 hands: the table for their length is chosen "
            "now; check it, then create the tournament.") in words(page)
    assert re.search(r'<input type="radio" name="vp" value="burraco_4" checked', page)
