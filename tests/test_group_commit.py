"""SQLite's group commit (issue 40, ``referee/store/entry_write.py``: ``EntryWrite._together``): the entries of a
process waiting to be written at once are stored by one transaction, one wait for the disk; each is answered with
its own result (a retried ``client_event_id`` answered again and stored once, the others kept); an entry whose
writer is given up before the transaction is never stored, and the others are stored all the same."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from referee.store import Ledger
from tests.support.deals import DEAL_4P
from tests.support.ledgers import new
from tests.support.statements import Recorded
from tests.support.waiting import until

DEAL = {"type": "deal", "trump": "11E"}
TRICK = {"type": "trick", "cards": DEAL_4P[0][0]}
TRICKS = [{"type": "trick", "cards": cards} for cards, _winner, _points in DEAL_4P[:4]]
ROOT = Path(__file__).resolve().parents[1]


def sqlite_ledger(tmp_path) -> Ledger:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    ledger.init_db()
    return ledger


def dealt(ledger, count: int, client_event_id=None) -> list:
    """``count`` tables, each dealt (its state in this process's cache: its next entry takes the short way)."""
    tables = []
    for _ in range(count):
        table_id, scorer, _ = new(ledger)
        ledger.append(table_id, DEAL, key=scorer, client_event_id=client_event_id)
        tables.append((table_id, scorer))
    return tables


def waiting(ledger) -> int:
    return len(ledger._entry_write._waiting_here())


def test_entries_waiting_together_are_stored_by_one_transaction_each_answered_its_own(tmp_path):
    """Three tables' tricks and a fourth whose ``client_event_id`` its table stored already (with its deal) wait
    while another writer of the process holds the queue: one BEGIN IMMEDIATE … COMMIT stores the three (each in a
    savepoint); the fourth's savepoint alone is undone, and it is answered 200 with its table as it is, nothing of
    it stored (the contract: an id already seen stores nothing)."""
    ledger = sqlite_ledger(tmp_path)
    tables = dealt(ledger, 3) + dealt(ledger, 1, client_event_id="sent-twice")
    retried_id, retried_key = tables[3]
    answers, threads = {}, []

    def enter(table_id, key, client_event_id):
        status, state = ledger.append(table_id, TRICK, key=key, client_event_id=client_event_id)
        answers[table_id] = (status, state["revision"])

    recorded = Recorded(ledger)
    try:
        with ledger._queue:  # another writer of this process: the entries wait for its turn to end
            for number, (table_id, key) in enumerate(tables[:3]):
                threads.append(threading.Thread(target=enter, args=(table_id, key, f"t-{number}"), daemon=True))
            threads.append(threading.Thread(target=enter, args=(retried_id, retried_key, "sent-twice"), daemon=True))
            for number, thread in enumerate(threads, 1):
                thread.start()  # one at a time, in order: the first leads
                until(lambda: waiting(ledger) == number or not thread.is_alive(), 30, what=f"entry {number} waiting")
            assert waiting(ledger) == 4
        for thread in threads:
            thread.join(30)
        statements = list(recorded.statements)
    finally:
        recorded.close()
    assert answers == {tables[0][0]: (201, 2), tables[1][0]: (201, 2), tables[2][0]: (201, 2), retried_id: (200, 1)}
    assert statements.count("BEGIN IMMEDIATE") == 1, statements  # one write transaction for the four
    begin = statements.index("BEGIN IMMEDIATE")
    group = [s.split()[0] for s in statements[begin + 1:statements.index("COMMIT", begin)]]
    assert group == ["SAVEPOINT", "UPDATE", "INSERT", "RELEASE"] * 3 + \
        ["SAVEPOINT", "UPDATE", "INSERT", "ROLLBACK", "RELEASE"], group  # the retry's savepoint alone undone
    for table_id, _ in tables[:3]:
        assert [(e["seq"], e["type"]) for e in ledger.events(table_id)] == [(1, "deal"), (2, "trick")]
    assert [(e["seq"], e["type"]) for e in ledger.events(retried_id)] == [(1, "deal")]
    ledger.engine.dispose()


DEALT_UNDER_GEVENT = """
from gevent import monkey
monkey.patch_all()
import fcntl, sys, gevent
sys.path.insert(0, sys.argv[2])
from referee.store import Ledger, database
from tests.support.deals import DEAL_4P
from tests.support.ledgers import new

flags, made = [], database._os_event
database._os_event = lambda: flags.append(made()) or flags[-1]  # a writer's thread's "given up" flag, seen here
ledger = Ledger("sqlite:///" + sys.argv[1])
ledger.init_db()
tables = []
for _ in range(int(sys.argv[3])):
    table_id, scorer, _ = new(ledger)
    ledger.append(table_id, {"type": "deal", "trump": "11E"}, key=scorer)
    tables.append((table_id, scorer))
trick = {"type": "trick", "cards": DEAL_4P[0][0]}
"""


def under_gevent(script: str, tmp_path, tables: int) -> list:
    """``script`` run in a process gevent patched (a served worker's), after ``DEALT_UNDER_GEVENT``: its ``ledger``
    on a new SQLite file with ``tables`` tables dealt; the lines it printed."""
    done = subprocess.run([sys.executable, "-c", DEALT_UNDER_GEVENT + script, str(tmp_path / "ledger.sqlite3"),
                           str(ROOT), str(tables)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


GIVEN_UP = """
with ledger._queue:  # another writer's turn: the three entries wait, the first of them to lead
    writers = [gevent.spawn(ledger.append, table_id, trick, key=key) for table_id, key in tables]
    while len(ledger._entry_write._waiting_here()) < 3:
        gevent.sleep(0.01)
    writers[0].kill(TimeoutError("the request's deadline"))  # the leader, given up before its turn
gevent.joinall(writers, timeout=30)
print([w.value[0] if w.successful() else type(w.exception).__name__ for w in writers])
print([len(ledger.events(table_id)) for table_id, _ in tables])
"""


def test_an_entry_given_up_before_its_turn_is_never_stored_and_the_others_are(tmp_path):
    """Under gevent (a served worker), the entry that was to lead is killed while it waits for the turn: its
    trick is never stored; the lead passes to the next entry, which stores its own and the third's."""
    assert under_gevent(GIVEN_UP, tmp_path, 3) == ["['TimeoutError', 201, 201]", "[1, 2, 2]"]


def test_many_entries_at_once_are_each_stored_once_and_in_order(tmp_path):
    """Twelve threads enter a deal's first four tricks on their tables at once, each table by its one phone: every
    trick is answered 201 and stored once, in order, whichever transaction took it."""
    ledger = sqlite_ledger(tmp_path)
    tables = dealt(ledger, 12)
    failures, barrier = [], threading.Barrier(len(tables))

    def enter(table_id, key):
        try:
            barrier.wait(30)
            for number, trick in enumerate(TRICKS):
                status, _ = ledger.append(table_id, trick, key=key, client_event_id=f"{table_id}-{number}")
                assert status == 201
        except Exception as error:  # noqa: BLE001 — any failure is the test's
            failures.append(error)

    threads = [threading.Thread(target=enter, args=table, daemon=True) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    for table_id, _ in tables:
        assert [(e["seq"], e.get("client_event_id")) for e in ledger.events(table_id)] == \
            [(1, None)] + [(n + 2, f"{table_id}-{n}") for n in range(4)]
    ledger.engine.dispose()


KILLED_IN_GROUP = """
writes = ledger._entry_write
other = open(sys.argv[1] + "-writer", "ab")  # another process's writer holds the file's lock
fcntl.flock(other.fileno(), fcntl.LOCK_EX)
with ledger._queue.turn():  # another writer of this process has its turn, while A, B and C come to wait
    a, b, c = [gevent.spawn(ledger.append, t, trick, key=k) for t, k in tables[:3]]
    while len(writes._waiting_here()) < 3:
        gevent.sleep(0.01)
while writes._waiting_here() or not flags:  # A leads, took [A, B, C]; its thread waits for the file's lock
    gevent.sleep(0.01)
b.kill(TimeoutError("B's deadline"))  # B given up while in A's group
a.kill(TimeoutError("A's deadline"), block=False)  # then A, while its thread waits
while not flags[0].is_set():
    gevent.sleep(0.01)
fcntl.flock(other.fileno(), fcntl.LOCK_UN)  # the other process lets go: A's thread begins nothing
d = gevent.spawn(ledger.append, tables[3][0], trick, key=tables[3][1])
gevent.joinall([a, c, d], timeout=30)
print([w.value[0] if w.successful() else type(w.exception).__name__ if w.ready() else "stuck" for w in (a, b, c, d)])
print([len(ledger.events(t)) for t, _ in tables])
"""


def test_a_leader_and_an_entry_of_its_group_given_up_strand_nobody(tmp_path):
    """Under gevent: A leads a group of A, B and C while another process holds the file's lock; B is given up, then
    A. Neither is stored; C is put back and written by the next lead, and D, coming after, too: no entry is left
    waiting for a lead passed to an entry whose writer is gone."""
    assert under_gevent(KILLED_IN_GROUP, tmp_path, 4) == ["['TimeoutError', 'TimeoutError', 201, 201]",
                                                          "[1, 1, 2, 2]"]
