"""Brusquembille on paper: its part of the printed rule summary (the deck, the draw, the jetons, the series,
R-BRUSQ-1 to 5) and its score sheet (card points per side, each player's jetons deal by deal, the money and who
pays whom: ``templates/_sheet_print_brusquembille.html``). The engine's module is read when a page is made (it
imports this one)."""
from __future__ import annotations

from referee.games.brusquembille import engine as brusquembille
from referee.games.printed import complete_deals, deal_lines, default_of, side_names
from referee.games.summary_text import card_values, names, ruled
from referee.words import said


def summary(game, o: dict, w: dict) -> dict:
    """The printed rule summary's part of brusquembille (``o`` its options, ``w`` their words)."""
    s = brusquembille
    order = names(s.STRENGTH_ORDER, joiner=" > ")
    jetons = s.JETONS
    turned = said("en dernier.", "last.") if o["turned_card_last"] else \
        said("au gagnant du premier pli.", "to the first trick's winner.")
    series = said("Série : le premier à {target} points.", "Series: first to {target} points.",
                  target=o["target_points"]) if o["target_points"] else \
        said("Série : {deals} donnes, le plus haut total gagne.", "Series: {deals} deals, the highest total wins.",
             deals=o["deals"])
    items = [
        ruled("R-BRUSQ-1", "3 à 5 joueurs, équipes de 2 à 4. {size} cartes à 4, 30 sinon (retirés : {removed}). "
              "Force : {order}.", "3 to 5 players, teams of 2 at 4. {size} cards at 4, 30 otherwise (removed: "
              "{removed}). Strength: {order}.", size=s.PIQUET_32.size, removed=w["removed"], order=order),
        ruled("R-BRUSQ-2", "{hand} cartes, la suivante retournée pour l'atout. Pas d'obligation de fournir. "
              "Chacun pioche après le pli, le gagnant d'abord ; la retournée {turned}", "{hand} cards, the next "
              "turned for trump. No obligation to follow. Everyone draws after the trick, the winner first; the "
              "turned card {turned}", hand=s.HAND_SIZE, turned=turned),
        ruled("R-BRUSQ-4", "Jetons : un as dont le camp gagne le pli reçoit {ace} de chaque adversaire ; coupé, il "
              "leur paie {ace} ; battu par une plus haute de sa couleur, rien. Un dix : {ten}. L'as d'atout ne perd "
              "pas. Jeton = {value}.", "Jetons: an ace whose side wins the trick receives {ace} from each opponent; "
              "trumped, it pays them {ace}; beaten by a higher card of its suit, nothing. A ten: {ten}. The ace of "
              "trump cannot lose. One jeton = {value}.", ace=jetons["A"], ten=jetons["10"],
              value=w["jeton_value"]),
        ruled("R-BRUSQ-5", "{series} Égalité en tête : série partagée.", "{series} Equal highest totals share the "
              "series.", series=series),
    ]
    return {"items": items, "values": card_values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BRUSQ-3",
            "strength": order}


def sheet(game, state: dict | None) -> dict:
    """Card points per side and, beside them, each player's jetons deal by deal (R-BRUSQ-3, 4), the balance, the
    money and who pays whom."""
    if state is None:
        players = [None] * game.blank_sides
        return {"names": players, "players": players, "rows": [None] * game.blank_rows,
                "totals": None, "jetons": None, "money": None, "settlement": [None] * 4,
                "jeton_rule": brusquembille.JETONS, "extra": 7, "deals": default_of(game, "deals")}
    rows = [{"number": deal["number"], "trump": deal["trump"], "points": deal["points"],
             "jetons": deal.get("jetons") or [0] * len(state["players"])} for deal in complete_deals(state)]
    return {"names": side_names(game, state), "players": state["players"], "rows": rows, "totals": state["totals"],
            "jetons": state["jetons"], "money": state["money"], "settlement": state["settlement"],
            "jeton_rule": brusquembille.JETONS, "extra": len(state["settlement"]) + 3}


def extent(game, model: dict) -> tuple:
    return deal_lines(model), 9 + 3.2 * (len(model["names"]) + len(model["players"]))
