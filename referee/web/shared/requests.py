"""What a request sends, read safely for every area: a JSON body within limits (``json_body``: the API's, and a
table's import), the key of a page's address or form (``key_of``), a whole number a phone sent (``number``)."""
from __future__ import annotations

import json
import re

from flask import request

from referee.errors import ParseError
from referee.web.services import request_key

JSON_DEPTH = 32  # the deepest body the API writes back is an export's state, well under this


def json_body(optional: bool = False, max_bytes: int | None = None) -> dict:
    """The request's JSON object, read within limits: at most ``max_bytes`` (default the app's
    MAX_CONTENT_LENGTH, 413 beyond), nested at most JSON_DEPTH deep, numbers that fit, no NaN; anything else is
    refused in the contract's shape (422 ``bad_json``) and never reaches the ledger."""
    if max_bytes is not None:
        request.max_content_length = max_bytes
    raw = request.get_data(cache=True)
    if optional and not raw:
        return {}
    if not request.is_json:
        raise ParseError("bad_json", "Send a JSON object with Content-Type: application/json.")
    try:
        body = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, a number too long, nested past the stack
        raise ParseError("bad_json", "The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ParseError("bad_json", "Send a JSON object with Content-Type: application/json.")
    _check_nesting(body)
    return body


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _check_nesting(value) -> None:
    """Lists and objects nested at most JSON_DEPTH deep, and text that is Unicode (a lone surrogate escape such
    as ``"\\ud800"`` would fail later, when written to a page or a database): walked without recursion."""
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (str, dict)):
            for text in ([item] if isinstance(item, str) else item.keys()):
                try:
                    text.encode()
                except UnicodeEncodeError:
                    raise ParseError("bad_json", "The body is not valid JSON.") from None
        if isinstance(item, (dict, list)):
            if level > JSON_DEPTH:
                raise ParseError("bad_json", "The body nests lists and objects more than {depth} deep.",
                                 depth=JSON_DEPTH)
            todo.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))


def key_of() -> str | None:
    """The key of the page's address (or of a form's hidden field)."""
    return request_key() or request.form.get("key") or None


def number(value) -> int | None:
    """A whole number of at most 9 digits written in ASCII, or None: never an exception for what a phone sent."""
    if isinstance(value, int):
        return value if value >= 0 else None
    return int(value) if isinstance(value, str) and re.fullmatch(r"[0-9]{1,9}", value) else None
