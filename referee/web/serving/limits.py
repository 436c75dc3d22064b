"""Rate limits (Flask-Limiter), sized so that a club behind one address still has its evening.

- Tables created (the API's ``POST /api/v1/tables``, the set-up form's "Create", a tournament's creation,
  ``POST /api/v1/tournaments``, and a club's, ``POST /api/v1/clubs`` and its form) share one count per client
  address; a refused creation counts nothing, nor does a form posted again that made its table before:
  ``RATELIMIT_TABLES``, by default 100 an hour and 300 a day — an evening of 50 tables from one address, each made
  twice over, stays under it.
- Imports (``POST /api/v1/import``, a club's ``/clubs/import``, every attempt, per address: an import replays a
  whole log): ``RATELIMIT_IMPORTS``, 30 an hour.
- Wrong keys, per client address *and* table (or tournament): ``RATELIMIT_KEY_GUESSES``, 60 a minute. Counted and
  checked only where a key fails (``key_failed``: every 401, and a live view's poll refused for its key), so a
  request whose key opens its table is never refused by this limit — a guesser at the club's address slows itself
  down at the table it guesses, never the room's phones, nor its own guesses at another table. Past it a wrong key
  is answered 429 instead of 401 until the window ends. Keys are 192 random bits (``secrets.token_urlsafe(24)``):
  the limit keeps guessing a nuisance, the keys' length keeps it hopeless.

Past a limit: 429 with ``Retry-After`` (seconds) and the contract's error body, code ``rate_limited`` (a page gets a
readable page). The counts live in Flask-Limiter's storage, memory by default (one process); several workers or
machines share them through ``RATELIMIT_STORAGE_URI`` (e.g. ``redis://…``), the wrong keys' count too (it is kept
by the limiter's own strategy). ``RATELIMIT_ENABLED=false`` turns every limit off. Operators set all of these as
``FLASK_…`` environment variables (``app.config.from_prefixed_env``).
"""
from __future__ import annotations

import math
import time
from types import SimpleNamespace

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import ngettext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many

DEFAULTS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_TABLES": "100 per hour;300 per day",
    "RATELIMIT_IMPORTS": "30 per hour",
    "RATELIMIT_KEY_GUESSES": "60 per minute",
}
WHAT = {"tables": "tables created", "imports": "imports", "keys": "wrong keys"}  # the API's English message


def _setting(name: str):
    return lambda: current_app.config[name]


def table_created(response) -> bool:
    """The API's 201, the form's redirect to the new table (303, or 204 with HX-Redirect for htmx); not a form's
    second post, answered with the table its first made (``referee/web/services.py``: ``made``)."""
    if g.get("made_before"):
        return False
    return response.status_code in (201, 303) or (response.status_code == 204 and "HX-Redirect" in response.headers)


def creating() -> bool:
    """The set-up form posts for every change of seats; only its "Create" makes a table (the API always does)."""
    return request.form.get("op", "create") == "create"


def init_limits(app: Flask) -> Limiter:
    """The limiter and its limits on the views already registered; call after the blueprints."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    limiter = Limiter(get_remote_address)
    limiter.init_app(app)
    tables = limiter.shared_limit(_setting("RATELIMIT_TABLES"), scope="tables", deduct_when=table_created,
                                  exempt_when=lambda: not creating())
    imports = limiter.shared_limit(_setting("RATELIMIT_IMPORTS"), scope="imports")
    for endpoint, limit in (("api.create_table", tables), ("tables.change", tables), ("api.create_tournament", tables),
                            ("api.create_club", tables), ("clubs.create", tables),  # a club counts as a table
                            ("tables.import_table", imports), ("clubs.import_club", imports)):
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, lambda error: too_many_created(limiter, error))
    app.extensions["referee.limiter"] = limiter
    check_limited_views_only(app, limiter)
    return limiter


# Flask-Limiter's settings whose limits its before_request hook checks on every request (a default or application
# limit, meta limits, an in-memory fallback for a storage out of reach); Referee's own limits are on their views.
APP_WIDE = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META", "RATELIMIT_IN_MEMORY_FALLBACK")


def check_limited_views_only(app: Flask, limiter: Limiter) -> None:
    """Flask-Limiter checks every request in a ``before_request`` hook for the limits of the whole app; a view
    limited by its decorator checks its own limits when called, whatever that hook did. With none of ``APP_WIDE``
    set (Referee sets none) the hook has nothing to check, at 0.1 ms a request (an entry's tenth of the floor's
    time): it is left out, and an operator who sets one of them gets it back."""
    if any(app.config.get(name) for name in APP_WIDE):
        return
    hooks = app.before_request_funcs.get(None, [])
    hooks[:] = [hook for hook in hooks if not (getattr(hook, "__self__", None) is limiter
                                               and getattr(hook, "__name__", "") == "_check_request_limit")]


def guessed_at() -> str:
    """What a wrong key tried to open: the request's table, else its tournament (a table card's page)."""
    values = request.view_args or {}
    if values.get("table_id"):
        return "table:" + values["table_id"]
    if values.get("tournament_id"):
        return "tournament:" + values["tournament_id"]
    if values.get("club_id"):
        return "club:" + values["club_id"]
    return "-"


def key_failed():
    """A key that opens nothing here was given (the caller answers 401, or a poll's 286): one guess counted for
    this address and table; past ``RATELIMIT_KEY_GUESSES`` the 429 to answer instead, else None. Asked only where a
    key failed, so a right key never meets this limit. The count is Flask-Limiter's (its storage and strategy:
    ``RATELIMIT_STORAGE_URI`` shares it between processes)."""
    limiter: Limiter = current_app.extensions["referee.limiter"]
    if not limiter.enabled or g.get("guess_counted"):
        return None
    g.guess_counted = True  # one request, one guess
    prefix = current_app.config.get("RATELIMIT_KEY_PREFIX")  # Flask-Limiter's own setting, for a shared storage
    who = (*([prefix] if prefix else []), "keys", get_remote_address(), guessed_at())
    try:
        items = parse_many(current_app.config["RATELIMIT_KEY_GUESSES"])
        refused = [item for item in items if not limiter.limiter.hit(item, *who)]  # every window counts the guess
        if not refused:
            return None
        resets = [limiter.limiter.get_window_stats(item, *who).reset_time for item in refused]
    except Exception:  # the storage is out of reach (redis down): as Flask-Limiter does, unless told to swallow it
        if not current_app.config.get("RATELIMIT_SWALLOW_ERRORS"):
            raise
        current_app.logger.exception("the wrong keys' count could not be kept")
        return None
    return too_many("keys", max(1, math.ceil(max(resets) - time.time())))


def too_many_created(limiter: Limiter, error: RateLimitExceeded):
    """Flask-Limiter's refusal (tables, imports): 429 until its window ends."""
    breached = limiter.current_limit
    wait = max(1, math.ceil(breached.window[0] - time.time())) if breached else 60  # the window ends
    return too_many(error.limit.scope if isinstance(error.limit.scope, str) else "tables", wait)


def too_many(scope: str, wait: int):
    """429: how long to wait in ``Retry-After`` (seconds), the contract's body for the API, a page for a person."""
    if request.path.startswith("/api/"):
        response = jsonify(error={"code": "rate_limited", "retry_after": wait, "message":
                                  f"Too many {WHAT.get(scope, 'requests')} from this address: try again in "
                                  f"{wait} s."})
    else:
        minutes = math.ceil(wait / 60)
        if scope == "keys":
            sentence = ngettext("Too many wrong keys from this address: try again in %(num)s minute.",
                                "Too many wrong keys from this address: try again in %(num)s minutes.", minutes)
        else:
            sentence = ngettext("Too many tables were created from this address: try again in %(num)s minute.",
                                "Too many tables were created from this address: try again in %(num)s minutes.",
                                minutes)
        response = current_app.make_response(render_template("error.html", error=SimpleNamespace(message=sentence)))
    response.status_code = 429
    response.headers["Retry-After"] = str(wait)
    return response
