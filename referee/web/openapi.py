"""The OpenAPI 3.1 document served at /api/v1/openapi.json, kept beside the code it describes.

The game list, option names and event types come from the engine registry, so they cannot drift from it.
"""
from __future__ import annotations

from referee.games import GAMES

CARD = {"type": "string", "description": "<rank><suit>, case-insensitive: AS, 10H or TH, 1O, 12B, JK"}
CARDS = {"type": "array", "items": CARD}
PLAYER = {"type": "integer", "minimum": 0, "description": "player index, in order of play"}

# Buraco's tally (referee/games/buraco_tally.py; R-BURACO-1b, 4, 5, 6): a hand as the table writes it on paper.
BURACO_POINTS = {"type": "integer", "minimum": 0, "multipleOf": 5}
BURACO_TALLY = {
    "closed_by": {**PLAYER, "nullable": True, "description": "Buraco: who closed; null when the stock ran out"},
    "sides": {"type": "array", "description": "Buraco: one entry per side; with 3 or 5 players one per player, "
              "whose melds and burracos count for his team", "items": {
                  "type": "object", "required": ["melds", "pot", "hand"], "properties": {
                      "melds": {**BURACO_POINTS, "description": "card points laid"},
                      "burracos": {"type": "object", "additionalProperties": False, "description": "burracos laid",
                                   "properties": {k: {"type": "integer", "minimum": 0}
                                                  for k in ("pure", "semi", "dirty")}},
                      "pot": {"type": "boolean", "description": "took a pot: with 3 or 5 players the lone player's "
                              "18 cards, or the one team-mate who took the team's 11"},
                      "hand": {**BURACO_POINTS, "description": "card points left in hand (partners together)"}}}},
    "teams": {"type": "array", "items": {"type": "array", "items": PLAYER},
              "description": "Buraco with 3 or 5 players (required): every player alone when nobody took a pot, "
                             "else [lone player] and [all the others]"},
}

# What a trick game's deal carries beside its cards, by its numbers (tally) or with its piles (capture): R-COMMON-6.
SIDE = {"type": "integer", "minimum": 0, "description": "side index"}
KING_QUEEN = {**CARDS, "description": "K Q, or K Q J, of one suit"}
BROUC_NUMBERS = {
    "announces": {"type": "array", "description": "Brouc: announces (R-BROUC-4)", "items": {
        "type": "object", "required": ["player", "cards"], "properties": {"player": PLAYER, "cards": KING_QUEEN}}},
    "marriages": {"type": "array", "description": "Brouc: mariages sur table (R-BROUC-5)", "items": {
        "type": "object", "required": ["side", "cards"], "properties": {"side": SIDE, "cards": KING_QUEEN}}},
    "declare": {"type": "object", "nullable": True, "description": "Brouc: la cape declared (R-BROUC-8)",
                "properties": {"player": PLAYER, "call": {"enum": ["cape_dehors", "cape_dehors_pas_dedouble"]}}},
}
BRUSQUEMBILLES = {"brusquembilles": {
    "type": "array", "description": "Brusquembille: each ace or ten that moved jetons (R-BRUSQ-4); with piles, "
    "leaving it out leaves the deal's jetons unknown", "items": {
        "type": "object", "required": ["card", "player", "outcome"],
        "properties": {"card": CARD, "player": PLAYER, "outcome": {"enum": ["won", "trumped", "beaten"]}}}}}
POINTS_TALLY = {
    "points": {"type": "array", "items": {"type": "integer", "minimum": 0},
               "description": "Brisca, Brouc, Brusquembille: card points per side, summing to 120"},
    "last_trick": {**SIDE, "nullable": True, "description": "Brisca: the side of the last trick, needed at 60–60 "
                   "when tie_rule is last_trick"},
    "cape": {**SIDE, "nullable": True, "description": "Brouc: the side that took every trick"},
}

EVENT_FIELDS = {
    "deal": ({"trump": {**CARD, "nullable": True}, "dealer": PLAYER}, []),
    "trick": ({"cards": CARDS}, ["cards"]),
    "capture": ({"side": {"type": "integer"}, "cards": CARDS,
                 "last_trick": {"type": "boolean", "description": "this side took the last trick"},
                 **BROUC_NUMBERS, **BRUSQUEMBILLES}, ["side", "cards"]),
    "exchange": ({"player": PLAYER, "card": CARD}, ["player"]),
    "claim": ({"player": PLAYER, "cards": CARDS}, ["player", "cards"]),
    "tally": ({**POINTS_TALLY, **BROUC_NUMBERS, **BRUSQUEMBILLES, **BURACO_TALLY, "penalties": {"type": "array", "items": {"type": "integer", "minimum": 0},
                                             "description": "Brûlot: penalty points per player (R-BRULOT-5)"},
               "widow": {**CARDS, "description": "Brûlot: widow cards, when known (R-BRULOT-1)"}}, []),
}


def _event_schemas() -> dict:
    kinds = sorted({kind for game in GAMES.values() for kind in game.events})
    schemas = {}
    for kind in kinds:
        props, required = EVENT_FIELDS.get(kind, ({}, []))
        games = sorted(g.id for g in GAMES.values() if kind in g.events)
        schemas["Event_" + kind] = {
            "type": "object", "description": f"A {kind} entry ({', '.join(games)}).",
            "properties": {"type": {"const": kind}, **props,
                           "expected_version": {"type": "integer", "description": "409 unless it is the version"},
                           "expected_revision": {"type": "integer", "description": "409 unless it is the revision "
                                                                                   "(which also counts undos)"},
                           "client_event_id": {"type": "string", "maxLength": 128,
                                               "description": "a retry with the same id stores nothing (200)"}},
            "required": ["type", *required]}
    return schemas


def _answer(description, schema_ref=None, schema=None) -> dict:
    schema = schema or {"$ref": f"#/components/schemas/{schema_ref}"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = {
    "401": _answer("No key, or a key that does not open this table", "Error"),
    "404": _answer("No such table", "Error"),
}
WRITE_ERRORS = {**ERRORS, "403": _answer("A viewer key on a writing call", "Error")}
STATE_ANSWER = {"type": "object", "properties": {"state": {"$ref": "#/components/schemas/State"}}}
REMATCH = {"type": "object", "required": ["id", "scorer_url", "viewer_url", "state"],
           "properties": {"id": {"type": "string"}, "scorer_url": {"type": "string"},
                          "viewer_url": {"type": "string"}, "state": {"$ref": "#/components/schemas/State"}}}
TABLE_ID = [{"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}]


def openapi_document() -> dict:
    events = _event_schemas()
    event_ref = {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in events],
                 "discriminator": {"propertyName": "type"}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Referee API", "version": "1",
                 "description": "Score and referee card games played at a real table: create a table, post what "
                                "happens, read the state. Errors are {\"error\": {\"code\", \"message\", rule?, "
                                "card?, player?}}."},
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {"key": []}],
        "paths": {
            "/api/v1/games": {"get": {"summary": "The games, their player counts and options", "security": [],
                                      "responses": {"200": _answer("The games", "Games")}}},
            "/api/v1/openapi.json": {"get": {"summary": "This document", "security": [],
                                             "responses": {"200": {"description": "OpenAPI 3.1"}}}},
            "/api/v1/tables": {"post": {
                "summary": "Create a table (no account)", "security": [],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/NewTable"}}}},
                "responses": {"201": _answer("The table, its two keys and links", "Created"),
                              "422": _answer("Unknown game, bad players, options or dealer", "Error")}}},
            "/api/v1/tables/{table_id}": {"get": {
                "summary": "The table's state", "parameters": TABLE_ID,
                "responses": {"200": _answer("The state", "State"), **ERRORS}}},
            "/api/v1/tables/{table_id}/events": {
                "post": {"summary": "Enter one event", "parameters": TABLE_ID,
                         "requestBody": {"required": True, "content": {"application/json": {"schema": event_ref}}},
                         "responses": {"201": _answer("Stored", schema=STATE_ANSWER),
                                       "200": _answer("A client_event_id already seen: nothing stored",
                                                      schema=STATE_ANSWER),
                                       "409": _answer("expected_version is stale: nothing stored", "Error"),
                                       "422": _answer("A rule is broken or the event is bad: nothing stored",
                                                      "Error"), **WRITE_ERRORS}},
                "get": {"summary": "The event log, withdrawn events included", "parameters": TABLE_ID,
                        "responses": {"200": _answer("The events", "Events"), **ERRORS}}},
            "/api/v1/tables/{table_id}/export.json": {"get": {
                "summary": "The table's set-up, its whole event log (withdrawn events included) and its state",
                "parameters": TABLE_ID, "responses": {"200": {"description": "The export"}, **ERRORS}}},
            "/api/v1/tables/{table_id}/export.csv": {"get": {
                "summary": "One row per deal and side: points (and Brouc's slate)", "parameters": TABLE_ID,
                "responses": {"200": {"description": "CSV", "content": {"text/csv": {}}}, **ERRORS}}},
            "/api/v1/import": {"post": {
                "summary": "A new table from an export: its events in force replayed (all checked again)",
                "security": [], "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"type": "object", "required": ["table", "events"]}}}},
                "responses": {"201": _answer("The new table, its keys and links", "Created"),
                              "422": _answer("Not an export, or an event the engine refuses", "Error")}}},
            "/api/v1/tables/{table_id}/rematch": {"post": {
                "summary": "Once the series is over: a new table with the same players, options and keys (every "
                           "link works with the new id) and the next dealer; asked again, the same table (200)",
                "parameters": TABLE_ID,
                "responses": {"201": _answer("The rematch", schema=REMATCH),
                              "200": _answer("The rematch made before: nothing new", schema=REMATCH),
                              "422": _answer("series_not_finished: the series is still on", "Error"),
                              **WRITE_ERRORS}}},
            "/api/v1/tables/{table_id}/undo": {"post": {
                "summary": "Withdraw the last event in force (it stays in the log, withdrawn); a retry with the "
                           "same client_event_id withdraws nothing more",
                "parameters": TABLE_ID,
                "requestBody": {"required": False, "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"expected_version": {"type": "integer"},
                                                     "expected_revision": {"type": "integer"},
                                                     "client_event_id": {"type": "string", "maxLength": 128}}}}}},
                "responses": {"200": _answer("The new state", schema=STATE_ANSWER),
                              "409": _answer("expected_version is stale", "Error"),
                              "422": _answer("Nothing to undo", "Error"), **WRITE_ERRORS}}},
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"},
                                "key": {"type": "apiKey", "in": "query", "name": "key"}},
            "schemas": {**events, **SCHEMAS, "Games": _games_schema()},
        },
    }


def _games_schema() -> dict:
    return {"type": "object", "properties": {"games": {"type": "array", "items": {
        "type": "object", "required": ["id", "name", "players", "options"],
        "properties": {"id": {"enum": sorted(GAMES)}, "name": {"type": "string"},
                       "players": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
                       "options": {"type": "array", "items": {"type": "object", "required": ["name", "type",
                                                                                             "default"]}}}}}}}


SCHEMAS = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "rule": {"type": "string"},
                       "card": {"type": "string"}, "player": {"type": "integer"}}}}},
    "NewTable": {"type": "object", "required": ["game", "players"], "properties": {
        "game": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "object"}, "dealer": PLAYER}},
    "Created": {"type": "object", "required": ["id", "scorer_key", "viewer_key", "scorer_url", "viewer_url", "state"],
                "properties": {"id": {"type": "string"}, "scorer_key": {"type": "string"},
                               "viewer_key": {"type": "string"}, "scorer_url": {"type": "string"},
                               "viewer_url": {"type": "string"}, "state": {"$ref": "#/components/schemas/State"}}},
    "State": {"type": "object",
              "required": ["id", "game", "version", "players", "sides", "options", "deals", "totals", "series",
                           "next"],
              "properties": {
                  "id": {"type": "string"}, "game": {"type": "string"}, "version": {"type": "integer"},
                  "revision": {"type": "integer", "description": "grows with every change, undo included"},
                  "players": {"type": "array", "items": {"type": "string"}},
                  "sides": {"type": "array", "items": {"type": "object", "properties": {
                      "name": {"type": "string"}, "players": {"type": "array", "items": {"type": "integer"}}}}},
                  "options": {"type": "object"},
                  "deals": {"type": "array", "items": {"type": "object", "required": [
                      "number", "dealer", "trump", "complete", "tricks", "points", "flags"]}},
                  "totals": {"type": "array", "items": {"type": "integer"}},
                  "series": {"type": "object", "required": ["finished", "winner"]},
                  "next": {"type": "object", "required": ["action", "player"]},
                  "possible": {"type": "array", "items": {"type": "string"}},
                  "rematch": {"type": ["string", "null"], "description": "the rematch's table id, once started"},
                  "rematch_of": {"type": ["string", "null"], "description": "the table this one is the rematch of"}}},
    "Events": {"type": "object", "properties": {"events": {"type": "array", "items": {
        "type": "object", "required": ["seq", "type", "at", "withdrawn"]}}}},
}
