"""The database's schema, one Alembic revision at a time (``referee/store/migrations/versions/``).

``upgrade(url)`` brings any database to the newest revision in place, keeping its data: a new file, a database
made before migrations existed (its tables, no ``alembic_version``: the first revision adds what it lacks), or one
a revision behind. ``flask --app referee init-db`` and ``serve`` (so ``make run``) call it. It runs in one
transaction that holds the database's write lock (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL),
so two servers starting at once upgrade it once. ``new_revision`` writes the next revision from the difference
between the models (``referee/store/ledger.py``) and the newest revision.
"""
from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, inspect, text

HERE = Path(__file__).resolve().parent


def config() -> Config:
    """Alembic's configuration, made here rather than read from an alembic.ini (``%`` doubled: ConfigParser)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE).replace("%", "%%"))
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    return cfg


def head() -> str:
    """The newest revision's id."""
    return ScriptDirectory.from_config(config()).get_current_head()


def plain_url(url: str) -> str:
    """The SQLAlchemy URL of ``url`` as the ledger reads it (``postgres://`` and ``postgresql://`` use psycopg 3)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _engine(url: str):
    if url.startswith("sqlite"):
        # SQLite's write lock from the first statement: a second upgrader waits instead of failing half-way.
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection, _record):
            dbapi_connection.isolation_level = None  # we say BEGIN ourselves

        @event.listens_for(engine, "begin")
        def _on_begin(connection):
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url)


@contextlib.contextmanager
def locked(url: str):
    """A connection in a transaction that holds the database's migration lock; committed on leaving."""
    engine = _engine(plain_url(url))
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(hashtext('referee.migrations'))"))
            yield connection
    finally:
        engine.dispose()


def current(url: str) -> str | None:
    """The database's revision; None for a new database or one made before migrations."""
    with locked(url) as connection:
        return MigrationContext.configure(connection).get_current_revision()


def mismatch(url: str) -> str | None:
    """None when the database at ``url`` has this version's schema; else why a server must not start on it (a
    deployment of several servers upgrades its database once, with ``init-db``, and each server only checks)."""
    found, newest = current(url), head()
    if found == newest:
        return None
    if found is None:
        return (f"The database has no Referee schema yet (this version's is revision {newest}): create it once with "
                "`flask --app referee init-db`, then start the servers.")
    known = {script.revision for script in ScriptDirectory.from_config(config()).walk_revisions()}
    if found in known:
        return (f"The database is at revision {found}, older than this Referee's {newest}: upgrade it once with "
                "`flask --app referee init-db` (from one server, the others stopped or on the same version), then "
                "start the servers.")
    return (f"The database is at revision {found}, newer than this Referee's {newest}: a newer Referee upgraded it; "
            "install that version on this server too.")


def upgrade(url: str, revision: str = "head") -> tuple:
    """Brings the database at ``url`` to ``revision`` in place; returns (revision before, revision after)."""
    cfg = config()
    with locked(url) as connection:
        before = MigrationContext.configure(connection).get_current_revision()
        if before is not None and set(inspect(connection).get_table_names()) <= {"alembic_version"}:
            # Emptied but for Alembic's own note (``Ledger.drop_all`` knows only the models): a new database.
            connection.execute(text("DELETE FROM alembic_version"))
            before = None
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)
        after = MigrationContext.configure(connection).get_current_revision()
    return before, after


def downgrade(url: str, revision: str) -> None:
    cfg = config()
    with locked(url) as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)


def new_revision(message: str) -> str:
    """Writes the next revision (``0002_…``) with the operations that take the newest revision to the models, as
    Alembic's autogenerate finds them on a scratch SQLite database; returns its path. Read it before committing:
    autogenerate cannot tell a rename from a drop and an add, and never moves data."""
    cfg = config()
    number = int(head()) + 1
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{Path(scratch) / 'scratch.sqlite3'}"
        upgrade(url)
        with locked(url) as connection:
            cfg.attributes["connection"] = connection
            script = command.revision(cfg, message=message, autogenerate=True, rev_id=f"{number:04d}")
    return script.path
