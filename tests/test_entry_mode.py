"""The way a table enters its deals is the table's (R-COMMON-6, issue 38): chosen on one phone, it is the way of every
phone that opens the table (a second phone, a reload elsewhere, the director's correction), kept on the table's row
and never an event; and the director's correction keeps the way of entry and its reason (R-COMMON-8). Each phone is
a Flask client of its own, with its own cookies, as two browsers are."""
from __future__ import annotations

import html
import re

from tests.support.burraco import ROUND_1, card_key, score_table, signed_tournament
from tests.support.scorer import Scorer
from tests.support.sheet import Phone


def second_phone(app, url: str) -> str:
    """The page another phone sees at ``url``: a client of its own, no cookie of the first phone's."""
    other = app.test_client()
    other.set_cookie("lang", "en")
    return other.get(url).get_data(as_text=True)


def test_r_common_6_a_deal_started_by_numbers_opens_by_numbers_on_a_second_phone(client_on_each_database):
    client = client_on_each_database
    phone = Phone(client, "brisca", ["Ana", "Bo"])
    before = phone.state()
    phone.numbers()
    assert phone.state()["version"] == before["version"] == 0  # no event: the version does not move
    assert phone.state()["revision"] == before["revision"]
    phone.deal("1O")
    assert 'id="sheet"' in phone.page
    page = second_phone(client.application, f"/t/{phone.id}?key={phone.key}")
    assert 'id="sheet"' in page and 'name="v0"' in page and 'class="picker"' not in page
    phone.post("sheet", {**phone.form(), "v0": "70", "act": "save"})
    page = second_phone(client.application, f"/t/{phone.id}?key={phone.key}")  # the next deal: its switch says it
    assert '<span class="button current" aria-current="true">Numbers</span>' in page


def test_r_common_6_a_switch_back_to_cards_is_every_phones_and_sets_no_cookie(client_on_each_database):
    client = client_on_each_database
    phone = Phone(client, "brisca", ["Ana", "Bo"])
    phone.numbers()
    phone.deal("1O")
    other = client.application.test_client()
    switched = other.get(f"/t/{phone.id}/entry/trick?key={phone.key}")  # the second phone chooses cards
    assert switched.status_code == 303 and "Set-Cookie" not in switched.headers
    phone.go(f"/t/{phone.id}?key={phone.key}")  # the first phone, reloaded
    assert 'class="picker"' in phone.page and 'id="sheet"' not in phone.page
    assert phone.state()["version"] == 1


def test_r_common_6_the_deal_is_entered_the_way_the_page_that_started_it_showed(client_on_each_database):
    client = client_on_each_database
    phone = Phone(client, "brisca", ["Ana", "Bo"])
    phone.numbers()  # this phone's page shows "Numbers" ...
    client.application.test_client().get(f"/t/{phone.id}/entry/capture?key={phone.key}")  # ... another chose piles
    assert 'name="way" value="numbers"' in phone.page
    phone.deal("1O")  # started from the page that showed numbers: numbers, for every phone
    page = second_phone(client.application, f"/t/{phone.id}?key={phone.key}")
    assert 'id="sheet"' in page and 'name="v0"' in page


def test_r_common_6_a_way_the_game_has_not_is_never_stored_and_a_viewer_chooses_none(client_on_each_database):
    client = client_on_each_database
    made = client.post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo"]}).get_json()
    ledger = client.application.extensions["referee.ledger"]
    response = client.get(f"/t/{made['id']}/entry/capture?key={made['scorer_key']}")  # Buraco has no piles
    assert response.status_code == 303 and "mode=" not in response.headers["Location"]
    assert ledger.look(made["id"])[3] == "trick"  # its first way, as the switch offered it
    assert client.get(f"/t/{made['id']}/entry/numbers?key={made['viewer_key']}").status_code == 403
    ledger.set_entry_mode(made["id"], "capture")
    assert ledger.look(made["id"])[3] == "trick"
    assert ledger.state(made["id"])["revision"] == 0


def director_at_signed_table(client) -> tuple:
    """A signed round's table of a Buraco tournament (its hands entered by numbers) and its director's key."""
    _, director, _, state = signed_tournament(client)
    table = state["rounds"][0]["tables"][0]
    score_table(client, table, ROUND_1[tuple(table["entrants"])])
    phone = Scorer(client, f"/t/{table['table_id']}?key={card_key(table)}")
    phone.post("sign", kind="confirm", signer="0")
    phone.post("sign", kind="confirm", signer="1")
    return table["table_id"], director


def test_r_common_8_the_directors_undo_of_a_hand_entered_by_numbers_lands_on_the_numbers(client_on_each_database):
    client = client_on_each_database
    client.set_cookie("lang", "en")
    table_id, director = director_at_signed_table(client)
    desk = Scorer(client, f"/t/{table_id}?key={director}&reason=Hand+3+miscounted")
    desk.post("undo", reason="Hand 3 miscounted")
    assert "mode=numbers" in desk.url and "reason=Hand+3+miscounted" in desk.url
    assert 'id="sheet"' in desk.page and 'name="v0"' in desk.page  # the hand's numbers, not its melds
    assert '<span class="button current" aria-current="true">Numbers</span>' in desk.page  # in the ☰ menu
    assert 'name="reason" value="Hand 3 miscounted"' in desk.page


def test_r_common_8_the_directors_correction_on_a_table_entered_by_numbers_opens_on_the_numbers(
        client_on_each_database):
    client = client_on_each_database
    client.set_cookie("lang", "en")
    table_id, director = director_at_signed_table(client)
    client.application.extensions["referee.ledger"].set_entry_mode(table_id, "numbers")  # as the card's phone chose
    desk = Scorer(client, f"/t/{table_id}?key={director}&reason=Hand+3+miscounted")
    desk.post("undo", reason="Hand 3 miscounted")
    desk.post("undo", reason="Hand 3 miscounted")  # the hand's start too: the next start is the table's way
    assert "Start the hand, then type its numbers on the keypad." in desk.page
    assert '<span class="button current" aria-current="true">Numbers</span>' in desk.page
    assert 'name="way" value="numbers"' in desk.page and 'name="reason" value="Hand 3 miscounted"' in desk.page


def test_r_common_8_a_language_switch_during_a_correction_keeps_its_reason_and_its_way(client_on_each_database):
    client = client_on_each_database
    client.set_cookie("lang", "en")
    table_id, director = director_at_signed_table(client)
    desk = Scorer(client, f"/t/{table_id}?key={director}&reason=Hand+3+miscounted")
    desk.post("undo", reason="Hand 3 miscounted")
    switch = html.unescape(re.search(r'href="(/lang/fr\?[^"]+)"', desk.page).group(1))
    response = client.get(switch)
    assert response.status_code == 303
    back = response.headers["Location"]
    assert "reason=Hand+3+miscounted" in back and "mode=numbers" in back
    page = client.get(back).get_data(as_text=True)
    assert 'lang="fr"' in page and 'name="reason" value="Hand 3 miscounted"' in page
    assert "Correction" in page and 'id="sheet"' in page


def test_r_common_8_every_link_of_a_correction_back_to_the_table_keeps_its_reason(client_on_each_database):
    client = client_on_each_database
    client.set_cookie("lang", "en")
    table_id, director = director_at_signed_table(client)
    desk = Scorer(client, f"/t/{table_id}?key={director}&reason=Hand+3+miscounted")
    desk.post("undo", reason="Hand 3 miscounted")
    desk.post("undo", reason="Hand 3 miscounted")
    desk.post("deal", dealer="0", way="trick", reason="Hand 3 miscounted")  # the hand again, by its melds
    links = [html.unescape(href) for href in re.findall(rf'href="(/t/{table_id}(?:\?|/entry/)[^"]*)"', desk.page)]
    ended = [link for link in links if "reason=" not in link]
    assert len(links) == 5 and all("reason=Hand+3+miscounted" in link for link in links if link not in ended)
    assert [text for link in ended for text in [desk.page.split(f'href="{html.escape(link)}">')[1][:22]]] == [
        "End the correction</a>"]
