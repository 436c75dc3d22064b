"""Rate limits per client address (Flask-Limiter), sized so that a club behind one address still has its evening.

- Tables created (the API's ``POST /api/v1/tables``, the set-up form's "Create" and a tournament's creation,
  ``POST /api/v1/tournaments``, share one count; a refused creation counts nothing, nor does a form posted again
  that made its table before): ``RATELIMIT_TABLES``, by
  default 100 an hour and 300 a day — an evening of 50 tables from one address, each made twice over, stays under
  it.
- Imports (``POST /api/v1/import``, every attempt: an import replays a whole log): ``RATELIMIT_IMPORTS``, 30 an hour.
- Wrong keys (every 401 answer, and a live view's poll refused for its key): ``RATELIMIT_KEY_GUESSES``, 60 a minute;
  past it every request from the address waits for the minute to end. A live view whose key was revoked stops
  polling at its first refusal (share.live), so a forgotten TV never locks a club out.

Past a limit: 429 with ``Retry-After`` (seconds) and the contract's error body, code ``rate_limited`` (a page gets a
readable page). The counts live in memory by default (one process); several workers or machines share them through
``RATELIMIT_STORAGE_URI`` (Flask-Limiter's setting, e.g. ``redis://…``). ``RATELIMIT_ENABLED=false`` turns every limit
off. Operators set all of these as ``FLASK_…`` environment variables (``app.config.from_prefixed_env``).
"""
from __future__ import annotations

import math
import time
from types import SimpleNamespace

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import ngettext
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

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


def key_refused(response) -> bool:
    """A key guess: a 401 answer, or a live poll told to stop because its key no longer opens the table."""
    return response.status_code == 401 or bool(g.get("key_refused"))


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
    limiter = Limiter(get_remote_address, application_limits=[ApplicationLimit(
        _setting("RATELIMIT_KEY_GUESSES"), scope="keys", deduct_when=key_refused)])
    limiter.init_app(app)
    from referee.web.tables.share import opening_live_poll

    limiter.request_filter(opening_live_poll)  # a viewer polling with a key that opens its table guesses nothing
    tables = limiter.shared_limit(_setting("RATELIMIT_TABLES"), scope="tables", deduct_when=table_created,
                                  exempt_when=lambda: not creating())
    imports = limiter.shared_limit(_setting("RATELIMIT_IMPORTS"), scope="imports")
    for endpoint, limit in (("api.create_table", tables), ("tables.change", tables), ("api.create_tournament", tables),
                            ("tables.import_table", imports)):
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, lambda error: too_many(limiter, error))
    app.extensions["referee.limiter"] = limiter
    return limiter


def too_many(limiter: Limiter, error: RateLimitExceeded):
    """429: how long to wait in ``Retry-After`` (seconds), the contract's body for the API, a page for a person."""
    breached = limiter.current_limit
    wait = max(1, math.ceil(breached.window[0] - time.time())) if breached else 60  # the window ends
    scope = error.limit.scope if isinstance(error.limit.scope, str) else "keys"
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
