"""How the ledger connects: PostgreSQL through psycopg 3, SQLite with the pragmas that make a 2xx answer durable.

On SQLite a write's transaction is ``BEGIN IMMEDIATE`` (a connection of ``engine.execution_options(referee_write=
True)``): it takes the database's write lock before its first read, waiting up to ``busy_timeout`` for another
writer. A deferred transaction that read first could not become a write once another connection had written
meanwhile, and would fail at once with "database is locked". Reads stay deferred: in WAL mode they never wait.
"""
from __future__ import annotations

from sqlalchemy import event
from sqlmodel import create_engine


def database_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (as hosts write them) go through psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def connect(url: str):
    """The SQLAlchemy engine of ``url`` (already through ``database_url``)."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

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
