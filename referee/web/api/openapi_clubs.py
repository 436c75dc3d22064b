"""The clubs' part of the OpenAPI document (docs/api.md, "Clubs and players"; R-CLUB-1): their paths and schemas,
merged by ``openapi.py``, and what a club adds to a new table or tournament (``MEMBER``, ``CLUB``).
tests/test_clubs_api.py checks the answers against these schemas."""
from __future__ import annotations

from referee.web.api.openapi_events import IDEMPOTENCY


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(name: str) -> dict:
    return {"$ref": f"#/components/responses/{name}"}


def _body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


COMMON = {"400": _error("BadQuery"), "405": _error("MethodNotAllowed"), "429": _error("RateLimited"),
          "default": _error("Error")}
NO_CLUB = _json("No such club (404), or no such member in it", _ref("Error"))
READ = {"401": _error("BadKey"), "404": NO_CLUB, **COMMON}
WRITE = {**READ, "403": _json("The club's viewer key on a club key's call (403)", _ref("Error")),
         "413": _error("TooLarge"), "422": _error("Refused")}
ID = [{"name": "club_id", "in": "path", "required": True, "schema": {"type": "string"},
       "description": "the club's id, as its creation answered"}]
PLAYER_ID = [{"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "the member's id, as adding them answered"}]
KEY = {"type": "string", "minLength": 22, "description": "at least 128 random bits, URL-safe"}
NAME = {"type": "string", "minLength": 1, "maxLength": 40, "pattern": r"\S"}
MEMBER = {"type": "object", "required": ["player"], "additionalProperties": False,
          "properties": {"player": {"type": "string", "description": "a member's id (a club's table: with club)"}}}
CLUB = {"type": "string", "description": "a club's id (R-CLUB-1): the table's or tournament's players are the "
        "club's members ({\"player\": id}) or guests (a name); the request carries the club key"}
RATING = {"type": "object", "required": ["mu", "sigma", "ordinal"], "properties": {
    "mu": {"type": "number"}, "sigma": {"type": "number"},
    "ordinal": {"type": "number", "description": "mu − 3·sigma: the ladder's order"}}}
SCHEMAS = {
    "ClubCreated": {"type": "object", "required": ["id", "club_key", "viewer_key", "club_url", "viewer_url"],
                    "properties": {"id": {"type": "string"},
                                   "club_key": {**KEY, "description": "manages the club; only its hash is stored"},
                                   "viewer_key": {**KEY, "description": "reads: the wall, the members' pages"},
                                   "club_url": {"type": "string"}, "viewer_url": {"type": "string"}}},
    "Member": {"type": "object", "required": ["id", "name"], "properties": {"id": {"type": "string"},
                                                                            "name": {"type": "string"}}},
    "Club": {"type": "object", "required": ["id", "name", "players", "tables", "tournaments"], "properties": {
        "id": {"type": "string"}, "name": {"type": "string"},
        "season": {"type": ["string", "null"], "format": "date",
                   "description": "the season's first day: the figures count the series finished from it"},
        "players": {"type": "array", "items": {"type": "object", "required": ["id", "name", "played", "won", "games"],
                                               "properties": {
            "id": {"type": "string"}, "name": {"type": "string"},
            "played": {"type": "integer", "minimum": 0, "description": "finished series of the club"},
            "won": {"type": "integer", "minimum": 0, "description": "series the member's side won alone"},
            "games": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["played", "won", "rating"], "properties": {
                    "played": {"type": "integer"}, "won": {"type": "integer"}, "rating": RATING,
                    "stats": {"type": "object", "additionalProperties": {"type": "integer"},
                              "description": "the game's own counts (its statistics' keys)"}}}}}}},
        "tables": {"type": "array", "items": {"type": "object", "required": ["id", "game", "finished"]}},
        "tournaments": {"type": "array", "items": {"type": "object", "required": ["id", "name"]}},
        "ladders": {"type": "object", "description": "game -> its rated members, the best ordinal first"}}},
}


def club_paths() -> dict:
    root = "/api/v1/clubs"
    one = root + "/{club_id}"
    club = _json("The club", _ref("Club"))
    return {
        root: {"post": {
            "summary": "Create a club (no account): its key and its viewer key, shown this once",
            "security": [], "parameters": IDEMPOTENCY,
            "requestBody": _body({"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 120}}}),
            "responses": {"201": _json("The club, its two keys and links", _ref("ClubCreated")),
                          "200": _json("The club this Idempotency-Key made before", _ref("ClubCreated")),
                          "409": _json("not_made: it could not be stored, send it again", _ref("Error")),
                          "413": _error("TooLarge"), "422": _error("Refused"), **COMMON}}},
        one: {"get": {"summary": "The club: its members with their series and ratings, its tables and tournaments "
                                 "(club or viewer key)", "parameters": ID, "responses": {"200": club, **READ}},
              "patch": {"summary": "The club's name, the first day of its season (club key)", "parameters": ID,
                        "requestBody": _body({"type": "object", "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": 120},
                            "season": {"type": ["string", "null"], "format": "date"}}}),
                        "responses": {"200": club, **WRITE}}},
        one + "/players": {"post": {
            "summary": "A new member (club key)", "parameters": ID,
            "requestBody": _body({"type": "object", "required": ["name"], "properties": {"name": NAME}}),
            "responses": {"201": _json("The member", _ref("Member")),
                          "409": _json("duplicate_player: a member has that name (any case)", _ref("Error")),
                          **WRITE}}},
        one + "/players/{player_id}": {
            "patch": {"summary": "A member's new name (club key)", "parameters": ID + PLAYER_ID,
                      "requestBody": _body({"type": "object", "required": ["name"], "properties": {"name": NAME}}),
                      "responses": {"200": _json("The member", _ref("Member")),
                                    "409": _json("duplicate_player", _ref("Error")), **WRITE}},
            "delete": {"summary": "Remove a member (club key): the name is erased everywhere it is shown (\"former "
                                  "member\"); results and ratings stay, anonymous", "parameters": ID + PLAYER_ID,
                       "responses": {"200": _json("Removed", {"type": "object", "required": ["id", "removed"]}),
                                     **WRITE}}},
    }
