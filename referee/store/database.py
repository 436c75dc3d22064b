"""How the ledger connects: PostgreSQL through psycopg 3, SQLite with the pragmas that make a 2xx answer durable.

On SQLite a write's transaction is ``BEGIN IMMEDIATE`` (a connection of ``engine.execution_options(referee_write=
True)``): it takes the database's write lock before its first read, waiting up to ``busy_timeout`` for another
writer. A deferred transaction that read first could not become a write once another connection had written
meanwhile, and would fail at once with "database is locked". Reads stay deferred: in WAL mode they never wait.

SQLite's own wait for its write lock is a poll: a writer that finds it taken sleeps 1, 2, 5 … then 100 ms between
tries, so that under fifty scorers at once some waited a second while the lock was free most of the time. The
ledger's writers therefore queue before they begin (``WriteQueue``): the threads of a process on a lock, the
processes on an advisory lock of a file beside the database (``flock``), each woken as soon as the one before it is
done; SQLite's lock is then free when they ask it. A served worker (gevent) waits for another process's writer in
a thread of gevent's pool, never in its own one thread: its other requests and streams go on meanwhile. An entry's
short way (``entry_write.py``) takes the file's lock for its statements alone (``WriteQueue.locked``): when it has
to wait, the thread that gets the lock writes and lets it go, so that it passes from process to process the moment
it is free. The queue only orders writers: SQLite's lock still guards the database, for any other program too.

Durability: ``synchronous=FULL`` in WAL mode, so a write answered 2xx is on disk before the answer, through a
process crash and a power loss alike (``NORMAL`` would survive the first only).
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlmodel import create_engine

try:
    import fcntl
except ImportError:  # Windows: the threads of the one process queue; SQLite orders the rest
    fcntl = None


def database_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (as hosts write them) go through psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


POOL_SIZE = 15  # a process's connections at most, each kept once opened (``REFEREE_POOL_SIZE``: ``pool_size``)


def pool_size() -> int:
    """A process's pool: ``REFEREE_POOL_SIZE`` connections (15 unset), each opened when first needed and then kept;
    a request that finds them all lent waits for one (up to SQLAlchemy's 30 s). SQLAlchemy's default, 5 kept and
    10 more opened for a moment, closed each 'overflow' connection as soon as it was lent back: under 50 scorers a
    worker's 25 phones opened and closed a PostgreSQL connection (a server process forked and authenticated) for
    most entries, a third of the machine's CPU, and 370 entries a second became 606 with the 15 kept. The same 15
    at most as before, so a server's count against PostgreSQL's ``max_connections`` is unchanged."""
    value = os.environ.get("REFEREE_POOL_SIZE", "").strip()
    return max(1, int(value)) if value.isdigit() else POOL_SIZE


def connect(url: str):
    """The SQLAlchemy engine of ``url`` (already through ``database_url``), its pool ``pool_size()`` kept."""
    kept = {"pool_size": pool_size(), "max_overflow": 0}
    if not url.startswith("sqlite"):
        return ping_when_idle(create_engine(url, **kept))
    in_memory = make_url(url).database in (None, "", ":memory:")  # one connection a thread: SQLAlchemy's own pool
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                           **({} if in_memory else kept))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # we say BEGIN ourselves (SQLAlchemy's pysqlite recipe)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a 2xx answer means the event is on disk
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        write = connection.get_execution_options().get("referee_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


PING_AFTER_IDLE = 1.0  # seconds a pooled connection rested before it is tried again (``ping_when_idle``)


def ping_when_idle(engine):
    """A pooled PostgreSQL connection is tried (``SELECT 1``) before it is lent again only when it rested more than
    ``PING_AFTER_IDLE`` seconds; a dead one is replaced by a new one (the pool's ``DisconnectionError``), so a
    restarted database server costs no request, as with ``pool_pre_ping``, which tried every connection at every
    checkout: a round trip more for each entry, a tenth of a millisecond or more, while a connection lent back to
    back within a second is one the server answered a moment ago. Beyond that, SQLAlchemy's own handling stays:
    a connection found dead in use invalidates the pool."""
    from time import monotonic

    from sqlalchemy import exc

    @event.listens_for(engine, "checkin")
    def _rested_from(_dbapi_connection, record):
        if record is not None:
            record.info["referee_idle_since"] = monotonic()

    @event.listens_for(engine, "checkout")
    def _try_if_rested(dbapi_connection, record, _proxy):
        since = record.info.get("referee_idle_since")
        if since is None or monotonic() - since <= PING_AFTER_IDLE:
            return  # new from the server, or lent back within the second
        try:
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute("SELECT 1")
            finally:
                cursor.close()
            if not dbapi_connection.autocommit:
                dbapi_connection.rollback()  # the ping's own transaction, so the lent connection starts clean
        except Exception as error:  # noqa: BLE001 — any failure: this connection is dead, the pool makes another
            raise exc.DisconnectionError() from error

    return engine


def take_file_lock(fd: int) -> None:
    """``flock(fd, LOCK_EX)`` without stopping the process: taken at once when free; when another process holds it,
    waited for in a thread of gevent's pool where gevent patched this process (a served worker), so that the
    worker's other greenlets (its requests, its streams) go on meanwhile. A plain ``flock`` would block the worker's
    one thread, and every phone and stream it serves with it, for as long as the other process writes. A writer given
    up while it waits lets the lock go as soon as its thread has it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    pool = gevent_pool()
    if pool is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    waiting = pool.spawn(fcntl.flock, fd, fcntl.LOCK_EX)
    try:
        waiting.get()
    except BaseException:
        # Given up while the thread waits (the request's deadline, its greenlet killed): the thread still takes the
        # lock when the other process lets it go, and nobody would let it go then: every other process's writers
        # would wait for a lock no writer holds. This writer keeps its place until the thread has it, lets it go,
        # and only then gives up.
        if waited_out(waiting):
            fcntl.flock(fd, fcntl.LOCK_UN)
        raise


def waited_out(running) -> bool:
    """Waits until ``running`` (a result of gevent's pool) is done, whatever the waiting greenlet is told meanwhile
    (a deadline, a kill: the thread's work goes on all the same, and what it holds must be let go after it); whether
    it succeeded."""
    while not running.ready():
        try:
            running.wait()
        except BaseException:  # noqa: BLE001, S112 — given up again: the thread's work is still to end first
            continue
    return running.successful()


class GivenUp(Exception):
    """The writer gave up (its deadline, its greenlet killed) while its thread waited for the file's lock: the work
    was never begun."""


def _locked_here(fd: int, work, args, given_up: threading.Event):
    """In a thread of gevent's pool: the file's lock taken, ``work(*args)`` unless its writer gave up meanwhile,
    the lock let go."""
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        if given_up.is_set():
            raise GivenUp()
        return work(*args)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _os_event():
    """The flag a writer given up sets and the pool's thread reads (``is_set`` only, which takes no lock): the
    standard library's Event as gevent keeps it before patching; its lock is still gevent's, never used from the
    thread."""
    from gevent.monkey import get_original
    return get_original("threading", "Event")()


def gevent_pool():
    """gevent's pool of real threads where gevent patched this process, else None."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("threading"):
        return None
    import gevent
    return gevent.get_hub().threadpool


class WriteQueue:
    """The writers of one SQLite database, one after the other: a re-entrant lock for this process's threads, and
    for the processes an exclusive ``flock`` of ``path`` (None: an in-memory database, or no such lock here). Made
    again in a forked process, whose threads are its own. Used as ``with queue: …`` around a write transaction."""

    def __init__(self, path: str | None):
        self.path, self.pid = path, None

    def _here(self) -> None:
        if self.pid != os.getpid():
            self.pid, self.lock, self.depth, self.file = os.getpid(), threading.RLock(), 0, None

    def __enter__(self):
        self._here()
        self.lock.acquire()
        try:
            if self.depth == 0 and self.path is not None and fcntl is not None:
                if self.file is None:
                    self.file = open(self.path, "ab")  # noqa: SIM115 — kept open: the process's lock handle
                take_file_lock(self.file.fileno())
        except BaseException:
            self.lock.release()
            raise
        self.depth += 1
        return self

    def __exit__(self, *exc) -> None:
        self.depth -= 1
        try:
            if self.depth == 0 and self.file is not None:
                fcntl.flock(self.file.fileno(), fcntl.LOCK_UN)
        finally:
            self.lock.release()

    @contextlib.contextmanager
    def turn(self):
        """This process's turn among its writers (its lock) without the file's: ``locked`` takes that one, for the
        write's statements alone."""
        self._here()
        with self.lock:
            yield self

    def locked(self, work, *args):
        """``work(*args)`` under the file's lock, within ``turn`` (or ``with queue``, which holds it already). Free,
        the lock is taken, ``work`` done and the lock let go here. Held by another process, in a served worker, one
        thread of gevent's pool waits for it, does ``work`` and lets it go: the lock then passes to the next process
        the moment it is free and is held only while written, where a greenlet woken by its thread would hold it
        until its worker got round to it (a millisecond or two behind the other requests it was serving) while
        every other process waited. ``work`` must not use the queue itself: in the pool it is another thread. A
        writer given up while its thread waits is given up at once the lock comes: the work is never begun (begun,
        it is done), the lock let go."""
        if self.depth or self.path is None or fcntl is None:
            return work(*args)
        if self.file is None:
            self.file = open(self.path, "ab")  # noqa: SIM115 — kept open: the process's lock handle
        fd = self.file.fileno()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pool = gevent_pool()
            if pool is not None:
                given_up = _os_event()
                running = pool.spawn(_locked_here, fd, work, args, given_up)
                try:
                    return running.get()
                except BaseException:
                    given_up.set()  # the thread, once it has the lock, lets it go without the work if not begun
                    waited_out(running)  # (begun, the work is done): never the lock left taken by nobody's write
                    raise
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            return work(*args)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


class NoQueue(contextlib.nullcontext):
    """PostgreSQL's writers' queue: none (it queues a table's writers on its row lock itself)."""

    def turn(self):
        return self

    def locked(self, work, *args):
        return work(*args)


def write_queue(url: str):
    """The queue of ``url``'s writers: a ``WriteQueue`` for SQLite (its file's lock beside it, ``<file>-writer``),
    none for PostgreSQL."""
    if not url.startswith("sqlite"):
        return NoQueue()
    database = make_url(url).database
    return WriteQueue(None if not database or database == ":memory:" or database.startswith("file:")
                      else database + "-writer")
