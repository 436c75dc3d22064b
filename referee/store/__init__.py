"""The store: the one owner of Referee's database. Nothing outside this package opens a connection, holds a
transaction or writes a statement (tests/test_layers.py).

- ``ledger.py``: ``Ledger``, tables and their append-only log; its parts ``entries.py`` (an entry, an undo, the trick
  under way; an entry's short way, its checks in one statement, in ``entry_write.py``) and ``making.py`` (new
  tables, imports, rematches, keys).
- ``rows.py`` (a table's statements), ``tournaments.py`` (a tournament's), ``clubs.py`` (a club's): SQLAlchemy Core
  on the records of ``records.py``; ``database.py``: connections, SQLite's IMMEDIATE writes and their queue;
  ``state_cache.py``: replayed states within ``REFEREE_CACHE_MB``; ``once.py``: a creation's id and keys derived
  from the form that asks.
- ``migrations/``: the schema's Alembic revisions; ``backup.py``: a copy of the live database. The command line
  imports them when a command needs them (``COMMANDS``), so a server does not load Alembic to answer a page.

The public doors are the names below (``__all__``); the tournament's and the club's stores (``referee/tournament``,
``referee/club``) and the web use these only, never a name starting with ``_``.
"""
from referee.store import clubs, tournaments
from referee.store.entries import MAX_REASON, check_reason
from referee.store.ledger import Ledger, Unwritten
from referee.store.once import Created, Once, minted
from referee.store.records import entered, hash_key, iso, key_role
from referee.store.rows import WRITERS, cards_of, draft_text, table_role
from referee.store.state_cache import DEFAULT_MB as CACHE_MB  # a server's replay caches together (``serve``)

__all__ = ["CACHE_MB", "Created", "Ledger", "MAX_REASON", "Once", "Unwritten", "WRITERS", "cards_of", "check_reason", "clubs",
           "draft_text", "entered", "hash_key", "iso", "key_role", "minted", "table_role", "tournaments"]

# The modules the command line imports when a command needs them: ``flask --app referee init-db`` / ``db-revision``
# / ``serve --schema check`` (``migrations``), ``flask --app referee backup`` (``backup``).
COMMANDS = ("backup", "migrations")
