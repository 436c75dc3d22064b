"""Brûlot on paper: its part of the printed rule summary (the widow, trump, the brûlé, the penalties, R-BRULOT-1 to
6) and its score sheet (each deal's penalties per player: ``templates/_sheet_print_brulot.html``). The engine's
module is read when a page is made (it imports this one)."""
from __future__ import annotations

from referee.games.brulot import engine as brulot
from referee.games.printed import complete_deals, deal_lines, default_of, side_names
from referee.games.summary_text import card_values, names, rank, ruled
from referee.languages import LANGUAGES
from referee.words import Words, said


def summary(game, o: dict, w: dict) -> dict:
    """The printed rule summary's part of brulot (``o`` its options, ``w`` their words)."""
    def widow(n):
        size = brulot.widow_size(n)
        if size > 1:
            return said("{n} joueurs : {size} cartes", "{n} players: {size} cards", n=n, size=size)
        if size == 1:
            return said("{n} joueurs : {size} carte", "{n} players: {size} card", n=n, size=size)
        return said("{n} joueurs : {size} carte", "{n} players: {size} cards", n=n, size=size)
    widows = Words({lang: ", ".join(widow(n)[lang] for n in range(3, 7)) for lang in LANGUAGES})
    trump = said("la couleur de la carte du dessus de la veuve", "the suit of the widow's top card")
    order = names(brulot.RANKS, joiner=" > ")
    clean = said(" Donne propre : −{bonus}.", " Clean deal: −{bonus}.", bonus=o["clean_deal_bonus"]) \
        if o["clean_deal_bonus"] else ""
    partners = said(" Partenaires : pénalités additionnées.", " Partners add their penalties.") \
        if o["partnership"] else ""
    items = [
        ruled("R-BRULOT-1", "52 cartes, 3 à 6 joueurs, chacun autant que le jeu en partage ; le reste fait la "
              "veuve ({widows}). Ses cartes sont hors jeu.", "52 cards, 3 to 6 players, each as many as the deck "
              "shares out; the rest is the widow ({widows}). Its cards are out of play.", widows=widows),
        ruled("R-BRULOT-2", "Sans atout : aucune carte n'est retournée.", "No trump: no card is turned.")
        if o["no_trump"] else
        ruled("R-BRULOT-2", "Atout : {trump} ; à 4 : {with_4}.", "Trump: {trump}; with 4: {with_4}.", trump=trump,
              with_4=said("la dernière carte du donneur", "the dealer's last card")),
        ruled("R-BRULOT-3", "Fournir si possible, sinon n'importe quoi. Force : {order}.",
              "Follow suit if you can, otherwise anything. Strength: {order}.", order=order),
        ruled("R-BRULOT-4", "Qui ne joue ni la couleur ni atout est brûlé et montre son jeu ; ses cartes suivantes "
              "doivent en venir.", "Whoever plays neither the suit led nor a trump is brûlé and shows his hand; "
              "his later cards must come from it."),
        ruled("R-BRULOT-5", "Une donne vaut {total} points de pénalité moins ceux de la veuve.{clean}",
              "A deal holds {total} penalty points less the widow's.{clean}", total=4 * sum(o["penalties"]),
              clean=clean),
        ruled("R-BRULOT-6", "Le total le plus bas gagne ; égalité : victoire partagée.{partners}",
              "The lowest total wins; equal totals share the win.{partners}", partners=partners),
    ]
    points = dict(zip(brulot.PENALTY_RANKS, o["penalties"]))
    return {"items": items, "values": card_values(points, brulot.PENALTY_RANKS, rest=True), "values_rule": "R-BRULOT-5",
            "low_wins": True, "strength": order}


def sheet(game, state: dict | None) -> dict:
    names = side_names(game, state)
    if state is None:
        penalties = default_of(game, "penalties")
        return {"names": names, "rows": [None] * game.blank_rows, "totals": None, "winners": [],
                "penalty_words": _penalties(penalties), "deck": 4 * sum(penalties)}
    rows = []
    for deal in complete_deals(state):
        check = deal.get("check") or {}
        rows.append({"number": deal["number"], "dealer": state["players"][deal["dealer"]], "trump": deal["trump"],
                     "points": deal["points"], "widow": check.get("widow"), "deck": check.get("deck")})
    return {"names": names, "rows": rows, "totals": state["totals"],
            "winners": state["series"]["winners"],  # R-BRULOT-6: filled when the series ends (equal lowest share)
            "penalty_words": _penalties(state["options"]["penalties"]),
            "deck": 4 * sum(state["options"]["penalties"])}


def _penalties(values: list) -> list:
    """R-BRULOT-5: the penalty cards by name and their points, as the rule summary writes them."""
    return [{"label": {lang: rank(code, lang) for lang in LANGUAGES}, "points": points}
            for code, points in zip(brulot.PENALTY_RANKS, values)]


def extent(game, model: dict) -> tuple:
    return deal_lines(model), 20 + 4 * len(model["names"])
