"""What the views share: the app's services (the factory makes them: ``referee/web/app.py``), the key a request
carries, the links phones can open, and what a page's form answers once it made something.

A page's form that made something (a table, a rematch, a tournament) answers with the new page next, by
post/redirect/get — a 303 without JavaScript, a 204 with ``HX-Redirect`` for htmx (a whole page change).

A form that makes something carries its own id (``form_id``, kept while the form is changed and posted back), so
that it makes it once (``referee/store/once.py``); the API says the same with an ``Idempotency-Key`` header."""
from __future__ import annotations

import ipaddress
import re
import uuid
from urllib.parse import urlsplit

from flask import Response, current_app, g, redirect, request, url_for

from referee.errors import Conflict, Forbidden, NotFound, ParseError, RefereeError, Unauthorized, msg
from referee.store import Created, Once
from referee.web.serving import lan_addresses

FIELD = "form_id"


def ledger():
    """The app's ledger (``referee/store/ledger.py``): every table, its log and its keys."""
    return current_app.extensions["referee.ledger"]


def tournaments():
    """The app's tournaments (``referee/tournament/store.py``), stored through the ledger's doors."""
    return current_app.extensions["referee.tournaments"]


def clubs():
    """The app's clubs (``referee/club/store.py``), stored through the ledger's doors."""
    return current_app.extensions["referee.clubs"]


def watch():
    """The live views' memo of this process (``referee/web/tables/watch.py``)."""
    return current_app.extensions["referee.watch"]


def standings_watch():
    """The tournaments' live views' memo of this process (``referee/web/shared/live.py``: a ``KeyedWatch``)."""
    return current_app.extensions["referee.standings_watch"]


def club_watch():
    """The clubs' walls' memo of this process (``referee/web/shared/live.py``: a ``KeyedWatch``)."""
    return current_app.extensions["referee.club_watch"]


def request_key() -> str | None:
    """The key from ``Authorization: Bearer <key>`` or ``?key=<key>`` (links and QR codes)."""
    auth = request.headers.get("Authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return request.args.get("key") or None


def public_url(endpoint: str, **values) -> str:
    """An absolute link phones can open: PUBLIC_URL when set (``make run`` sets the LAN address)."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def phone_link(endpoint: str, **values) -> str:
    """A link phones can open: PUBLIC_URL when set, else this host, and never a loopback address."""
    return base_url() + url_for(endpoint, **values)


def phone_url(table_id: str, key: str, endpoint: str = "tables.table") -> str:
    """A table's link phones can open."""
    return phone_link(endpoint, table_id=table_id, key=key)


def base_url() -> str:
    """Where phones reach this server: PUBLIC_URL, else this host, and never a loopback address (a phone would reach
    itself): the machine's LAN address instead."""
    base = current_app.config.get("PUBLIC_URL")
    if not base:
        host = urlsplit(request.host_url)
        try:
            loopback = host.hostname == "localhost" or ipaddress.ip_address(host.hostname).is_loopback
        except ValueError:
            loopback = False
        lan = lan_addresses() if loopback else []
        base = f"{host.scheme}://{lan[0]}:{host.port or 80}" if lan else request.host_url
    return base.rstrip("/")


def see_other(target: str) -> Response:
    """The answer that sends the browser to ``target``, with or without htmx."""
    if is_htmx():
        return Response(status=204, headers={"HX-Redirect": target})
    return redirect(target, code=303)


def form_id() -> str:
    """The form's own id for its page: the one it was posted with (a seat added, a refusal: the same form), or the
    one its address names (``?form=``: the set-up page comes back to its form), else a new one."""
    posted = request.form.get(FIELD) if request.method == "POST" else request.args.get("form")
    return posted if Once.valid(posted) else uuid.uuid4().hex


def _once(given) -> Once | None:
    key = current_app.secret_key
    return Once(key.encode() if isinstance(key, str) else key, given) if Once.valid(given) else None


def form_once(given: str | None = None) -> Once | None:
    """The creation this form's post stands for (or the form ``given`` names); None for a post without its id (a
    page from before)."""
    return _once(request.form.get(FIELD) if given is None else given)


def api_once() -> Once | None:
    """The creation an API call stands for, by its ``Idempotency-Key`` header (none: a creation of its own)."""
    given = request.headers.get("Idempotency-Key")
    if given is None:
        return None
    if not Once.valid(given):
        raise ParseError("bad_idempotency_key", "Idempotency-Key is a text of 1 to {max} printable characters.",
                         max=128)
    return _once(given)


def made(created: Created) -> Created:
    """Notes a creation answered from before (the same form again): it made nothing, so it counts nothing
    (``referee/web/serving/limits.py``)."""
    if created.status == 200:
        g.made_before = True
    return created


TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what the ledger and the tournaments make (token_urlsafe)


def known_ids(_endpoint, values) -> None:
    """A table or tournament id that none can have (a NUL, a space, too long) is answered 404 here, on every page
    and API call, before it reaches a database that would choke on it (PostgreSQL refuses a NUL in text)."""
    table_id = (values or {}).get("table_id")
    if table_id is not None and not TABLE_ID.fullmatch(table_id):
        raise NotFound("table_not_found", "There is no table {table}.", table=repr(table_id))
    tournament_id = (values or {}).get("tournament_id")
    if tournament_id is not None and not TABLE_ID.fullmatch(tournament_id):
        raise NotFound("tournament_not_found", "There is no tournament {tournament}.", tournament=repr(tournament_id))
    club_id = (values or {}).get("club_id")
    if club_id is not None and not TABLE_ID.fullmatch(club_id):
        raise NotFound("club_not_found", "There is no club {club}.", club=repr(club_id))
    player_id = (values or {}).get("player_id")
    if player_id is not None and not TABLE_ID.fullmatch(player_id):
        raise NotFound("player_not_found", "There is no member {player} in this club.", player=repr(player_id))


def is_htmx() -> bool:
    """Whether this request is htmx's (its ``HX-Request`` header): the answer is the page's fragment, not the page."""
    return bool(request.headers.get("HX-Request"))


CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # U+0000–U+001F and U+007F: no link of this site holds one


class QueryRefused(ParseError):
    """A query that no link of this site has: 400, before any view reads it."""


# Each kind of refusal and the HTTP status it is answered with (the first that the error is an instance of); any
# other refusal, a parse or a rule error, is 422 (docs/api.md "Errors").
STATUSES = ((QueryRefused, 400), (Unauthorized, 401), (Forbidden, 403), (NotFound, 404), (Conflict, 409))


def status_of(error: RefereeError) -> int:
    """The HTTP status a refusal is answered with."""
    return next((status for kind, status in STATUSES if isinstance(error, kind)), 422)


def printable_query() -> None:
    """Every page and API call (``before_request``): a query name or value with a control character (a line break,
    a tab, a NUL — raw or %-encoded) is answered 400 with a sentence (the contract's error body for /api/), so none
    reaches a header (a redirect's Location), a template or the database."""
    for name, value in request.args.items(multi=True):
        if CONTROL.search(name) or CONTROL.search(value):
            raise QueryRefused("control_character", msg(
                "This address holds an invisible control character (a line break, a tab) that no link of this site "
                "has: check the link and try again."), field=name)
