"""A table's state after N entries applied one by one (the replay cache's way: ``Game.apply`` steps a fork,
an undo starts again from the open deal's checkpoint) equals its events in force replayed from scratch — for every
game, over recorded series and random ones, with undos wherever hypothesis puts them. Checked through real Ledgers
(two with their own caches writing in turns, as two processes do, and one that keeps nothing) and through the pure
functions; a write's brief answer is the whole state with ``tricks_count`` in place of the tricks of complete deals
(docs/api.md); and a state or an answer once given never changes afterwards."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from referee.errors import RefereeError, RuleError
from referee.games import get_game
from referee.store import Ledger
from referee.games.base import fork
from referee.store.state_cache import checkpoint_after
from tests.support.deals import (BURACO_DEAL, BURACO_HAND, DEAL_A, DEAL_B, HAND_4P_A, HAND_4P_B, PILE_44, PILE_46,
                                 PILE_55, PILE_64, PILE_76)
from tests.support.series import SERIES as MEMORY_SERIES
from tests.support.simulate import brisca_deal, brulot_deal, brusquembille_deal

EXAMPLES = int(os.environ.get("INCREMENTAL_EXAMPLES", "20"))  # per database (the pure functions: twice as many)
CHECKED = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("FUZZ_RANDOM"),
                   database=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
PURE = settings(CHECKED, max_examples=2 * EXAMPLES)
OWN = ("id", "revision", "rematch", "rematch_of")  # the ledger's fields beside the engine's
PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]
RECORDED = [json.loads(path.read_text()) for path in sorted((Path(__file__).parent / "recorded").glob("*.json"))]


# --- the series: recorded ones, and random ones played to the rules ----------------------------------------------

def recorded_series() -> list:
    """(game, players, options, dealer, entries): tests/recorded/*.json and the series of tests/test_memory.py (every
    game, every kind of entry: tricks, tallies, captures, announces, melds, pots, counts)."""
    found = [(r["game"], r["players"], r["options"], r["dealer"], r["events"]) for r in RECORDED]
    return found + [(game, players, options, 0, entries) for game, players, options, entries in MEMORY_SERIES]


def trick_list(cards_list) -> list:
    return [{"type": "trick", "cards": cards} for cards in cards_list]


def _brisca(rng, game, table):
    dealer = game.next_dealer(table)
    points = rng.choice([[70, 50], [50, 70], [90, 30], [31, 89]])
    return [brisca_deal(len(table.players), dealer, rng.randrange(10**6)),
            [{"type": "deal", "trump": "11E"}, {"type": "tally", "points": points}]]


def _brulot(rng, game, table):
    events, penalties, _ = brulot_deal(len(table.players), game.next_dealer(table), rng.randrange(10**6),
                                       "dealer_last_card")
    by_numbers = [events[0], {"type": "tally", "penalties": penalties}]
    return [events, by_numbers] if rng.random() < 0.7 else [by_numbers, events]


def _brusquembille(rng, game, table):
    return [brusquembille_deal(len(table.players), game.next_dealer(table), rng.randrange(10**6))]


def _brouc(rng, game, table):
    dealer = game.next_dealer(table)  # the dealer takes trick 1 of DEAL_B (the last card, AS) and announces
    by_tricks = [{"type": "deal", "trump": "AH"}, *trick_list(DEAL_A)]
    announced = [{"type": "deal", "trump": "KH"}, *trick_list(DEAL_B[:1]),
                 {"type": "announce", "player": dealer, "cards": ["KH", "QH"]}, *trick_list(DEAL_B[1:])]
    pile = [{"type": "deal", "trump": "7D"}, {"type": "capture", "side": rng.randrange(2),
                                              "cards": rng.choice([PILE_44, PILE_46, PILE_55, PILE_64, PILE_76])}]
    return rng.sample([by_tricks, announced, pile], 3)


def _buraco(rng, game, table):
    hands = [BURACO_HAND, [BURACO_DEAL, *HAND_4P_A[0]], [BURACO_DEAL, *HAND_4P_B[0]], [BURACO_DEAL, HAND_4P_A[1]],
             [BURACO_DEAL, HAND_4P_B[1]]]
    return rng.sample(hands, len(hands))


RANDOM = {  # game -> (players, options, deals at most, the deals to choose from)
    "brisca": ([PLAYERS4, PLAYERS4[:2]], {"wins_needed": 5}, 8, _brisca),
    "brulot": ([PLAYERS4, PLAYERS4[:3]], {"deals": 5}, 6, _brulot),
    "brusquembille": ([PLAYERS4, PLAYERS4[:3]], {"deals": 3}, 3, _brusquembille),
    "brouc": ([PLAYERS4], {"coches_to_lose": 2}, 8, _brouc),
    "buraco": ([PLAYERS4], {"target": 1500}, 8, _buraco),
}


def compose(game_id: str, seed: int, seats: int, dealer: int) -> tuple:
    """A random legal series of ``game_id``: deal after deal, the first candidate the engine takes (the others are
    what a later deal of the series may be), until the series is over or long enough."""
    choices, options, most, candidates = RANDOM[game_id]
    players = choices[seats % len(choices)]
    dealer %= len(players)
    rng, game = random.Random(seed), get_game(game_id)
    table, entries = game.new_table(players, options, dealer), []
    for _ in range(most):
        for block in candidates(rng, game, table):
            trial = fork(table)
            try:
                for body in block:
                    game.step(trial, game.parse_event(trial, body))
            except RefereeError:
                continue
            table, entries = trial, entries + block
            break
        if table.finished:
            break
    assert entries, f"no deal of {game_id} was taken"
    return game_id, players, options, dealer, entries


SOURCES = st.one_of(
    st.sampled_from(recorded_series()),
    st.builds(compose, st.sampled_from(sorted(RANDOM)), st.integers(0, 2**32), st.integers(0, 1), st.integers(0, 5)),
)
# What happens at the table: entries (a few at once), undos (a few in a row), reads; by ledger A or B (two processes),
# answered brief or whole.
ADD_MANY = st.tuples(st.just("add"), st.integers(4, 16), st.integers(0, 1), st.booleans())
STEP = st.one_of(
    ADD_MANY, ADD_MANY,
    st.tuples(st.just("add"), st.integers(1, 4), st.integers(0, 1), st.booleans()),
    st.tuples(st.just("undo"), st.integers(1, 3), st.integers(0, 1), st.booleans()),
    st.tuples(st.just("read"), st.just(1), st.integers(0, 1), st.booleans()),
)
STEPS = st.lists(STEP, min_size=1, max_size=30)


# --- what a state should be -------------------------------------------------------------------------------------

def from_scratch(game_id, players, options, dealer, in_force) -> dict:
    game = get_game(game_id)
    return game.serialise(game.replay(players, options, dealer, in_force))


def brief_of(state: dict) -> dict:
    """docs/api.md: a write's state leaves out the ``tricks`` of complete deals and gives ``tricks_count`` instead;
    every other field as it is."""
    deals = []
    for deal in state["deals"]:
        if deal["complete"] and "tricks" in deal:
            deal = {**{k: v for k, v in deal.items() if k != "tricks"}, "tricks_count": len(deal["tricks"])}
        deals.append(deal)
    return {**state, "deals": deals}


def tell(what: str) -> None:
    """A hypothesis event (its statistics: pytest --hypothesis-show-statistics); nothing outside a given test."""
    try:
        event(what)
    except InvalidArgument:
        pass


def frozen(value) -> str:
    return json.dumps(value, sort_keys=True)


# --- through Ledgers ----------------------------------------------------------------------------------------------

@pytest.fixture
def ledgers(ledger):
    """Ledger A (the ``ledger`` fixture: SQLite in tmp_path, or PostgreSQL), B on the same database with its own cache
    (another process), and C keeping nothing (every read a replay of the log)."""
    other, bare = Ledger(ledger.url), Ledger(ledger.url, cache_mb=0)
    yield ledger, other, bare
    other.engine.dispose()
    bare.engine.dispose()


class Table:
    """One table played through the ledgers, every answer checked against a replay from scratch."""

    def __init__(self, ledgers, game_id, players, options, dealer, entries, every: int = 1):
        self.ledgers, self.bare, self.every = ledgers[:2], ledgers[2], every  # the bare ledger asked every n writes
        self.game_id, self.players, self.options, self.dealer, self.entries = game_id, players, options, dealer, entries
        state, _, _ = self.ledgers[0].create_table(game_id, players, options, dealer)
        self.id, self.revision, self.in_force = state["id"], 0, []
        self.last_writer = 0
        self.given = [(state, frozen(state))]  # every answer, as it was when given
        self.tables = []  # (engine state a ledger holds, its document then)
        self.check(state, brief=False)

    def expected(self) -> dict:
        """The events in force replayed from scratch, with the ledger's own fields."""
        return {"id": self.id, "revision": self.revision,
                **from_scratch(self.game_id, self.players, self.options, self.dealer, self.in_force),
                "rematch": None, "rematch_of": None}

    def check(self, answer: dict, brief: bool) -> None:
        whole = self.expected()
        where = f"{self.game_id} after {self.in_force[-3:]} ({len(self.in_force)} in force, revision {self.revision})"
        assert answer == (brief_of(whole) if brief else whole), where
        if self.revision % self.every:
            return
        assert self.bare.state(self.id) == whole, where  # another process, nothing cached: the log replayed
        assert self.bare.state(self.id, brief=True) == brief_of(whole), where

    def add(self, who: int, brief: bool) -> None:
        body = self.entries[len(self.in_force)]
        status, answer = self.ledgers[who].append(self.id, body, brief=brief)
        assert status == 201
        self.wrote(who)
        self.in_force.append(body)
        self.revision += 1
        self.given.append((answer, frozen(answer)))
        self.check(answer, brief)

    def undo(self, who: int, brief: bool) -> None:
        if not self.in_force:
            with pytest.raises(RuleError) as refused:
                self.ledgers[who].undo(self.id, brief=brief)
            assert refused.value.code == "nothing_to_undo"
            assert self.bare.state(self.id) == self.expected()  # the refusal changed nothing, revision included
            return
        answer = self.ledgers[who].undo(self.id, brief=brief)
        if self.in_force.pop()["type"] == "deal":
            tell("an undo withdraws a deal's start")
        self.wrote(who)
        self.revision += 1
        self.given.append((answer, frozen(answer)))
        self.check(answer, brief)

    def wrote(self, who: int) -> None:
        if who != self.last_writer:
            tell("a write after the other process's")
        self.last_writer = who

    def read(self, who: int, brief: bool) -> None:
        state, table = self.ledgers[who].snapshot(self.id)
        assert state == self.expected()
        self.check(self.ledgers[who].state(self.id, brief=brief), brief)
        self.tables.append((table, frozen(get_game(self.game_id).serialise(table))))

    def play(self, steps) -> None:
        for action, times, who, brief in steps:
            for _ in range(times):
                if action == "add" and len(self.in_force) == len(self.entries):
                    break
                getattr(self, action)(who, brief)

    def nothing_changed(self) -> None:
        """Every answer given and every engine state read stay as they were, whatever came after them."""
        for number, (answer, then) in enumerate(self.given):
            assert frozen(answer) == then, f"answer {number} changed afterwards"
        game = get_game(self.game_id)
        for number, (table, then) in enumerate(self.tables):
            assert frozen(game.serialise(table)) == then, f"engine state {number} changed afterwards"


@pytest.mark.slow  # hypothesis through two ledgers: 15 to 20 s
@CHECKED
@given(series=SOURCES, steps=STEPS)
def test_entries_and_undos_through_two_ledgers_answer_what_a_replay_from_scratch_gives(ledgers, series, steps):
    table = Table(ledgers, *series)
    tell(f"{series[0]}, {'recorded' if any(series[4] is r[4] for r in recorded_series()) else 'random'}")
    table.play(steps)
    tell(f"deals reached: {max(len(a['deals']) for a, _ in table.given)}")
    table.nothing_changed()


@pytest.mark.parametrize("series", recorded_series(), ids=lambda s: s[0])
def test_every_recorded_series_entered_whole_then_undone_to_nothing_answers_a_replay_each_time(ledgers, series):
    """Each entry of a recorded series, alternately by two processes, then every undo (crossing each deal's start,
    where the checkpoint runs out), answers the replay of the events in force."""
    table = Table(ledgers, *series, every=3)
    table.play([("add", 1, number % 2, number % 4 != 0) for number in range(len(series[4]))])
    table.read(1, True)
    assert len(table.in_force) == len(series[4])
    for number in range(len(series[4])):
        table.undo(number % 2, number % 3 != 0)
    assert table.in_force == [] and table.revision == 2 * len(series[4])
    table.undo(0, True)  # nothing left to undo
    assert table.bare.state(table.id) == table.expected()
    table.nothing_changed()


# --- through the pure functions -----------------------------------------------------------------------------------

class Pure:
    """The ledger's way without a database: ``Game.apply`` for an entry, the checkpoint for an undo (as
    Ledger.undo)."""

    def __init__(self, game_id, players, options, dealer, entries):
        self.game, self.args, self.entries = get_game(game_id), (players, options, dealer), entries
        self.state, self.checkpoint, self.in_force = self.game.new_table(players, options, dealer), None, []
        self.made = [(self.state, frozen(self.game.serialise(self.state)))]

    def check(self, undone: bool = False) -> None:
        whole = self.game.serialise(self.state)
        assert whole == self.game.serialise(self.game.replay(*self.args, self.in_force)), len(self.in_force)
        assert self.game.brief(self.state, whole) == brief_of(whole)
        if undone:  # a whole log replayed with its checkpoint, as a process that has none does
            again, checkpoint = self.replayed()
            assert self.game.serialise(again) == whole
            if checkpoint is not None:
                assert checkpoint.version == max(n for n, body in enumerate(self.in_force) if body["type"] == "deal")
        self.made.append((self.state, frozen(whole)))

    def replayed(self) -> tuple:
        """(state, checkpoint) of the log in force replayed from a new table, as a process that has none does."""
        return self.game.replay_from(self.game.new_table(*self.args), self.in_force)

    def add(self) -> None:
        before = self.state
        body = self.entries[len(self.in_force)]
        self.state = self.game.apply(before, self.game.parse_event(before, body))
        self.checkpoint = checkpoint_after(before, self.state, self.checkpoint)
        self.in_force.append(body)
        self.check()

    def undo(self) -> None:
        self.in_force.pop()
        if self.checkpoint is not None and self.checkpoint.version <= len(self.in_force):
            newer = self.in_force[self.checkpoint.version:]
            self.state, self.checkpoint = self.game.replay_from(self.checkpoint, newer, shared=True)
        else:
            self.state, self.checkpoint = self.replayed()
        self.check(undone=True)


@PURE
@given(series=SOURCES, steps=STEPS)
def test_apply_and_the_checkpoint_give_what_a_replay_from_scratch_gives(series, steps):
    pure = Pure(*series)
    for action, times, _, _ in steps:
        for _ in range(times):
            if (action == "add" and len(pure.in_force) < len(pure.entries)) or (action == "undo" and pure.in_force):
                getattr(pure, action)()
    for number, (state, then) in enumerate(pure.made):
        assert frozen(pure.game.serialise(state)) == then, f"state {number} changed afterwards"


# --- nothing once given changes -----------------------------------------------------------------------------------

def test_a_cached_state_and_the_answers_made_from_it_never_change_with_later_entries(ledgers):
    """A Brûlot table of three deals and an open one: each answer (its finished deals' documents are the ones kept on
    the deals, shared with every later answer) and each cached engine state stay as they were while entries, undos
    across a deal's start, and another process's entries follow."""
    first, other, _ = ledgers
    entries = [e for deal in range(4) for e in brulot_deal(4, deal % 4, 70 + deal, "dealer_last_card")[0]]
    created, _, _ = first.create_table("brulot", PLAYERS4, {"deals": 10})
    table_id, game, kept = created["id"], get_game("brulot"), []
    for number, body in enumerate(entries[:45]):
        status, answer = first.append(table_id, body, brief=number % 2 == 0)
        state, cached = first.snapshot(table_id)
        assert status == 201 and cached is first._cache.get(table_id, number + 1)  # the very state kept
        kept.append((answer, frozen(answer), state, frozen(state), cached, frozen(game.serialise(cached))))
    assert [d["complete"] for d in kept[-1][2]["deals"]] == [True, True, True, False]
    shared = kept[-1][2]["deals"][0]
    assert kept[-2][2]["deals"][0] is shared  # one document for a finished deal, in every answer that shows it
    for _ in range(4):  # back across the fourth deal's start: its checkpoint, then a replay
        first.undo(table_id, brief=True)
    for body in entries[41:50]:
        other.append(table_id, body)
    first.append(table_id, entries[50], brief=False)
    for number, (answer, answered, state, stated, cached, then) in enumerate(kept):
        assert frozen(answer) == answered, f"answer {number} changed"
        assert frozen(state) == stated, f"state {number} changed"
        assert frozen(game.serialise(cached)) == then, f"cached engine state {number} changed"
    final = first.state(table_id)
    assert final == {"id": table_id, "revision": 45 + 4 + 9 + 1,
                     **from_scratch("brulot", PLAYERS4, {"deals": 10}, 0, entries[:51]), "rematch": None,
                     "rematch_of": None}
