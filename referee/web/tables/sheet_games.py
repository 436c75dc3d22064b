"""The numbers screen's parts per game (sheet.py holds the ``Sheet``): each game's ``tally`` from the sheet (the
card points per side with Brisca's last trick, Brouc's announces, mariages and cape, Brusquembille's brusquembilles;
Brûlot's penalties per player and Buraco's hand per side) and the bounds of its numbers. Presentation and parsing
only: the engine checks every number.

Buraco's rows (compact strings in the sheet's ``items``): ``k:P`` who closed (none: the stock ran out), ``u:S:pure``
one burraco of a class laid by side S (counted; a stepper adds and removes them), ``n:S`` side S did not take its pot
(2 or 4 players: a pot is taken unless tapped), ``p:P`` the player who took the 18-card pot and ``e:P`` the one who
took his team's 11 (3 or 5 players, R-BURACO-1b). Its numbers: ``v{2*side}`` the card points laid, ``v{2*side+1}``
those left in hand.
"""
from __future__ import annotations

from referee.errors import ParseError
from referee.games.buraco.tally import KINDS, STEP, VALUES
from referee.games.tricks import TrickGame


def _points(sheet, whole: int | None) -> dict:
    """Card points per side (R-COMMON-6), when some were typed."""
    return {"points": sheet.numbers(whole)} if sheet.values else {}


def _cards(text: str) -> list:
    return [c for c in text.split(".") if c]


def brisca_tally(sheet, whole: int | None, table) -> dict:
    """Brisca: the card points and the side that took the last trick (R-BRISCA-6's ``last_trick``)."""
    last = sheet.rows("l")
    return {**_points(sheet, whole), "last_trick": int(last[0][1][0]) if last else None}


def brouc_tally(sheet, whole: int | None, table) -> dict:
    """Brouc: the card points, the cape, the announces, the mariages sur table and a declaration (R-BROUC-4, 5, 8)."""
    cape = sheet.rows("c")
    declare = sheet.rows("d")
    return {**_points(sheet, whole), "cape": int(cape[0][1][0]) if cape else None,
            "announces": [{"player": int(p[0]), "cards": _cards(p[1])} for _, p in sheet.rows("a")],
            "marriages": [{"side": int(p[0]), "cards": _cards(p[1])} for _, p in sheet.rows("m")],
            "declare": {"player": int(declare[0][1][0]), "call": declare[0][1][1]} if declare else None}


def brusquembille_tally(sheet, whole: int | None, table) -> dict:
    """Brusquembille: the card points and each brusquembille tapped, with who played it (R-BRUSQ-4)."""
    rows = []
    for _, (card, player, outcome) in sheet.rows("b"):
        if player == "":
            raise ParseError("sheet_who", "Tap who played {card}.", card=card)
        rows.append({"card": card, "player": int(player), "outcome": outcome})
    return {**_points(sheet, whole), "brusquembilles": rows}


def brulot_tally(sheet, whole: int | None, table) -> dict:
    """Brûlot: each player's penalty points (R-BRULOT-5). With the widow known, the one player left blank took what
    remains of the deal's ``whole``; with part of it unknown, every player is typed."""
    blank = sheet.values.count("")
    if whole is None and blank:
        raise ParseError("sheet_incomplete", "Type the penalties of every player: with the widow known only in "
                         "part, none is worked out.")
    if blank > 1:
        raise ParseError("sheet_incomplete", "Type the penalties of every player but one.")
    return {"penalties": sheet.numbers(whole)}


def _first(sheet, kind: str) -> int | None:
    rows = sheet.rows(kind)
    return int(rows[0][1][0]) if rows and rows[0][1][0].isdigit() else None


def buraco_tally(sheet, whole, table) -> dict:
    """Buraco (contract: ``closed_by``, ``sides``, with 3 or 5 players ``teams``). A blank melds field is 0, and so is
    the closing side's hand (the closer has no card left; with 4 players type the partner's); another side's hand
    must be typed. With 3 or 5 players the teams follow the pots (R-BURACO-1b): whoever took the 18 plays alone
    against all the others, whose 11 one of them may have taken; nobody at the 18: everyone alone."""
    n = len(table.players)
    values = list(sheet.values) + [""] * (2 * len(table.sides) - len(sheet.values))
    closer = _first(sheet, "k")
    closing = table.side_of(closer) if closer is not None and closer < n else None
    per_player = n in (3, 5)
    lone = _first(sheet, "p") if per_player else None
    eleven = _first(sheet, "e") if lone is not None else None
    sides = []
    for side in range(len(table.sides)):
        melds, hand = values[2 * side], values[2 * side + 1]
        if hand == "" and side != closing:
            raise ParseError("sheet_hand", "Type the card points left in the hand of {name}.",
                             name=table.side_name(side))
        sides.append({"melds": int(melds or 0), "burracos": {k: sheet.items.count(f"u:{side}:{k}") for k in KINDS},
                      "pot": side in (lone, eleven) if per_player else not sheet.has(f"n:{side}"),
                      "hand": int(hand or 0)})
    body = {"closed_by": closer, "sides": sides}
    if per_player:
        body["teams"] = [[lone], [p for p in range(n) if p != lone]] if lone is not None else [[p] for p in range(n)]
    return body


GAME_TALLIES = {"brisca": brisca_tally, "brouc": brouc_tally, "brusquembille": brusquembille_tally,
                "brulot": brulot_tally, "buraco": buraco_tally}  # each game's sheet, by its id


def sheet_whole(game, table) -> int | None:
    """What the typed numbers add up to, when the app knows it (card points in play), to fill the last field.
    Brûlot: the penalty cards not in the widow (40 less the widow's, R-BRULOT-5), known only when the whole widow is
    (R-BRULOT-1: 3 players, its one card is the turned card; 4, no widow); else the sum is a range (sheet_bounds)."""
    deal = table.current
    if not isinstance(game, TrickGame) or deal is None or game.hidden_out_of_play(table, deal):
        return None
    return game.points_in(deal.cards_out(game.deck_for(table)), table)


def sheet_bounds(game, table) -> dict:
    """What the numbers screen's fields can hold, from the engine's own card values: ``most`` one field (a field that
    can take no more digit moves on), ``total`` all of them together, ``step`` what every number is a multiple of,
    ``rule`` the ruling that says so. Card points: the deal's (120 in Brisca, R-BRISCA-1; Brouc, R-BROUC-2;
    Brusquembille, R-BRUSQ-3). Brûlot's ``low`` and ``high``, what the players' penalties add up to, the unknown
    widow cards holding at most the highest penalty cards left and at least none (R-BRULOT-5). Buraco: the card
    points of the two decks, every card a multiple of 5 (R-BURACO-4)."""
    deal = table.current
    rule = game.points_rule  # the card values, which bound the numbers (cited under a field that passes them)
    if game.numbers_fields == "melds":
        return {"most": sum(VALUES), "total": sum(VALUES), "step": STEP, "rule": rule}
    if deal is None or not isinstance(game, TrickGame):
        return {}
    whole = sheet_whole(game, table)
    if game.numbers_fields != "players":
        return {"most": whole, "total": whole, "step": 1, "rule": rule}
    values = sorted((game.points_in([c], table) for c in deal.cards_out(game.deck_for(table))), reverse=True)
    high = sum(values)
    return {"most": high, "total": high, "step": 1, "rule": rule,
            "low": high - sum(values[:game.hidden_out_of_play(table, deal)]), "high": high}
