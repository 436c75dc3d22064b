"""The numbers screen's parts for the games whose sheet names players (sheet.py holds the ``Sheet``): Brûlot's
penalties per player and Buraco's hand per side. Presentation and parsing only: the engine checks every number.

Buraco's rows (compact strings in the sheet's ``items``): ``k:P`` who closed (none: the stock ran out), ``u:S:pure``
one burraco of a class laid by side S (counted; a stepper adds and removes them), ``n:S`` side S did not take its pot
(2 or 4 players: a pot is taken unless tapped), ``p:P`` the player who took the 18-card pot and ``e:P`` the one who
took his team's 11 (3 or 5 players, R-BURACO-1b). Its numbers: ``v{2*side}`` the card points laid, ``v{2*side+1}``
those left in hand.
"""
from __future__ import annotations

from referee.errors import ParseError
from referee.games.buraco_tally import KINDS, VALUES


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


GAME_TALLIES = {"brulot": brulot_tally, "buraco": buraco_tally}


def sheet_bounds(game, table) -> dict:
    """What the numbers screen's fields can hold: ``most`` one field (a field that can take no more digit moves on);
    Brûlot's ``low`` and ``high``, what the players' penalties add up to, the unknown widow cards holding at most
    the highest penalty cards left and at least none (R-BRULOT-5, the engine's own card values)."""
    deal = table.current
    if game.id == "buraco":
        return {"most": sum(VALUES)}  # R-BURACO-4: the card points of the two decks
    if game.id != "brulot" or deal is None:
        return {}
    values = sorted((game.card_points([c], table) for c in deal.cards_out(game.deck_for(table))), reverse=True)
    high = sum(values)
    return {"most": high, "low": high - sum(values[:game.hidden_out_of_play(table, deal)]), "high": high}
