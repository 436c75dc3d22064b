"""The statements an engine sends to the database, counted (the live views' and streams' costs)."""
from sqlalchemy import event


class Queries:
    """Every statement the ledger's engine sends to the database (SQLite's BEGIN included), counted."""

    def __init__(self, engine):
        self.statements = []
        event.listen(engine, "before_cursor_execute", self.seen)

    def seen(self, _connection, _cursor, statement, *_):
        self.statements.append(statement)

    def taken(self) -> int:
        count = len(self.statements)
        self.statements = []
        return count

    def selects(self) -> list:
        """The statements since the last look that were not the transaction's BEGIN."""
        found = [s for s in self.statements if not s.startswith("BEGIN")]
        self.statements = []
        return found
