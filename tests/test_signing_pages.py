"""The signing screen and the director's correction on the scorer's page, as a phone without JavaScript posts its
forms (R-COMMON-7, R-COMMON-8): one button per side, the call to the director with its sentence, a signed round's
table closed to its card's key with a sentence, the director's correction asking its reason first."""
from __future__ import annotations

import re

from tests.support.scorer import Scorer, token
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
    assert "Bo &amp; Di called the director. “Our pot is missing”" in phone.page
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
    assert "Correction by the director</strong> “Hand 3 miscounted”" in " ".join(desk.page.split())
    assert 'name="reason" value="Hand 3 miscounted"' in desk.page
    desk.post("undo", reason="Hand 3 miscounted")  # the form's hidden field, as the browser sends it
    log = client.get(f"/api/v1/tables/{table['table_id']}/events?key={director}").get_json()["events"]
    withdrawn = [e for e in log if e["withdrawn"]]
    assert [(e["type"], e["withdrawal"]["by"], e["withdrawal"]["reason"]) for e in withdrawn] == [
        ("tally", "director", "Hand 3 miscounted")]
    assert "reason=Hand+3+miscounted" in desk.url  # the next form carries it still


def test_r_tourn_1_the_directors_page_says_each_tables_status_and_gives_arbitral_results_and_penalties(client):
    client.set_cookie("lang", "en")
    tournament_id, director, _, state = signed_tournament(client)
    tables = state["rounds"][0]["tables"]
    score_table(client, tables[0], ROUND_1[tuple(tables[0]["entrants"])])
    for number in (0, 1):
        client.post(f"/api/v1/tables/{tables[0]['table_id']}/events", json={"type": "confirm", "side": number},
                    headers=bearer(card_key(tables[0])))
    score_table(client, tables[1], ROUND_1[tuple(tables[1]["entrants"])])
    client.post(f"/api/v1/tables/{tables[1]['table_id']}/events",
                json={"type": "dispute", "side": 1, "message": "Our burraco is missing"},
                headers=bearer(card_key(tables[1])))
    client.post(f"/api/v1/tables/{tables[2]['table_id']}/events", json={"type": "deal", "trump": None},
                headers=bearer(card_key(tables[2])))
    page = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    badges = re.findall(r'<span class="status-badge status-(\w+)">(.*?)</span>\s*</p>', page, re.S)
    assert [(kind, " ".join(re.sub(r"<[^>]+>", " ", words).split())) for kind, words in badges] == [
        ("disputed", "Director called"), ("signed", "✓ Signed"), ("playing", "Playing"), ("waiting", "Waiting")]
    # the call first (issue 40's board, R-COMMON-7), then the tables in their numbers' order
    assert "1 call to the director" in page and "N5a &amp; N5b called the director. “Our burraco is missing" \
        in page
    assert f'href="/t/{tables[1]["table_id"]}?key={director}">Answer</a>' in page

    form = {"round": "1", "table": "3", "vp_ns": "12", "vp_ew": "8", "reason": "A card fell", "csrf_token": token(page)}
    assert client.post(f"/tournaments/{tournament_id}/arbitral?key={director}", data=form).status_code == 303
    answer = client.post(f"/tournaments/{tournament_id}/penalty?key={director}",
                         data={"entrant": "4", "vp": "2", "round": "1", "reason": "Late", "csrf_token": token(page)})
    assert answer.status_code == 303 and "done=penalty" in answer.headers["Location"]
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "The penalty is recorded; the standings show it apart." in page
    assert '<strong>−2&nbsp;VP</strong>\n    N4a &amp; N4b · Round 1: Late' in page
    state = client.get(f"/api/v1/tournaments/{tournament_id}?key={director}").get_json()
    assert state["rounds"][0]["tables"][2]["status"] == "arbitral"
    assert {r["entrant"]: (r["vp"], r["penalties"]) for r in state["standings"]}[4] == (4, -2)  # 6 - 2
    refused = client.post(f"/tournaments/{tournament_id}/arbitral?key={director}", data={**form, "reason": ""})
    assert "Say in a sentence why" in refused.get_data(as_text=True)


def test_r_common_7_the_tournament_form_asks_for_signatures(client):
    client.set_cookie("lang", "en")
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert 'name="require_signatures" value="yes"' in page


def test_standings_hidden_by_the_director_are_hidden_from_every_viewers_door(client):
    """The last round's suspense: the viewer's key reads no standings, whether by the API, the print or an export;
    the director's key still does."""
    client.set_cookie("lang", "en")
    tournament_id, director, viewer, state = signed_tournament(client)
    page = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    hidden = client.post(f"/tournaments/{tournament_id}/standings/hide?key={director}",
                         data={"hidden": "1", "csrf_token": token(page)})
    assert hidden.status_code == 303
    api = client.get(f"/api/v1/tournaments/{tournament_id}?key={viewer}").get_json()
    assert api["standings_hidden"] is True and api["standings"] == []
    assert len(client.get(f"/api/v1/tournaments/{tournament_id}?key={director}").get_json()["standings"]) == 8
    csv_text = client.get(f"/tournaments/{tournament_id}/standings.csv?key={viewer}").get_data(as_text=True)
    assert csv_text.strip().splitlines() == ["rank,entrant,names,vp,mp,mp_difference,played,penalties"]
    assert client.get(f"/tournaments/{tournament_id}/standings.json?key={viewer}").get_json()["standings"] == []
    first = state["rounds"][0]["tables"][0]
    score_table(client, first, ROUND_1[tuple(first["entrants"])])  # 690 v 330: 14–6 VP
    printed = client.get(f"/tournaments/{tournament_id}/print?key={viewer}").get_data(as_text=True)
    assert 'class="ranking grid"' not in printed and "The standings are hidden until the last round is over." in printed
    assert "Round 1 ·" in printed and "14 – 6" not in printed  # the round under way: its results stay at its tables
    for_director = client.get(f"/tournaments/{tournament_id}/print?key={director}").get_data(as_text=True)
    assert for_director.count("N0a &amp; N0b</td>") == 2 and "14 – 6" in for_director  # the ranking, the round


def test_hidden_standings_hide_the_round_under_way_and_show_again_once_the_last_round_is_closed(client):
    """Review of issue 27: while hidden, the viewer's key reads no result of the round under way (the API, the
    results' CSV, the JSON export), which would tell the standings; the director's key does. Once the last round is
    closed the switch no longer hides anything: the hall sees the final ranking."""
    client.set_cookie("lang", "en")
    made = client.post("/api/v1/tournaments", json={"game": "brisca", "name": "Final", "entrants": [["Ana"], ["Bo"]],
                                                    "rounds": [{"movement": "round_robin"}]}).get_json()
    tournament_id, director, viewer = made["id"], made["director_key"], made["viewer_key"]
    table = client.post(f"/api/v1/tournaments/{tournament_id}/rounds",
                        headers=bearer(director)).get_json()["rounds"][0]["tables"][0]
    page = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    assert client.post(f"/tournaments/{tournament_id}/standings/hide?key={director}",
                       data={"hidden": "1", "csrf_token": token(page)}).status_code == 303
    for _ in range(3):  # R-BRISCA-6: three deals won take the series
        for body in ({"type": "deal", "trump": "1O"}, {"type": "tally", "points": [80, 40]}):
            client.post(f"/api/v1/tables/{table['table_id']}/events", json=body, headers=bearer(card_key(table)))
    seen = client.get(f"/api/v1/tournaments/{tournament_id}?key={viewer}").get_json()
    assert seen["standings_hidden"] is True and seen["standings"] == []
    assert seen["rounds"][0]["tables"][0]["result"] is None and seen["rounds"][0]["tables"][0]["finished"] is True
    told = client.get(f"/api/v1/tournaments/{tournament_id}?key={director}").get_json()
    assert told["rounds"][0]["tables"][0]["result"]["vp"] == [2, 0]  # a series: 2 to the winner
    csv_text = client.get(f"/tournaments/{tournament_id}/rounds/1/results.csv?key={viewer}").get_data(as_text=True)
    assert csv_text.strip().splitlines()[1] == "1,Ana,Bo,,,,,to_confirm,,,"  # no series either (R-COMMON-7b)
    export = client.get(f"/tournaments/{tournament_id}/standings.json?key={viewer}").get_json()
    assert export["rounds"][0]["tables"][0]["result"] is None
    closed = client.post(f"/api/v1/tournaments/{tournament_id}/rounds/1/close", json={}, headers=bearer(director))
    assert closed.status_code == 200
    after = client.get(f"/api/v1/tournaments/{tournament_id}?key={viewer}").get_json()
    assert after["standings_hidden"] is False and [(r["rank"], r["names"], r["vp"]) for r in after["standings"]] == [
        (1, "Ana", 2), (2, "Bo", 0)]
    assert after["rounds"][0]["tables"][0]["result"]["vp"] == [2, 0]
    wall = client.get(f"/tournaments/{tournament_id}/screen?key={viewer}").get_data(as_text=True)
    assert "The standings are hidden" not in wall and "Ana</" in wall


def test_a_refused_acts_address_opened_again_is_the_directors_page(client):
    """Review of issue 27: a refused close leaves its page at the form's address; reloaded or bookmarked, that address
    goes to the director's page (303), never "method not allowed"."""
    tournament_id, director, viewer, state = signed_tournament(client)
    for path in (f"/tournaments/{tournament_id}/rounds/1/close", f"/tournaments/{tournament_id}/rounds"):
        answer = client.get(f"{path}?key={director}")
        assert answer.status_code == 303 and answer.headers["Location"] == f"/tournaments/{tournament_id}?key={director}"
    refused = client.post(f"/api/v1/tournaments/{tournament_id}/rounds/1/close", json={}, headers=bearer(director))
    assert refused.get_json()["error"]["message"] == ("Round 1 stays open until every table is signed by both sides "
                                                      "(or given an arbitral result); tables still to sign: 1, 2, 3, 4.")
