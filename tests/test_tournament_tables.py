"""A round's table behaves as a tournament's table (issue 24, item 9): it offers no rematch once finished (the
scorer's page and the viewer's show none; the API and the page's post answer 409 with a sentence, and no table is
made: a rematch took that phone out of the tournament), and the scorer's page, the viewer's page and the big screen
name the round, the table's number, the hands (Buraco) or deals still to play and the tournament, on one line. A
free table shows none of it."""
import re
from html import unescape

import pytest
from sqlmodel import Session, func, select

from referee.store.records import TableRecord
from tests.support.api import check
from tests.support.deals import HAND_TO_EW, HAND_TO_NS
from tests.support.series import finished

PAIRS = [["Ana", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def seated(app, game="buraco", name="Club evening", length=None) -> list:
    """A tournament of 4 pairs, its first round seated: each table as (id, its table card's key, viewer key)."""
    store, ledger = app.extensions["referee.tournaments"], app.extensions["referee.ledger"]
    plan = [{"movement": "mitchell", **({"hands": 3} if game == "buraco" else {"deals": length or 2})}]
    state, _, _ = store.create(game, name, PAIRS, plan)
    tables = store.next_round(state["id"])["rounds"][0]["tables"]
    keys = {card["number"]: card["key"] for card in store.cards(state["id"])}
    return [(t["table_id"], keys[t["number"]], ledger.viewer_key(t["table_id"])) for t in tables]


def line(page: str) -> str | None:
    """The tournament's line as a player reads it (tags gone, no-break spaces read as spaces)."""
    found = re.search(r'<span class="tournament-line">(.*?)</span></span>', page, re.S)
    if found is None:
        return None
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found.group(1))).replace("\u00a0", " ").split())


def pages_of(client, table_id, scorer, viewer) -> dict:
    return {name: client.get(path).get_data(as_text=True) for name, path in (
        ("scorer", f"/t/{table_id}?key={scorer}"), ("viewer", f"/t/{table_id}?key={viewer}"),
        ("viewer live", f"/t/{table_id}/live?key={viewer}"), ("screen", f"/t/{table_id}/screen?key={viewer}"),
        ("screen live", f"/t/{table_id}/live?key={viewer}&view=screen"))}


def play(app, table_id, hands):
    for hand in hands:
        for body in hand:
            app.extensions["referee.ledger"].append(table_id, body)


def test_a_buraco_rounds_table_names_its_tournament_round_number_and_hands_left_everywhere(app):
    client = app.test_client()
    (table_id, scorer, viewer), _ = seated(app)
    client.set_cookie("lang", "en")
    seen = {name: line(page) for name, page in pages_of(client, table_id, scorer, viewer).items()}
    assert seen == dict.fromkeys(seen, "Round 1 · table 1 · 3 hands to play · Club evening")
    scorer_page = pages_of(client, table_id, scorer, viewer)["scorer"]
    bar = scorer_page[scorer_page.index('<section class="status-bar'):scorer_page.index("</section>")]
    assert line(bar) == "Round 1 · table 1 · 3 hands to play · Club evening"  # in the scorer's status bar
    play(app, table_id, [HAND_TO_NS])
    client.set_cookie("lang", "fr")
    seen = {name: line(page) for name, page in pages_of(client, table_id, scorer, viewer).items()}
    assert seen == dict.fromkeys(seen, "Tour 1 · table 1 · 2 manches à jouer · Club evening")
    play(app, table_id, [HAND_TO_EW])
    client.set_cookie("lang", "de")
    assert line(pages_of(client, table_id, scorer, viewer)["scorer"]) == \
        "Runde 1 · Tisch 1 · noch 1 Spiel · Club evening"
    play(app, table_id, [HAND_TO_NS])  # the round's 3 hands: the table is finished, nothing left to say of it
    client.set_cookie("lang", "en")
    assert line(pages_of(client, table_id, scorer, viewer)["viewer"]) == "Round 1 · table 1 · Club evening"


def test_r_buraco_6_a_rounds_big_screen_counts_its_hands_and_draws_no_target(app):
    """A round of 3 hands ends after them, whatever the totals: its big screen draws the hands as pips, never the
    2005 target's bar nor "the series ends at 2005"."""
    client = app.test_client()
    (table_id, scorer, viewer), _ = seated(app)
    client.set_cookie("lang", "fr")
    play(app, table_id, [HAND_TO_NS])
    screen = pages_of(client, table_id, scorer, viewer)["screen"]
    assert "target-bar" not in screen and "2005" not in screen
    assert '<span class="pips deal-pips" role="img" aria-label="3 manches dans ce tour. 1 / 3">' in screen
    assert screen.count('<span class="pip on">') == 1


def test_a_table_of_a_round_of_deals_counts_its_deals_left(app):
    client = app.test_client()
    _, (table_id, scorer, viewer) = seated(app, "brusquembille", "Soirée du club", length=2)
    client.set_cookie("lang", "fr")
    seen = {name: line(page) for name, page in pages_of(client, table_id, scorer, viewer).items()}
    assert seen == dict.fromkeys(seen, "Tour 1 · table 2 · 2 donnes à jouer · Soirée du club")
    client.set_cookie("lang", "es")
    assert line(pages_of(client, table_id, scorer, viewer)["screen"]) == \
        "Ronda 1 · mesa 2 · quedan 2 manos · Soirée du club"


def test_a_free_table_shows_no_tournament(app):
    client = app.test_client()
    created = client.post("/api/v1/tables", json={"game": "buraco", "players": ["Ana", "Bo"]}).get_json()
    for name, page in pages_of(client, created["id"], created["scorer_key"], created["viewer_key"]).items():
        assert "tournament-line" not in page and "Round 1 ·" not in page, name


def tables_of(app) -> int:
    with Session(app.extensions["referee.ledger"].engine) as session:
        return session.exec(select(func.count()).select_from(TableRecord)).one()


def test_a_finished_tournament_table_offers_no_rematch_and_refuses_one_with_a_sentence_r_buraco_6(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    _, (table_id, scorer, viewer) = seated(app)
    play(app, table_id, [HAND_TO_NS, HAND_TO_EW, HAND_TO_NS])  # R-BURACO-6: the round's 3 hands, finished
    assert app.extensions["referee.ledger"].state(table_id)["series"]["finished"] is True
    for name, page in pages_of(client, table_id, scorer, viewer).items():
        assert "/rematch" not in page and "Rematch" not in page, name
    made = tables_of(app)
    sentence = ("This is table 2 of round 1 of Club evening: a tournament's table has no rematch, the director seats "
                "the next round.")
    api = client.post(f"/api/v1/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {scorer}"})
    check(api, "post", "/api/v1/tables/{table_id}/rematch", 409)  # as the OpenAPI document says it
    assert api.status_code == 409 and api.get_json()["error"] == {
        "code": "tournament_table", "message": sentence, "table": 2, "round": 1, "tournament": "Club evening"}
    page = client.post(f"/t/{table_id}/rematch?key={scorer}")
    assert page.status_code == 409
    assert re.search(r'<p class="refusal" role="alert">(.*?)</p>', page.get_data(as_text=True)).group(1) == \
        unescape(sentence).replace("'", "&#39;")
    client.set_cookie("lang", "fr")
    french = client.post(f"/t/{table_id}/rematch?key={scorer}").get_data(as_text=True)
    assert "une table de tournoi n&#39;a pas de revanche" in french
    assert tables_of(app) == made and app.extensions["referee.ledger"].state(table_id)["rematch"] is None


def test_a_free_table_still_has_its_rematch(app):
    """The refusal is a tournament table's only: a free table's finished series goes on as before."""
    old_id, scorer, _, _ = finished(app.extensions["referee.ledger"])
    client = app.test_client()
    assert client.post(f"/api/v1/tables/{old_id}/rematch", headers={"Authorization": f"Bearer {scorer}"}).status_code \
        == 201
