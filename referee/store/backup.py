"""A consistent copy of a live database, taken while Referee goes on serving (``flask --app referee backup``).

SQLite: the online backup API copies the database in one step, inside one read transaction, so the copy is the
database at one moment — every entry answered before it began is in it, none half-written — while writers go on
(WAL). The copy is checked (``PRAGMA integrity_check``), made one self-contained file (no ``-wal`` beside it) and
only then moved to its name: a backup interrupted half-way never replaces a good one.
PostgreSQL: ``pg_dump`` (one snapshot too), in its custom format for ``pg_restore``.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

from sqlalchemy.engine import make_url

from referee.store.migrations import plain_url


class BackupError(Exception):
    """Why no backup was written, in a sentence for the command line."""


def backup(url: str, target: str | os.PathLike) -> dict:
    """Writes a copy of the database at ``url`` to ``target`` (a file, or a directory to hold a dated file);
    returns what was written: ``path``, ``bytes`` and, for SQLite, ``tables`` and ``events``."""
    parsed = make_url(plain_url(url))
    if parsed.get_backend_name() == "sqlite":
        try:
            return backup_sqlite(parsed.database, target)
        except sqlite3.Error as error:  # said in one sentence, like every other reason (web/cli.py)
            raise BackupError(f"SQLite could not copy the database: {error}") from error
    if parsed.get_backend_name() == "postgresql":
        return backup_postgresql(parsed, target)
    raise BackupError(f"Referee backs up SQLite and PostgreSQL databases, not {parsed.get_backend_name()}.")


def _destination(target, suffix: str) -> Path:
    path = Path(target).expanduser()
    if path.is_dir():
        path = path / time.strftime(f"referee-%Y%m%d-%H%M%S{suffix}")
    if not path.parent.is_dir():
        raise BackupError(f"There is no directory {path.parent} to write the backup in.")
    return path


def _settle(partial: Path, path: Path) -> None:
    """The finished copy on disk, then under its name (an old backup of that name is replaced only now)."""
    with open(partial, "rb") as written:
        os.fsync(written.fileno())
    os.replace(partial, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def backup_sqlite(database: str | None, target) -> dict:
    if not database or database == ":memory:" or not Path(database).is_file():
        raise BackupError(f"There is no SQLite database at {database or '(none)'}.")
    path = _destination(target, ".sqlite3")
    if path.exists() and path.samefile(database):
        raise BackupError(f"{path} is the database itself: write the backup somewhere else.")
    partial = path.with_name(f".{path.name}.partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(database, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # pages=-1: the whole database in one step, one read transaction
            copy.execute("PRAGMA journal_mode=DELETE")  # a single file, whatever the source's WAL
            verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
            names = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            counts = {name: copy.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
                      for name in ("tables", "events") if name in names}
        finally:
            copy.close()
    finally:
        source.close()
    if verdict != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"The copy failed its integrity check ({verdict}); nothing was written.")
    _settle(partial, path)
    return {"path": path, "bytes": path.stat().st_size, **counts}


def backup_postgresql(url, target) -> dict:
    """``pg_dump --format=custom``; the password, if the URL has one, travels in PGPASSWORD (never in argv)."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError("pg_dump is not installed here (Debian: sudo apt-get install postgresql-client).")
    path = _destination(target, ".dump")
    partial = path.with_name(f".{path.name}.partial")
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    libpq = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    done = subprocess.run([pg_dump, "--format=custom", "--file", str(partial), "--dbname", libpq], env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
    _settle(partial, path)
    return {"path": path, "bytes": path.stat().st_size}
