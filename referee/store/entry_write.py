"""An entry written on the state this process worked it out on (``Entries.append``, when its replay cache held the
table's newest state): every condition of the write in the WHERE of the UPDATE that takes the table's lock — the
table still at that revision, the key one that writes here, the table's own keys only while its result is open to
them (R-COMMON-7), a director's write with its reason (R-COMMON-8), the trick under way the one the phone saw — so
that a write that meets them all is stored in as few steps as the database allows, and one that fails any of them
changes nothing and goes the long way (``append``'s own statements under the lock), which answers why, as ever.

- PostgreSQL: one statement, in autocommit: ``WITH locked AS (UPDATE … RETURNING …), added AS (INSERT INTO events …
  SELECT … FROM locked) SELECT … FROM locked``. One round trip where BEGIN, UPDATE, INSERT and COMMIT took four; the
  statement is its own transaction (all of it stored, or nothing), committed before the answer.
- SQLite: ``BEGIN IMMEDIATE``, the same UPDATE … RETURNING, the INSERT, ``COMMIT``, among the queued writers
  (``database.py``), and with the entries of the process that wait meanwhile (group commit, ``_together``): one
  transaction, each entry in a savepoint of its own, stores them all with one wait for the disk. Under fifty
  scorers a SQLite database's one writer at a time was the limit (each entry's COMMIT waited for the disk holding
  the lock); in one transaction, the entries that queued behind it take one wait between them.

Both run on the driver's own connection, lent by the pool: each statement is SQLAlchemy Core compiled once per
database (``Prepared``), its values converted by its columns' own types, so an entry skips SQLAlchemy's work at each
call (a statement's cache key, its execution context, its result object: about 0.1 ms a statement, where SQLite's
own work on it is some 0.01 ms). A key is compared by its hash in the WHERE (the stored value is a SHA-256: timing
tells nothing of a key); a wrong key never gets in this way, and the long way refuses it (401, counted as a guess).
"""
from __future__ import annotations

import os
import threading

from sqlalchemy import Boolean, and_, bindparam, case, func, insert, or_, select, update

from referee.store.rows import _DIRECTOR, _ID, _INSERT, COLUMNS, EVENTS, TABLES, TableRow, _links

_HASH = bindparam("b_hash", type_=TABLES.c.scorer_hash.type)
_AT = bindparam("b_revision", type_=TABLES.c.revision.type)
_SIDES_OPEN = bindparam("b_sides_open", type_=Boolean())  # the result is open to the table's own keys (R-COMMON-7)
_DIRECTOR_MAY = bindparam("b_director_may", type_=Boolean())  # a director's write here is one it may make (R-COMMON-8)
_ANY_DRAFT = bindparam("b_any_draft", type_=Boolean())  # no trick under way expected: whatever it is
_SEEN = bindparam("b_seen", type_=TABLES.c.draft.type)
_DIRECTOR_HASH = _DIRECTOR.element  # its tournament's director's key (hashed), None for a free table
_ROLE = case((TABLES.c.scorer_hash == _HASH, "scorer"), (TABLES.c.coscorer_hash == _HASH, "coscorer"),
             else_="director")  # whose key it is, as ``rows.table_role`` finds it: the WHERE let in no other
_MAY_WRITE = and_(
    TABLES.c.id == _ID, TABLES.c.revision == _AT,
    or_(and_(or_(TABLES.c.scorer_hash == _HASH, TABLES.c.coscorer_hash == _HASH),
             or_(_SIDES_OPEN, _DIRECTOR_HASH.is_(None))),
        and_(_DIRECTOR_HASH == _HASH, _DIRECTOR_MAY)),
    or_(_ANY_DRAFT, func.coalesce(case((TABLES.c.draft_revision == _AT, TABLES.c.draft)), "") == _SEEN))
_BUMP = (update(TABLES).where(_MAY_WRITE).values(revision=TABLES.c.revision + 1, version=TABLES.c.version + 1)
         .returning(*COLUMNS, *_links(), _ROLE.label("role")))
# A tap's trick under way (``Entries.set_draft``): the same conditions, the row's draft set, no revision taken; the
# row answered as an entry's is (the tap's answer is drawn from it, with no read).
_DRAFT = (update(TABLES).where(_MAY_WRITE).values(draft=bindparam("b_draft", type_=TABLES.c.draft.type),
                                                   draft_revision=_AT)
          .returning(*COLUMNS, *_links(), _ROLE.label("role")))


def _one_statement():
    """PostgreSQL's: the UPDATE, then the INSERT of the row it answered (the role it found is the entry's
    ``entered_by``), in one statement."""
    locked = _BUMP.cte("locked")
    prior = EVENTS.alias("prior")
    added = insert(EVENTS).from_select(
        ["table_id", "seq", "type", "body", "client_event_id", "at", "withdrawn", "entered_by", "reason"],
        select(locked.c.id, select(func.coalesce(func.max(prior.c.seq), 0) + 1).where(prior.c.table_id == _ID)
               .scalar_subquery(), bindparam("b_type"), bindparam("b_body", type_=EVENTS.c.body.type),
               bindparam("b_client"), bindparam("b_at", type_=EVENTS.c.at.type), False, locked.c.role,
               bindparam("b_reason")))
    return select(locked).add_cte(added.cte("added"))


class Prepared:
    """A Core statement compiled once for a dialect and run on the driver's own cursor: its values converted by its
    bound parameters' types, the row it answers by its columns' types, as SQLAlchemy would."""

    def __init__(self, statement, dialect, columns=()):
        compiled = statement.compile(dialect=dialect)
        self.sql, self.order = compiled.string, compiled.positiontup
        self.names = sorted(set(compiled.bind_names.values()))
        self.defaults = {name: parameter.value for parameter, name in compiled.bind_names.items()
                         if not parameter.required}  # the statement's own literals (``version + 1``)
        converters = {name: parameter.type.dialect_impl(dialect).bind_processor(dialect)
                      for parameter, name in compiled.bind_names.items()}
        self.converters = [(name, converter) for name, converter in converters.items() if converter is not None]
        self.readers = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]

    def run(self, cursor, values: dict) -> tuple | None:
        """Runs it with ``values`` (by their parameters' names); the first row it answers, read, or None."""
        values = {name: values[name] if name in values else self.defaults[name] for name in self.names}
        for name, converter in self.converters:
            values[name] = converter(values[name])
        cursor.execute(self.sql, values if self.order is None else [values[name] for name in self.order])
        if not self.readers:
            return None
        row = cursor.fetchone()
        return None if row is None else tuple(value if read is None else read(value)
                                              for read, value in zip(self.readers, row))


GROUP_MOST = 64  # entries one SQLite transaction stores at most (a turn's wait for the disk shared by as many)


class Taken(Exception):
    """The entry's ``client_event_id`` is stored at this table already (the database refused it twice): nothing
    of this write is stored."""


class EntryWrite:
    """The statements of an entry's one way (compiled once per engine) and their run."""

    def __init__(self, engine, queue):
        self.engine, self.queue = engine, queue
        dialect = engine.dialect
        self.one_statement = dialect.name == "postgresql"
        returned = list(_BUMP.exported_columns)
        if self.one_statement:
            self.statement = Prepared(_one_statement(), dialect, returned)
        else:
            self.bump, self.insert = Prepared(_BUMP, dialect, returned), Prepared(_INSERT, dialect)
        self.draft_statement = Prepared(_DRAFT, dialect, list(_DRAFT.exported_columns))
        self.integrity = dialect.loaded_dbapi.IntegrityError
        self._pid, self._waiting, self._leading, self._guard = None, [], False, threading.Lock()

    def draft(self, values: dict) -> tuple | None:
        """A tap's trick under way stored if the table meets every condition (``values``: ``b_draft`` and the
        entry's own but ``b_type`` …, ``b_any_draft`` False): (the table's row as the write left it, without its
        keys; whose key wrote), or None and nothing written (the long way answers why). One UPDATE, never an event;
        on SQLite among the entries written together."""
        found = self._alone(values, self.draft_statement) if self.one_statement else self._together(values, True)
        return None if found is None else (TableRow(*found[:-1]), found[-1])

    def write(self, values: dict) -> tuple | None:
        """Stores the entry if the table meets every condition (``values``: each parameter's, ``b_table`` …):
        (the table's row as the write left it, without its keys; whose key wrote), or None and nothing written.
        Raises ``Taken`` when its ``client_event_id`` is stored already."""
        found = self._alone(values) if self.one_statement else self._together(values)
        return None if found is None else (TableRow(*found[:-1]), found[-1])

    def _alone(self, values: dict, statement=None):
        """PostgreSQL: the one statement (the entry's unless told), on a connection of the pool, in autocommit."""
        raw = self.engine.raw_connection()
        try:
            driver = raw.driver_connection
            driver.autocommit = True
            try:
                found = (statement or self.statement).run(raw.cursor(), values)
            finally:
                if not driver.closed:
                    driver.autocommit = False  # as the pool lends it to the rest of the store
        except self.integrity:
            raw.close()
            raise Taken() from None
        except BaseException:
            raw.invalidate()  # in an unknown state (the server gone, a signal): never lent again
            raise
        raw.close()
        return found

    def _together(self, values: dict, draft: bool = False):
        """SQLite: group commit. An entry joins this process's entries waiting to be written; one of them leads:
        in the process's turn among its writers (``WriteQueue.turn``) it writes every entry waiting then in one
        transaction (``_queued``), so that one wait for the disk stores them all, wakes each with its answer, and
        passes the lead to the first entry that came meanwhile, if any. An entry written by another's transaction
        is answered as soon as that one is committed: it never waits for a turn of its own only to learn that."""
        mine = _Waiting(values, draft)
        self._here()
        with self._guard:
            self._waiting.append(mine)
            mine.leads = not self._leading
            self._leading = True
        if not mine.leads:
            try:
                mine.woken.wait()
            except BaseException:  # given up (a deadline, a kill) while waiting
                self._gone(mine)
                raise
        if not mine.done:  # this entry leads (first, or passed the lead): its group is written in this turn
            self._lead(mine)
        if mine.taken:
            raise Taken()
        if mine.error is not None:
            raise mine.error
        return mine.found

    def _here(self) -> None:
        """A forked worker starts with none of its master's entries, lead or guard."""
        if self._pid != os.getpid():
            self._pid, self._waiting, self._leading, self._guard = os.getpid(), [], False, threading.Lock()

    def _waiting_here(self) -> list:
        """This process's entries waiting to be written."""
        self._here()
        return self._waiting

    def _lead(self, mine: "_Waiting") -> None:
        """In this process's turn: the entries waiting (``GROUP_MOST`` at most, ``mine`` among them) written in one
        transaction under the file's lock (``WriteQueue.locked``), each woken with what its write answered; then
        the lead passed on. Given up before the transaction (a deadline, a kill), the others' entries wait on for
        the next lead, and this one's is never written."""
        group = []
        try:
            with self.queue.turn():
                with self._guard:
                    group = self._waiting[:GROUP_MOST]
                    del self._waiting[:GROUP_MOST]
                raw = self.engine.raw_connection()  # after the turn: one waiting for it with a connection would
                try:                                # starve the pool
                    self.queue.locked(self._queued, raw, group)
                except BaseException:
                    raw.invalidate()  # in an unknown state (a disk error, a signal): never lent again
                    raise
                raw.close()
        finally:  # the entries not written (this writer given up first) wait on, but those given up too
            left = [each for each in group if not each.done and not each.gone and each is not mine]
            with self._guard:
                self._waiting[:0] = left
                if mine in self._waiting:
                    self._waiting.remove(mine)
                self._pass_lead()
            for each in group:
                if each.done and each is not mine:
                    each.woken.set()

    def _pass_lead(self) -> None:
        """(Under the guard.) The lead to the first entry waiting whose writer is still there, woken to write; else
        nobody leads."""
        while self._waiting and self._waiting[0].gone:
            self._waiting.pop(0)
        if self._waiting:
            self._waiting[0].leads = True
            self._waiting[0].woken.set()
        else:
            self._leading = False

    def _gone(self, mine: "_Waiting") -> None:
        """An entry given up while it waited: out of the queue if no transaction took it yet; the lead passed on
        if it was passed to it."""
        with self._guard:
            mine.gone = True  # a transaction that took it already leaves it out, and no lead is passed to it
            if mine in self._waiting:
                self._waiting.remove(mine)
            if mine.leads and not mine.done:
                self._pass_lead()

    def _queued(self, raw, group: list) -> None:
        """SQLite's statements, in the writers' queue: ``BEGIN IMMEDIATE``, each entry's UPDATE and INSERT, one
        ``COMMIT``. Among several, each entry is a savepoint of its own: one whose ``client_event_id`` is stored
        already is undone alone (``Taken``), the others' kept. An entry on a table that another entry of the group
        changed before it finds the table moved on (its UPDATE answers no row) and goes the long way, as it would
        have one transaction later."""
        cursor = raw.cursor()
        together = len(group) > 1
        cursor.execute("BEGIN IMMEDIATE")
        try:
            for each in group:
                if each.gone:  # given up while it waited for this transaction: never written, nobody to answer
                    continue
                if together:
                    cursor.execute("SAVEPOINT entry")
                try:
                    if each.draft:
                        each.found = self.draft_statement.run(cursor, each.values)
                    else:
                        each.found = self.bump.run(cursor, each.values)
                        if each.found is not None:
                            self.insert.run(cursor, {**each.values, "b_by": each.found[-1]})
                except self.integrity:
                    each.found, each.taken = None, True
                    cursor.execute("ROLLBACK TO entry" if together else "ROLLBACK")
                    if not together:
                        break
                if together:
                    cursor.execute("RELEASE entry")
            else:
                cursor.execute("COMMIT")
        except BaseException as error:
            raw.rollback()
            if isinstance(error, Exception):  # the database refused the transaction: each of its entries is refused
                for each in group:
                    each.error, each.done = error, True
            raise
        for each in group:
            each.done = True


class _Waiting:
    """An entry (or a tap's trick under way: ``draft``) waiting to be written (SQLite): its values; whether it leads; then what its write answered, and
    the event that wakes it (answered, or given the lead)."""

    __slots__ = ("values", "draft", "leads", "done", "gone", "found", "taken", "error", "woken")

    def __init__(self, values: dict, draft: bool = False):
        self.values, self.draft, self.leads, self.done, self.gone = values, draft, False, False, False
        self.found, self.taken, self.error = None, False, None
        self.woken = threading.Event()
