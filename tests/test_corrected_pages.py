"""The signing screen says the series' unit and a correction asks again (issue 38, R-COMMON-7b), as a phone without
JavaScript reads and posts the pages: a Brisca series won 3 deals to 1 is signed as "3 / 1 deals won", never its card
points; after the director's correction of a signed result the table, the director's page and the history say it
was corrected (never "signed by every side"), and the sides confirm it again on the same phone."""
from __future__ import annotations

import re

from tests.support.burraco import bearer
from tests.support.scorer import Scorer
from tests.support.corrected import brisca_pairs_signed, buraco_signed, correct_last_hand


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html).replace("&nbsp;", " ")).replace("&amp;", "&").strip()


def signing(page: str) -> str:
    return text(re.search(r'<section class="signing[^"]*".*?</section>', page, re.S)[0])


def test_r_common_7b_a_brisca_series_of_four_is_signed_in_deals_won_not_card_points(client):
    client.set_cookie("lang", "fr")
    made = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Montse", "Jordi", "Núria", "Pau"]})
    made = made.get_json()
    for points in ([70, 50], [40, 80], [80, 40], [80, 40]):
        for body in ({"type": "deal", "trump": "1O"}, {"type": "tally", "points": points}):
            assert client.post(f"/api/v1/tables/{made['id']}/events", json=body,
                               headers=bearer(made["scorer_key"])).status_code == 201
    said = signing(Scorer(client, f"/t/{made['id']}?key={made['scorer_key']}").page)
    assert said.startswith("Le résultat tel qu'il sera enregistré donnes gagnées Montse & Núria 3 Jordi & Pau 1 ")
    assert "270" not in said and "210" not in said  # the card points are no result of a Brisca series


def test_r_common_7b_a_corrected_buraco_table_says_so_and_both_sides_confirm_again(client):
    client.set_cookie("lang", "fr")
    tournament_id, director, table_id, key = buraco_signed(client)
    phone = Scorer(client, f"/t/{table_id}?key={key}")
    assert "Signé par tous les camps" in phone.page
    correct_last_hand(client, table_id, director, 15)
    phone = Scorer(client, f"/t/{table_id}?key={key}")
    said = signing(phone.page)
    assert "Signé par tous les camps" not in phone.page  # R-COMMON-7b: no longer true
    assert "N0a & N0b 1130" in said and "N4a & N4b 465" in said
    assert "« East-West held 15 in hand, not 5 »" in said
    assert "N0a & N0b 1130, N4a & N4b 475 (points)" in said  # what the sides had signed, in the series' unit
    assert 'N0a &amp; N0b confirment</button>' in phone.page and 'N4a &amp; N4b confirment</button>' in phone.page
    director_page = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    assert re.search(r'status-badge status-corrected">', director_page)
    desk = Scorer(client, f"/t/{table_id}?key={director}").page  # the director's key signs for no side
    assert "sign-button" not in desk and '<p class="signing-note">' in desk
    viewer = client.application.extensions["referee.ledger"].viewer_key(table_id)
    watched = client.get(f"/t/{table_id}?key={viewer}").get_data(as_text=True)
    assert "is-corrected" in watched and "Signé par tous les camps" not in watched

    phone.post("sign", kind="confirm", signer="0")
    phone.post("sign", kind="confirm", signer="1")
    assert "Signé par tous les camps" in phone.page  # signed again, the correction kept as a record
    assert "N0a & N0b 1130, N4a & N4b 475 (points)" in signing(phone.page)
    director_page = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    assert re.search(r'status-badge status-signed">', director_page)
    history = client.get(f"/t/{table_id}/history?key={key}").get_data(as_text=True)
    assert history.count('<p class="history-earlier">') == 2  # the two signatures of 1130–475


def test_r_common_7b_a_pair_calling_the_director_is_plural(client):
    """Item 12: "Eli & Fabi ont appelé l'arbitre", a pair through the catalogue's plural (ngettext on its players)."""
    client.set_cookie("lang", "fr")
    tournament_id, director, table_id, key = brisca_pairs_signed(client, sign=False)
    client.post(f"/api/v1/tables/{table_id}/events", json={"type": "dispute", "side": 1}, headers=bearer(key))
    page = Scorer(client, f"/t/{table_id}?key={key}").page
    desk = client.get(f"/tournaments/{tournament_id}?key={director}").get_data(as_text=True)
    assert "Jordi &amp; Pau" in desk and "status-disputed" in desk
    for said in (page, desk):
        assert "Jordi &amp; Pau a appelé" not in said



def test_r_common_7b_the_directors_page_and_the_print_state_a_brisca_series_in_deals_won(client):
    client.set_cookie("lang", "fr")
    tournament_id, director, _table_id, _key = brisca_pairs_signed(client)
    state = client.get(f"/api/v1/tournaments/{tournament_id}?key={director}").get_json()
    series = state["rounds"][0]["tables"][0]["result"]["series"]
    assert (series["unit"], series["values"], series["winners"]) == ("deals_won", [3, 1], [0])
    for address in (f"/tournaments/{tournament_id}?key={director}",
                    f"/tournaments/{tournament_id}/print?key={director}"):
        page = text(client.get(address).get_data(as_text=True))
        assert "3 – 1 donnes gagnées" in page, address
