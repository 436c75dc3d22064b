"""Recorded games replayed (the pokerkit habit): every event through the engine, then the ledger, same result."""
import json
from pathlib import Path

import pytest

from referee.games import get_game

RECORDED = sorted((Path(__file__).parent / "recorded").glob("*.json"))


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_recorded_series_replays_to_its_result(path, ledger):
    record = json.loads(path.read_text())
    expect = record["expect"]
    table = get_game(record["game"]).replay(record["players"], record["options"], record["dealer"], record["events"])
    state = get_game(record["game"]).serialise(table)
    assert [d["points"] for d in state["deals"]] == expect["deal_points"]
    assert all(sum(deal["points"]) == 120 for deal in state["deals"])  # R-BRISCA-1
    assert state["totals"] == expect["totals"] and state["series"]["wins"] == expect["wins"]
    assert state["series"]["finished"] is True and state["series"]["winner"] == expect["winner"]
    created, _, _ = ledger.create_table(record["game"], record["players"], record["options"], record["dealer"])
    for body in record["events"]:
        ledger.append(created["id"], body)
    ledger._cache.clear()
    assert {k: v for k, v in ledger.state(created["id"]).items() if k not in ("id", "revision", "rematch", "rematch_of")} == state
