"""Backups (``flask --app referee backup``): a copy taken while a writer appends events restores with every event
acknowledged before it began, and none half-written — SQLite through its online backup API, PostgreSQL through
pg_dump and pg_restore (the README's lines)."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import threading
import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from referee import create_app
from referee.store import Ledger
from referee.store import migrations
from tests.support.env import need

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]
# A Brisca series of three deals (wins_needed 3, R-BRISCA-6): six entries, then the writer opens a new table.
SERIES = [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}] * 3


class Writer(threading.Thread):
    """Appends series after series, table after table, and notes each entry once its answer came back."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.ledger = Ledger(url)
        self.acknowledged: list = []  # (table id, client_event_id, body), in the order they were answered
        self.tables: list = []
        self.stop = threading.Event()
        self.error = None

    def run(self):
        try:
            n = 0
            while not self.stop.is_set():
                state, _, _ = self.ledger.create_table("brisca", PLAYERS4, {"wins_needed": 3}, 0)
                self.tables.append(state["id"])
                for body in SERIES:
                    n += 1
                    self.ledger.append(state["id"], body, client_event_id=f"w-{n}")
                    self.acknowledged.append((state["id"], f"w-{n}", body))
        except Exception as error:  # noqa: BLE001 -- the test reports it
            self.error = error
        finally:
            self.ledger.engine.dispose()

    def wait_for(self, count: int) -> None:
        deadline = time.monotonic() + 60
        while len(self.acknowledged) < count and self.error is None:
            assert time.monotonic() < deadline, "the writer is stuck"
            time.sleep(0.01)
        assert self.error is None, self.error


def check_restored(url: str, before: int, after: int, acknowledged: list) -> int:
    """The restored database holds the writer's answered entries in order, from the first to at least the last
    one answered before the backup began, and at most one beyond the last answered after it (in flight)."""
    ledger = Ledger(url)
    try:
        engine = ledger.engine
        with engine.connect() as connection:
            stored = [row[0] for row in connection.execute(text(
                "SELECT client_event_id FROM events WHERE client_event_id LIKE 'w-%' ORDER BY id"))]
        kept = len(stored)
        assert before <= kept <= after + 1, (before, kept, after)
        assert stored == [f"w-{n}" for n in range(1, kept + 1)]
        by_table: dict = {}
        for table_id, _, body in acknowledged[:min(kept, len(acknowledged))]:
            by_table.setdefault(table_id, []).append(body)
        for table_id, bodies in by_table.items():  # each table replays to what its answered entries say
            state = ledger.state(table_id)
            assert state["version"] == len(bodies)
            assert [{k: v for k, v in e.items() if k in ("type", "trump", "points")}
                    for e in ledger.events(table_id)] == bodies
            assert state["totals"] == [70 * (len(bodies) // 2), 50 * (len(bodies) // 2)]
        return kept
    finally:
        ledger.engine.dispose()


def test_a_sqlite_backup_taken_during_writes_restores_every_acknowledged_event(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    migrations.upgrade(url)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test"})
    writer = Writer(url)
    writer.start()
    rounds = []
    try:
        writer.wait_for(120)  # twenty tables already
        for round_ in range(5):
            before = len(writer.acknowledged)
            target = tmp_path / f"backup-{round_}.sqlite3"
            result = app.test_cli_runner().invoke(args=["backup", str(target)])
            after = len(writer.acknowledged)
            assert result.exit_code == 0, result.output
            rounds.append((target, before, after, result.output))
            writer.wait_for(after + 12)  # the writer goes on between backups
    finally:
        writer.stop.set()
        writer.join(timeout=30)
    assert writer.error is None, writer.error
    assert sum(after - before for _, before, after, _ in rounds) > 0, "no entry was written during a backup"
    for round_, (target, before, after, output) in enumerate(rounds):
        copy = sqlite3.connect(target)
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal beside it
        events, tables = (copy.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in ("events", "tables"))
        copy.close()
        assert f"Backup written: {target} ({tables} tables, {events} events, " in output
        assert not (tmp_path / f"backup-{round_}.sqlite3-wal").exists()
        restored = tmp_path / f"restored-{round_}.sqlite3"  # restore: copy it where the database lives
        shutil.copy(target, restored)
        kept = check_restored(f"sqlite:///{restored}", before, after, writer.acknowledged)
        assert events == kept
        assert migrations.current(f"sqlite:///{restored}") == migrations.head()


def test_backup_to_a_directory_names_a_dated_file_and_never_overwrites_the_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    migrations.upgrade(url)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test"})
    ledger = app.extensions["referee.ledger"]
    state, _, _ = ledger.create_table("brisca", PLAYERS4, {"wins_needed": 3}, 0)
    ledger.append(state["id"], SERIES[0])
    folder = tmp_path / "backups"
    folder.mkdir()
    result = app.test_cli_runner().invoke(args=["backup", str(folder)])
    assert result.exit_code == 0, result.output
    [written] = list(folder.iterdir())
    assert written.name.startswith("referee-") and written.suffix == ".sqlite3"
    assert f"Backup written: {written} (1 table, 1 event, " in result.output
    itself = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "live.sqlite3")])
    assert itself.exit_code == 1
    assert f"{tmp_path / 'live.sqlite3'} is the database itself: write the backup somewhere else." in itself.output
    nowhere = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "no" / "such" / "b.sqlite3")])
    assert nowhere.exit_code == 1 and f"There is no directory {tmp_path / 'no' / 'such'}" in nowhere.output
    assert ledger.state(state["id"])["version"] == 1  # the database itself is untouched
    ledger.engine.dispose()


@pytest.fixture
def pg_url():
    url = os.environ.get("TEST_DATABASE_URL")
    need(bool(url), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    need(shutil.which("pg_dump") is not None and shutil.which("pg_restore") is not None,
         "pg_dump and pg_restore are missing (Debian package postgresql-client; .ci/run installs postgresql)")
    from tests.support.ledgers import wipe

    wipe(url)
    yield url
    wipe(url)


def test_a_pg_dump_backup_taken_during_writes_restores_every_acknowledged_event(tmp_path, pg_url):
    migrations.upgrade(pg_url)
    app = create_app({"TESTING": True, "DATABASE_URL": pg_url, "SECRET_KEY": "test"})
    writer = Writer(pg_url)
    writer.start()
    target = tmp_path / "referee.dump"
    try:
        writer.wait_for(120)
        before = len(writer.acknowledged)
        result = app.test_cli_runner().invoke(args=["backup", str(target)])
        after = len(writer.acknowledged)
        writer.wait_for(after + 6)
    finally:
        writer.stop.set()
        writer.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert writer.error is None, writer.error
    assert f"Backup written: {target} (" in result.output and target.stat().st_size > 1000

    source = make_url(migrations.plain_url(pg_url))
    restore_name = f"{source.database}_restore"
    admin = create_engine(source, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{restore_name}"'))
        connection.execute(text(f'CREATE DATABASE "{restore_name}"'))
    try:
        restored = source.set(database=restore_name)
        libpq = restored.set(drivername="postgresql").render_as_string(hide_password=False)
        done = subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--dbname", libpq, str(target)],
                              capture_output=True, text=True, env={**os.environ, "PGPASSWORD": source.password or ""})
        assert done.returncode == 0, done.stderr
        restored_url = restored.render_as_string(hide_password=False)
        check_restored(restored_url, before, after, writer.acknowledged)
        assert migrations.current(restored_url) == migrations.head()
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{restore_name}" WITH (FORCE)'))
        admin.dispose()
