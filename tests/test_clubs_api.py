"""A club through the JSON API (docs/api.md, "Clubs and players"; R-CLUB-1): five members, series of Brisca, Brûlot
(3 and 4 players, lowest total first) and a Buraco tournament's tables with members and guests; ``played``, ``won``
and every rating equal to what the ``openskill`` package gives for the same matches in the same order (computed
here with the library, not copied from the code); a member removed is gone by name from every answer, and the
others' ratings do not move."""
from __future__ import annotations

import json
import re

import pytest
from openskill.models import PlackettLuce

from tests.support.clubs import BRISCA_WON_BY_FIRST, BURACO_HAND, bearer
from tests.support.burraco import VP_ROWS

MEMBERS = ["Ana", "Bo", "Cy", "Di", "Eve"]


class Club:
    """A club made through the API, its five members, and the tables it plays."""

    def __init__(self, client):
        self.client = client
        made = client.post("/api/v1/clubs", json={"name": "Le jeudi"})
        assert made.status_code == 201, made.json
        self.id, self.key, self.viewer = made.json["id"], made.json["club_key"], made.json["viewer_key"]
        self.ids, self.made = {}, []
        for name in MEMBERS:
            added = client.post(f"/api/v1/clubs/{self.id}/players", json={"name": name}, headers=bearer(self.key))
            assert added.status_code == 201 and added.json["name"] == name
            self.ids[name] = added.json["id"]

    def seat(self, who):
        return {"player": self.ids[who]} if who in self.ids else who

    def table(self, game, players, options, entries):
        made = self.client.post("/api/v1/tables", headers=bearer(self.key), json={
            "game": game, "players": [self.seat(p) for p in players], "options": options, "club": self.id})
        assert made.status_code == 201, made.json
        self.play(made.json["id"], made.json["scorer_key"], entries)
        self.made.append(made.json)
        return made.json

    def play(self, table_id, key, entries):
        for entry in entries:
            answer = self.client.post(f"/api/v1/tables/{table_id}/events", json=entry, headers=bearer(key))
            assert answer.status_code == 201, answer.json
        return answer.json["state"]

    def doc(self, key=None):
        answer = self.client.get(f"/api/v1/clubs/{self.id}", headers=bearer(key or self.viewer))
        assert answer.status_code == 200
        return answer.json


def texts(doc) -> set:
    """Every text of a JSON document and every word of it (a name, a side's "Ana & Bo", a log's sentence), ids and
    keys included: a random id may hold the letters "Bo", never the word."""
    found, todo = set(), [doc]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            found.add(item)
            found.update(re.findall(r"\w+", item))
    return found


def expected_ratings(matches) -> dict:
    """(member, game) -> (mu, sigma) after ``matches`` ([(game, [[members of a side]…], [rank per side])…]), by
    OpenSkill's Plackett–Luce with its defaults, in this order."""
    model, ratings = PlackettLuce(), {}
    for game, teams, ranks in matches:
        rated = model.rate([[ratings.get((m, game), model.rating()) for m in team] for team in teams], ranks=ranks)
        for team, new in zip(teams, rated):
            for member, rating in zip(team, new):
                ratings[(member, game)] = rating
    return {key: (r.mu, r.sigma) for key, r in ratings.items()}


def play_the_evening(club) -> list:
    """Every series of the test, in the order they finish; returns the matches as R-CLUB-1 makes them."""
    ids = club.ids
    # 1. Brisca, Ana v Bo: Ana wins 3 deals to 0 (R-BRISCA-6)
    club.table("brisca", ["Ana", "Bo"], {"wins_needed": 3}, BRISCA_WON_BY_FIRST)
    # 2. Brisca four-handed: Cy & a guest (Gus) v Di & Eve; Di & Eve win. The guest is left out of Cy's team.
    club.table("brisca", ["Cy", "Di", "Gus", "Eve"], {"wins_needed": 3},
               [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [40, 80]}] * 3)
    # 3. Brûlot three-handed, two deals by numbers: totals Ana 15, Bo 40, Cy 25: lowest first (R-BRULOT-6)
    club.table("brulot", ["Ana", "Bo", "Cy"], {"deals": 2},
               [{"type": "deal", "trump": "2D"}, {"type": "tally", "penalties": [10, 20, 10]},
                {"type": "deal", "trump": "3D"}, {"type": "tally", "penalties": [5, 20, 15]}])
    # 4. Brûlot four-handed, one deal: Bo 5, Cy 5 (tied), Di 10, Eve 20
    club.table("brulot", ["Bo", "Cy", "Di", "Eve"], {"deals": 1},
               [{"type": "deal", "trump": "2D"}, {"type": "tally", "penalties": [5, 5, 10, 20]}])
    return [
        ("brisca", [[ids["Ana"]], [ids["Bo"]]], [1, 2]),
        ("brisca", [[ids["Cy"]], [ids["Di"], ids["Eve"]]], [2, 1]),
        ("brulot", [[ids["Ana"]], [ids["Bo"]], [ids["Cy"]]], [1, 3, 2]),
        ("brulot", [[ids["Bo"]], [ids["Cy"]], [ids["Di"]], [ids["Eve"]]], [1, 1, 2, 3]),
    ]


def buraco_tournament(club) -> list:
    """A Buraco tournament of the club, one all-play-all round of one hand: pairs of members and guests; each table's
    first pair wins its hand (R-BURACO-6). Returns its matches, in the order the tables finish."""
    ids = club.ids
    made = club.client.post("/api/v1/tournaments", headers=bearer(club.key), json={
        "game": "buraco", "name": "Campionato sociale", "club": club.id, "rounds": [{"movement": "round_robin",
                                                                                    "hands": 1}], "vp_table": VP_ROWS,
        "entrants": [[{"player": ids["Ana"]}, {"player": ids["Bo"]}], [{"player": ids["Cy"]}, "Gus"],
                     ["Di", "eve"], ["Hal", "Ivy"]]})  # a member's name is that member, whatever its case
    assert made.status_code == 201, made.json
    director = bearer(made.json["director_key"])
    seated = club.client.post(f"/api/v1/tournaments/{made.json['id']}/rounds", headers=director)
    assert seated.status_code == 201, seated.json
    tables = seated.json["rounds"][0]["tables"] if "rounds" in seated.json else \
        seated.json["state"]["rounds"][0]["tables"]
    members = {0: [ids["Ana"], ids["Bo"]], 1: [ids["Cy"]], 2: [ids["Di"], ids["Eve"]], 3: []}
    matches = []
    for table in tables:
        club.play(table["table_id"], _card_key(club, made.json, table), [{"type": "deal", "trump": None}, BURACO_HAND])
        ns, ew = table["entrants"]
        teams = [members[ns], members[ew]]
        if all(teams):
            matches.append(("buraco", teams, [1, 2]))
    return matches, made.json


def _card_key(club, made, table) -> str:
    cards = club.client.get(f"/api/v1/tournaments/{made['id']}/cards", headers=bearer(made["director_key"])).json
    return next(card["key"] for card in cards["cards"] if card["number"] == table["number"])


def test_ratings_played_and_won_are_openskills_plackett_luce_in_series_order_r_club_1(client_on_each_database):
    client = client_on_each_database
    club = Club(client)
    matches = play_the_evening(club)
    more, _tournament = buraco_tournament(club)
    matches += more
    doc = club.doc()
    expected = expected_ratings(matches)
    players = {p["name"]: p for p in doc["players"]}
    assert [p["name"] for p in doc["players"]] == MEMBERS
    # series played and won (won: the member's side won it alone)
    assert {n: (p["played"], p["won"]) for n, p in players.items()} == {
        "Ana": (3, 3), "Bo": (4, 1), "Cy": (4, 1), "Di": (3, 1), "Eve": (3, 1)}
    assert players["Bo"]["games"]["brulot"]["played"] == 2 and players["Bo"]["games"]["brulot"]["won"] == 0
    for name, player in players.items():
        for game, figures in player["games"].items():
            mu, sigma = expected.get((club.ids[name], game), (25.0, 25 / 3))  # played, never rated: the default
            assert figures["rating"]["mu"] == pytest.approx(mu, abs=1e-9), (name, game)
            assert figures["rating"]["sigma"] == pytest.approx(sigma, abs=1e-9), (name, game)
            assert figures["rating"]["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
    # the ladder orders by the ordinal, best first
    for game, rows in doc["ladders"].items():
        ordinals = [row["rating"]["ordinal"] for row in rows]
        assert ordinals == sorted(ordinals, reverse=True)
    assert doc["ladders"]["brulot"][0]["name"] == "Ana"
    # round 1 of all-play-all: Ana & Bo v Hal & Ivy (guests only: not rated), Cy & Gus v Di & Eve
    assert [row["name"] for row in doc["ladders"]["buraco"]] == ["Cy", "Di", "Eve"]
    assert len(doc["tables"]) == 6 and all(t["finished"] for t in doc["tables"])
    assert [t["name"] for t in doc["tournaments"]] == ["Campionato sociale"]


def test_a_removed_member_is_gone_by_name_and_the_others_ratings_stay_r_club_1(client_on_each_database):
    client = client_on_each_database
    club = Club(client)
    play_the_evening(club)
    _matches, tournament = buraco_tournament(club)
    before = club.doc()
    gone = client.delete(f"/api/v1/clubs/{club.id}/players/{club.ids['Bo']}", headers=bearer(club.key))
    assert gone.status_code == 200
    after = club.doc()
    assert [p["name"] for p in after["players"]] == ["Ana", "Cy", "Di", "Eve"]
    assert {p["id"]: p["games"] for p in after["players"]} == {
        p["id"]: p["games"] for p in before["players"] if p["name"] != "Bo"}
    assert "Bo" not in texts(after)
    # the tables and the tournament say "former member" where Bo sat; their results stay
    first = client.get(f"/api/v1/tables/{club.made[0]['id']}", headers=bearer(club.made[0]["viewer_key"])).json
    assert first["players"] == ["Ana", "former member"] and first["series"]["winner"] == 0
    assert first["sides"][1]["name"] == "former member"
    export = client.get(f"/api/v1/tables/{club.made[0]['id']}/export.json?key={club.made[0]['viewer_key']}")
    assert export.status_code == 200 and "Bo" not in texts(export.get_json())
    standings = client.get(f"/api/v1/tournaments/{tournament['id']}", headers=bearer(tournament["viewer_key"])).json
    assert "Bo" not in texts(standings)
    assert ["Ana", "former member"] in [e["names"] for e in standings["entrants"]]
    assert after["tables"][0]["players"] == ["Ana", "former member"]


def test_a_club_table_needs_the_club_key_and_its_members_r_club_1(client_on_each_database):
    client = client_on_each_database
    club = Club(client)
    body = {"game": "brisca", "players": [{"player": club.ids["Ana"]}, "Gus"], "club": club.id}
    assert client.post("/api/v1/tables", json=body).status_code == 401
    assert client.post("/api/v1/tables", json=body, headers=bearer(club.viewer)).status_code == 403
    unknown = client.post("/api/v1/tables", headers=bearer(club.key),
                          json={**body, "players": [{"player": "nobody"}, "Gus"]})
    assert unknown.status_code == 422 and unknown.json["error"]["code"] == "unknown_player"
    assert client.post(f"/api/v1/clubs/{club.id}/players", json={"name": "ANA"},
                       headers=bearer(club.key)).json["error"]["code"] == "duplicate_player"
    made = client.post("/api/v1/tables", json=body, headers=bearer(club.key))
    assert made.status_code == 201 and made.json["state"]["players"] == ["Ana", "Gus"]
    assert club.doc()["tables"][0]["members"] == [club.ids["Ana"], None]


def test_a_guest_cannot_take_a_members_name_at_an_api_table_r_club_1(client):
    club = Club(client)
    made = client.post("/api/v1/tables", headers=bearer(club.key), json={
        "game": "brisca", "players": [{"player": club.ids["Ana"]}, "bo"], "club": club.id})
    assert made.status_code == 422 and made.json["error"]["code"] == "member_name"
    assert club.doc()["tables"] == []


def test_a_late_entrant_member_and_a_rematch_after_a_removal_r_club_1(client):
    club = Club(client)
    made = client.post("/api/v1/tournaments", headers=bearer(club.key), json={
        "game": "buraco", "name": "Sociale", "club": club.id, "rounds": [{"movement": "round_robin", "hands": 1}],
        "vp_table": VP_ROWS,
        "entrants": [["Ana", "Bo"], ["Cy", "Gus"], ["Hal", "Ivy"]]}).json
    director = bearer(made["director_key"])
    late = client.post(f"/api/v1/tournaments/{made['id']}/entrants", headers=director,
                       json={"names": [{"player": club.ids["Di"]}, "eve"]})
    assert late.status_code == 201, late.json
    table = club.table("brisca", ["Eve", "Bo"], {"wins_needed": 3}, BRISCA_WON_BY_FIRST)
    assert client.delete(f"/api/v1/clubs/{club.id}/players/{club.ids['Eve']}", headers=bearer(club.key)).status_code \
        == 200
    state = client.get(f"/api/v1/tournaments/{made['id']}", headers=director).json
    assert [e["names"] for e in state["entrants"]] == [["Ana", "Bo"], ["Cy", "Gus"], ["Hal", "Ivy"],
                                                       ["Di", "former member"]]
    rematch = client.post(f"/api/v1/tables/{table['id']}/rematch", headers=bearer(table["scorer_key"]))
    assert rematch.status_code == 201 and rematch.json["state"]["players"] == ["former member", "Bo"]
    tables = club.doc()["tables"]
    assert tables[-1]["members"] == [None, club.ids["Bo"]]  # the member who left plays on as a guest


def test_the_log_renames_only_the_removed_members_entrant_r_club_1(client):
    club = Club(client)
    for name in ("Anne", "Anne-Marie", "Marie Anne"):
        club.ids[name] = client.post(f"/api/v1/clubs/{club.id}/players", json={"name": name},
                                     headers=bearer(club.key)).json["id"]
    made = client.post("/api/v1/tournaments", headers=bearer(club.key), json={
        "game": "buraco", "name": "Sociale", "club": club.id, "rounds": [{"movement": "round_robin", "hands": 1}],
        "vp_table": VP_ROWS,
        "entrants": [["Anne", "Bo"], ["Anne-Marie", "Cy"], ["Marie Anne", "Di"], ["Ana", "Eve"]]}).json
    director = bearer(made["director_key"])
    for entrant in (0, 1, 2):
        assert client.post(f"/api/v1/tournaments/{made['id']}/withdrawals", headers=director,
                           json={"entrant": entrant}).status_code == 200
    client.delete(f"/api/v1/clubs/{club.id}/players/{club.ids['Anne']}", headers=bearer(club.key))
    log = [act["message"] for act in client.get(f"/api/v1/tournaments/{made['id']}", headers=director).json["log"]]
    assert log == ["former member & Bo withdrew after round 0.", "Anne-Marie & Cy withdrew after round 0.",
                   "Marie Anne & Di withdrew after round 0."]


def test_the_json_taken_back_keeps_removed_members_times_and_the_season_r_club_1(client):
    club = Club(client)
    for first, second in (("Ana", "Bo"), ("Bo", "Cy"), ("Cy", "Ana"), ("Di", "Bo")):
        club.table("brisca", [first, second], {"wins_needed": 3}, BRISCA_WON_BY_FIRST)
    client.delete(f"/api/v1/clubs/{club.id}/players/{club.ids['Bo']}", headers=bearer(club.key))
    assert client.patch(f"/api/v1/clubs/{club.id}", json={"season": "2000-01-01"},
                        headers=bearer(club.key)).status_code == 200
    exported = client.get(f"/clubs/{club.id}/export.json?key={club.key}").json
    assert {"id": club.ids["Bo"], "removed": True} in exported["members"]
    new = _imported(client, exported)
    old = club.doc()

    def ladder(doc):
        return {game: [(r["name"], round(r["rating"]["mu"], 9), round(r["rating"]["sigma"], 9)) for r in rows]
                for game, rows in doc["ladders"].items()}
    assert ladder(new) == ladder(old) and new["season"] == "2000-01-01"
    assert [t["finished_at"] for t in new["tables"]] == [t["finished_at"] for t in old["tables"]]


def _imported(client, exported) -> dict:
    """The club made of ``exported`` through the store (the import form's CSRF aside), as its API answers it."""
    state, key, _viewer = client.application.extensions["referee.clubs"].import_club(exported)
    return client.get(f"/api/v1/clubs/{state['id']}", headers=bearer(key)).json


def test_a_refused_import_stores_no_club_and_a_refused_change_writes_nothing_r_club_1(client):
    club = Club(client)
    club.table("brisca", ["Ana", "Bo"], {"wins_needed": 3}, BRISCA_WON_BY_FIRST)
    exported = client.get(f"/clubs/{club.id}/export.json?key={club.key}").json
    store = client.application.extensions["referee.clubs"]
    twice = {**exported, "members": exported["members"] + [{"id": "x", "name": "ANA"}]}
    wrong_seat = {**exported, "tables": [{**exported["tables"][0], "members": [["list"], None]}]}
    for doc, code in ((twice, "duplicate_player"), (wrong_seat, "bad_import")):
        with pytest.raises(Exception) as refused:
            store.import_club(doc)
        assert getattr(refused.value, "code", None) == code
    from sqlalchemy import text
    assert store.ledger.read(lambda connection: connection.execute(text("select count(*) from clubs")).scalar()) == 1
    half = client.patch(f"/api/v1/clubs/{club.id}", json={"name": "Renamed", "season": "x"}, headers=bearer(club.key))
    assert half.status_code == 422 and club.doc()["name"] == "Le jeudi"
