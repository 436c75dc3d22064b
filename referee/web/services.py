"""What a page's form answers once it made something (a table, a rematch, a tournament): the new page next, by
post/redirect/get — a 303 without JavaScript, a 204 with ``HX-Redirect`` for htmx (a whole page change).

A form that makes something carries its own id (``form_id``, kept while the form is changed and posted back), so
that it makes it once (``referee/once.py``); the API says the same with an ``Idempotency-Key`` header."""
from __future__ import annotations

import uuid

from flask import Response, current_app, g, redirect, request

from referee.errors import ParseError
from referee.once import Created, Once

FIELD = "form_id"


def see_other(target: str) -> Response:
    """The answer that sends the browser to ``target``, with or without htmx."""
    if request.headers.get("HX-Request"):
        return Response(status=204, headers={"HX-Redirect": target})
    return redirect(target, code=303)


def form_id() -> str:
    """The form's own id for its page: the one it was posted with (a seat added, a refusal: the same form), else a
    new one."""
    posted = request.form.get(FIELD)
    return posted if Once.valid(posted) else uuid.uuid4().hex


def _once(given) -> Once | None:
    key = current_app.secret_key
    return Once(key.encode() if isinstance(key, str) else key, given) if Once.valid(given) else None


def form_once() -> Once | None:
    """The creation this form's post stands for; None for a post without its id (a page from before)."""
    return _once(request.form.get(FIELD))


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
    (``referee/web/limits.py``)."""
    if created.status == 200:
        g.made_before = True
    return created
