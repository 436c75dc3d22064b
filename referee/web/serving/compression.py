"""Answers travel gzip-compressed when the client accepts it (``compress``, registered by the factory:
``init_compression``): a page, a scorer fragment, a POST's JSON answer shrink to a fifth or less on a phone's Wi-Fi.

Never compressed: answers without a body or with one too small to gain (204, 304, a live view's "nothing changed",
anything under ``MIN_BYTES``), files sent as they are (``static/``, with their own validators), streams, and answers
that already say their encoding (the live views keep their fragment compressed once per revision:
``referee/web/tables/watch.py``). Every answer that could have been compressed says ``Vary: Accept-Encoding``.
"""
from __future__ import annotations

import gzip

from flask import Flask, request


MIN_BYTES = 512  # below this, gzip's own header and the work cost more than they save
LEVEL = 3  # measured on a 75 KB answer: 0.3 ms for 6.3 KB, where level 6 takes 1.2 ms for 5.3 KB
TYPES = frozenset({"text/html", "application/json", "text/csv", "text/plain", "text/css", "text/javascript",
                   "application/javascript", "image/svg+xml"})


def accepts_gzip() -> bool:
    """The request's ``Accept-Encoding`` takes gzip (``gzip``, ``x-gzip`` or ``*``, with a quality above 0)."""
    encodings = request.accept_encodings
    return max(encodings["gzip"], encodings["x-gzip"]) > 0


def gzip_bytes(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)  # mtime 0: the same body, the same bytes


def compressible(response) -> bool:
    return not (response.direct_passthrough or response.is_streamed or response.status_code in (204, 206)
                or not 200 <= response.status_code < 300 or "Content-Encoding" in response.headers
                or response.mimetype not in TYPES)


def compress(response):
    if not compressible(response):
        return response
    body = response.get_data()
    if len(body) < MIN_BYTES:
        return response
    response.vary.add("Accept-Encoding")
    if not accepts_gzip():
        return response
    response.set_data(gzip_bytes(body))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:  # the same content in another encoding: no longer the same bytes
        response.set_etag(etag, weak=True)
    return response


def init_compression(app: Flask) -> None:
    """Registered before the app's other ``after_request`` hooks, so that it runs after them (Flask runs them in
    reverse order): the body it compresses is the final one."""
    app.after_request(compress)
