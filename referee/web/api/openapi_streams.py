"""The live streams' part of the OpenAPI document (the contract's "Live streams", docs/api.md): a table's and a
tournament's stream of server-sent events (``referee/web/tables/stream.py``, ``referee/web/tournaments/stream.py``),
merged by ``openapi.py``."""
from __future__ import annotations

from referee.web.api.openapi_parts import error


def _stream(description: str) -> dict:
    return {"description": description, "content": {"text/event-stream": {"schema": {"type": "string"}}}}


FULL = {"description": "too_many_streams: this server process holds as many streams as it may (LIVE_STREAMS); "
                       "try again after Retry-After seconds, or read the state",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        "headers": {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}}
COMMON = {"503": FULL, "405": error("MethodNotAllowed"), "429": error("RateLimited"), "default": error("Error")}


def stream_paths() -> dict:
    table = [{"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "the table's id, as its creation answered"}]
    tournament = [{"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "string"},
                   "description": "the tournament's id, as its creation answered"}]
    return {
        "/api/v1/tables/{table_id}/stream": {"get": {
            "summary": "The table's changes as server-sent events (any key of the table): at once an `event: state` "
                       "whose data is {\"version\", \"revision\"} (as the table's state says them), one more at each "
                       "change whichever server process took it, a comment line at least every 15 s; a renewed key "
                       "ends the stream (401 on the next try)",
            "parameters": table,
            "responses": {"200": _stream("text/event-stream, never cached nor compressed"),
                          "401": error("BadKey"), "404": error("NoTable"), **COMMON}}},
        "/api/v1/tournaments/{tournament_id}/stream": {"get": {
            "summary": "The tournament's changes (its own and its tables') as server-sent events (either of its "
                       "keys): at once an `event: state` whose data is {\"revision\"}, one more at each change, a "
                       "comment line at least every 15 s",
            "parameters": tournament,
            "responses": {"200": _stream("text/event-stream, never cached nor compressed"),
                          "401": error("BadKey"),
                          "404": {"description": "No such tournament (404)", "content": {"application/json": {
                              "schema": {"$ref": "#/components/schemas/Error"}}}}, **COMMON}}},
    }
