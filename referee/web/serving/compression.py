"""Answers travel gzip-compressed when the client accepts it (Flask-Compress, set up by the factory:
``init_compression``): a page, a scorer fragment, a POST's JSON answer shrink to a fifth or less on a phone's Wi-Fi.
The library compresses, chooses by the request's ``Accept-Encoding``, says ``Vary`` and keeps a strong ``ETag``
apart from the plain body's (``"v:gzip"``), weighing ``If-None-Match`` again afterwards (``/sw.js``: 304 as before).

Never compressed: answers without a body or with one too small to gain (204, 304, a live view's "nothing changed",
anything under ``MIN_BYTES``), files sent as they are (``static/``, with their own validators), streams (a page's
stream compresses its events itself, each once for every stream: ``stream_gzip.py``), and answers
that already say their encoding: a live view's fragment is compressed once per revision (``gzip_bytes``) and kept
for every viewer's poll (``referee/web/shared/live.py``: ``Fragment``), which a library compressing each answer as
it leaves cannot do. Every answer that could have been compressed says ``Vary: Accept-Encoding``.
"""
from __future__ import annotations

import gzip

from flask import Flask, request
from flask_compress import Compress

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
    """What the library is asked to compress: a whole body of one of ``TYPES``, of ``MIN_BYTES`` or more, in a 2xx
    answer with content (never a stream, a file sent as it is, a 204 or a 206, nor an answer already encoded)."""
    return not (response.direct_passthrough or response.is_streamed or response.status_code in (204, 206)
                or not 200 <= response.status_code < 300 or "Content-Encoding" in response.headers
                or response.mimetype not in TYPES or len(response.get_data()) < MIN_BYTES)


def init_compression(app: Flask) -> None:
    """Flask-Compress, gzip only, at ``LEVEL``, called by this app's own ``after_request`` hook for the answers
    ``compressible`` lets through (the library's own hook is not registered: it would compress the static files,
    whose ``direct_passthrough`` it clears, and say ``Vary`` on every answer). Registered before the app's other
    ``after_request`` hooks, so that it runs after them (Flask runs them in reverse order): the body it compresses
    is the final one."""
    app.config.update(COMPRESS_REGISTER=False, COMPRESS_ALGORITHM=["gzip"], COMPRESS_LEVEL=LEVEL,
                      COMPRESS_MIN_SIZE=MIN_BYTES, COMPRESS_MIMETYPES=sorted(TYPES), COMPRESS_STREAMS=False)
    library = Compress(app)

    def compress(response):
        return library.after_request(response) if compressible(response) else response

    app.after_request(compress)
