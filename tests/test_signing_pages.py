"""The signing screen and the director's correction on the scorer's page, as a phone without JavaScript posts its
forms (R-COMMON-7, R-COMMON-8): one button per side, the call to the director with its sentence, a signed round's
table closed to its card's key with a sentence, the director's correction asking its reason first."""
from __future__ import annotations

from tests.support.scorer import Scorer
from tests.support.burraco import ROUND_1, bearer, card_key, score_table, side, signed_tournament

EN = {"Accept-Language": "en"}


def finished_free_table(client) -> tuple:
    made = client.post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo", "Cy", "Di"],
                                               "options": {"hands": 1}}).get_json()
    for body in ({"type": "deal", "trump": None},
                 {"type": "tally", "closed_by": None, "sides": [side(300, 0), side(100, 20)]}):
        assert client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                           headers=bearer(made["scorer_key"])).status_code == 201
    return made["id"], made["scorer_key"]


def test_r_common_7_each_side_taps_its_confirmation_on_the_same_phone(client):
    client.set_cookie("lang", "en")
    table_id, key = finished_free_table(client)
    phone = Scorer(client, f"/t/{table_id}?key={key}")
    assert "The result as it will be recorded" in phone.page
    assert "Ana &amp; Cy confirm</button>" in phone.page and "Bo &amp; Di confirm</button>" in phone.page
    phone.post("sign", kind="confirm", signer="0")
    assert "Ana &amp; Cy confirmed" in phone.page and "Ana &amp; Cy confirm</button>" not in phone.page
    phone.post("sign", kind="dispute", signer="1", message="Our pot is missing")
    assert "Bo &amp; Di called the director. «&nbsp;Our pot is missing&nbsp;»" in phone.page
    phone.post("sign", kind="confirm", signer="1")
    assert "Signed by every side." in phone.page and "called the director" not in phone.page
    state = client.get(f"/api/v1/tables/{table_id}?key={key}").get_json()
    assert state["signed"] == {"sides": [0, 1], "complete": True, "disputes": []}
    assert "Only the director can change" not in phone.page  # a free table: a record, not a lock


def test_r_common_7_a_signed_round_table_refuses_its_card_and_the_director_corrects_with_a_reason(client):
    client.set_cookie("lang", "en")
    tournament_id, director, _, state = signed_tournament(client)
    table = state["rounds"][0]["tables"][0]
    score_table(client, table, ROUND_1[tuple(table["entrants"])])
    phone = Scorer(client, f"/t/{table['table_id']}?key={card_key(table)}")
    assert "14 VP" in phone.page and "6 VP" in phone.page  # 690 v 330: the tournament's VP table, as recorded
    phone.post("sign", kind="confirm", signer="0")
    phone.post("sign", kind="confirm", signer="1")
    assert "Only the director can change this result now." in phone.page
    phone.post("undo")
    assert "only the director can change it now" in phone.page  # 409 signed, said on the page
    assert client.get(f"/api/v1/tables/{table['table_id']}?key={director}").get_json()["version"] == 8

    desk = Scorer(client, f"/t/{table['table_id']}?key={director}")
    assert "Start the correction" in desk.page and "Only the director can change" not in desk.page
    desk = Scorer(client, f"/t/{table['table_id']}?key={director}&reason=Hand+3+miscounted")
    assert "Correction by the director</strong>: «&nbsp;Hand 3 miscounted&nbsp;»" in desk.page
    assert 'name="reason" value="Hand 3 miscounted"' in desk.page
    desk.post("undo", reason="Hand 3 miscounted")  # the form's hidden field, as the browser sends it
    log = client.get(f"/api/v1/tables/{table['table_id']}/events?key={director}").get_json()["events"]
    withdrawn = [e for e in log if e["withdrawn"]]
    assert [(e["type"], e["withdrawal"]["by"], e["withdrawal"]["reason"]) for e in withdrawn] == [
        ("tally", "director", "Hand 3 miscounted")]
    assert "reason=Hand+3+miscounted" in desk.url  # the next form carries it still
