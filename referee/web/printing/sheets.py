"""Score sheets to print, each game's own shape (referee/games/<game>/templates/_sheet_print_<game>.html): Brouc's
slate, Buraco's columns, Brisca's deals and deal wins, Brusquembille's points and jetons, Brûlot's penalties.
``sheet_model`` gives the same shape blank (rows to fill by hand, no names) or filled from a table's state (its
numbers, read from the state alone: never from the scoreboard's fragments)."""
from __future__ import annotations

from referee.games.brulot.engine import PENALTY_RANKS
from referee.games.brusquembille.engine import JETONS
from referee.games.buraco.tally import BONUS_OF, KINDS
from referee.languages import LANGUAGES
from referee.summaries import rank

# Rows a blank sheet offers (the type size then fills the page: static/print-fit.js).
BLANK_ROWS = {"brisca": 16, "brouc": 22, "brulot": 15, "brusquembille": 12, "buraco": 10}
BLANK_SIDES = {"brisca": 2, "brouc": 2, "brulot": 6, "brusquembille": 5, "buraco": 2}
SLATE_ROWS = 30  # rows of a slate column before the next partie starts a new column beside it (4 columns at most)


def sheet_model(game, state: dict | None) -> dict:
    """What a sheet shows: ``blank`` sheets have ``rows`` of None; filled ones the table's deals."""
    build = {"brisca": _brisca, "brouc": _brouc, "brulot": _brulot, "brusquembille": _brusquembille,
             "buraco": _buraco}[game.id]
    model = build(game, state) if state else build(game, None)
    model["blank"] = state is None
    if state and not state["series"]["finished"]:  # a series under way: rows to go on writing by hand
        _room(model, game.id)
    model["lines"], model["width"] = _extent(model, game.id)
    return model


def _extent(model: dict, game_id: str) -> tuple:
    """The rows a sheet takes and its width, in em of its type: what printing.py sizes it by without JavaScript."""
    return EXTENTS[game_id](model)


def _lines(model: dict) -> int:
    return len(model["rows"]) + model.get("extra", 0) + 2


def _slate_extent(model: dict) -> tuple:
    columns = model["columns"] or [[]]
    return max(len(c) for c in columns) + len(model["rows"]) + 3, 20 * len(columns)


# Each game's sheet, its own shape: Buraco's columns per side, Brouc's slate, the others' rows of deals.
EXTENTS = {"buraco": lambda model: (sum(len(side["rows"]) + 4 for side in model["sides"]), 47),
           "brouc": _slate_extent,
           "brusquembille": lambda model: (_lines(model), 9 + 3.2 * (len(model["names"]) + len(model["players"]))),
           "brisca": lambda model: (_lines(model), 32),
           "brulot": lambda model: (_lines(model), 20 + 4 * len(model["names"]))}


def _room(model: dict, game_id: str) -> None:
    """Blank rows after a table's deals, up to a blank sheet's count (two at least)."""
    def more(used: int) -> list:
        return [None] * max(2, BLANK_ROWS[game_id] - used)
    ROOMS.get(game_id, _rows_room)(model, more)


def _rows_room(model: dict, more) -> None:
    model["rows"] = model["rows"] + more(len(model["rows"]))


def _sides_room(model: dict, more) -> None:  # Buraco: a column per side
    for side in model["sides"]:
        side["rows"] = side["rows"] + more(len(side["rows"]))


def _slate_room(model: dict, more) -> None:  # Brouc: the slate's last column
    model["rows"] = more(len(model["columns"][-1]))


ROOMS = {"buraco": _sides_room, "brouc": _slate_room}


def _names(game, state) -> list:
    if state is None:
        return [None] * BLANK_SIDES[game.id]
    return [side["name"] for side in state["sides"]]


def _complete(state) -> list:
    return [deal for deal in state["deals"] if deal["complete"]] if state else []


def _brisca(game, state) -> dict:
    names = _names(game, state)
    if state is None:
        return {"names": names, "rows": [None] * BLANK_ROWS["brisca"], "pips": 7, "wins": [0, 0], "totals": None,
                "wins_needed": _default(game, "wins_needed")}
    rows = []
    for deal in _complete(state):
        outcome = deal.get("outcome") or {}
        winner = outcome.get("winner")
        won = [outcome.get("wins", 0) if winner == s and outcome.get("counted", True) else 0 for s in range(2)]
        plain = winner is not None and outcome.get("wins") == 1 and outcome.get("counted", True)
        rows.append({"number": deal["number"], "trump": deal["trump"], "points": deal["points"], "won": won,
                     "note": None if plain else outcome.get("reason")})
    series = state["series"]
    return {"names": names, "rows": rows, "pips": max(series.get("wins_needed") or 0, max(series["wins"])),
            "wins": series["wins"], "totals": state["totals"], "wins_needed": series.get("wins_needed"),
            "extra": sum(bool(r["note"]) for r in rows)}


def _brouc(game, state) -> dict:
    """The slate: the scorer's side on the right of the line (R-BROUC-6), a partie's deals in tens with the slate so
    far, its end and its coches (R-BROUC-7, 8); parties flow into columns, each with its own line."""
    if state is None:
        return {"names": [None, None], "coches": [0, 0], "columns": [], "first_dealer": None,
                "rows": [None] * BLANK_ROWS["brouc"], "on_slate": None, "limit": None}
    right = state["options"]["scorer_side"]
    order = [1 - right, right]
    parties, partie, running = [], [], [0, 0]
    for deal in _complete(state):
        running = [running[s] + deal["slate"][s] for s in (0, 1)]
        partie.append({"kind": "deal", "number": deal["number"], "tens": [deal["slate"][s] for s in order],
                       "running": [running[s] for s in order], "coches": [deal["coches"][s] for s in order]})
        for a in deal["announces"]:
            partie.append({"kind": "announce", "side": order.index(a["side"]), "tens": a["tens"],
                           "points": a["points"]})
        if deal["cape"]:
            partie.append({"kind": "cape", "reason": deal["cape"]["reason"]})
        if deal["partie_end"]:
            end = deal["partie_end"]
            partie.append({"kind": "end", "slate": [end["slate"][s] for s in order], "loser": end["loser"]})
            parties.append(partie)
            partie, running = [], [0, 0]
    open_partie = bool(partie) or any(state["totals"])
    if partie:
        parties.append(partie)
    columns, column = [], []
    height = max(SLATE_ROWS, -(-sum(len(p) for p in parties) // 4) + 4)
    for partie in parties:
        if column and len(column) + len(partie) > height:
            columns.append(column)
            column = []
        column = column + partie
    if column or not columns:
        columns.append(column)
    dealer = state["first_dealer"]
    return {"names": [state["sides"][s]["name"] for s in order], "order": order,
            "coches": [state["series"]["coches"][s] for s in order], "columns": columns,
            "first_dealer": state["players"][dealer], "dealer_side": order.index(0 if dealer in (0, 2) else 1),
            "on_slate": [state["totals"][s] for s in order] if open_partie else None,
            "limit": state["series"].get("coches_to_lose"), "rows": []}


def _brulot(game, state) -> dict:
    names = _names(game, state)
    if state is None:
        penalties = _default(game, "penalties")
        return {"names": names, "rows": [None] * BLANK_ROWS["brulot"], "totals": None, "winners": [],
                "penalty_words": _penalties(penalties), "deck": 4 * sum(penalties)}
    rows = []
    for deal in _complete(state):
        check = deal.get("check") or {}
        rows.append({"number": deal["number"], "dealer": state["players"][deal["dealer"]], "trump": deal["trump"],
                     "points": deal["points"], "widow": check.get("widow"), "deck": check.get("deck")})
    return {"names": names, "rows": rows, "totals": state["totals"],
            "winners": state["series"]["winners"],  # R-BRULOT-6: filled when the series ends (equal lowest share)
            "penalty_words": _penalties(state["options"]["penalties"]),
            "deck": 4 * sum(state["options"]["penalties"])}


def _default(game, name: str):
    return next(o for o in game.options if o.name == name).default


def _penalties(values: list) -> list:
    """R-BRULOT-5: the penalty cards by name and their points, as the rule summary writes them."""
    return [{"label": {lang: rank(code, lang) for lang in LANGUAGES}, "points": points}
            for code, points in zip(PENALTY_RANKS, values)]


def _brusquembille(game, state) -> dict:
    """Card points per side and, beside them, each player's jetons deal by deal (R-BRUSQ-3, 4), the balance, the
    money and who pays whom."""
    if state is None:
        players = [None] * BLANK_SIDES["brusquembille"]
        return {"names": players, "players": players, "rows": [None] * BLANK_ROWS["brusquembille"],
                "totals": None, "jetons": None, "money": None, "settlement": [None] * 4, "jeton_rule": JETONS, "extra": 7,
                "deals": _default(game, "deals")}
    rows = [{"number": deal["number"], "trump": deal["trump"], "points": deal["points"],
             "jetons": deal.get("jetons") or [0] * len(state["players"])} for deal in _complete(state)]
    return {"names": _names(game, state), "players": state["players"], "rows": rows, "totals": state["totals"],
            "jetons": state["jetons"], "money": state["money"], "settlement": state["settlement"],
            "jeton_rule": JETONS, "extra": len(state["settlement"]) + 3}


def _buraco(game, state) -> dict:
    """Per side, a hand's columns: melds, burracos by class, closing, pot, cards left in hand, the hand's points
    and the running total toward the target (R-BURACO-3, 5, 6)."""
    if state is None:
        return {"sides": [{"name": None, "rows": [None] * BLANK_ROWS["buraco"], "total": None}] * 2,
                "target": _default(game, "target")}
    sides = []
    for s, side in enumerate(state["sides"]):
        rows, running = [], 0
        for hand in _complete(state):
            parts = (hand.get("breakdown") or [None] * len(state["sides"]))[s]
            running += hand["points"][s]
            rows.append({"number": hand["number"], "parts": parts, "classes": _classes(state, hand, s),
                         "points": hand["points"][s], "running": running})
        sides.append({"name": side["name"], "rows": rows, "total": state["totals"][s]})
    return {"sides": sides, "target": state["options"]["target"]}


def _classes(state: dict, hand: dict, side: int) -> dict:
    """A side's burraco bonuses in a hand by class (pure, semi-pure, dirty), as its team's melds or numbers say."""
    player = state["sides"][side]["players"][0]
    team = next((t for t, team in enumerate(hand.get("teams") or []) if player in team["players"]), side)
    counts = dict.fromkeys(KINDS, 0)
    if hand.get("entry") == "tally" and hand.get("tally"):
        entered = hand["tally"]["sides"]
        members = hand["teams"][team]["players"] if len(state["players"]) in (3, 5) else [side]
        for member in members:
            for kind, count in (entered[member].get("burracos") or {}).items():
                counts[kind] += count
    else:
        for meld in hand.get("melds", {}).get(str(team), []):
            if meld.get("burraco"):
                counts["semi" if meld["burraco"] == "semi_pure" else meld["burraco"]] += 1
    return {kind: count * BONUS_OF[kind] for kind, count in counts.items()}
