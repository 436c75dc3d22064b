"""Issue 39, "a game is one folder": Duel, a sixth game defined only under ``tests/sixth_game/`` (its engine, its
deck of 12 cards, its events as the API declares them, its board, its printed summary and sheet), registered by
``referee.games.add_game`` before the app is made and taken out after, gets with no change outside its folder a
set-up page, a scorer page card by card and by numbers, a printed summary and sheet, the API and the OpenAPI
document, a tournament and a club ladder. Its rulings are the test's own, R-TEST-1 … 4 (tests/sixth_game/engine.py).

The deal every test plays, dealt by Ana (0), the jack of hearts turned for trump and kept in her hand (R-TEST-2):
Ana holds JH AH QS JS KD JD, Bo KH QH AS KS AD QD. Bo leads (R-COMMON-2); no obligation to follow, the highest
trump wins, else the highest of the suit led (R-TEST-3); ace 4, king 3, queen 2, jack 1 (R-TEST-1)::

    1. Bo AS,  Ana JS  -> Bo  5        4. Ana KD, Bo AD  -> Bo  7
    2. Bo KS,  Ana JH  -> Ana 4        5. Bo KH,  Ana QS -> Bo  5
    3. Ana AH, Bo QH   -> Ana 6        6. Bo QD,  Ana JD -> Bo  3     Ana 10, Bo 20: Bo wins the deal (R-TEST-4)
"""
from __future__ import annotations

import html
import os
import re

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_spec
from openskill.models import PlackettLuce

from referee import create_app
from referee.games import GAMES, add_game
from referee.tournament.checks import round_unit
from referee.web.api.openapi import openapi_document
from tests.sixth_game import Duel
from tests.support.env import need
from tests.support.scorer import Scorer, token
from tests.support.sheet import Phone

FIVE = ["brulot", "brisca", "buraco", "brouc", "brusquembille"]
TRICKS = [(("AS", "JS"), 1, 5), (("KS", "JH"), 0, 4), (("AH", "QH"), 0, 6), (("KD", "AD"), 1, 7),
          (("KH", "QS"), 1, 5), (("QD", "JD"), 1, 3)]  # (cards from the leader, winner, points)
BY_NUMBERS = [{"type": "deal", "trump": "AD"}, {"type": "tally", "points": [18, 12]}]  # R-TEST-1: 30 a deal


@pytest.fixture
def duel():
    """Duel in the registry, after the five, for one test; out again after it, whatever happened."""
    remove = add_game(Duel)
    yield GAMES["duel"]
    remove()


def make_app(url: str):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test", "RATELIMIT_ENABLED": False})


@pytest.fixture
def app(duel, tmp_path):
    """The app made once Duel is registered (its template folder is searched from then on)."""
    made = make_app(f"sqlite:///{tmp_path / 'test.sqlite3'}")
    made.extensions["referee.ledger"].init_db()
    return made


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request, duel, tmp_path):
    """The app's client, Duel registered, on a new SQLite file then on the PostgreSQL test database emptied."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'app.sqlite3'}"
    else:
        url = os.environ.get("TEST_DATABASE_URL")
        need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    made = make_app(url)
    ledger = made.extensions["referee.ledger"]
    if request.param == "postgresql":
        ledger.drop_all()
    ledger.init_db()
    yield made.test_client()
    ledger.engine.dispose()


def bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def new_table(client, players=("Ana", "Bo"), **options) -> dict:
    made = client.post("/api/v1/tables", json={"game": "duel", "players": list(players), "options": options})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def play(client, made: dict, events: list) -> dict:
    for body in events:
        answer = client.post(f"/api/v1/tables/{made['id']}/events", json=body, headers=bearer(made["scorer_key"]))
        assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["state"]


def the_deal() -> list:
    return [{"type": "deal", "trump": "JH", "dealer": 0}] + [{"type": "trick", "cards": list(c)} for c, _, _ in TRICKS]


# --- the registry -------------------------------------------------------------------------------------------------

def test_add_game_puts_a_sixth_game_after_the_five_and_its_undo_takes_it_out():
    assert list(GAMES) == FIVE
    remove = add_game(Duel)
    try:
        assert list(GAMES) == [*FIVE, "duel"] and isinstance(GAMES["duel"], Duel)
        with pytest.raises(ValueError):
            add_game(Duel)  # a game's id is its own
        assert round_unit("duel") == "deals"  # what the tournaments ask of the registry sees it (R-TEST-4)
    finally:
        remove()
    assert list(GAMES) == FIVE and round_unit("duel") is None


# --- the pages: set-up, scorer card by card and by numbers ---------------------------------------------------------

def test_r_test_4_the_home_page_offers_it_last_and_its_set_up_page_makes_a_table_of_its_options(client):
    client.set_cookie("lang", "en")
    home = text(client.get("/").get_data(as_text=True))
    assert home.index("Brusquembille") < home.index("Duel") and "A two-player trick game with a 12-card deck" in home
    page = client.get("/new/duel").get_data(as_text=True)
    assert "Number of deals" in page and "R-TEST-4" in page and 'name="opt_deals"' in page
    made = client.post("/new/duel", data={"csrf_token": token(page), "player": ["Ana", "Bo"], "dealer": "0",
                                          "op": "create", "opt_deals": "3"})
    assert made.status_code == 303
    scorer = Scorer(client, made.headers["Location"])
    assert "Duel" in scorer.page and "No deal yet." in scorer.page
    key = made.headers["Location"].split("key=")[1]
    state = client.get(scorer.url.partition("?")[0].replace("/t/", "/api/v1/tables/"), headers=bearer(key)).get_json()
    assert (state["game"], state["players"], state["options"]) == ("duel", ["Ana", "Bo"], {"deals": 3})
    refused = client.post("/new/duel", data={"csrf_token": token(page), "player": ["Ana", "Bo", "Cy"],
                                             "dealer": "0", "op": "create", "opt_deals": "3"})
    assert refused.status_code == 200 and "Duel is played by 2 players, not 3." in text(refused.get_data(as_text=True))


def test_r_test_1_2_3_a_whole_deal_card_by_card_on_the_scorer_page(client):
    made = new_table(client, deals=2)
    client.set_cookie("lang", "en")
    scorer = Scorer(client, f"/t/{made['id']}?key={made['scorer_key']}")
    assert scorer.post("deal", card="JH", dealer="0").status_code == 303
    refused = scorer.tap("JH")  # R-TEST-2: the turned card is in Ana's hand, and Bo leads (R-COMMON-4)
    assert refused.status_code == 200 and "Jack of hearts is known to be in Ana's hand, so Bo cannot play it." in \
        text(refused.get_data(as_text=True))
    for cards, _winner, _points in TRICKS:
        for code in cards:
            assert scorer.tap(code).status_code == 303
    assert scorer.totals() == [10, 20]
    state = client.get(f"/api/v1/tables/{made['id']}", headers=bearer(made["scorer_key"])).get_json()
    deal = state["deals"][0]
    assert [(t["winner"], t["points"]) for t in deal["tricks"]] == [(w, p) for _, w, p in TRICKS]
    assert (deal["complete"], deal["points"], deal["winner"], deal["entry"]) == (True, [10, 20], 1, "tricks")
    assert state["next"] == {"action": "deal", "player": 1}  # R-COMMON-2: Bo deals the next one
    assert not state["series"]["finished"] and state["series"]["standing"]["leader"] == 1


def test_r_test_4_a_deal_by_numbers_on_the_numbers_screen_ends_the_series(csrf_client, duel):
    phone = Phone(csrf_client, "duel", ["Ana", "Bo"], deals=1)
    phone.numbers()
    phone.deal("AD")
    assert 'id="sheet"' in phone.page and 'name="v0"' in phone.page and 'name="v1"' in phone.page
    phone.post("sheet", {**phone.form(), "v0": "18", "act": "save"})  # Bo's 12 is what remains of 30 (R-TEST-1)
    state = phone.state()
    assert (state["deals"][0]["points"], state["deals"][0]["entry"], state["totals"]) == ([18, 12], "tally", [18, 12])
    assert state["series"]["finished"] and state["series"]["winner"] == 0
    assert state["series"]["standing"]["winners"] == [0]


# --- on paper -------------------------------------------------------------------------------------------------------

def test_r_test_1_to_4_the_printed_summary_of_the_game_and_of_a_table(client):
    client.set_cookie("lang", "en")
    rules = text(client.get("/rules/duel").get_data(as_text=True))
    assert "12 cards: ace, king, queen, jack of spades, hearts and diamonds; 30 points a deal. R-TEST-1" in rules
    assert "Two players, 6 cards each; the dealer's last card makes trump. R-TEST-2" in rules
    assert "ace = 4 king = 3 queen = 2 jack = 1" in rules and "Series: 2 deals, the highest total wins." in rules
    made = new_table(client, deals=3)
    mine = text(client.get(f"/t/{made['id']}/rules?key={made['viewer_key']}").get_data(as_text=True))
    assert "Series: 3 deals, the highest total wins. R-TEST-4" in mine and "(default: 2)" in mine


def test_r_test_4_the_blank_score_sheet_and_a_tables_filled_in(client):
    client.set_cookie("lang", "en")
    blank = client.get("/sheet/duel").get_data(as_text=True)
    assert blank.count('<tr class="row">') == Duel.blank_rows == 10 and blank.count('class="write-line"') == 2
    made = new_table(client, deals=2)
    play(client, made, the_deal() + BY_NUMBERS)
    filled = client.get(f"/t/{made['id']}/sheet?key={made['viewer_key']}").get_data(as_text=True)
    rows = re.findall(r'<tr class="row">(.*?)</tr>', filled, re.S)
    assert [re.findall(r'<td class="num">(\d*)</td>', row) for row in rows] == [["10", "20"], ["18", "12"]]
    total = re.search(r'<tr class="total">(.*?)</tr>', filled, re.S).group(1)
    assert re.findall(r'<td class="num">(\d+)</td>', total) == ["28", "32"]  # Bo wins the series 32–28 (R-TEST-4)
    assert "Ana" in filled and "Bo" in filled and "Highest after 2 deals wins." in text(filled)


# --- the API and its document ---------------------------------------------------------------------------------------

def fits(doc: dict, schema: dict, instance) -> list:
    validator = Draft202012Validator({**schema, "components": doc["components"]})
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300] for e in validator.iter_errors(instance)]


def answer_schema(doc: dict, method: str, path: str, status: int) -> dict:
    answer = doc["paths"][path][method]["responses"][str(status)]
    if "$ref" in answer:
        answer = doc["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    return answer["content"]["application/json"]["schema"]


def test_r_test_1_4_the_api_plays_a_series_and_every_answer_fits_the_openapi_document_that_declares_its_events(
        client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc == openapi_document()
    validate_spec(doc)  # a valid OpenAPI 3.1 document with a sixth game in it
    schemas = doc["components"]["schemas"]
    assert schemas["NewTable_duel"]["properties"]["players"]["minItems"] == 2
    for kind, (needed, optional) in Duel.event_fields.items():
        assert "duel" in schemas["Event_" + kind]["x-games"], kind
        mine = next(e for e in schemas["Event_" + kind]["anyOf"] if e["x-game"] == "duel")
        assert mine["required"] == list(needed) and set(mine["properties"]) == {*needed, *optional}
        example = {"type": kind, **Duel.event_examples[kind]}
        assert example in schemas["Event_" + kind]["examples"]
        assert fits(doc, schemas["Event_" + kind], example) == []
    games = client.get("/api/v1/games").get_json()
    assert [g["id"] for g in games["games"]] == [*FIVE, "duel"]
    listed = games["games"][-1]
    assert (listed["players"], listed["events"]) == ([2, 2], ["capture", "confirm", "deal", "dispute", "tally",
                                                              "trick"])
    made = client.post("/api/v1/tables", json={"game": "duel", "players": ["Ana", "Bo"]})
    assert made.status_code == 201 and fits(doc, answer_schema(doc, "post", "/api/v1/tables", 201), made.json) == []
    made = made.get_json()
    path = "/api/v1/tables/{table_id}/events"
    for body in the_deal() + BY_NUMBERS:
        answer = client.post(f"/api/v1/tables/{made['id']}/events", json=body, headers=bearer(made["scorer_key"]))
        assert answer.status_code == 201 and fits(doc, answer_schema(doc, "post", path, 201), answer.json) == []
    state = client.get(f"/api/v1/tables/{made['id']}", headers=bearer(made["viewer_key"]))
    assert fits(doc, answer_schema(doc, "get", "/api/v1/tables/{table_id}", 200), state.json) == []
    state = state.get_json()
    assert (state["totals"], state["series"]["finished"], state["series"]["winner"]) == ([28, 32], True, 1)
    assert [d["points"] for d in state["deals"]] == [[10, 20], [18, 12]] and state["deals"][1]["entry"] == "tally"
    over = client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "deal", "trump": "AS"},
                       headers=bearer(made["scorer_key"]))  # R-TEST-4: two deals, the series is over
    assert over.status_code == 422 and over.json["error"]["code"] == "series_finished"
    other = new_table(client)
    play(client, other, [{"type": "deal", "trump": "QS"}])
    wrong = client.post(f"/api/v1/tables/{other['id']}/events", json={"type": "tally", "points": [20, 11]},
                        headers=bearer(other["scorer_key"]))
    assert wrong.status_code == 422 and wrong.json["error"]["code"] == "tally_points_sum"  # 30 a deal (R-TEST-1)
    assert wrong.json["error"]["rule"] == "R-TEST-1"
    club = client.post(f"/api/v1/tables/{other['id']}/events", json={"type": "trick", "cards": ["AC", "KS"]},
                       headers=bearer(other["scorer_key"]))
    assert club.status_code == 422 and club.json["error"]["code"] == "unknown_card"  # no clubs (R-TEST-1)


# --- a tournament and a club ----------------------------------------------------------------------------------------

def play_rounds(client, made: dict, rounds: int) -> list:
    """Each round seated by the director and each of its tables played to its one deal with its card's key: the
    entrant seated first (side 0) takes 18 of the 30 points when its index is the lower, else 12 (R-TEST-1, 4); the
    round closed. Returns ((entrants), winner) per table, in the order they finished."""
    director = bearer(made["director_key"])
    played = []
    for number in range(1, rounds + 1):
        state = client.post(f"/api/v1/tournaments/{made['id']}/rounds", headers=director).get_json()
        for table in state["rounds"][number - 1]["tables"]:
            first, second = table["entrants"]
            points = [18, 12] if first < second else [12, 18]
            key = table["scorer_url"].split("key=")[1]
            done = play(client, {"id": table["table_id"], "scorer_key": key},
                        [{"type": "deal", "trump": "AH"}, {"type": "tally", "points": points}])
            assert done["series"]["finished"] and len(done["deals"]) == 1  # the round's length: 1 deal (R-TEST-4)
            played.append(((first, second), min(first, second)))
        closed = client.post(f"/api/v1/tournaments/{made['id']}/rounds/{number}/close", headers=director)
        assert closed.get_json()["closed"] is True
    return played


def test_r_test_4_a_round_robin_tournament_of_four_players_one_deal_a_round(any_client):
    client = any_client
    assert 'value="game:duel"' in client.get("/tournaments/new").get_data(as_text=True)  # the form offers it
    made = client.post("/api/v1/tournaments", json={"game": "duel", "name": "Duel night", "entrants": [
        "Ana", "Bo", "Cy", "Di"], "rounds": [{"movement": "round_robin", "deals": 1}] * 3})
    assert made.status_code == 201, made.json
    tid, director = made.json["id"], bearer(made.json["director_key"])
    assert made.json["state"]["plan"] == [{"movement": "round_robin", "deals": 1}] * 3
    met = play_rounds(client, made.json, 3)
    assert sorted(tuple(sorted(pair)) for pair, _ in met) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    final = client.get(f"/api/v1/tournaments/{tid}", headers=director).get_json()
    # A trick game's round: a win 2, a loss 0 (referee/tournament/scoring.py); MP the card points, 18 a win, 12 a loss.
    assert [(r["rank"], r["entrant"], r["vp"], r["mp"], r["mp_difference"], r["played"])
            for r in final["standings"]] == [(1, 0, 6, 54, 18, 3), (2, 1, 4, 48, 6, 3), (3, 2, 2, 42, -6, 3),
                                             (4, 3, 0, 36, -18, 3)]
    page = client.get(f"/tournaments/{tid}?key={made.json['director_key']}&lang=en")
    assert page.status_code == 200 and "Duel night" in page.get_data(as_text=True)


def expected_ratings(matches) -> dict:
    """member -> (mu, sigma) after ``matches`` ([[winner], [loser]] of members), OpenSkill's Plackett–Luce with its
    defaults, in this order (R-CLUB-1), worked out here with the library."""
    model, ratings = PlackettLuce(), {}
    for teams in matches:
        rated = model.rate([[ratings.get(m, model.rating()) for m in team] for team in teams], ranks=[1, 2])
        for team, new in zip(teams, rated):
            for member, rating in zip(team, new):
                ratings[member] = rating
    return {member: (r.mu, r.sigma) for member, r in ratings.items()}


def test_r_club_1_a_club_evening_of_duel_rates_its_members_on_their_own_ladder(any_client):
    """A club's evening: its four members play an all-play-all of Duel, one deal a round (the lower entrant wins each
    table 18–12), and a table of two members beside it; each member's series played and won, his rating (OpenSkill's
    Plackett–Luce over the series in the order they finished) and Duel's own ladder and statistic."""
    client = any_client
    club = client.post("/api/v1/clubs", json={"name": "Le jeudi"}).get_json()
    key = bearer(club["club_key"])
    names = ["Ana", "Bo", "Cy", "Di"]
    ids = [client.post(f"/api/v1/clubs/{club['id']}/players", json={"name": name}, headers=key).json["id"]
           for name in names]
    made = client.post("/api/v1/tournaments", headers=key, json={
        "game": "duel", "name": "Thursday", "club": club["id"], "entrants": [{"player": i} for i in ids],
        "rounds": [{"movement": "round_robin", "deals": 1}] * 3})
    assert made.status_code == 201, made.json
    matches = [[[ids[winner]], [ids[second if winner == first else first]]]
               for (first, second), winner in play_rounds(client, made.json, 3)]
    table = client.post("/api/v1/tables", headers=key, json={
        "game": "duel", "players": [{"player": ids[3]}, {"player": ids[0]}], "options": {"deals": 1},
        "club": club["id"]})
    assert table.status_code == 201, table.json
    play(client, table.json, [{"type": "deal", "trump": "KS"}, {"type": "tally", "points": [20, 10]}])  # Di wins
    matches.append([[ids[3]], [ids[0]]])
    doc = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["viewer_key"])).get_json()
    players = {p["name"]: p for p in doc["players"]}
    assert {n: (p["games"]["duel"]["played"], p["games"]["duel"]["won"]) for n, p in players.items()} == {
        "Ana": (4, 3), "Bo": (3, 2), "Cy": (3, 1), "Di": (4, 1)}
    expected = expected_ratings(matches)
    for number, name in enumerate(names):
        mu, sigma = expected[ids[number]]
        rating = players[name]["games"]["duel"]["rating"]
        assert (rating["mu"], rating["sigma"]) == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9))
    ladder = doc["ladders"]["duel"]  # best ordinal first: Di's win over Ana does not lift her over Cy
    assert [row["name"] for row in ladder] == ["Ana", "Bo", "Cy", "Di"]
    assert [row["rating"]["ordinal"] for row in ladder] == [
        pytest.approx(expected[ids[n]][0] - 3 * expected[ids[n]][1], abs=1e-9) for n in range(4)]
    assert {n: p["games"]["duel"]["stats"]["deals_won"] for n, p in players.items()} == {
        "Ana": 3, "Bo": 2, "Cy": 1, "Di": 1}  # its own statistic (R-TEST-4)
    assert [t["name"] for t in doc["tournaments"]] == ["Thursday"]
    page = client.get(f"/clubs/{club['id']}?key={club['viewer_key']}&lang=en").get_data(as_text=True)
    assert 'id="ladder-duel"' in page and "Duel" in page
