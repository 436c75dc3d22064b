"""A write's answer stays small however long the table's log (docs/api.md): at the two-hundredth Brûlot deal, entered
card by card, a trick's or an undo's answer travels in at most 8 KiB gzip-compressed, the open deal in full and each
complete deal with its ``tricks_count`` instead of its tricks; ``?full=1`` and GET give the whole state."""
from __future__ import annotations

import gzip
import json

import pytest

from tests.support.simulate import LONG_SERIES, PLAYERS, brulot_deals, flat

DEALS = 200
TRICKS = 13  # a 4-player Brûlot deal: 52 cards, 13 tricks
BOUND = 8 * 1024  # a POST's answer on the wire, gzip-compressed
GZIP = {"Accept-Encoding": "gzip"}


def decoded(response) -> dict:
    """The JSON of an answer that travelled gzip-compressed (the test client does not decode it)."""
    assert response.headers.get("Content-Encoding") == "gzip", response.headers
    assert "Accept-Encoding" in response.headers.get("Vary", "")
    return json.loads(gzip.decompress(response.data))


def brief_of(state: dict) -> dict:
    """docs/api.md: complete deals without ``tricks``, with ``tricks_count``; every other field as it is."""
    return {**state, "deals": [{**{k: v for k, v in deal.items() if k != "tricks"},
                                "tricks_count": len(deal["tricks"])} if deal["complete"] else deal
                               for deal in state["deals"]]}


class Long:
    """A Brûlot table imported with 200 whole deals and the first ``tricks`` tricks of deal 201."""

    def __init__(self, client, tricks: int = 5):
        self.client, self.deals = client, brulot_deals(DEALS + 1, seed=3)
        export = {"format": "referee-export/1",
                  "table": {"game": "brulot", "players": PLAYERS, "options": LONG_SERIES, "dealer": 0},
                  "events": flat(self.deals[:DEALS]) + self.deals[DEALS][:1 + tricks]}
        imported = client.post("/api/v1/import", json=export)
        assert imported.status_code == 201, imported.get_json()
        created = imported.get_json()
        self.id, self.key, self.in_force = created["id"], created["scorer_key"], len(export["events"])
        assert created["state"]["version"] == DEALS * (1 + TRICKS) + 1 + tricks

    def headers(self, **more) -> dict:
        return {"Authorization": f"Bearer {self.key}", **more}

    def post(self, what: str, body=None, query: str = ""):
        return self.client.post(f"/api/v1/tables/{self.id}/{what}{query}", json=body, headers=self.headers(**GZIP))

    def trick(self, query: str = ""):
        body = self.deals[DEALS][self.in_force - DEALS * (1 + TRICKS)]
        assert body["type"] == "trick"
        response = self.post("events", body, query)
        assert response.status_code == 201, response.data[:300]
        self.in_force += 1
        return response

    def whole(self) -> dict:
        response = self.client.get(f"/api/v1/tables/{self.id}", headers=self.headers(**GZIP))
        assert response.status_code == 200
        return decoded(response)


def assert_brief(state: dict, open_tricks: int | None) -> None:
    """Every complete deal with its 13 tricks counted and none listed; the open deal (if any) with its tricks."""
    complete = state["deals"] if open_tricks is None else state["deals"][:-1]
    assert all(deal["complete"] and "tricks" not in deal and deal["tricks_count"] == TRICKS for deal in complete)
    if open_tricks is not None:
        last = state["deals"][-1]
        assert last["complete"] is False and "tricks_count" not in last and len(last["tricks"]) == open_tricks
        assert all(len(trick["cards"]) == 4 for trick in last["tricks"])


@pytest.fixture
def long(client):
    return Long(client)


def test_a_tricks_answer_at_the_200th_deal_is_at_most_8_kib_on_the_wire_the_open_deal_in_full(long):
    response = long.trick()
    state = decoded(response)["state"]
    assert len(response.data) <= BOUND, f"{len(response.data)} bytes gzip-compressed"
    assert len(state["deals"]) == DEALS + 1 and state["version"] == DEALS * (1 + TRICKS) + 1 + 6
    assert_brief(state, open_tricks=6)
    whole = long.whole()
    assert state == brief_of(whole)  # every other field as GET gives it: totals, next, possible, each deal's numbers
    assert [len(deal["tricks"]) for deal in whole["deals"]] == [TRICKS] * DEALS + [6]  # GET: the whole state


def test_full_1_answers_every_deals_tricks(long):
    brief = long.trick()
    full = long.trick("?full=1")
    state = decoded(full)["state"]
    assert [len(deal["tricks"]) for deal in state["deals"]] == [TRICKS] * DEALS + [7]
    assert not any("tricks_count" in deal for deal in state["deals"])
    assert state == long.whole()
    assert len(full.data) > 3 * len(brief.data)  # what the brief answer leaves out


def test_an_undos_answer_is_brief_too_and_so_is_the_deals_last_trick(long):
    undone = long.post("undo", {})
    assert undone.status_code == 200 and len(undone.data) <= BOUND
    state = decoded(undone)["state"]
    assert state["version"] == DEALS * (1 + TRICKS) + 1 + 4
    assert_brief(state, open_tricks=4)
    assert state == brief_of(long.whole())
    long.in_force -= 1
    for _ in range(TRICKS - 4):  # deal 201 to its end: every deal complete, no trick listed anywhere
        last = long.trick()
    state = decoded(last)["state"]
    assert len(last.data) <= BOUND and state["deals"][-1]["complete"] is True
    assert_brief(state, open_tricks=None)
    assert len(state["deals"]) == DEALS + 1 and state["next"]["action"] == "deal"
    assert state == brief_of(long.whole())
    for _ in range(TRICKS + 1):  # back across deal 201's start: 200 complete deals, answered brief
        undone = long.post("undo", {})
        assert undone.status_code == 200 and len(undone.data) <= BOUND
    state = decoded(undone)["state"]
    assert len(state["deals"]) == DEALS and state["version"] == DEALS * (1 + TRICKS)
    assert_brief(state, open_tricks=None)
    assert state == brief_of(long.whole())
