"""The tournaments' store (referee/tournament/store.py) on SQLite and PostgreSQL: a state costs the same few queries
for 4 tables as for 100, read from another process's point of view (nothing cached) and from its own; an unchanged
tournament is answered by one query; the revision follows every entry at any of its tables; a table card leads to its
number's table of the newest round; two directors seating at once seat one round."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy import event

from referee.errors import NotFound, RefereeError, Unauthorized
from referee.store import Ledger
from referee.tournament.store import Tournaments
from tests.support.burraco import VP_ROWS

DEAL = {"type": "deal", "trump": None}


def tally(ns: int, ew: int) -> dict:
    side = lambda melds: {"melds": melds, "burracos": {}, "pot": True, "hand": 0}  # noqa: E731
    return {"type": "tally", "closed_by": None, "sides": [side(ns), side(ew)]}


def pairs(count: int) -> list:
    return [[f"P{i}a", f"P{i}b"] for i in range(count)]


class Statements:
    """Counts the SELECTs an engine runs while it is open."""

    def __init__(self, engine):
        self.engine, self.count = engine, 0

    def _seen(self, _conn, _cursor, statement, *_):
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            self.count += 1

    def __enter__(self):
        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *_):
        event.remove(self.engine, "before_cursor_execute", self._seen)


def seated(ledger, count: int) -> tuple:
    store = Tournaments(ledger)
    state, director, viewer = store.create("buraco", f"{count} pairs", pairs(count),
                                           [{"movement": "mitchell", "hands": 2}], vp_table=VP_ROWS)
    state = store.next_round(state["id"])
    for number, table in enumerate(state["rounds"][0]["tables"]):
        ledger.append(table["table_id"], DEAL)
        ledger.append(table["table_id"], tally(100 + 5 * number, 100))
    return state["id"], director


@pytest.mark.parametrize("count", [8, 200])
def test_a_state_costs_the_same_few_queries_for_4_tables_as_for_100(ledger, count):
    tournament_id, _ = seated(ledger, count)
    fresh = Ledger(ledger.url)  # another worker: no state of these tables in its cache
    store = Tournaments(fresh)
    with Statements(fresh.engine) as cold:
        state = store.state(tournament_id)
    tables = state["rounds"][0]["tables"]
    assert len(tables) == count // 2 and all(t["hands"] == 1 and not t["finished"] for t in tables)
    assert cold.count == 7  # revision, tournament, entrants, rounds, tables, last entries, the events of all
    assert state["rounds"][0]["status"] == "playing" and all(t["last_entry"] for t in tables)
    with Statements(fresh.engine) as unchanged:
        assert store.state(tournament_id) is state
    assert unchanged.count == 1  # the revision only
    fresh.append(tables[0]["table_id"], DEAL)  # this worker's own entry: its cache has the table's new state
    with Statements(fresh.engine) as warm:
        again = store.state(tournament_id)
    assert warm.count == 6 and again["revision"] == state["revision"] + 1
    fresh.engine.dispose()


def test_the_revision_follows_every_entry_and_undo_at_its_tables_and_every_act_of_the_director(ledger):
    tournament_id, _ = seated(ledger, 4)
    store = Tournaments(ledger)
    before = store.revision(tournament_id)
    table_id = store.state(tournament_id)["rounds"][0]["tables"][0]["table_id"]
    ledger.append(table_id, DEAL)
    assert store.revision(tournament_id) == before + 1
    ledger.undo(table_id)
    assert store.revision(tournament_id) == before + 2
    store.close_round(tournament_id, 1, force=True, reason="Late.")
    assert store.revision(tournament_id) == before + 3
    assert store.state(tournament_id)["revision"] == before + 3


def test_a_table_card_leads_to_its_numbers_table_of_the_newest_round(ledger):
    store = Tournaments(ledger)
    state, _, _ = store.create("buraco", "Evening", pairs(4), [{"movement": "mitchell"}, {"movement": "danish"}])
    tournament_id = state["id"]
    first = store.next_round(tournament_id)["rounds"][0]["tables"]
    cards = store.cards(tournament_id)
    assert [c["number"] for c in cards] == [1, 2]
    assert cards[0]["url"] == f"/tournaments/{tournament_id}/tables/1?key={cards[0]['key']}"
    assert store.card_table(tournament_id, 1, cards[0]["key"]) == first[0]["table_id"]
    assert ledger.authorize(first[0]["table_id"], cards[0]["key"], write=True) == "scorer"
    with pytest.raises(Unauthorized):
        store.card_table(tournament_id, 1, cards[1]["key"])
    store.close_round(tournament_id, 1, force=True)
    second = store.next_round(tournament_id)["rounds"][1]["tables"]
    assert store.cards(tournament_id) == cards  # the same printed cards
    assert store.card_table(tournament_id, 1, cards[0]["key"]) == second[0]["table_id"] != first[0]["table_id"]
    assert ledger.authorize(second[0]["table_id"], cards[0]["key"], write=True) == "scorer"
    assert ledger.state(second[0]["table_id"])["options"]["hands"] == 3  # R-BURACO-6: Burraco's default round


def test_a_table_card_whose_number_has_no_table_this_round_opens_no_earlier_round(ledger):
    """8 pairs, one withdrawn after round 1: round 2 has 3 tables. Card 4 must not open round 1's finished table 4
    (its scoring would change round 1's result); a number far past any table is a 404, never a crash."""
    store = Tournaments(ledger)
    state, _, _ = store.create("buraco", "Evening", pairs(8), [{"movement": "mitchell"}] * 2)
    tournament_id = state["id"]
    store.next_round(tournament_id)
    store.close_round(tournament_id, 1, force=True)
    store.withdraw(tournament_id, 3)
    second = store.next_round(tournament_id)["rounds"][1]["tables"]
    assert [t["number"] for t in second] == [1, 2, 3]
    cards = store.cards(tournament_id)
    assert store.card_table(tournament_id, 3, cards[2]["key"]) == second[2]["table_id"]
    with pytest.raises(NotFound):
        store.card_table(tournament_id, 4, cards[3]["key"])
    with pytest.raises(NotFound):
        store.card_table(tournament_id, 10 ** 30, cards[0]["key"])


def test_a_mitchell_keeps_its_lines_when_a_pair_withdraws_or_joins_late_so_nobody_meets_twice(ledger):
    """North-South stay at their table and nobody changes line: a withdrawn pair's place is empty (the pair facing
    it has the bye), a late pair takes the phantom's place (its table comes into play)."""
    store = Tournaments(ledger)

    def seatings(state):
        return [([(t["number"], *t["entrants"]) for t in r["tables"]], r["bye"]) for r in state["rounds"]]

    state, _, _ = store.create("buraco", "Six", pairs(6), [{"movement": "mitchell"}] * 3)
    tournament_id = state["id"]
    store.next_round(tournament_id)
    store.close_round(tournament_id, 1, force=True)
    store.withdraw(tournament_id, 0)  # North-South at table 1
    for number in (2, 3):
        state = store.next_round(tournament_id)
        store.close_round(tournament_id, number, force=True)
    assert seatings(state) == [([(1, 0, 3), (2, 1, 4), (3, 2, 5)], None), ([(2, 1, 3), (3, 2, 4)], 5),
                               ([(2, 1, 5), (3, 2, 3)], 4)]

    state, _, _ = store.create("buraco", "Five", pairs(5), [{"movement": "mitchell"}] * 2)
    tournament_id = state["id"]
    store.next_round(tournament_id)
    store.close_round(tournament_id, 1, force=True)
    store.add_entrant(tournament_id, ["Late", "Comer"])
    state = store.next_round(tournament_id)
    assert seatings(state) == [([(1, 0, 2), (2, 1, 3)], 4), ([(1, 0, 4), (2, 1, 2), (3, 5, 3)], None)]


def test_two_directors_seating_at_once_seat_one_round(ledger):
    store = Tournaments(ledger)
    state, _, _ = store.create("buraco", "Race", pairs(8), [{"movement": "mitchell"}] * 2)
    answers, gate = [], threading.Barrier(4)

    def seat():
        gate.wait()
        try:
            answers.append(len(store.next_round(state["id"])["rounds"]))
        except RefereeError as error:
            answers.append(error.code)

    threads = [threading.Thread(target=seat) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers, key=str) == [1, "round_open", "round_open", "round_open"]
    assert len(store.state(state["id"])["rounds"]) == 1


def test_readers_arriving_together_share_one_state_and_each_sees_the_changes_made_before_it_asked(ledger,
                                                                                                  monkeypatch):
    from referee.tournament import store as store_module

    tournament_id, _ = seated(ledger, 40)
    store, built, real = Tournaments(ledger), [], store_module.read_state
    monkeypatch.setattr(store_module, "read_state", lambda *args: built.append(1) or real(*args))
    before = store.state(tournament_id)
    ledger.append(before["rounds"][0]["tables"][0]["table_id"], DEAL)  # made before every reader below asks
    states = []
    readers = [threading.Thread(target=lambda: states.append(store.state(tournament_id))) for _ in range(12)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert len(states) == 12 and all(s["revision"] == before["revision"] + 1 for s in states)
    assert len(built) <= 3  # the first state, then one or two for twelve readers instead of twelve
