"""The SQLite writers' queue (``referee/store/database.py``: ``WriteQueue``): a writer waits for the one before it, whether
that one is a thread of its process or another process, and goes on as soon as it is done; nested, it never waits
for itself; PostgreSQL has none (its row locks queue a table's writers)."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from referee.store.database import WriteQueue, write_queue
from referee.store import Ledger

HOLD = """
import fcntl, sys
handle = open(sys.argv[1], "ab")
fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


def enter_in_thread(queue) -> tuple:
    """A thread that enters ``queue`` and leaves at once: (the thread, the event set once it entered)."""
    entered = threading.Event()

    def write():
        with queue:
            entered.set()
    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread, entered


def test_a_thread_waits_for_the_writer_before_it_and_goes_on_once_it_is_done(tmp_path):
    queue = WriteQueue(str(tmp_path / "db.sqlite3-writer"))
    with queue:
        thread, entered = enter_in_thread(queue)
        assert not entered.wait(0.3), "a second writer went in while the first was writing"
    assert entered.wait(10)
    thread.join(10)


@pytest.mark.skipif(sys.platform == "win32", reason="flock: the processes' queue is POSIX's")
def test_a_process_waits_for_a_writer_of_another_process(tmp_path):
    path = tmp_path / "db.sqlite3-writer"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        thread, entered = enter_in_thread(WriteQueue(str(path)))
        assert not entered.wait(0.3), "a writer went in while another process was writing"
        holder.stdin.write("done\n")
        holder.stdin.flush()
        assert entered.wait(10)
        thread.join(10)
    finally:
        holder.kill()
        holder.wait(10)


def test_a_writer_inside_a_write_does_not_wait_for_itself(tmp_path):
    queue = WriteQueue(str(tmp_path / "db.sqlite3-writer"))
    with queue:
        with queue:
            pass
        thread, entered = enter_in_thread(queue)
        assert not entered.wait(0.2), "the outer write still holds the queue"
    assert entered.wait(10)
    thread.join(10)


def test_each_database_has_its_queue(tmp_path):
    assert isinstance(write_queue("postgresql+psycopg://u@h/db"), contextlib.nullcontext)
    assert write_queue("sqlite://").path is None  # in memory: this process's threads only
    assert write_queue(f"sqlite:///{tmp_path / 'x.sqlite3'}").path == str(tmp_path / "x.sqlite3") + "-writer"


def test_many_writers_at_once_are_all_stored(tmp_path):
    """Eight threads appending to their tables at once on SQLite: every entry stored, in order, none refused."""
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    ledger.init_db()
    tables = [ledger.create_table("brisca", ["Ana", "Bo"])[0]["id"] for _ in range(8)]
    failures = []

    def enter(table_id):
        try:
            for _ in range(5):
                ledger.append(table_id, {"type": "deal", "trump": "1O"})
                ledger.undo(table_id)
        except Exception as error:  # noqa: BLE001 — any failure is the test's
            failures.append(error)
    threads = [threading.Thread(target=enter, args=(table_id,)) for table_id in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    assert all(len(ledger.events(table_id)) == 5 and ledger.state(table_id)["revision"] == 10 for table_id in tables)
    ledger.engine.dispose()


GEVENT_WRITER = """
from gevent import monkey
monkey.patch_all()
import sys, gevent
from referee.store.database import WriteQueue

def write():
    with WriteQueue(sys.argv[1]):
        print("wrote", flush=True)

def alive():
    print("alive", flush=True)

writer = gevent.spawn(write)
gevent.sleep(0)  # the writer asks first and waits for the holder
gevent.spawn(alive).join()
writer.join()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock: the processes' queue is POSIX's")
def test_a_served_worker_waiting_for_another_process_writer_still_serves_its_other_greenlets(tmp_path):
    """A gevent worker whose writer waits for another process's write goes on with its other greenlets (its phones,
    its streams): here the holder lets go only once the waiting worker has said it is alive, so a worker stopped by
    its wait never gets there."""
    path = tmp_path / "db.sqlite3-writer"
    with held_lock(path) as (holder, started):
        worker = started(GEVENT_WRITER)
        first = read_line(worker, 60)
        assert first == "alive", "the worker stopped whole while another process was writing"
        say(holder, "done")
        assert read_line(worker, 60) == "wrote"
        assert worker.wait(60) == 0


GIVEN_UP = """
from gevent import monkey
monkey.patch_all()
import fcntl, sys, gevent
from referee.store.database import WriteQueue

def write():
    with WriteQueue(sys.argv[1]):
        print("wrote", flush=True)

writer = gevent.spawn(write)
gevent.sleep(0)  # the writer asks and waits for the holder in a thread
print("waiting", flush=True)
writer.kill(TimeoutError("the request's deadline"), block=False)  # the greenlet is killed while it waits
sys.stdin.readline()  # the holder let go meanwhile
writer.join()
print("given up" if isinstance(writer.exception, TimeoutError) else "wrote anyway", flush=True)
with open(sys.argv[1], "ab") as other:  # another process's writer (its own handle): the lock is free for it
    fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
print("free", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock: the processes' queue is POSIX's")
def test_a_writer_given_up_while_it_waits_for_another_process_leaves_the_lock_free(tmp_path):
    """A served worker's writer killed while its thread waits for another process's lock (its deadline, its phone
    gone) lets the lock go once the thread has it: another writer then takes it at once (LOCK_NB), where it used
    to find it held by nobody's write for as long as the worker lived."""
    path = tmp_path / "db.sqlite3-writer"
    with held_lock(path) as (holder, started):
        worker = started(GIVEN_UP)
        assert read_line(worker, 60) == "waiting"
        say(holder, "done")
        assert holder.wait(60) == 0
        say(worker, "go")
        assert read_line(worker, 60) == "given up"
        assert read_line(worker, 60) == "free", worker.stderr.read()[-2000:] if worker.poll() is not None else ""
        assert worker.wait(60) == 0


LOCKED = """
from gevent import monkey
monkey.patch_all()
import fcntl, sys, gevent
from referee.store import database
from referee.store.database import WriteQueue

queue = WriteQueue(sys.argv[1])
held_in_work, flags = [], []
made = database._os_event
database._os_event = lambda: flags.append(made()) or flags[-1]  # the thread's "given up" flag, seen from here

def work(word):
    with open(sys.argv[1], "ab") as other:  # the work runs holding the lock: another handle cannot take it
        try:
            fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held_in_work.append(True)
    return word

def write(word):
    with queue.turn():
        return queue.locked(work, word)

writer = gevent.spawn(write, "wrote")
gevent.sleep(0)  # the writer's thread waits for the holder
print("alive", flush=True)
if sys.stdin.readline().strip() == "give up":
    writer.kill(TimeoutError("the request's deadline"), block=False)
    while not flags[0].is_set():  # the writer told its thread before the holder lets go
        gevent.sleep(0.01)
print("told", flush=True)
writer.join()
print(writer.value if writer.successful() else "given up", held_in_work, flush=True)
with open(sys.argv[1], "ab") as other:  # another process's writer (its own handle): the lock is free for it
    fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
print("free", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock: the processes' queue is POSIX's")
@pytest.mark.parametrize("given_up", [False, True], ids=["written", "given-up"])
def test_a_write_waiting_for_another_process_is_done_by_the_thread_that_gets_the_lock(tmp_path, given_up):
    """``WriteQueue.locked`` in a served worker, another process writing: the worker's other greenlets go on; once
    the lock is free the pool's thread takes it, does the work holding it and lets it go, the greenlet answered
    after. A writer given up meanwhile never begins its work, and leaves the lock free all the same."""
    path = tmp_path / "db.sqlite3-writer"
    with held_lock(path) as (holder, started):
        worker = started(LOCKED)
        assert read_line(worker, 60) == "alive", "the worker stopped whole while another process was writing"
        say(worker, "give up" if given_up else "wait")
        assert read_line(worker, 60) == "told"
        say(holder, "done")
        assert read_line(worker, 60) == ("given up []" if given_up else "wrote [True]")
        assert read_line(worker, 60) == "free", worker.stderr.read()[-2000:] if worker.poll() is not None else ""
        assert worker.wait(60) == 0


@contextlib.contextmanager
def held_lock(path: Path):
    """Another process holding the writers' lock of ``path`` (it lets go at a line on its stdin), and
    ``started(script)``: a process of ``script`` (a gevent worker's writer) on the same lock; every process killed at
    the end."""
    root, processes = str(Path(__file__).resolve().parents[1]), []

    def started(script: str) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-c", script, str(path)], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root)
        processes.append(process)
        return process
    try:
        holder = started(HOLD)
        assert holder.stdout.readline().strip() == "held"
        yield holder, started
    finally:
        for process in processes:
            process.kill()
            process.wait(10)


def say(process: subprocess.Popen, line: str) -> None:
    process.stdin.write(line + "\n")
    process.stdin.flush()


def read_line(process, seconds: float) -> str:
    """The process's next line, or "" when none came within ``seconds`` (a stopped process says nothing)."""
    got = []
    reader = threading.Thread(target=lambda: got.append(process.stdout.readline().strip()), daemon=True)
    reader.start()
    reader.join(seconds)
    return got[0] if got else ""
