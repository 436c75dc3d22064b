"""What a page's form answers once it made something (a table, a rematch, a tournament): the new page next, by
post/redirect/get — a 303 without JavaScript, a 204 with ``HX-Redirect`` for htmx (a whole page change)."""
from __future__ import annotations

from flask import Response, redirect, request


def see_other(target: str) -> Response:
    """The answer that sends the browser to ``target``, with or without htmx."""
    if request.headers.get("HX-Request"):
        return Response(status=204, headers={"HX-Redirect": target})
    return redirect(target, code=303)
