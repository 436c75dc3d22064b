"""Brisca on paper: its part of the printed rule summary (the deck, the draw, the exchanges, the deal's points and
the series, R-BRISCA-1 to 8) and its score sheet (each deal's card points and who won it, the deal wins toward the
series: ``templates/_sheet_print_brisca.html``). The engine's module is read when a page is made (it imports this
one)."""
from __future__ import annotations

from referee.games.brisca import engine as brisca
from referee.games.brisca.score import DOUBLE_OVER, HALF, MEXICAN_LIMIT
from referee.games.printed import complete_deals, default_of, side_names
from referee.games.summary_text import card_values, names, ruled
from referee.words import said


def summary(game, o: dict, w: dict) -> dict:
    """The printed rule summary's part of brisca (``o`` its options, ``w`` their words)."""
    s = brisca
    order = names(s.STRENGTH_ORDER, True, " > ")
    double = said(" Plus de {over} : deux victoires.", " More than {over}: two wins.", over=DOUBLE_OVER) \
        if o["double_over_100"] else ""
    items = [
        ruled("R-BRISCA-1", "Jeu espagnol de {forty} cartes (1 à 7, sota, caballo, rey ; oros, copas, espadas, "
              "bastos) à 2 ou 4 ; {forty_eight} avec les 8 et 9 à 6.", "Spanish deck of {forty} cards (1 to 7, sota, "
              "caballo, rey; oros, copas, espadas, bastos) for 2 or 4; {forty_eight} with the 8s and 9s for 6.",
              forty=s.SPANISH_40.size, forty_eight=s.SPANISH_48.size),
        ruled("R-BRISCA-2", "{hand} cartes chacun ; la suivante est retournée pour l'atout et tirée en dernier. "
              "Après chaque pli chacun pioche, le gagnant d'abord ; les trois derniers plis se jouent de la main.",
              "{hand} cards each; the next is turned for trump and drawn last. After each trick everyone draws, the "
              "winner first; the last three tricks are played from the hand.", hand=s.HAND_SIZE),
        ruled("R-BRISCA-3", "Pas d'obligation de fournir ni de monter. Le plus haut atout gagne, sinon la plus "
              "haute carte de la couleur demandée. Force : {order}.", "No obligation to follow or to win. The "
              "highest trump wins, else the highest card of the suit led. Strength: {order}.", order=order),
        ruled("R-BRISCA-4", "Le 7 d'atout s'échange contre une carte retournée {seven} ; le 2 contre {two}. Une "
              "fois par donne, avant la dernière pioche, {exchange}.", "The 7 of trump takes a turned {seven}; the "
              "2 takes {two}. Once a deal, before the last draw, {exchange}.",
              seven=names(s.SEVEN_TAKES, True), two=names(s.TWO_TAKES, True), exchange=w["exchange_requires"]),
        ruled("R-BRISCA-5", "Talon vide : un camp qui montre les trois (ou deux) plus hauts atouts restants prend "
              "tout le reste.", "Stock empty: a side showing the three (or two) highest trumps still out takes "
              "everything left."),
        ruled("R-BRISCA-6", "{deal} points par donne ; plus de {half} gagne. À {half}–{half} : {tie}.{double} "
              "Série : {wins} donnes gagnées.", "{deal} points a deal; more than {half} wins. At {half}–{half}: "
              "{tie}.{double} Series: {wins} deal wins.", deal=s.DEAL_POINTS, half=HALF, tie=w["tie_rule"],
              double=double, wins=o["wins_needed"]),
    ]
    if o["trump_rotation"]:
        items.append(ruled("R-BRISCA-7", "Quatre donnes, atout fixé : oros, copas, espadas, bastos ; le plus de "
                           "victoires, puis de points.", "Four deals, trump fixed: oros, copas, espadas, bastos; "
                           "most wins, then most points."))
    if o["mexican_11"]:
        items.append(ruled("R-BRISCA-8", "Règle mexicaine : gagne le camp qui fait {limit} points ou moins.",
                           "Mexican rule: the side with {limit} points or fewer wins.", limit=MEXICAN_LIMIT))
    return {"items": items, "values": card_values(s.POINTS, s.STRENGTH_ORDER, True), "values_rule": "R-BRISCA-1",
            "strength": order}


def sheet(game, state: dict | None) -> dict:
    names = side_names(game, state)
    if state is None:
        return {"names": names, "rows": [None] * game.blank_rows, "pips": 7, "wins": [0, 0], "totals": None,
                "wins_needed": default_of(game, "wins_needed")}
    rows = []
    for deal in complete_deals(state):
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
