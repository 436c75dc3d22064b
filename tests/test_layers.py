"""The house's walls (docs/architecture.md, "The parts" and "The web face"): each part imports only the parts below it.
Read from the modules' own import statements, so a new module is held to its folder's rule as soon as it exists."""
from __future__ import annotations

import ast

import pytest

from tests.support.env import ROOT

PACKAGE = ROOT / "referee"
DATABASE = ("sqlalchemy", "sqlmodel", "alembic", "psycopg", "sqlite3")
WEB = ("flask", "flask_babel", "flask_wtf", "flask_limiter", "werkzeug", "jinja2", "referee.web")
STORAGE = ("referee.store",)
STORE = PACKAGE / "store"  # the one owner of the database: the ledger, the records, migrations, backups (its __init__)

# (the part, the modules it holds, what it must never import)
WALLS = [
    ("cards", ["cards.py"], DATABASE + WEB + STORAGE + ("referee.games", "referee.tournament")),
    ("engines", ["games/*.py", "games/*/*.py"], DATABASE + WEB + STORAGE + ("referee.tournament",)),
    ("tournament rules and store", ["tournament/*.py"], DATABASE + WEB),
    ("club rules and store", ["club/*.py"], DATABASE + WEB + ("referee.tournament",)),
    ("store", ["store/*.py", "store/migrations/*.py", "store/migrations/versions/*.py"],
     WEB + ("referee.tournament", "referee.club")),
    ("web", ["web/*.py", "web/*/*.py"], DATABASE),
    ("summaries and words", ["summaries.py", "words.py", "languages.py", "errors.py"], DATABASE + WEB + STORAGE),
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


WEB = PACKAGE / "web"
AREAS = ("tables", "tournaments", "clubs", "printing", "api")  # a blueprint each (docs/architecture.md, "The web face")
FACTORY = ("app.py", "cli.py")  # the factory registers every area's blueprint; the command line makes the app


def web_imports(path) -> set[str]:
    """The modules of referee/web that ``path`` imports (``from referee.web import tables``: ``referee.web.tables``)."""
    names = imported(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "referee.web" and not node.level:
            names.update(f"referee.web.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("referee.web.")}


def test_web_areas_import_no_other_area_and_shared_modules_import_none():
    """Issue 39: an area package (tables, tournaments, clubs, printing, api) imports only itself, the shared web
    modules (``shared/``, ``services.py``, ``i18n.py``, ``serving/``) and the packages below the web; the shared
    modules and the serving package import no area (nothing imports upward). Only the factory knows every area."""
    assert sorted(p.name for p in WEB.iterdir() if p.is_dir() and (p / "__init__.py").exists()) == sorted(
        AREAS + ("serving", "shared"))
    found = []
    for path in sorted(WEB.rglob("*.py")):
        parts = path.relative_to(WEB).parts
        if parts[0] in FACTORY:
            continue
        own = parts[0] if len(parts) > 1 else None
        for name in sorted(web_imports(path)):
            other = name.split(".")[2]
            if other in AREAS and other != own:
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, "an area imports another, or a shared module an area (docs/architecture.md):\n" + "\n".join(found)


def test_referee_web_holds_a_dozen_entries_at_most():
    """``ls referee/web`` tells the areas and the shared pieces: a dozen entries at most (issue 39)."""
    entries = sorted(p.name for p in WEB.iterdir() if p.name != "__pycache__")
    assert len(entries) <= 12, entries


def test_only_the_store_touches_the_database():
    """No module outside referee/store opens a connection or writes a statement."""
    outside = [p for p in PACKAGE.rglob("*.py") if STORE not in p.parents]
    found = [f"{p.relative_to(ROOT)} imports {name}" for p in outside for name in sorted(imported(p))
             if forbidden(name, DATABASE)]
    assert not found, "\n".join(found)


def store_imports(path) -> list:
    """(module, names, line) of each import from referee.store in ``path``; names None for ``import referee.store``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names if forbidden(a.name, STORAGE)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and forbidden(node.module, STORAGE):
            found.append((node.module, [(a.name, a.asname or a.name) for a in node.names], node.lineno))
    return found


def test_outside_the_store_only_its_public_doors_are_imported():
    """The tournament's and the club's stores, the web and the rest of referee/ import from the store only the
    names its __init__ states (``__all__``; the command line's ``migrations`` and ``backup``, ``COMMANDS``), and
    reach no name starting with ``_`` through a statements' module (``tournaments._x``)."""
    import referee.store as store

    doors, commands = set(store.__all__), {f"referee.store.{name}" for name in store.COMMANDS}
    found = []
    for path in sorted(p for p in PACKAGE.rglob("*.py") if STORE not in p.parents):
        where = path.relative_to(ROOT)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for module, names, line in store_imports(path):
            if names is None:
                found.append(f"{where}:{line} imports {module}: import its doors from referee.store")
                continue
            for name, bound in names:
                if module == "referee.store" and name in doors | set(store.COMMANDS):
                    if name in ("clubs", "tournaments"):
                        modules.add(bound)
                elif module in commands and not name.startswith("_"):
                    pass
                else:
                    found.append(f"{where}:{line} imports {name} from {module}, not a door of referee.store")
        found += [f"{where}:{node.lineno} uses {node.value.id}.{node.attr}" for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id in modules and node.attr.startswith("_")]
    assert not found, "\n".join(found)


def test_no_private_name_of_the_store_is_imported_outside_it():
    """Outside referee/store (the package, its tests, the bench) nothing imports a name starting with ``_`` from
    it: what others need is a public door."""
    paths = [p for folder in ("referee", "tests", "bench") for p in (ROOT / folder).rglob("*.py")
             if STORE not in p.parents]
    found = [f"{p.relative_to(ROOT)}:{line} imports {name} from {module}" for p in sorted(paths)
             for module, names, line in store_imports(p) for name, _ in names or [] if name.startswith("_")]
    assert not found, "\n".join(found)


def test_no_transaction_is_held_outside_the_store():
    """Outside referee/store no module opens a write, commits or rolls back: the tournament's and the club's stores
    write through ``Ledger.write`` (or ``store_new``), which holds the transaction."""
    held = ("writing", "commit", "rollback", "begin", "begin_nested")
    found = [f"{p.relative_to(ROOT)}:{node.lineno} calls .{node.func.attr}()"
             for p in sorted(PACKAGE.rglob("*.py")) if STORE not in p.parents
             for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in held]
    assert not found, "\n".join(found)


SERVED = ("tournament", "club", "web")  # the store's users: they read and write through its doors only
HELD = {"reading", "writing", "engine", "connect", "execute", "scalar", "scalars", "mappings", "session"}


def served_modules() -> list:
    return sorted(p for folder in SERVED for p in (PACKAGE / folder).rglob("*.py"))


def test_the_store_s_users_import_no_database_library_and_no_private_name():
    """referee/tournament, referee/club and referee/web import nothing from sqlmodel or sqlalchemy (no session, no
    ``select()``, no record class) and no name starting with ``_`` from referee.store or its modules."""
    found = []
    for path in served_modules():
        where = path.relative_to(ROOT)
        found += [f"{where} imports {name}" for name in sorted(imported(path))
                  if forbidden(name, ("sqlalchemy", "sqlmodel"))]
        found += [f"{where}:{line} imports {name} from {module}" for module, names, line in store_imports(path)
                  for name, _ in names or [] if name.startswith("_")]
    assert not found, "\n".join(found)


def test_the_store_s_users_hold_no_connection_and_run_no_statement():
    """The tournament's and the club's stores and the web read through ``Ledger.read`` and write through
    ``Ledger.write`` (``store_new``): they open no connection (``reading``, ``engine``, ``connect``), run no
    statement (``execute``), name no record class (``…Record``) and reach no private part of the ledger
    (``ledger._cache``)."""
    found = []
    for path in served_modules():
        where = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in HELD:
                found.append(f"{where}:{node.lineno} uses .{node.attr}")
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and (isinstance(node.value, ast.Attribute) and node.value.attr == "ledger"
                         or isinstance(node.value, ast.Name) and node.value.id == "ledger"):
                found.append(f"{where}:{node.lineno} uses ledger.{node.attr}")
            elif isinstance(node, (ast.Name, ast.alias)) and (getattr(node, "id", None) or
                                                             getattr(node, "name", "")).endswith("Record"):
                found.append(f"{where}:{node.lineno} names a record class")
    assert not found, "\n".join(found)


def test_no_test_module_imports_another():
    """Shared test helpers live in tests/support/; a test module imports neither another test module nor conftest."""
    found = [f"{p.name} imports {name}" for p in sorted((ROOT / "tests").glob("*.py")) for name in imported(p)
             if name.startswith(("tests.test_", "tests.conftest")) or name == "conftest"]
    assert not found, "\n".join(found)


def test_refusals_know_no_http_and_the_web_maps_each_kind_to_its_status():
    """An engine's or the ledger's refusal says what kind it is, never an HTTP status (as python-chess's errors); the
    web's ``status_of`` answers each kind with the contract's status (docs/api.md "Errors")."""
    from referee import errors
    from referee.tournament.movements import PlanError
    from referee.web.services import QueryRefused, status_of
    kinds = [errors.RefereeError, errors.ParseError, errors.RuleError, errors.NotFound, errors.Unauthorized,
             errors.Forbidden, errors.Conflict, PlanError, QueryRefused]
    assert [k for k in kinds if "status" in vars(k)] == []
    assert [status_of(k("code", "A sentence.")) for k in kinds] == [422, 422, 422, 404, 401, 403, 409, 422, 400]
