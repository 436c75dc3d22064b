"""Alembic's environment for Referee: always given an open connection by ``referee.store.migrations`` (no alembic.ini,
no URL here). ``render_as_batch`` lets a revision alter a column on SQLite (which rebuilds the table)."""
from alembic import context
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

import referee.store.ledger  # noqa: F401  (registers every table on SQLModel.metadata)


def render_item(kind, obj, _context):
    """SQLModel's strings written as SQLAlchemy's, so that a revision does not import SQLModel."""
    if kind == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    return False


context.configure(connection=context.config.attributes["connection"], target_metadata=SQLModel.metadata,
                  render_as_batch=True, compare_type=True, render_item=render_item)
with context.begin_transaction():
    context.run_migrations()
