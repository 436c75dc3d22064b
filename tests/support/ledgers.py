"""Ledger helpers: a new Brisca table, entries run in threads released together, a database wiped bare."""
import threading

from sqlalchemy import MetaData, create_engine

from referee.store import migrations
from referee.errors import Conflict

PLAYERS4 = ["Ana", "Bo", "Cy", "Di"]


def new(ledger, **options):
    state, scorer, viewer = ledger.create_table("brisca", PLAYERS4, options)
    return state["id"], scorer, viewer


def at_once(count, entry) -> list:
    """Runs ``entry`` in ``count`` threads released together; returns the statuses (409 for a conflict)."""
    results, barrier = [], threading.Barrier(count)

    def run():
        barrier.wait()
        try:
            results.append(entry()[0])
        except Conflict:
            results.append(409)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(results)


def engine_of(url):
    return create_engine(migrations.plain_url(url))


def wipe(url) -> None:
    """Every table of the database dropped, alembic_version included."""
    engine = engine_of(url)
    found = MetaData()
    found.reflect(engine)
    found.drop_all(engine)
    engine.dispose()
