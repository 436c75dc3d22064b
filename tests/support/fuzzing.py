"""What the no-5xx tests share: an app on each database we support, tables of every game at every stage of a deal
(fresh, dealt, under way, a deal over), and the contract's error shape. Used by test_no_5xx.py,
test_fuzz_forms.py and test_schemathesis.py."""
from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field


from referee import create_app
from referee.games import GAMES, get_game
from tests.support.env import need

DATABASES = ["sqlite", "postgresql"]
SNAKE = re.compile(r"[a-z][a-z0-9_]*")


def database_url(kind: str, tmp_path) -> str:
    """A fresh SQLite file, or the PostgreSQL of TEST_DATABASE_URL emptied (CI has both; locally a missing one
    skips, in CI it fails)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'fuzz.sqlite3'}"
    url = os.environ.get("TEST_DATABASE_URL")
    need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    return url


def make_app(url: str, **config):
    """The app as a server runs it, the form token off (the fuzzers post forms as a page would, without a page
    first) and rate limits off (they are not the subject here)."""
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False, **config})
    if not url.startswith("sqlite"):
        empty_database(url)
    app.extensions["referee.ledger"].init_db()
    return app


def empty_database(url: str) -> None:
    """Drops every table of the test database, whatever made it (the models, a migration's bookkeeping)."""
    from sqlalchemy import MetaData

    from referee.store import Ledger

    engine = Ledger(url).engine
    found = MetaData()
    found.reflect(engine)
    found.drop_all(engine)
    engine.dispose()


def assert_error_shape(response) -> dict:
    """The contract's error body: {"error": {"code": snake_case, "message": a sentence, ...}}."""
    assert response.mimetype == "application/json", (response.status_code, response.get_data()[:200])
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error.get("code"), str) and SNAKE.fullmatch(error["code"]), error
    assert isinstance(error.get("message"), str) and error["message"].strip(), error
    return error


@dataclass
class Seat:
    """One table made for the fuzzers: its game, id, keys, and the codes of its deck."""

    game: str
    id: str
    scorer_key: str
    viewer_key: str
    stage: str
    cards: list = field(default_factory=list)
    players: int = 0


def players_for(game_id: str) -> list:
    return [f"P{i}" for i in range(get_game(game_id).player_counts()[0])]


def seat_tables(client, seed: int = 14) -> list:
    """Tables of every game at each player count it allows, at each stage: fresh, dealt, some entries made, a
    first pile entered (trick games), the first deal over (entered by its numbers where the game has them, else a Buraco count)."""
    rng = random.Random(seed)
    seats = []
    for game_id in GAMES:
        game = get_game(game_id)
        for n in game.player_counts():
            for stage in ("fresh", "dealt", "under_way", "pile", "deal_over"):
                if stage == "pile" and game_id == "buraco":
                    continue
                created = client.post("/api/v1/tables", json={"game": game_id,
                                                              "players": [f"P{i}" for i in range(n)]})
                assert created.status_code == 201, created.get_json()
                doc = created.get_json()
                seat = Seat(game_id, doc["id"], doc["scorer_key"], doc["viewer_key"], stage, players=n)
                seat.cards = sorted({c.code for c in game.deck_for(game.new_table(
                    [f"P{i}" for i in range(n)])).cards})
                if stage != "fresh":
                    advance(client, seat, stage, rng)
                seats.append(seat)
    return seats


def _post(client, seat: Seat, body: dict):
    return client.post(f"/api/v1/tables/{seat.id}/events", json=body,
                       headers={"Authorization": f"Bearer {seat.scorer_key}"})


def advance(client, seat: Seat, stage: str, rng: random.Random) -> None:
    """Brings a fresh table to ``stage`` through the API, with entries the engine accepts."""
    for trump in [None, *rng.sample(seat.cards, len(seat.cards))]:
        if _post(client, seat, {"type": "deal", "trump": trump}).status_code == 201:
            break
    if stage == "dealt":
        return
    if seat.game == "buraco":
        bodies = [{"type": "meld", "side": 0, "cards": ["3H", "4H", "5H"]},
                  {"type": "meld", "side": 1, "cards": ["9S", "9D", "9C"]},
                  {"type": "extend", "side": 0, "meld": 0, "cards": ["6H"]}]
        if stage == "deal_over":
            bodies.append({"type": "count", "closed_by": None, "hands": [[] for _ in range(seat.players)]})
        for body in bodies:
            _post(client, seat, body)
        return
    if stage == "deal_over":
        tally_whole_deal(client, seat)
        return
    if stage == "pile":  # the first side's captured cards entered, the others' still to come
        for _try in range(40):
            cards = rng.sample(seat.cards, seat.players * 2)
            if _post(client, seat, {"type": "capture", "side": 0, "cards": cards}).status_code == 201:
                return
        raise AssertionError(f"no pile entered at {seat.game} with {seat.players}")
    for _trick in range(2):  # two tricks of cards the engine has no reason to refuse
        for _try in range(40):
            cards = rng.sample(seat.cards, seat.players)
            if _post(client, seat, {"type": "trick", "cards": cards}).status_code == 201:
                break


def tally_whole_deal(client, seat: Seat) -> None:
    """Ends the open deal by its numbers: the card points in play split between the sides (Brisca says who won
    the last trick, Brûlot gives each player's penalties)."""
    state, table = client.application.extensions["referee.ledger"].snapshot(seat.id)
    whole = get_game(seat.game).numbers_whole(table)
    sides = len(state["sides"])
    if seat.game == "brulot":  # the widow not all known: the sum is a range, tried from the top
        for total in ([whole] if whole is not None else range(40, 0, -1)):
            shares = [total // seat.players + (i < total % seat.players) for i in range(seat.players)]
            if _post(client, seat, {"type": "tally", "penalties": shares}).status_code == 201:
                return
    for first in range(whole or 0, -1, -1):
        body = {"points": [first] + [0] * (sides - 2) + [(whole or 0) - first]}
        body.update({"last_trick": 0} if seat.game == "brisca" else {})
        if _post(client, seat, {"type": "tally", **body}).status_code == 201:
            return
    raise AssertionError(f"no tally ends a {seat.game} deal of {seat.players}")
