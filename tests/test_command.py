"""The ``referee`` command (pyproject.toml's console script, ``python -m referee`` without installing): the same
commands as ``flask --app referee …`` — ``init-db`` makes the database, ``backup`` copies it, ``serve`` is listed —
run as a newcomer runs them, in a process of their own, against a database in a temporary folder."""
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.env import need



BIN = Path(sys.executable).parent


def run(command: list, tmp_path, *args):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'here.sqlite3'}", "SECRET_KEY": "test",
           "REFEREE_INSTANCE": str(tmp_path)}
    env.pop("FLASK_APP", None)
    return subprocess.run([*command, *args], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_python_m_referee_lists_the_commands_and_makes_the_database(tmp_path):
    listed = run([sys.executable, "-m", "referee"], tmp_path, "--help")
    assert listed.returncode == 0, listed.stderr
    assert {"serve", "init-db", "backup", "db-revision"} <= {line.split()[0] for line in
                                                          listed.stdout.split("Commands:")[1].splitlines() if line.strip()}
    made = run([sys.executable, "-m", "referee"], tmp_path, "init-db")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("Database ready at revision ") and "(was without a revision)" in made.stdout
    again = run([sys.executable, "-m", "referee"], tmp_path, "init-db")
    assert "(up to date)" in again.stdout
    tables = {r[0] for r in sqlite3.connect(tmp_path / "here.sqlite3").execute("SELECT name FROM sqlite_master")}
    assert {"tables", "events", "alembic_version"} <= tables


def test_the_installed_referee_command_backs_the_database_up(tmp_path):
    command = shutil.which("referee", path=str(BIN))
    need(command is not None, f"no referee command in {BIN} (make install-test installs it: pip install -e .)")
    assert run([command], tmp_path, "init-db").returncode == 0
    backup = run([command], tmp_path, "backup", str(tmp_path / "copy.sqlite3"))
    assert backup.returncode == 0, backup.stderr
    assert backup.stdout.startswith(f"Backup written: {tmp_path / 'copy.sqlite3'} (0 tables, 0 events, ")
    served = run([command], tmp_path, "serve", "--help")
    assert served.returncode == 0 and "Serve Referee on the local network" in served.stdout
