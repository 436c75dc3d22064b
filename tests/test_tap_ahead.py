"""A card tapped on the scorer's page goes the short way with no read before its write (issue 40,
``referee/web/tables/tapped.py``: ``tapped_ahead``): on the state this process holds at the revision the page showed,
the trick under way is one UPDATE and a trick's last card its entry's statements, each checking the key, the revision
and the trick the page showed in its WHERE; the answer is drawn from what the write left. Whatever that write does
not store goes the long way, which refuses as ever (a wrong key 401, another phone first 409) and stores nothing, and
a tap sent twice is stored once. Brisca, 4 players, DEAL_4P: Bo leads trick 1 with 1C, 11O, 2C, 6O (R-COMMON-4)."""
from __future__ import annotations

import re

from tests.support.deals import DEAL_4P
from tests.support.scorer import create
from tests.support.statements import Recorded

TRICK = DEAL_4P[0][0]


def dealt(client):
    scorer = create(client)
    scorer.post("deal", card="11E", dealer="0")
    return scorer


def table_of(scorer) -> tuple:
    found = re.search(r"/t/([\w-]+)\?key=([\w-]+)", scorer.url)  # token_urlsafe: "-" too
    return found.group(1), found.group(2)


def statements(recorded: Recorded, sqlite: bool):
    return [s.split()[0] for s in recorded.statements] if sqlite else recorded.round_trips()


def test_r_common_4_a_card_tapped_is_one_write_and_a_tricks_last_card_its_entrys_with_no_read(client_on_each_database):
    client = client_on_each_database
    ledger = client.application.extensions["referee.ledger"]
    sqlite = ledger.engine.dialect.name == "sqlite"
    scorer = dealt(client)
    table_id, _ = table_of(scorer)
    recorded = Recorded(ledger)
    try:
        for n, card in enumerate(TRICK[:3]):
            answer = recorded.during(lambda: scorer.post("tap", htmx=True, card=card))
            assert answer.status_code == 200 and answer.headers["HX-Reswap"] == "none"
            assert statements(recorded, sqlite) == (["BEGIN", "UPDATE", "COMMIT"] if sqlite else 1), n
            assert f'name="pending" value="{".".join(TRICK[:n + 1])}"' in scorer.page
        answer = recorded.during(lambda: scorer.post("tap", htmx=True, card=TRICK[3]))
        assert answer.status_code == 200
        assert statements(recorded, sqlite) == (["BEGIN", "UPDATE", "INSERT", "COMMIT"] if sqlite else 1)
    finally:
        recorded.close()
    assert 'id="status-series"' in answer.get_data(as_text=True)  # the trick stored: its series line too
    assert [(e["type"], e.get("cards")) for e in ledger.events(table_id)] == [("deal", None), ("trick", TRICK)]
    state = ledger.state(table_id)
    assert state["revision"] == 2 and state["deals"][-1]["tricks"][0]["winner"] == 1  # Bo, 14 points
    assert ledger.look(table_id)[2] == ()


def test_r_common_4_a_wrong_key_and_another_phones_trick_go_the_long_way_and_store_nothing(client):
    ledger = client.application.extensions["referee.ledger"]
    scorer = dealt(client)
    table_id, key = table_of(scorer)
    wrong = scorer.url.replace(key, "x" * len(key))
    page, url = scorer.page, scorer.url
    scorer.url = wrong
    assert scorer.post("tap", htmx=True, card=TRICK[0]).status_code == 401
    scorer.url, scorer.page = url, page
    assert ledger.look(table_id)[2] == ()
    scorer.post("tap", htmx=True, card=TRICK[0])
    scorer.page = page  # a second phone still showing the trick empty taps another card
    answer = scorer.post("tap", htmx=True, card=TRICK[1])
    assert answer.status_code == 409 and "Another phone changed the trick under way" in answer.get_data(as_text=True)
    assert ledger.look(table_id)[2] == (TRICK[0],)


def test_r_common_4_a_tricks_last_tap_sent_twice_is_stored_once(client):
    ledger = client.application.extensions["referee.ledger"]
    scorer = dealt(client)
    table_id, _ = table_of(scorer)
    for card in TRICK[:3]:
        scorer.post("tap", htmx=True, card=card)
    page = scorer.page
    assert scorer.post("tap", htmx=True, card=TRICK[3]).status_code == 200
    scorer.page = page  # the answer lost: the same form sent again
    again = scorer.post("tap", htmx=True, card=TRICK[3])
    assert again.status_code == 200 and "changed meanwhile" not in again.get_data(as_text=True)
    assert [e["type"] for e in ledger.events(table_id)] == ["deal", "trick"]
    assert ledger.state(table_id)["revision"] == 2
