"""The clubs' part of the OpenAPI document (docs/api.md, "Clubs and players"; R-CLUB-1): their paths and schemas,
merged by ``openapi.py``, and what a club adds to a new table or tournament (``MEMBER``, ``CLUB``).
tests/test_clubs_api.py checks the answers against these schemas."""
from __future__ import annotations

from referee.web.api.openapi_events import IDEMPOTENCY
from referee.web.api.openapi_parts import answer, body, error, ref


COMMON = {"400": error("BadQuery"), "405": error("MethodNotAllowed"), "429": error("RateLimited"),
          "default": error("Error")}
NO_CLUB = answer("No such club (404), or no such member in it", ref("Error"))
READ = {"401": error("BadKey"), "404": NO_CLUB, **COMMON}
WRITE = {**READ, "403": answer("The club's viewer key on a club key's call (403)", ref("Error")),
         "413": error("TooLarge"), "422": error("Refused")}
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
    club = answer("The club", ref("Club"))
    return {
        root: {"post": {
            "summary": "Create a club (no account): its key and its viewer key, shown this once",
            "security": [], "parameters": IDEMPOTENCY,
            "requestBody": body({"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 120}}}),
            "responses": {"201": answer("The club, its two keys and links", ref("ClubCreated")),
                          "200": answer("The club this Idempotency-Key made before", ref("ClubCreated")),
                          "409": answer("not_made: it could not be stored, send it again", ref("Error")),
                          "413": error("TooLarge"), "422": error("Refused"), **COMMON}}},
        one: {"get": {"summary": "The club: its members with their series and ratings, its tables and tournaments "
                                 "(club or viewer key)", "parameters": ID, "responses": {"200": club, **READ}},
              "patch": {"summary": "The club's name, the first day of its season (club key)", "parameters": ID,
                        "requestBody": body({"type": "object", "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": 120},
                            "season": {"type": ["string", "null"], "format": "date"}}}),
                        "responses": {"200": club, **WRITE}}},
        one + "/players": {"post": {
            "summary": "A new member (club key)", "parameters": ID,
            "requestBody": body({"type": "object", "required": ["name"], "properties": {"name": NAME}}),
            "responses": {"201": answer("The member", ref("Member")),
                          "409": answer("duplicate_player: a member has that name (any case)", ref("Error")),
                          **WRITE}}},
        one + "/players/{player_id}": {
            "patch": {"summary": "A member's new name (club key)", "parameters": ID + PLAYER_ID,
                      "requestBody": body({"type": "object", "required": ["name"], "properties": {"name": NAME}}),
                      "responses": {"200": answer("The member", ref("Member")),
                                    "409": answer("duplicate_player", ref("Error")), **WRITE}},
            "delete": {"summary": "Remove a member (club key): the name is erased everywhere it is shown (\"former "
                                  "member\"); results and ratings stay, anonymous", "parameters": ID + PLAYER_ID,
                       "responses": {"200": answer("Removed", {"type": "object", "required": ["id", "removed"]}),
                                     **WRITE}}},
    }
