"""Every answer says how long the app took to make it: ``Server-Timing: app;dur=<milliseconds>``, the W3C header
that browsers' developer tools show beside the network's own time. It runs from the moment the app gets the request
to the moment its answer's headers are ready: routing, the hooks, the handler, its templates, the gzip. Not in it:
the server's reading of the request and writing of the answer (gunicorn's, the same for any app on it), nor a
stream's later events (a stream's is the time to its headers).

Why: a tap on the scorer's page must cost little of the server (issue 40: ≤ 4 ms at the 200th deal), and what a
client times on loopback is the round trip, its own work included; ``bench/entries.py`` reads this header to show
the server's part beside the round trip. The figure says nothing of a table or a key (the answer's own size tells
as much): no reason to keep it from a client.
"""
from __future__ import annotations

from time import perf_counter


class ServerTiming:
    """WSGI middleware around the app: ``Server-Timing`` added to the headers the app starts its answer with."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        began = perf_counter()

        def timed(status, headers, exc_info=None):
            headers.append(("Server-Timing", f"app;dur={(perf_counter() - began) * 1000:.2f}"))
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, timed)


def server_ms(header: str | None) -> float | None:
    """The ``app`` duration in milliseconds of a ``Server-Timing`` header's value, None without one."""
    for metric in (header or "").split(","):
        name, _, rest = metric.strip().partition(";")
        if name == "app":
            for parameter in rest.split(";"):
                key, _, value = parameter.strip().partition("=")
                if key == "dur":
                    return float(value)
    return None
