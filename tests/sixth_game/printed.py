"""Duel on paper, as the printed pages ask a game (``Game.printed_summary``, ``printed_sheet``, ``blank_rows``,
``blank_sides``): its one-page rule summary, sentence by sentence with the ruling each says (R-TEST-1 … 4), and the
model of its score sheet (``templates/_sheet_print_duel.html``), blank or filled from a table's state."""
from __future__ import annotations

from referee.languages import LANGUAGES
from referee.words import Words, said
from tests.sixth_game.cards import DEAL_POINTS, DECK, HAND_SIZE, POINTS, RANKS

BLANK_ROWS = 10  # a blank sheet's rows: five series of two deals
NAMED = {"fr": {"A": "as", "K": "roi", "Q": "dame", "J": "valet"}, "en": {"A": "ace", "K": "king", "Q": "queen",
                                                                           "J": "jack"}}


def item(rule: str, fr: str, en: str, **values) -> Words:
    """One ruled sentence of the summary (French typography: a no-break space before the colon)."""
    sentence = said(fr.replace(" :", "\u00a0:"), en, **values)
    sentence["rule"] = rule
    return sentence


def ranks(codes, joiner: str) -> Words:
    return Words({lang: joiner.join(NAMED.get(lang, NAMED["en"])[c] for c in codes) for lang in LANGUAGES})


def summary(game, options: dict, words: dict) -> dict:
    """The game's own part of its summary: the deck, the deal, the play and the series, then its card values."""
    items = [
        item("R-TEST-1", "{size} cartes : as, roi, dame, valet de pique, cœur et carreau ; {deal} points par donne.",
             "{size} cards: ace, king, queen, jack of spades, hearts and diamonds; {deal} points a deal.",
             size=DECK.size, deal=DEAL_POINTS),
        item("R-TEST-2", "Deux joueurs, {hand} cartes chacun ; la dernière carte du donneur fait l'atout.",
             "Two players, {hand} cards each; the dealer's last card makes trump.", hand=HAND_SIZE),
        item("R-TEST-3", "Pas d'obligation de fournir ; le plus haut atout gagne, sinon la plus haute carte de la "
             "couleur demandée.", "No obligation to follow; the highest trump wins, else the highest card of the "
             "suit led."),
        item("R-TEST-4", "Série : {deals} donnes, le plus haut total gagne.",
             "Series: {deals} deals, the highest total wins.", deals=options["deals"]),
    ]
    values = [{"label": ranks([code], ""), "points": POINTS[code]} for code in RANKS]
    return {"items": items, "values": values, "values_rule": "R-TEST-1", "strength": ranks(RANKS, " > ")}


def sheet(game, state: dict | None) -> dict:
    """Per deal its number, trump and card points per player; the totals; the series' deals for the reminder."""
    if state is None:
        deals = next(o.default for o in game.options if o.name == "deals")
        return {"names": [None] * game.blank_sides, "rows": [None] * game.blank_rows, "totals": None,
                "deals": deals}
    rows = [{"number": d["number"], "trump": d["trump"], "points": d["points"]} for d in state["deals"]
            if d["complete"]]
    return {"names": [side["name"] for side in state["sides"]], "rows": rows, "totals": state["totals"],
            "deals": state["options"]["deals"]}
