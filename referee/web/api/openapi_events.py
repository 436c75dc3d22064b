"""The events of the OpenAPI document: every field each game's parser reads, which ones it requires, and where null
is taken for "not given". Kept beside ``openapi.py``; the parsers are in referee/games/ (events.py, buraco/engine.py,
brouc/numbers.py, brusquembille/numbers.py, brulot/tally.py, buraco/tally.py), each game declares the fields it reads
and an example per event (``Game.event_fields``, ``event_examples``: its package's declared.py) and
tests/test_openapi.py holds the two in step: each example is read by its game's parser, which reads exactly the
fields declared for it.
"""
from __future__ import annotations


def nullable(schema: dict, said: str | None = None) -> dict:
    """``schema`` or null (JSON Schema 2020-12, as OpenAPI 3.1 writes it): null reads as "not given"."""
    kind = schema.get("type")
    out = {**schema, "type": [*(kind if isinstance(kind, list) else [kind]), "null"]} if kind else \
        {"anyOf": [schema, {"type": "null"}]}
    if said:
        out["description"] = said
    return out


CARD = {"type": "string", "pattern": r"^\s*(?:[Jj][Kk]|(?:[AaKkQqJjTt]|[1-9]|1[0-2])[SsHhDdCcOoEeBb])\s*$",
        "description": "<rank><suit>, case-insensitive: AS, 10H or TH, 1O, 12B, JK (Buraco's joker). A code that is "
                       "no card of the table's deck answers 422 unknown_card."}
CARDS = {"type": "array", "items": CARD}
PLAYER = {"type": "integer", "minimum": 0, "description": "a player's index, in order of play (0 is the first)"}
SIDE = {"type": "integer", "minimum": 0, "description": "a side's index (a team, or a player alone)"}
WHOLE = {"type": "integer"}
KING_QUEEN = {**CARDS, "description": "K Q, or K Q J, of one suit"}
CALL = {"enum": ["cape_dehors", "cape_dehors_pas_dedouble"],
        "description": "la cape et dehors (3 coches), or la cape, dehors et pas dédoublé (4 coches): R-BROUC-8"}
DECLARE = {"type": "object", "required": ["player", "call"], "properties": {"player": PLAYER, "call": CALL}}
BURACO_POINTS = {"type": "integer", "minimum": 0, "multipleOf": 5}

# Every field an event's parser reads, whatever the game; each game says which it reads (``Game.event_fields``: its
# package's declared.py).
FIELDS = {
    "deal": {
        "trump": nullable(CARD, "the turned card; null where the deal turns none (Brûlot without trump, Buraco)"),
        "dealer": nullable(PLAYER, "who deals; null or absent: the next dealer (R-COMMON-2)"),
        "widow": nullable(CARDS, "Brûlot: the widow's cards, when known (R-BRULOT-1); null: only its top card, "
                                 "the trump, is known"),
    },
    "trick": {"cards": {**CARDS, "description": "the trick's cards in play order, from the leader"}},
    "capture": {
        "side": SIDE,
        "cards": {**CARDS, "description": "the side's pile at the end of the deal (R-COMMON-6)"},
        "last_trick": nullable({"type": "boolean"}, "Brisca: this side took the last trick (a 60–60 may need it)"),
        "announces": nullable({"type": "array", "items": {"type": "object", "required": ["player", "cards"],
                                                          "properties": {"player": PLAYER, "cards": KING_QUEEN}}},
                              "Brouc: the deal's announces (R-BROUC-4)"),
        "marriages": nullable({"type": "array", "items": {"type": "object", "required": ["side", "cards"],
                                                          "properties": {"side": SIDE, "cards": KING_QUEEN}}},
                              "Brouc: the deal's mariages sur table, with the side that won them (R-BROUC-5)"),
        "declare": nullable(DECLARE, "Brouc: la cape declared (R-BROUC-8)"),
        "brusquembilles": nullable({"type": "array", "items": {
            "type": "object", "required": ["card", "player", "outcome"],
            "properties": {"card": CARD, "player": PLAYER, "outcome": {
                "enum": ["won", "trumped", "beaten"],
                "description": "won: its side took the trick; trumped: coupé; beaten: by a higher card of its "
                               "suit"}}}},
            "Brusquembille: each ace and ten that was played (R-BRUSQ-4); absent or null with piles: the deal's "
            "jetons stay unknown"),
    },
    "exchange": {"player": PLAYER,
                 "card": nullable(CARD, "the 7 or 2 of trump given for the turned card; null: the one it takes "
                                        "(R-BRISCA-4)")},
    "claim": {"player": PLAYER, "cards": {**CARDS, "description": "the highest trumps still out, shown (R-BRISCA-5)"}},
    "announce": {"player": PLAYER, "cards": KING_QUEEN},
    "declare": {"player": PLAYER, "call": CALL},
    "reveal": {"player": PLAYER, "cards": {**CARDS, "description": "the hand a brûlé player shows (R-BRULOT-4)"}},
    "meld": {"side": SIDE, "cards": {**CARDS, "minItems": 3,
                                     "description": "a run in sequence order, or a set (R-BURACO-2, 3)"}},
    "extend": {"side": SIDE, "meld": {"type": "integer", "minimum": 0, "description": "the meld's index in the "
                                      "side's melds, in the order they were laid"},
               "cards": {**CARDS, "minItems": 1, "description": "the cards added, in sequence order"},
               "at": nullable({"enum": ["start", "end"]}, "where a run takes them; null or absent: end")},
    "replace": {"side": SIDE, "meld": {"type": "integer", "minimum": 0, "description": "the meld's index"},
                "card": {**CARD, "description": "the natural card that takes the wild card's place (the wild card "
                                                "moves to the run's end, R-BURACO-7)"}},
    "pot": {"side": SIDE},
    "count": {
        "closed_by": nullable(PLAYER, "who closed (R-BURACO-5); null: the stock ran out"),
        "hands": {"type": "array", "items": CARDS, "description": "the cards left in each player's hand"},
        "melds": nullable({"type": "array", "items": {"type": "array", "items": CARDS}},
                          "per side, the melds laid, when they were not entered one by one (R-BURACO-7)"),
    },
    "tally": {
        "points": {"type": "array", "items": WHOLE,
                   "description": "card points per side, summing to 120 (Brisca, Brouc, Brusquembille)"},
        "last_trick": nullable(SIDE, "Brisca: the side of the last trick, needed at 60–60 when tie_rule is "
                                     "last_trick (R-BRISCA-6)"),
        "cape": nullable(SIDE, "Brouc: the side that took every trick (R-BROUC-8)"),
        "penalties": {"type": "array", "items": WHOLE,
                      "description": "Brûlot: the penalty points each player took (R-BRULOT-5)"},
        "widow": nullable(CARDS, "Brûlot: the widow's cards, when known (R-BRULOT-1)"),
        "closed_by": nullable(PLAYER, "Buraco: who closed; null when the stock ran out (R-BURACO-5)"),
        "sides": {"type": "array", "description": "Buraco: one entry per side; with 3 or 5 players one per player, "
                  "whose melds and burracos count for his team", "items": {
                      "type": "object", "required": ["melds", "pot", "hand"], "properties": {
                          "melds": {**BURACO_POINTS, "description": "card points laid"},
                          "burracos": nullable({"type": "object", "additionalProperties": False,
                                                "description": "how many burracos of each class (R-BURACO-3)",
                                                "properties": {k: {"type": "integer", "minimum": 0}
                                                               for k in ("pure", "semi", "dirty")}}),
                          "pot": {"type": "boolean", "description": "took a pot: with 3 or 5 players the lone "
                                  "player's 18 cards, or the one team-mate who took the team's 11"},
                          "hand": {**BURACO_POINTS, "description": "card points left in hand (partners together)"}}}},
        "teams": nullable({"type": "array", "items": {"type": "array", "items": PLAYER}},
                          "Buraco with 3 or 5 players (needed then, refused otherwise): every player alone when "
                          "nobody took a pot, else [the lone player] and [all the others] (R-BURACO-1b)"),
    },
}
FIELDS["tally"].update({name: FIELDS["capture"][name] for name in ("announces", "marriages", "declare",
                                                                   "brusquembilles")})

# Read by every trick game's parser but used by one game only: accepted (a card must still be a card), no effect.
IGNORED = {("deal", "widow"), ("capture", "last_trick"), ("deal", "trump")}

CONTROL = {
    "expected_version": nullable({"type": "integer"}, "409 unless it is the table's version (events in force)"),
    "expected_revision": nullable({"type": "integer"}, "409 unless it is the table's revision (which also counts "
                                                       "undos)"),
    "client_event_id": nullable({"type": "string", "minLength": 1, "maxLength": 128},
                                "printable text the client chooses; a retry with the same id stores nothing and "
                                "answers 200"),
}
# A creation's own name (tables, imports, tournaments: referee/store/once.py), as a header.
IDEMPOTENCY = [{"name": "Idempotency-Key", "in": "header", "required": False,
                "schema": {"type": "string", "minLength": 1, "maxLength": 128},
                "description": "a name the client gives this creation: the same request (this key and the same "
                               "body) sent again makes nothing more and answers 200 with what the first made, its "
                               "keys included, even while the first is being stored; another body makes its own"}]


def event_schemas(games: dict) -> dict:
    """``Event_<type>`` for every type the registered ``games`` take: the fields of every game that takes it, the
    ones all of them require, and ``anyOf`` one entry per game with its own fields and required ones."""
    kinds = sorted({kind for game in games.values() for kind in game.events})
    schemas = {}
    for kind in kinds:
        takers = sorted(g for g, game in games.items() if kind in game.events)
        per_game = {g: games[g].event_fields[kind] for g in takers}
        read = [name for g in takers for name in (*per_game[g][0], *per_game[g][1])]
        properties = {name: FIELDS[kind][name] for name in dict.fromkeys(read)}
        common = [name for name in properties if all(name in per_game[g][0] for g in takers)]
        schema = {"type": "object", "description": f"A {kind} entry. " + " ".join(
            f"{games[g].names['en']}: {_said(per_game[g])}." for g in takers),
            "properties": {"type": {"const": kind}, **properties, **CONTROL},
            "required": ["type", *common], "x-games": takers,
            "examples": [{"type": kind, **games[g].event_examples[kind]} for g in takers]}
        if len(takers) > 1:
            schema["anyOf"] = [{"title": games[g].names["en"], "x-game": g, "required": list(per_game[g][0]),
                                "properties": {name: FIELDS[kind][name] for name in (*per_game[g][0],
                                                                                      *per_game[g][1])}}
                               for g in takers]
        schemas["Event_" + kind] = schema
    every = sorted(games)
    side = {"type": "integer", "minimum": 0, "description": "the side's index (state.sides)"}
    reason = {"type": "string", "minLength": 1, "maxLength": 300,
              "description": "why (R-COMMON-8): required with the director's key, kept in the log"}
    schemas["Event_confirm"] = {
        "type": "object", "description": "R-COMMON-7: once the series is over, a side agrees with the result (each "
        "side once; a confirm answers its own call). Every game. R-COMMON-7b: the log's confirm carries the result "
        "it signed, `result`: {values, winners} in the series' unit, written by the server (a `result` sent is not "
        "read).", "x-games": every, "required": ["type", "side"],
        "properties": {"type": {"const": "confirm"}, "side": side, "reason": reason, **CONTROL},
        "examples": [{"type": "confirm", "side": 0}]}
    schemas["Event_dispute"] = {
        "type": "object", "description": "R-COMMON-7: once the series is over, a side calls the director, with a "
        "sentence if it likes (its confirmation, if any, is taken back). Every game.", "x-games": every,
        "required": ["type", "side"],
        "properties": {"type": {"const": "dispute"}, "side": side,
                       "message": {"type": "string", "maxLength": 300}, "reason": reason, **CONTROL},
        "examples": [{"type": "dispute", "side": 1, "message": "The last hand's pot was counted twice."}]}
    return dict(sorted(schemas.items()))


def _said(fields: tuple) -> str:
    needed, optional = fields
    words = [*needed, *(name + "?" for name in optional)]
    return ", ".join(words) if words else "no field"
