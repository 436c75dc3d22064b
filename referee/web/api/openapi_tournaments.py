"""The tournaments' part of the OpenAPI document (docs/api.md, Tournaments): their paths and schemas, merged by
``openapi.py``. tests/test_tournament_api.py checks every answer of a whole tournament against these schemas."""
from __future__ import annotations

from referee.web.api.openapi_clubs import CLUB, MEMBER
from referee.web.api.openapi_events import IDEMPOTENCY
from referee.web.api.openapi_parts import answer, body, error, ref


COMMON = {"400": error("BadQuery"), "405": error("MethodNotAllowed"), "429": error("RateLimited"),
          "default": error("Error")}
NO_TOURNAMENT = answer("No such tournament (404), or no such round or entrant in it", ref("Error"))
READ = {"401": error("BadKey"), "404": NO_TOURNAMENT, **COMMON}
WRITE = {**READ, "403": answer("The viewer's key on a director's call (403)", ref("Error")),
         "413": error("TooLarge"), "422": error("Refused")}
BETWEEN = {**WRITE, "422": answer("round_open: a round is still open (close it first); or the body is refused",
                                 ref("Error"))}
ID = [{"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "string"},
       "description": "the tournament's id, as its creation answered"}]
NUMBER = {"type": "number", "description": "a whole number, or one decimal for a bye's average"}
PAIR = {"type": "array", "items": NUMBER, "minItems": 2, "maxItems": 2, "description": "[North-South, East-West]"}
NAMES = {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "minLength": 1, "maxLength": 40},
         "description": "a pair's two names, or one player's"}
CLUB_NAMES = {"type": "array", "minItems": 1, "maxItems": 2, "items": {"oneOf": [
    {"type": "string", "minLength": 1, "maxLength": 40}, MEMBER]}, "description": "a pair's two names, or one "
    "player's; with club, each a member ({\"player\": id}, or a member's name) or a guest's name"}
KEY = {"type": "string", "minLength": 22, "description": "at least 128 random bits, URL-safe"}
MOVEMENT = {"enum": ["mitchell", "danish", "round_robin"]}
ROUND_PLAN = {"type": "object", "required": ["movement"], "properties": {
    "movement": MOVEMENT,
    "hands": {"type": "integer", "minimum": 1, "maximum": 30, "description": "Burraco: hands in the round "
              "(default 3); the tables' option hands (R-BURACO-6)"},
    "deals": {"type": "integer", "minimum": 1, "maximum": 30, "description": "Brûlot, Brusquembille: deals in the "
              "round (their option deals); Brisca and Brouc play a series"}}}
VP_ROW = {"type": "array", "minItems": 3, "maxItems": 3, "prefixItems": [
    {"type": ["number", "null"], "description": "the largest MP difference of the row (null: any above)"},
    {"type": "number", "description": "VP of the winner"}, {"type": "number", "description": "VP of the loser"}]}
SERIES = {"type": "object", "required": ["unit", "values", "winners"],
          "description": "R-COMMON-7b: once the table's series is over, its result in the series' unit (Brisca: "
                         "deals won), as the sides sign it",
          "properties": {"unit": {"type": "string"}, "values": {"type": "array", "items": {"type": "number"}},
                         "winners": {"type": "array", "items": {"type": "integer"}}}}
TABLE = {"type": "object", "required": ["number", "table_id", "scorer_url", "entrants", "finished", "result"],
         "properties": {
             "number": {"type": "integer", "minimum": 1, "description": "the table card's number"},
             "table_id": {"type": "string", "description": "an ordinary table: every table call takes it"},
             "scorer_url": {"type": ["string", "null"], "description": "the table's scorer page with its table "
                            "card's key (the director's key only; null for the viewer's)"},
             "entrants": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                          "description": "[North-South, East-West]: entrants' indexes"},
             "finished": {"type": "boolean", "description": "its round length reached, or finished by the "
                          "director when the round closed (forced)"},
             "result": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["mp", "vp"],
                                                     "properties": {"mp": PAIR, "vp": PAIR, "series": SERIES}}],
                        "description": "mp: each side's total over the round; vp: from the tournament's VP table "
                                       "(Burraco) or win 2 / draw 1 / loss 0 (the trick games)"},
             "forced": {"type": "boolean"},
             "status": {"enum": ["waiting", "playing", "to_confirm", "signed", "corrected", "disputed", "arbitral",
                                 "not_played"],
                        "description": "R-COMMON-7, R-COMMON-7b, R-TOURN-1: nothing entered, playing, finished and "
                                       "not signed yet, signed by both sides, the director changed a signed result "
                                       "(not all sides confirmed it again), a side called the director, the director gave "
                                       "its VP, or closed by force with nothing entered (0 VP each)"},
             "confirmed": {"type": "array", "items": {"type": "boolean"}, "minItems": 2, "maxItems": 2,
                           "description": "[North-South confirmed, East-West confirmed]"},
             "disputes": {"type": "array", "items": {"type": "object", "properties": {
                 "side": {"type": "integer"}, "message": {"type": ["string", "null"]}}},
                 "description": "the open calls to the director, with their sentences"},
             "hands": {"type": "integer", "minimum": 0, "description": "hands or deals done"},
             "version": {"type": "integer"}, "revision": {"type": "integer"},
             "last_entry": {"type": ["string", "null"], "format": "date-time"}}}
STANDING = {"type": "object", "required": ["rank", "entrant", "vp", "mp", "played"], "properties": {
    "rank": {"type": "integer", "minimum": 1, "description": "equal on every tie-break: the same rank"},
    "entrant": {"type": "integer"}, "names": {"type": "string"}, "vp": NUMBER, "mp": NUMBER,
    "mp_difference": {**NUMBER, "description": "own MP less the opponents' (the first tie-break)"},
    "head_to_head": {**NUMBER, "description": "VP taken from the entrants tied with it (the second)"},
    "played": {"type": "integer", "minimum": 0},
    "penalties": {**NUMBER, "description": "R-TOURN-2: the sum of the entrant's penalties (≤ 0), in vp already"},
    "last": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {
        "round": {"type": "integer"}, "vp": NUMBER, "mp": NUMBER}}]}}}
LOG = {"type": "object", "required": ["at", "kind", "message"], "properties": {
    "at": {"type": "string", "format": "date-time"},
    "kind": {"enum": ["seated", "forced", "not_played", "closed", "withdrawn", "added", "arbitral", "penalty",
                      "hidden", "shown"]},
    "message": {"type": "string", "description": "the director's act in a sentence (forced: with the reason)"},
    "round": {"type": ["integer", "null"]}, "table": {"type": "integer"}, "reason": {"type": ["string", "null"]},
    "entrant": {"type": "integer"}, "vp": {}}}
PENALTY = {"type": "object", "required": ["entrant", "vp", "reason"], "properties": {
    "entrant": {"type": "integer"}, "vp": {"type": "integer", "maximum": -1}, "reason": {"type": "string"},
    "round": {"type": ["integer", "null"]}, "at": {"type": "string", "format": "date-time"}}}
TOURNAMENT = {"type": "object", "required": ["id", "game", "name", "entrants", "rounds", "standings"], "properties": {
    "id": {"type": "string"}, "game": {"type": "string"}, "name": {"type": "string"},
    "entrants": {"type": "array", "items": {"type": "object", "required": ["index", "names"], "properties": {
        "index": {"type": "integer", "minimum": 0}, "names": NAMES,
        "joined": {"type": "integer", "description": "the first round it may play"},
        "withdrawn": {"type": ["integer", "null"], "description": "withdrawn after this many rounds"}}}},
    "rounds": {"type": "array", "items": {"type": "object", "required": ["number", "movement", "status", "tables"],
                                          "properties": {
                                              "number": {"type": "integer", "minimum": 1}, "movement": MOVEMENT,
                                              "status": {"enum": ["seated", "playing", "closed"]},
                                              "bye": {"type": ["integer", "null"], "description": "the entrant "
                                                      "without a table: its round's average VP, MP 0"},
                                              "tables": {"type": "array", "items": TABLE}}}},
    "standings": {"type": "array", "items": STANDING, "description": "VP, then MP difference, then the VP "
                  "between the tied entrants"},
    "plan": {"type": "array", "items": ROUND_PLAN}, "vp_table": {"type": "array", "items": VP_ROW},
    "options": {"type": "object"}, "log": {"type": "array", "items": LOG},
    "revision": {"type": "integer", "description": "grows with every change of the tournament or of its tables"},
    "require_signatures": {"type": "boolean", "description": "R-COMMON-7: a round closes (without force) once "
                           "each table is signed or arbitral"},
    "standings_hidden": {"type": "boolean", "description": "the director hid the standings from the wall"},
    "penalties": {"type": "array", "items": PENALTY, "description": "R-TOURN-2, shown apart"}}}
SCHEMAS = {
    "NewTournament": {"type": "object", "required": ["game", "name", "entrants", "rounds"], "properties": {
        "game": {"type": "string"}, "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "entrants": {"type": "array", "minItems": 2, "maxItems": 1000, "items": CLUB_NAMES,
                     "description": "all pairs or all single players; every name its own"},
        "club": CLUB,
        "rounds": {"type": "array", "minItems": 1, "maxItems": 40, "items": ROUND_PLAN},
        "vp_table": {"oneOf": [{"enum": ["burraco_3", "burraco_4"]}, {"type": "array", "items": VP_ROW}],
                     "description": "Burraco (R-TOURN-4, the scale follows the round's length): default "
                                    "burraco_3 when every round has 3 hands, burraco_4 when every round has 4; "
                                    "other lengths (2 hands) or lengths that differ need rows of one's own (422 "
                                    "vp_table_needed), and a shipped table fits only its own length"},
        "options": {"type": "object", "description": "every table's options beside the round's length"},
        "require_signatures": {"type": "boolean", "default": False, "description": "R-COMMON-7: a round closes "
                               "only once each of its tables is signed by both sides or given an arbitral result"}}},
    "TournamentCreated": {"type": "object", "required": ["id", "director_key", "viewer_key", "director_url",
                                                         "viewer_url", "state"], "properties": {
        "id": {"type": "string"}, "director_key": {**KEY, "description": "writes; only its hash is stored"},
        "viewer_key": {**KEY, "description": "reads"}, "director_url": {"type": "string"},
        "viewer_url": {"type": "string"}, "state": ref("Tournament")}},
    "Tournament": TOURNAMENT,
    "RoundClosed": {"type": "object", "required": ["round", "closed", "open_tables", "state"], "properties": {
        "round": {"type": "integer"}, "closed": {"type": "boolean"},
        "open_tables": {"type": "array", "items": {"type": "object", "required": ["number", "table_id"],
                                                   "properties": {"number": {"type": "integer"},
                                                                  "table_id": {"type": "string"}}},
                        "description": "the tables not finished: they stay open (closed false) unless force"},
        "state": ref("Tournament")}},
    "TableCards": {"type": "object", "required": ["cards"], "properties": {"cards": {"type": "array", "items": {
        "type": "object", "required": ["number", "key", "url"], "properties": {
            "number": {"type": "integer"}, "key": {**KEY, "description": "the scorer key of this number's table in "
                                                   "every round"},
            "url": {"type": "string", "description": "the card's stable link: this number's table of the current "
                                                     "round"}}}}}},
}


# R-TOURN-5: every director's write takes an optional Idempotency-Key: the same call again with the same key answers
# as the first did (its status and body: the state as it is now) and stores nothing more
ONCE = [{"name": "Idempotency-Key", "in": "header", "required": False,
         "description": "R-TOURN-5: 1 to 128 printable characters chosen by the client; the same director's act "
                        "sent again with the same key (a retry, a double tap) answers as the first did and stores "
                        "nothing more; the same key with another act's body is another act",
         "schema": {"type": "string", "minLength": 1, "maxLength": 128}}]


def tournament_paths() -> dict:
    root = "/api/v1/tournaments"
    one = root + "/{tournament_id}"
    state = answer("The tournament", ref("Tournament"))
    return {
        root: {"post": {
            "summary": "Create a tournament or a club evening (no account); no round is seated yet",
            "security": [], "parameters": IDEMPOTENCY, "requestBody": body(ref("NewTournament")),
            "responses": {"201": answer("The tournament, its two keys and links", ref("TournamentCreated")),
                          "200": answer("The tournament this Idempotency-Key made before: nothing new, the same "
                                       "keys", ref("TournamentCreated")),
                          "409": answer("not_made: it could not be stored, send it again", ref("Error")),
                          "401": error("BadKey"), "403": answer("With club: its viewer key (403)", ref("Error")),
                          "404": answer("With club: no such club", ref("Error")),
                          "413": error("TooLarge"), "422": error("Refused"), **COMMON}}},
        one: {"get": {"summary": "The tournament: entrants, rounds and their tables, standings (any of its keys)",
                      "parameters": ID, "responses": {"200": state, **READ}}},
        one + "/rounds": {"post": {
            "summary": "Seat the next round of the plan from the standings so far (director)", "parameters": ONCE + ID,
            "responses": {"201": state, **BETWEEN}}},
        one + "/rounds/{number}/close": {"post": {
            "summary": "Close a round (director): its open tables are named; with force they are finished as they "
                       "stand and the reason is kept in the log, without it the round stays open",
            "parameters": ONCE + ID + [{"name": "number", "in": "path", "required": True,
                                 "schema": {"type": "integer", "minimum": 1}}],
            "requestBody": body({"type": "object", "properties": {
                "force": {"type": "boolean"}, "reason": {"type": "string", "maxLength": 500}}}, required=False),
            "responses": {"200": answer("The round closed, or its open tables", ref("RoundClosed")), **WRITE}}},
        one + "/rounds/{number}/tables/{table}/result": {"post": {
            "summary": "An arbitral result (director, R-TOURN-1): the table's VP, each 0-20, at most 20 together, "
                       "with a reason; its status becomes arbitral",
            "parameters": ONCE + ID + [{"name": name, "in": "path", "required": True,
                                 "schema": {"type": "integer", "minimum": 1}} for name in ("number", "table")],
            "requestBody": body({"type": "object", "required": ["vp", "reason"], "properties": {
                "vp": PAIR, "reason": {"type": "string", "minLength": 1, "maxLength": 300}}}),
            "responses": {"200": state, **WRITE}}},
        one + "/penalties": {"post": {
            "summary": "A penalty in VP for an entrant (director, R-TOURN-2), with a reason; shown apart in the "
                       "standings, whose vp include it", "parameters": ONCE + ID,
            "requestBody": body({"type": "object", "required": ["entrant", "vp", "reason"], "properties": {
                "entrant": {"type": "integer"}, "vp": {"type": "integer", "maximum": -1},
                "reason": {"type": "string", "minLength": 1, "maxLength": 300},
                "round": {"type": "integer", "minimum": 1}}}),
            "responses": {"201": state, **WRITE}}},
        one + "/withdrawals": {"post": {
            "summary": "Between rounds: an entrant withdraws (director); its results stay", "parameters": ONCE + ID,
            "requestBody": body({"type": "object", "required": ["entrant"],
                                  "properties": {"entrant": {"type": "integer"}}}),
            "responses": {"200": state, **BETWEEN}}},
        one + "/entrants": {"post": {
            "summary": "Between rounds: a late entrant, playing from the next round (director)", "parameters": ONCE + ID,
            "requestBody": body({"type": "object", "required": ["names"], "properties": {"names": NAMES}}),
            "responses": {"201": state, **BETWEEN}}},
        one + "/cards": {"get": {
            "summary": "The table cards (director): one per table number, its key and stable link",
            "parameters": ID, "responses": {"200": answer("The cards", ref("TableCards")), **WRITE}}},
    }
