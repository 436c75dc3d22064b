"""The house's walls (docs/architecture.md, "What may import what"): each part imports only the parts below it.
Read from the modules' own import statements, so a new module is held to its folder's rule as soon as it exists."""
from __future__ import annotations

import ast

import pytest

from tests.support.env import ROOT

PACKAGE = ROOT / "referee"
DATABASE = ("sqlalchemy", "sqlmodel", "alembic", "psycopg", "sqlite3")
WEB = ("flask", "flask_babel", "flask_wtf", "flask_limiter", "werkzeug", "jinja2", "referee.web")
STORAGE = ("referee.ledger", "referee.models", "referee.database", "referee.state_cache", "referee.backup")
# The modules that own the database: the ledger and its records; backup copies the whole file (or runs pg_dump).
OWNERS = ("ledger", "ledger_entries", "ledger_making", "ledger_rows", "ledger_tournaments", "ledger_clubs", "models",
          "database", "backup", "state_cache")

# (the part, the modules it holds, what it must never import)
WALLS = [
    ("cards", ["cards.py"], DATABASE + WEB + STORAGE + ("referee.games", "referee.tournament")),
    ("engines", ["games/*.py", "games/*/*.py"], DATABASE + WEB + STORAGE + ("referee.tournament",)),
    ("tournament rules and store", ["tournament/*.py"], DATABASE + WEB),
    ("club rules and store", ["club/*.py"], DATABASE + WEB + ("referee.tournament",)),
    ("ledger", [f"{name}.py" for name in OWNERS], WEB + ("referee.tournament", "referee.club")),
    ("web", ["web/*.py", "web/*/*.py"], DATABASE),
    ("summaries and words", ["summaries.py", "words.py", "languages.py", "once.py", "errors.py"], DATABASE + WEB),
]


def imported(path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def forbidden(name: str, walls: tuple) -> bool:
    return any(name == wall or name.startswith(wall + ".") for wall in walls)


@pytest.mark.parametrize("part, patterns, walls", WALLS, ids=[w[0] for w in WALLS])
def test_each_part_imports_only_what_lies_below_it(part, patterns, walls):
    modules = sorted({p for pattern in patterns for p in PACKAGE.glob(pattern)})
    assert modules, f"{part}: no module matches {patterns}"
    found = [f"{p.relative_to(ROOT)} imports {name}" for p in modules for name in sorted(imported(p))
             if forbidden(name, walls)]
    assert not found, f"{part} must not import these (docs/architecture.md):\n" + "\n".join(found)


def test_only_the_ledger_touches_the_database():
    """No module outside the ledger and its records opens a connection or writes a statement."""
    outside = [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts and p.stem not in OWNERS]
    found = [f"{p.relative_to(ROOT)} imports {name}" for p in outside for name in sorted(imported(p))
             if forbidden(name, DATABASE)]
    assert not found, "\n".join(found)


def test_no_test_module_imports_another():
    """Shared test helpers live in tests/support/; a test module imports neither another test module nor conftest."""
    found = [f"{p.name} imports {name}" for p in sorted((ROOT / "tests").glob("*.py")) for name in imported(p)
             if name.startswith(("tests.test_", "tests.conftest")) or name == "conftest"]
    assert not found, "\n".join(found)
