"""What a ledger's connections send the database, counted at the driver (SQLite's trace callback, libpq's trace):
an entry's short way runs its statements on the driver's own connection, where SQLAlchemy's events see none."""
from __future__ import annotations

import tempfile

from sqlalchemy import event


class Recorded:
    """What the ledger's connections send the database while lent out: SQLite's statements (its trace callback),
    PostgreSQL's protocol messages (libpq's trace), from the pool's checkout to its checkin."""

    def __init__(self, ledger):
        self.ledger, self.sqlite = ledger, ledger.engine.dialect.name == "sqlite"
        self.statements: list = []
        self.file = tempfile.TemporaryFile(mode="w+")
        event.listen(ledger.engine, "checkout", self._lent)
        event.listen(ledger.engine, "checkin", self._back)

    def _lent(self, dbapi_connection, _record, _proxy):
        if self.sqlite:
            dbapi_connection.set_trace_callback(self.statements.append)
        else:
            from psycopg.pq import Trace
            dbapi_connection.pgconn.trace(self.file.fileno())
            dbapi_connection.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)

    def _back(self, dbapi_connection, _record):
        if self.sqlite:
            dbapi_connection.set_trace_callback(None)
        elif dbapi_connection is not None and not dbapi_connection.closed:
            dbapi_connection.pgconn.untrace()  # libpq flushes what it traced

    def round_trips(self) -> int:
        """PostgreSQL: the messages after which the client waited for the server (a simple Query, or a Sync)."""
        self.file.seek(0)
        sent = [line.split("\t") for line in self.file.read().splitlines() if line.startswith("F\t")]
        return sum(1 for fields in sent if len(fields) > 2 and fields[2].split(" ")[0] in ("Query", "Sync"))

    def during(self, work):
        self.statements.clear()
        self.file.seek(0)
        self.file.truncate()
        return work()

    def close(self):
        event.remove(self.ledger.engine, "checkout", self._lent)
        event.remove(self.ledger.engine, "checkin", self._back)
        self.file.close()

    def written(self) -> list:
        """SQLite: the first three words of each statement that wrote (INSERT, UPDATE, DELETE), in order."""
        return [" ".join(statement.split()[:3]) for statement in self.statements
                if statement.split(None, 1)[0] in ("INSERT", "UPDATE", "DELETE")]
