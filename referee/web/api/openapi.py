"""The OpenAPI 3.1 document served at /api/v1/openapi.json, kept beside the code it describes (docs/api.md says the
same in sentences).

The game list, option names and event types come from the engine registry, so they cannot drift from it; every
event's fields are in ``openapi_events.py``. tests/test_openapi.py validates the document and checks it against the
parsers and the routes; tests/test_contract.py checks a running server's answers against its schemas.
"""
from __future__ import annotations

from referee.games import GAMES
from referee.web.api.openapi_clubs import CLUB, MEMBER, SCHEMAS as CLUB_SCHEMAS, club_paths
from referee.web.api.openapi_events import CARDS, CONTROL, IDEMPOTENCY, PLAYER, event_schemas, nullable
from referee.web.api.openapi_parts import answer, body, error, ref
from referee.web.api.openapi_streams import stream_paths
from referee.web.api.openapi_tournaments import SCHEMAS as TOURNAMENT_SCHEMAS, tournament_paths

OPTION_TYPES = {"bool": {"type": "boolean"}, "int": {"type": "integer"}, "number": {"type": "number", "minimum": 0},
                "cards": CARDS, "ints": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                "choice": {"type": "string"}}


HEADERS = {
    "Allow": {"description": "the methods this path takes", "schema": {"type": "string"}},
    "Retry-After": {"description": "seconds to wait before asking again", "schema": {"type": "integer"}},
    "Location": {"description": "the new table's address in this API", "schema": {"type": "string"}},
}
RESPONSES = {
    "BadKey": answer("No key, or a key that opens no table here (401)", ref("Error")),
    "ViewerKey": answer("A viewer key on a writing call (403)", ref("Error")),
    "NoTable": answer("No such table (404)", ref("Error")),
    "MethodNotAllowed": answer("This path with another method (405): Allow lists the methods it takes",
                              ref("Error"), {"Allow": {"$ref": "#/components/headers/Allow"}}),
    "Stale": answer("expected_version or expected_revision is stale: nothing stored (409)", ref("Error")),
    "TooLarge": answer("The body is larger than this call takes (413)", ref("Error")),
    "Refused": answer("The body cannot be read, or a rule refuses it: nothing stored (422). The error names the "
                     "code, the sentence, and where they apply the ruling id, the card, the player and the field",
                     ref("Error")),
    "BadQuery": answer("A query name or value holds a control character (400, control_character)", ref("Error")),
    "RateLimited": answer("Too many requests from this address (429): table creations and imports per address, "
                         "and wrong keys per address and table; code rate_limited", ref("Error"),
                         {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}),
    "Error": answer("Any other refusal, in the same shape", ref("Error")),
}
COMMON = {"400": error("BadQuery"), "405": error("MethodNotAllowed"), "429": error("RateLimited"),
          "default": error("Error")}
READ = {"401": error("BadKey"), "404": error("NoTable"), **COMMON}
WRITE = {**READ, "403": error("ViewerKey"), "413": error("TooLarge"), "422": error("Refused")}
OPEN = {"413": error("TooLarge"), "422": error("Refused"), **COMMON}  # no key asked
TABLE_ID = [{"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"},
             "description": "the table's id, as its creation answered"}]
STATE_ANSWER = {"type": "object", "required": ["state"], "properties": {"state": ref("State")}}
FULL = {"name": "full", "in": "query", "required": False, "schema": {"enum": ["1", "true", "0", "false"]},
        "description": "1: the answer's state is whole. Without it a complete deal gives tricks_count instead of its "
                       "tricks, so that an answer stays small however long the log; every other field is there"}
CONFLICT = {"409": answer("made_before: the record this key made has had its writer's key renewed since (tables); "
                         "not_made: it could not be stored, send it again", ref("Error"))}
REMATCH = {"type": "object", "required": ["id", "scorer_url", "viewer_url", "state"],
           "description": "the rematch's table; the old table's keys open it",
           "properties": {"id": {"type": "string"}, "scorer_url": {"type": "string"},
                          "viewer_url": {"type": "string"}, "state": ref("State")}}


def openapi_document() -> dict:
    events = event_schemas(GAMES)
    event_ref = {"oneOf": [ref(name) for name in events], "discriminator": {
        "propertyName": "type", "mapping": {name[len("Event_"):]: f"#/components/schemas/{name}" for name in events}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Referee API", "version": "1",
                 "description": "Score and referee card games played at a real table: create a table, post what "
                                "happens, read the state. Errors are {\"error\": {\"code\", \"message\", rule?, "
                                "card?, player?}} and store nothing. The same in sentences: docs/api.md."},
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {"key": []}],
        "paths": {**_paths(event_ref), **tournament_paths(), **club_paths(), **stream_paths()},
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer <key>"},
                "key": {"type": "apiKey", "in": "query", "name": "key", "description": "?key=<key>, as links and "
                        "QR codes carry it"}},
            "headers": HEADERS,
            "responses": RESPONSES,
            "schemas": {**events, **SCHEMAS, **_game_schemas(), **TOURNAMENT_SCHEMAS, **CLUB_SCHEMAS},
        },
    }


def _paths(event_ref: dict) -> dict:
    table = "/api/v1/tables/{table_id}"
    return {
        "/api/v1/games": {"get": {
            "summary": "The games, their player counts, options and events", "security": [],
            "responses": {"200": answer("The games", ref("Games")), **COMMON}}},
        "/api/v1/openapi.json": {"get": {"summary": "This document", "security": [], "responses": {
            "200": answer("OpenAPI 3.1", {"type": "object", "required": ["openapi", "paths"]}), **COMMON}}},
        "/api/v1/tables": {"post": {
            "summary": "Create a table (no account); the answer holds its two keys, shown this once",
            "security": [], "parameters": IDEMPOTENCY, "requestBody": body(ref("NewTable")),
            "responses": {"201": {**answer("The table, its two keys and links", ref("Created")),
                                  "headers": {"Location": {"$ref": "#/components/headers/Location"}}},
                          "200": {**answer("The table this Idempotency-Key made before: nothing new, the same keys",
                                          ref("Created")),
                                  "headers": {"Location": {"$ref": "#/components/headers/Location"}}},
                          **CONFLICT, **OPEN, "401": error("BadKey"),
                          "403": answer("With club: the club's viewer key (403)", ref("Error")),
                          "404": answer("With club: no such club", ref("Error"))}}},
        table: {"get": {"summary": "The table's whole state (any key of the table)", "parameters": TABLE_ID,
                        "responses": {"200": answer("The state", ref("State")), **READ}}},
        table + "/events": {
            "post": {"summary": "Enter one event (scorer key)", "parameters": TABLE_ID + [FULL],
                     "requestBody": body(event_ref),
                     "responses": {"201": answer("Stored: the new state", STATE_ANSWER),
                                   "200": answer("A client_event_id already seen: nothing stored, the current state",
                                                STATE_ANSWER), "409": error("Stale"), **WRITE}},
            "get": {"summary": "The event log, withdrawn events included (any key)", "parameters": TABLE_ID,
                    "responses": {"200": answer("The events", ref("Events")), **READ}}},
        table + "/undo": {"post": {
            "summary": "Withdraw the last event in force (it stays in the log, withdrawn); a retry with the same "
                       "client_event_id withdraws nothing more", "parameters": TABLE_ID + [FULL],
            "requestBody": body({"type": "object", "properties": {**CONTROL, "reason": {
                "type": "string", "minLength": 1, "maxLength": 300, "description": "why (R-COMMON-8): required with "
                "the director's key (422 reason_required); the director's undo keeps the signatures"}}},
                required=False),
            "responses": {"200": answer("The new state", STATE_ANSWER), "409": error("Stale"), **WRITE}}},
        table + "/export.json": {"get": {
            "summary": "The table's set-up, its whole event log (withdrawn events included) and its state; "
                       "POST /api/v1/import takes it back", "parameters": TABLE_ID,
            "responses": {"200": answer("The export", ref("Export")), **READ}}},
        table + "/export.csv": {"get": {
            "summary": "One row per deal and side: points (and Brouc's slate)", "parameters": TABLE_ID,
            "responses": {"200": {"description": "CSV: deal, side, players, points, slate, complete",
                                  "content": {"text/csv": {"schema": {"type": "string"}}}}, **READ}}},
        "/api/v1/import": {"post": {
            "summary": "A new table from an export: its events in force replayed, every one checked again; a log "
                       "the engine refuses stores nothing", "security": [], "parameters": IDEMPOTENCY,
            "requestBody": body(ref("Import")),
            "responses": {"201": answer("The new table, its two new keys and links", ref("Created")),
                          "200": answer("The table this Idempotency-Key imported before: nothing new, the same keys",
                                       ref("Created")), **CONFLICT, **OPEN}}},
        table + "/rematch": {"post": {
            "summary": "Once the series is over: a new table with the same players, options and keys (every link "
                       "works with the new id) and the next dealer; asked again, the same table (200); never for "
                       "a tournament's table (409)",
            "parameters": TABLE_ID,
            "responses": {"201": {**answer("The rematch", REMATCH),
                                  "headers": {"Location": {"$ref": "#/components/headers/Location"}}},
                          "200": answer("The rematch made before: nothing new", REMATCH),
                          "409": answer("tournament_table: a tournament's table has no rematch (the director seats "
                                       "the next round); the error names its table, round and tournament",
                                       ref("Error")),
                          **{**WRITE, "422": answer("series_not_finished: the series is still on", ref("Error"))}}}},
    }


def _game_schemas() -> dict:
    """``Games`` (GET /api/v1/games), and ``NewTable``: one shape per game with its own options."""
    games = sorted(GAMES)
    new_tables = {}
    for game_id in games:
        game = GAMES[game_id]
        counts = game.player_counts()
        options = {o.name: {**OPTION_TYPES[o.type], "default": o.default, "description": o.help["en"]
                            + (f" ({o.rule})" if o.rule else "")} for o in game.options}
        for o in game.options:
            if o.choices is not None:
                options[o.name] = {**options[o.name], "enum": list(o.choices)}
        new_tables["NewTable_" + game_id] = {
            "title": game.names["en"], "type": "object", "required": ["game", "players"],
            "properties": {
                "game": {"const": game_id},
                "players": {"type": "array", "minItems": min(counts), "maxItems": max(counts), "uniqueItems": True,
                            "description": f"names in order of play (R-COMMON-1): {', '.join(map(str, counts))} "
                                           "players, each name of 1 to 40 printable characters and its own (two "
                                           "names differing only in case are the same)",
                            "items": {"oneOf": [{"type": "string", "minLength": 1, "maxLength": 40,
                                                 "pattern": r"\S"}, MEMBER]}},
                "club": CLUB,
                "options": nullable({"type": "object", "properties": options, "additionalProperties": False},
                                    "what is not given takes its default"),
                "dealer": nullable(PLAYER, "the first dealer; null or absent: the first player (R-COMMON-2)")}}
    option = {"type": "object", "required": ["name", "type", "default", "help"], "properties": {
        "name": {"type": "string"}, "type": {"enum": sorted(OPTION_TYPES)}, "default": {},
        "help": ref("Words"), "choices": {"type": "array"}, "rule": {"type": "string"}}}
    game = {"type": "object", "required": ["id", "name", "players", "options", "events"], "properties": {
        "id": {"enum": games}, "name": {"type": "string"}, "names": ref("Words"), "origin": ref("Words"),
        "flag": {"type": "string"}, "description": ref("Words"), "direction": ref("Words"),
        "players": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                    "description": "[fewest, most]"},
        "options": {"type": "array", "items": option},
        "events": {"type": "array", "items": {"type": "string"}, "description": "the event types it takes"}}}
    state = SCHEMAS["State"]  # a state's game: one of the registry's at the time the document is made
    return {"State": {**state, "properties": {**state["properties"], "game": {"enum": games}}},
            "Games": {"type": "object", "required": ["games"],
                      "properties": {"games": {"type": "array", "items": game}}},
            "NewTable": {"oneOf": [ref(name) for name in new_tables], "discriminator": {
                "propertyName": "game", "mapping": {name[len("NewTable_"):]: f"#/components/schemas/{name}"
                                                    for name in new_tables}}},
            **new_tables}


KEY = {"type": "string", "minLength": 22, "description": "at least 128 random bits, URL-safe"}
SETUP = {"type": "object", "required": ["game", "players", "options", "dealer"], "properties": {
    "game": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
    "options": {"type": "object"}, "dealer": {"type": "integer"}}}
LOGGED = {"type": "object", "required": ["seq", "type", "at", "withdrawn"],
          "description": "an event as entered (its own fields, in own those named like a log field), with the "
                         "log's: its place, when it was stored, whether it is withdrawn",
          "properties": {"seq": {"type": "integer", "minimum": 1}, "type": {"type": "string"},
                         "at": {"type": "string", "format": "date-time"}, "withdrawn": {"type": "boolean"},
                         "withdrawn_at": {"type": "string", "format": "date-time"},
                         "client_event_id": {"type": "string"},
                         "by": {"enum": ["scorer", "coscorer", "director", "import"],
                                "description": "R-COMMON-8: whose key made it"},
                         "reason": {"type": "string", "description": "the reason given with it"},
                         "withdrawal": {"type": "object", "required": ["at", "by"], "properties": {
                             "at": {"type": "string", "format": "date-time"},
                             "by": {"enum": ["scorer", "coscorer", "director", "import"]},
                             "reason": {"type": "string"}}, "description": "when and by whom it was withdrawn"},
                         "own": {"type": "object", "description": "the event's own fields that have a log field's "
                                 "name: an extend's at (start or end), the log's at being when it was stored; an "
                                 "import puts them back (docs/api.md, The log)",
                                 "properties": {"at": {"enum": ["start", "end", None]}}}}}
INTS = {"type": "array", "items": {"type": "number"}}
SIDES = {"type": "array", "items": {"type": "integer"}}
MEASURE = {"type": "object", "required": ["unit", "label", "values", "rule"], "properties": {
    "unit": {"type": "string"}, "label": ref("Words"), "values": INTS, "rule": {"type": "string"}}}
STANDING = {"type": "object", "required": ["unit", "label", "values", "rule", "order", "leader", "lowest_leads",
                                           "finished", "winners", "decided_by", "beside"],
            "description": "the series' headline, as the game counts it (docs/api.md, The standing)", "properties": {
                **MEASURE["properties"],
                "unit": {"enum": ["deals_won", "slate", "coches", "penalty_points", "points"]},
                "order": {**SIDES, "description": "the sides, the leading one first"},
                "leader": {"type": ["integer", "null"], "description": "null while the first two are level"},
                "lowest_leads": {"type": "boolean"}, "finished": {"type": "boolean"},
                "winners": {**SIDES, "description": "once finished: the winner, or the sides sharing the win"},
                "decided_by": {"oneOf": [ref("Words"), {"type": "null"}],
                               "description": "what broke a tie on values (R-BRISCA-7: the card points)"},
                "beside": {"type": "array", "items": {**MEASURE, "properties": {
                    **MEASURE["properties"], "headline": {"type": "boolean"}}}}}}
DEAL = {"type": "object", "required": ["number", "dealer", "trump", "complete", "points", "flags"],
        "anyOf": [{"required": ["tricks"]}, {"required": ["tricks_count"], "properties": {"complete": {"const": True}}}],
        "description": "a deal (Buraco: a hand); games add their own fields (Brouc's slate, Buraco's breakdown "
                       "and teams, Brisca's outcome …). A write's answer gives a complete deal's tricks_count instead "
                       "of its tricks unless asked ?full=1; a GET always gives the tricks",
        "properties": {
            "number": {"type": "integer", "minimum": 1}, "dealer": {"type": "integer"},
            "trump": {"type": ["string", "null"]}, "complete": {"type": "boolean"},
            "entry": {"type": "string", "description": "how it was entered: tricks, captures, tally (by its numbers)"
                      " or melds (Buraco)"},
            "tricks_count": {"type": "integer", "minimum": 0, "description": "in a write's answer, for a complete "
                             "deal: how many tricks its tricks held"},
            "tricks": {"type": "array", "items": {"type": "object", "required": ["leader", "cards", "winner",
                                                                                   "points"],
                                                  "properties": {"leader": {"type": "integer"}, "cards": CARDS,
                                                                 "winner": {"type": "integer"},
                                                                 "points": {"type": "number"}}}},
            "points": {**INTS, "description": "this deal's result per side, in the game's own points"},
            "flags": {"type": "array", "items": {"type": "object", "required": ["code", "message"], "properties": {
                "code": {"type": "string"}, "player": {"type": ["integer", "null"]},
                "trick": {"type": ["integer", "null"]}, "message": {"type": "string"}}}}}}
SCHEMAS = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "description": "beside code and message, details where they help: rule, card, player, field …",
        "properties": {"code": {"type": "string", "pattern": "^[a-z0-9_]+$"}, "message": {"type": "string"},
                       "rule": {"type": "string"}, "card": {"type": "string"}, "player": {"type": "integer"},
                       "field": {"type": "string"}}}}},
    "Words": {"type": "object", "required": ["fr", "en"],
              "properties": {"fr": {"type": "string"}, "en": {"type": "string"}}},
    "Created": {"type": "object", "required": ["id", "scorer_key", "viewer_key", "scorer_url", "viewer_url", "state"],
                "properties": {"id": {"type": "string"}, "scorer_key": {**KEY, "description": "may write; only its "
                                                                        "hash is stored, it is shown this once"},
                               "viewer_key": {**KEY, "description": "reads only"},
                               "scorer_url": {"type": "string"}, "viewer_url": {"type": "string"},
                               "state": ref("State")}},
    "State": {"type": "object",
              "required": ["id", "game", "version", "players", "sides", "options", "deals", "totals", "series",
                           "next"],
              "description": "games add their own fields beside these (docs/api.md, The state)",
              "properties": {
                  "id": {"type": "string"}, "game": {"type": "string"},  # its enum: the registry's (_game_schemas)
                  "version": {"type": "integer", "minimum": 0, "description": "events in force"},
                  "revision": {"type": "integer", "description": "grows with every change, undo included"},
                  "players": {"type": "array", "items": {"type": "string"}, "description": "in order of play"},
                  "sides": {"type": "array", "items": {"type": "object", "required": ["name", "players"],
                                                       "properties": {"name": {"type": "string"}, "players": {
                                                           "type": "array", "items": {"type": "integer"}}}}},
                  "options": {"type": "object", "description": "every option, resolved"},
                  "deals": {"type": "array", "items": DEAL},
                  "totals": {**INTS, "description": "running totals per side, in the game's scoring unit"},
                  "series": {"type": "object", "required": ["finished", "winner", "standing"], "properties": {
                      "finished": {"type": "boolean"}, "winner": {"type": ["integer", "null"]},
                      "standing": STANDING}},
                  "signed": {"type": "object", "required": ["sides", "complete", "disputes"], "properties": {
                      "sides": {"type": "array", "items": {"type": "integer"}, "description": "the sides that "
                                "confirmed the result (R-COMMON-7)"},
                      "complete": {"type": "boolean", "description": "every side confirmed and no call is open"},
                      "disputes": {"type": "array", "items": {"type": "object", "properties": {
                          "side": {"type": "integer"}, "message": {"type": ["string", "null"]}}}},
                      "corrected": {
                          "type": "object", "required": ["by", "reason", "at", "sides_before", "result_before"],
                          "description": "R-COMMON-7b: the director's correction changed the signed result; the "
                                         "signatures before it are of the earlier result and no longer count",
                          "properties": {"by": {"type": ["string", "null"]}, "reason": {"type": ["string", "null"]},
                                         "at": {"type": ["string", "null"]},
                                         "sides_before": {"type": "array", "items": {"type": "integer"}},
                                         "result_before": {"type": "array", "items": {"type": "number"},
                                                           "description": "per side, in the series' unit"},
                                         "winners_before": {"type": "array", "items": {"type": "integer"}}}}}},
                  "next": {"type": "object", "required": ["action", "player"], "properties": {
                      "action": {"type": ["string", "null"]}, "player": {"type": ["integer", "null"]}}},
                  "possible": {"type": "array", "items": {"type": "string"},
                               "description": "the event types the table takes now"},
                  "rematch": {"type": ["string", "null"], "description": "the rematch's table id, once started"},
                  "rematch_of": {"type": ["string", "null"], "description": "the table this one is the rematch of"}}},
    "Events": {"type": "object", "required": ["events"], "properties": {"events": {"type": "array",
                                                                                   "items": LOGGED}}},
    "Export": {"type": "object", "required": ["format", "table", "events", "state"], "properties": {
        "format": {"const": "referee-export/1"}, "table": SETUP, "events": {"type": "array", "items": LOGGED},
        "state": ref("State")}},
    "Import": {"type": "object", "required": ["table", "events"],
               "description": "an export as GET …/export.json wrote it; its state is not needed (the events are "
                              "replayed), withdrawn events are skipped",
               "properties": {"format": {"const": "referee-export/1"}, "table": SETUP,
                              "events": {"type": "array", "items": LOGGED}, "state": {"type": "object"}}},
}
