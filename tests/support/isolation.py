"""What keeps two xdist workers apart: each its own PostgreSQL database, made once from TEST_DATABASE_URL's by
adding the worker's id (``referee_test`` → ``referee_test_gw0``) and kept for the next run (every test that uses
it empties it first). Ports are free ports asked of the system (tests/support/env.py), SQLite files and servers'
databases live in each test's tmp_path, screenshots in tests/artifacts/<worker>/ (tests/support/browser.py)."""
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def own_database(url: str, worker: str) -> str:
    """The address of this worker's database beside the one of ``url``, created when missing."""
    base = make_url(url)
    own = base.set(database=f"{base.database}_{worker}")
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            found = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                       {"name": own.database}).first()
            if found is None:
                connection.execute(text(f'CREATE DATABASE "{own.database}"'))
    finally:
        engine.dispose()
    return own.render_as_string(hide_password=False)
