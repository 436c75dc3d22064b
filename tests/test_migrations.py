"""Migrations (referee/migrations): the models and the newest revision agree, a database at the first revision with
data reads back whole at the newest, a database made before migrations is upgraded in place by ``init-db`` and by
``serve``, and two upgraders at once upgrade once. On SQLite and on PostgreSQL (TEST_DATABASE_URL)."""
from __future__ import annotations

import json
import os
import shutil
import threading
import urllib.request
from datetime import datetime, timedelta, timezone

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (JSON, Boolean, Column, DateTime, ForeignKey, Integer, MetaData, String, Table,
                        UniqueConstraint, insert, inspect, select)
from sqlmodel import SQLModel

from referee import create_app
from referee.errors import Unauthorized
from referee.games import get_game
from referee.store import Ledger, hash_key
from referee.store import migrations
from tests.support.env import need
from tests.support.ledgers import engine_of, wipe
from tests.support.server import Server

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]
T0 = datetime(2026, 5, 1, 20, 0, tzinfo=timezone.utc)
# A finished Brisca series (wins_needed 3: three deals won by Ana & Cy, R-BRISCA-6) with one tally withdrawn.
SERIES = [({"type": "deal", "trump": "1O"}, None), ({"type": "tally", "points": [50, 70]}, "undo-1"),
          ({"type": "tally", "points": [70, 50]}, None)] + [({"type": "deal", "trump": "1O"}, None),
                                                             ({"type": "tally", "points": [70, 50]}, None)] * 2


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """An empty database: a new SQLite file, or the PostgreSQL test database emptied."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrated.sqlite3'}"
        return
    found = os.environ.get("TEST_DATABASE_URL")
    need(bool(found), "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    wipe(found)
    yield found
    wipe(found)


def differences(url) -> list:
    engine = engine_of(url)
    with engine.connect() as connection:
        found = compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}),
                                 SQLModel.metadata)
    engine.dispose()
    return found


def test_the_models_and_the_newest_revision_agree(url):
    """A schema change without its revision fails here: `flask --app referee db-revision "…"` writes it."""
    script = ScriptDirectory.from_config(migrations.config())
    assert len(script.get_heads()) == 1, "two revisions share a parent: give one the other as down_revision"
    assert migrations.upgrade(url) == (None, migrations.head())
    assert differences(url) == []
    assert migrations.upgrade(url) == (migrations.head(), migrations.head())  # again: nothing to do


def test_every_revision_goes_down_and_up_again(url):
    migrations.upgrade(url)
    migrations.downgrade(url, "base")
    assert set(inspect(engine_of(url)).get_table_names()) <= {"alembic_version"}
    assert migrations.upgrade(url) == (None, migrations.head())
    assert differences(url) == []


def test_a_database_emptied_but_for_alembic_version_is_made_again(url):
    """Ledger.drop_all (the tests' way to empty PostgreSQL) drops the models' tables, not Alembic's note."""
    migrations.upgrade(url)
    ledger = Ledger(url)
    ledger.drop_all()
    ledger.engine.dispose()
    assert set(inspect(engine_of(url)).get_table_names()) == {"alembic_version"}
    assert migrations.upgrade(url) == (None, migrations.head())
    assert differences(url) == []


def first_revision_rows() -> dict:
    """A finished Brisca table, its rematch and their events, as rows of the first revision's columns."""
    game = get_game("brisca")
    old = game.new_table(PLAYERS4, {"wins_needed": 3, "tie_rule": "last_trick"}, 2)
    new = game.new_table(PLAYERS4, dict(old.options), 1)  # Cy, Di, Ana dealt: Bo deals next (R-COMMON-2)
    keys = dict(scorer_hash=hash_key("scorer-key"), viewer_key="viewer-key", coscorer_hash=hash_key("co-key"))
    tables = [dict(id="old-table", game="brisca", players=old.players, options=old.options, dealer=2, version=6,
                   revision=8, created_at=T0, **keys),
              dict(id="new-table", game="brisca", players=new.players, options=new.options, dealer=1, version=0,
                   revision=0, created_at=T0 + timedelta(hours=2), **keys)]
    events = []
    for seq, (body, undone_by) in enumerate(SERIES, start=1):
        events.append(dict(table_id="old-table", seq=seq, type=body["type"], body=body,
                           client_event_id=f"phone-{seq}", at=T0 + timedelta(minutes=seq),
                           withdrawn=undone_by is not None, withdrawn_by=undone_by,
                           withdrawn_at=T0 + timedelta(minutes=seq, seconds=30) if undone_by else None))
    rematches = [dict(old_id="old-table", new_id="new-table", created_at=T0 + timedelta(hours=2))]
    return {"tables": tables, "events": events, "rematches": rematches}


def aware(value):
    if isinstance(value, datetime) and value.tzinfo is None:  # SQLite keeps UTC without its offset
        return value.replace(tzinfo=timezone.utc)
    return value


def test_a_database_at_the_first_revision_with_data_reads_back_whole_at_the_newest(url):
    assert migrations.upgrade(url, "0001") == (None, "0001")
    rows = first_revision_rows()
    engine = engine_of(url)
    first = MetaData()
    first.reflect(engine)
    assert set(first.tables) == {"tables", "events", "rematches", "alembic_version"}
    with engine.begin() as connection:
        for name in ("tables", "events", "rematches"):
            connection.execute(insert(first.tables[name]), rows[name])
    assert migrations.upgrade(url) == ("0001", migrations.head())

    newest = MetaData()
    newest.reflect(engine)
    with engine.connect() as connection:
        for name, written in rows.items():
            found = [{key: aware(value) for key, value in row._mapping.items()}
                     for row in connection.execute(select(newest.tables[name]))]
            key = {"tables": "id", "events": "seq", "rematches": "old_id"}[name]
            found.sort(key=lambda row: row[key])
            assert [{column: row[column] for column in written[0]} for row in found] == \
                sorted(written, key=lambda row: row[key])
    engine.dispose()

    ledger = Ledger(url)  # the application reads and writes the upgraded database
    old = ledger.state("old-table")
    assert (old["totals"], old["series"]["finished"], old["version"]) == ([210, 150], True, 6)
    assert old["rematch"] == "new-table"
    log = ledger.events("old-table")
    assert [e["seq"] for e in log] == list(range(1, 8)) and [e["withdrawn"] for e in log].count(True) == 1
    assert log[1]["withdrawn_at"] == "2026-05-01T20:02:30Z" and log[0]["at"] == "2026-05-01T20:01:00Z"
    # R-COMMON-8 (migration 0004): every entry and withdrawal stored before is the scorer's, none has a reason
    assert {e["by"] for e in log} == {"scorer"} and not any("reason" in e for e in log)
    assert log[1]["withdrawal"] == {"at": "2026-05-01T20:02:30Z", "by": "scorer"}
    assert old["signed"] == {"sides": [], "complete": False, "disputes": []}
    new = ledger.state("new-table")
    assert (new["rematch_of"], new["next"], new["version"]) == ("old-table", {"action": "deal", "player": 1}, 0)
    assert [ledger.authorize("new-table", key, write=True) for key in ("scorer-key", "co-key")] == ["scorer", "coscorer"]
    assert ledger.authorize("old-table", "viewer-key") == "viewer"
    with pytest.raises(Unauthorized):
        ledger.authorize("old-table", "no-key")
    assert ledger.rematch("old-table")[1]["id"] == "new-table"  # made once, before the upgrade
    assert ledger.append("new-table", {"type": "deal", "trump": "1O"}, client_event_id="after-upgrade")[0] == 201
    assert ledger.undo("new-table", client_event_id="undo-after")["version"] == 0
    assert ledger.events("new-table")[0]["withdrawal"]["by"] == "scorer"
    ledger.engine.dispose()


# The schema of the first commit, as `create_all` made it before migrations: no co-scorer, no undo id, no
# rematches, and (SQLModel before 0.0.45) times without their time zone.
OLDEST = MetaData()
Table("tables", OLDEST, Column("id", String(32), primary_key=True), Column("game", String(32), nullable=False),
      Column("players", JSON, nullable=False), Column("options", JSON, nullable=False),
      Column("dealer", Integer, nullable=False), Column("scorer_hash", String(64), nullable=False),
      Column("viewer_key", String(64), nullable=False), Column("version", Integer, nullable=False),
      Column("revision", Integer, nullable=False), Column("created_at", DateTime, nullable=False))
Table("events", OLDEST, Column("id", Integer, primary_key=True),
      Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
      Column("seq", Integer, nullable=False), Column("type", String(32), nullable=False),
      Column("body", JSON, nullable=False), Column("client_event_id", String(128)),
      Column("at", DateTime, nullable=False), Column("withdrawn", Boolean, nullable=False),
      Column("withdrawn_at", DateTime), UniqueConstraint("table_id", "seq"),
      UniqueConstraint("table_id", "client_event_id"))


def made_before_migrations(url, oldest: bool) -> None:
    """The finished table and its log, in a database `create_all` made: the first commit's or the last one's."""
    rows = first_revision_rows()
    engine = engine_of(url)
    metadata = OLDEST if oldest else SQLModel.metadata
    metadata.create_all(engine)
    with engine.begin() as connection:
        for row in rows["tables"][:1]:
            connection.execute(insert(metadata.tables["tables"]), {
                **{k: v for k, v in row.items() if k != "coscorer_hash" or not oldest},
                "created_at": row["created_at"].replace(tzinfo=None) if oldest else row["created_at"]})
        for row in rows["events"]:
            if oldest:
                row = {k: v.replace(tzinfo=None) if isinstance(v, datetime) else v for k, v in row.items()
                       if k != "withdrawn_by"}
            connection.execute(insert(metadata.tables["events"]), row)
    engine.dispose()


@pytest.mark.parametrize("oldest", [True, False], ids=["first-commit", "last-create-all"])
def test_init_db_upgrades_a_database_made_before_migrations_in_place(url, oldest):
    made_before_migrations(url, oldest)
    if not oldest:
        assert differences(url) == []  # the models' own schema: only stamped
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test"})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert f"Database ready at revision {migrations.head()} (was without a revision)" in result.output
    assert migrations.current(url) == migrations.head() and differences(url) == []
    again = app.test_cli_runner().invoke(args=["init-db"])
    assert f"at revision {migrations.head()} (up to date)" in again.output

    ledger = app.extensions["referee.ledger"]
    old = ledger.state("old-table")
    assert (old["totals"], old["series"]["finished"], old["version"]) == ([210, 150], True, 6)
    log = ledger.events("old-table")
    assert log[0]["at"] == "2026-05-01T20:01:00Z" and log[1]["withdrawn_at"] == "2026-05-01T20:02:30Z"
    status, new = ledger.rematch("old-table")  # the features added since the first commit work on it
    assert status == 201 and new["rematch_of"] == "old-table" and new["next"] == {"action": "deal", "player": 1}
    co_key = ledger.new_key(new["id"], "coscorer")
    assert ledger.authorize(new["id"], co_key, write=True) == "coscorer"
    ledger.append(new["id"], {"type": "deal", "trump": "1O"})
    assert ledger.undo(new["id"], client_event_id="u-1")["version"] == 0
    assert ledger.events(new["id"])[0]["withdrawn"] is True
    ledger.engine.dispose()


@pytest.mark.server  # a real server process of its own
def test_serve_upgrades_the_database_before_it_answers(tmp_path):
    path = tmp_path / "server.sqlite3"
    made_before_migrations(f"sqlite:///{path}", oldest=True)
    server = Server(path).start()
    try:
        with urllib.request.urlopen(f"{server.url}/api/v1/tables/old-table?key=viewer-key", timeout=5) as answer:
            state = json.load(answer)
        assert (state["totals"], state["series"]["finished"], state["rematch"]) == ([210, 150], True, None)
    finally:
        server.kill()
    assert migrations.current(f"sqlite:///{path}") == migrations.head()


def test_two_upgrades_at_once_upgrade_once(url):
    answers, failures = [], []

    def upgrade():
        try:
            answers.append(migrations.upgrade(url))
        except Exception as error:  # noqa: BLE001 -- reported below
            failures.append(error)

    threads = [threading.Thread(target=upgrade) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    head = migrations.head()
    assert len(answers) == 3 and answers.count((None, head)) == 1 and answers.count((head, head)) == 2
    assert differences(url) == []


WITH_A_NOTE = """
import sqlalchemy as _sa


def _with_a_note(metadata):
    target = _sa.MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(target)
    target.tables["tables"].append_column(_sa.Column("note", _sa.String(40), nullable=True))
    return target


"""


def test_db_revision_writes_the_next_revision_from_what_the_models_changed(tmp_path, monkeypatch):
    """As DEVELOPERS.md says: change a model, `flask --app referee db-revision "…"`, read it, upgrade. Here on a
    copy of referee/migrations whose models gained a column ``tables.note``."""
    copy = tmp_path / "migrations"
    shutil.copytree(migrations.HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = (copy / "env.py").read_text()
    assert "target_metadata=SQLModel.metadata" in env
    env = env.replace("target_metadata=SQLModel.metadata", "target_metadata=_with_a_note(SQLModel.metadata)")
    (copy / "env.py").write_text(env.replace("\ndef render_item", WITH_A_NOTE + "def render_item", 1))
    monkeypatch.setattr(migrations, "HERE", copy)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
                      "SECRET_KEY": "test"})
    before = int(migrations.head())
    result = app.test_cli_runner().invoke(args=["db-revision", "a note per table"])
    assert result.exit_code == 0, result.output
    written = copy / "versions" / f"{before + 1:04d}_a_note_per_table.py"
    assert f"New revision: {written}" in result.output and migrations.head() == f"{before + 1:04d}"
    text = written.read_text()
    assert f"revision = '{before + 1:04d}'" in text and f"down_revision = '{before:04d}'" in text
    assert "batch_op.add_column(sa.Column('note', sa.String(length=40), nullable=True))" in text
    assert "batch_op.drop_column('note')" in text and "sqlmodel" not in text
    url = f"sqlite:///{tmp_path / 'noted.sqlite3'}"
    assert migrations.upgrade(url) == (None, f"{before + 1:04d}")
    assert "note" in {column["name"] for column in inspect(engine_of(url)).get_columns("tables")}


def serve_checking(url: str, tmp_path):
    """``flask serve --schema check`` on ``url``, refused before it serves: (exit code, what it said)."""
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    result = app.test_cli_runner().invoke(args=["serve", "--schema", "check", "--port", "1"])
    app.extensions["referee.ledger"].engine.dispose()
    return result.exit_code, " ".join(result.output.split())


def test_a_server_that_only_checks_refuses_a_database_older_or_newer_than_itself(url, tmp_path):
    """Issue 28: several servers share one database, upgraded once (init-db); a server started with
    ``--schema check`` (REFEREE_SCHEMA=check, deploy/referee.env) refuses a database without this version's schema,
    with the sentence that says what to run, and a newer one too."""
    newest = migrations.head()
    assert serve_checking(url, tmp_path) == (1, f"Error: The database has no Referee schema yet (this version's is "
                                                f"revision {newest}): create it once with `flask --app referee "
                                                f"init-db`, then start the servers.")
    migrations.upgrade(url, "0003")
    code, said = serve_checking(url, tmp_path)
    assert code == 1 and said.startswith(f"Error: The database is at revision 0003, older than this Referee's {newest}"
                                         f": upgrade it once with `flask --app referee init-db`")
    migrations.upgrade(url)
    assert migrations.mismatch(url) is None
    engine = engine_of(url)
    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    engine.dispose()
    assert serve_checking(url, tmp_path) == (1, f"Error: The database is at revision 9999, newer than this Referee's "
                                                f"{newest}: a newer Referee upgraded it; install that version on this "
                                                f"server too.")
