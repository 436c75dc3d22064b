"""One-page rule summaries, written from the engines' own data: every number printed (card values, strength
orders, deck sizes, bonuses, limits) is read from the module that applies it, never typed twice. Sentences come in
French and English; each carries the ruling id it summarises.
"""
from __future__ import annotations

from referee.games import brisca, brouc, brouc_slate, brulot, brusquembille, buraco, buraco_melds, get_game
from referee.games.brisca_score import DOUBLE_OVER, HALF, MEXICAN_LIMIT

RANK_NAMES = {
    "fr": {"A": "as", "K": "roi", "Q": "dame", "J": "valet", "1": "as", "12": "rey", "11": "caballo", "10": "sota"},
    "en": {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "1": "ace", "12": "rey", "11": "caballo",
           "10": "sota"},
}


def _item(rule: str, fr: str, en: str) -> dict:
    return {"rule": rule, "fr": fr, "en": en}


def _values(points: dict, order) -> list:
    return [{"rank": rank, "points": points.get(rank, 0)} for rank in order]


def summary(game_id: str, options: dict | None = None) -> dict:
    """The summary of a game for a table's options (defaults when None): sections of ruled sentences, the card
    values and strength order, and the options that differ from the defaults."""
    game = get_game(game_id)
    defaults = {o.name: o.default for o in game.options}
    options = {**defaults, **(options or {})}
    changed = [{"name": o.name, "label": o.label, "help": o.help, "rule": o.rule,
                "value": _words(o, options[o.name]), "default": _words(o, o.default)}
               for o in game.options if options[o.name] != o.default]
    build = {"brisca": _brisca, "brouc": _brouc, "brulot": _brulot, "brusquembille": _brusquembille,
             "buraco": _buraco}[game_id]
    said = {o.name: _words(o, options[o.name]) for o in game.options}
    doc = build(options, said)
    doc["items"].append(_entry_item(game_id))
    doc.update(game=game, options=options, changed=changed)
    return doc


def _words(option, value) -> dict:
    """An option's value as players say it, per language (never its code)."""
    return {lang: option.word(value, lang) for lang in ("fr", "en")}


def _entry_item(game_id: str) -> dict:
    """R-COMMON-6: the ways a deal is entered, and what each checks."""
    if game_id == "buraco":
        return _item("R-COMMON-6", "Une manche se saisit combinaison par combinaison (chacune vérifiée) ou par ses "
                     "nombres ; les points sont les mêmes.", "A hand is entered meld by meld (each one checked) or by "
                     "its numbers; the points are the same.")
    extras = {"brouc": (" (annonces, mariages et cape compris)", " (announces, mariages and cape included)"),
              "brusquembille": (" (jetons compris)", " (jetons included)")}.get(game_id, ("", ""))
    return _item("R-COMMON-6", "Une donne se saisit carte par carte (le jeu est vérifié), par les plis ramassés de "
                 f"chaque camp ou par ses nombres{extras[0]} ; les points sont les mêmes.",
                 "A deal is entered card by card (the play is checked), by each side's captured piles or by its "
                 f"numbers{extras[1]}; the points are the same.")


def _brisca(o: dict, w: dict) -> dict:
    s = brisca
    order = " > ".join(s.STRENGTH_ORDER)
    items = [
        _item("R-BRISCA-1", f"Jeu espagnol de {s.SPANISH_40.size} cartes (1–7, sota, caballo, rey) à 2 ou 4 ; "
              f"{s.SPANISH_48.size} avec les 8 et 9 à 6.", f"Spanish deck of {s.SPANISH_40.size} cards (1–7, "
              f"sota, caballo, rey) for 2 or 4; {s.SPANISH_48.size} with the 8s and 9s for 6."),
        _item("R-BRISCA-2", f"{s.HAND_SIZE} cartes chacun ; la suivante est retournée pour l'atout et tirée en "
              "dernier. Après chaque pli chacun pioche, le gagnant d'abord.", f"{s.HAND_SIZE} cards each; the next "
              "is turned for trump and drawn last. After each trick everyone draws, the winner first."),
        _item("R-BRISCA-3", "Pas d'obligation de fournir ni de monter. Le plus haut atout gagne, sinon la plus "
              f"haute carte de la couleur demandée. Force : {order}.", "No obligation to follow or to win. The "
              f"highest trump wins, else the highest card of the suit led. Strength: {order}."),
        _item("R-BRISCA-4", f"Le 7 d'atout s'échange contre une carte retournée {', '.join(s.SEVEN_TAKES)} ; le 2 "
              f"contre {', '.join(s.TWO_TAKES)}. Une fois par donne, avant la dernière pioche, "
              f"{w['exchange_requires']['fr']}.", f"The 7 of trump takes a turned {', '.join(s.SEVEN_TAKES)}; the 2 "
              f"takes {', '.join(s.TWO_TAKES)}. Once a deal, before the last draw, {w['exchange_requires']['en']}."),
        _item("R-BRISCA-5", "Talon vide : un camp qui montre les trois (ou deux) plus hauts atouts restants prend "
              "tout le reste.", "Stock empty: a side showing the three (or two) highest trumps still out takes "
              "everything left."),
        _item("R-BRISCA-6", f"{s.DEAL_POINTS} points par donne ; plus de {HALF} "
              f"gagne. 60–60 : {w['tie_rule']['fr']}." + (f" Plus de {DOUBLE_OVER} : deux victoires." if o["double_over_100"] else "")
              + f" Série : {o['wins_needed']} donnes gagnées.", f"{s.DEAL_POINTS} points a deal; more than "
              f"{HALF} wins. 60–60: {w['tie_rule']['en']}."
              + (f" More than {DOUBLE_OVER}: two wins." if o["double_over_100"] else "")
              + f" Series: {o['wins_needed']} deal wins."),
    ]
    if o["trump_rotation"]:
        items.append(_item("R-BRISCA-7", "Quatre donnes, atout fixé : oros, copas, espadas, bastos ; le plus de "
                           "victoires, puis de points.", "Four deals, trump fixed: oros, copas, espadas, bastos; "
                           "most wins, then most points."))
    if o["mexican_11"]:
        items.append(_item("R-BRISCA-8", f"Règle mexicaine : gagne le camp qui fait {MEXICAN_LIMIT} points ou "
                           "moins.", f"Mexican rule: the side with {MEXICAN_LIMIT} points or fewer wins."))
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BRISCA-1"}


def _brouc(o: dict, w: dict) -> dict:
    s, slate = brouc, brouc_slate
    order = " > ".join(s.STRENGTH_ORDER)
    items = [
        _item("R-BROUC-1", f"4 joueurs, deux camps (partenaires en face), {s.PIQUET_32.size} cartes ; 1, 3 puis 4 "
              "cartes. La dernière carte du donneur, retournée, fait l'atout et reste dans sa main.",
              f"4 players, two sides (partners opposite), {s.PIQUET_32.size} cards; 1, 3 then 4 cards. The "
              "dealer's last card, turned, makes trump and stays in his hand."),
        _item("R-BROUC-2", f"Force = points, dans toutes les couleurs : {order}. 120 points, pas de dix de der.",
              f"Strength follows points, in every suit: {order}. 120 points, no last-trick bonus."),
        _item("R-BROUC-3", "Fournir ; pas couper en ayant la couleur ; pas sous-couper, sauf pour un mariage sur "
              "table ou avec seulement des atouts plus bas.", "Follow suit; no trumping while holding the suit; no "
              "under-trumping, except to make a table marriage or holding only lower trumps."),
        _item("R-BROUC-4", f"Annonces : roi-dame {slate.announce_points({'K', 'Q'}, False)}, roi-dame-valet "
              f"{slate.announce_points({'K', 'Q', 'J'}, False)}, doublées en atout, après un pli gagné, jamais avec "
              "la première carte.", f"Announces: king-queen {slate.announce_points({'K', 'Q'}, False)}, "
              f"king-queen-jack {slate.announce_points({'K', 'Q', 'J'}, False)}, doubled in trump, after a trick "
              "won, never with the first card."),
        _item("R-BROUC-5", "Mariage sur table : mêmes valeurs, au camp qui gagne le pli et ôtées à l'autre.",
              "Table marriage: same values, to the side winning the trick and taken from the other."),
        _item("R-BROUC-6", f"Ardoise en dizaines : 44 → {slate.tens(44)}, 46 → {slate.tens(46)}, sur le point "
              f"55 → {slate.tens(55)} et 65 → {slate.tens(65)}.", f"Slate in tens: 44 → {slate.tens(44)}, 46 → "
              f"{slate.tens(46)}, on the point 55 → {slate.tens(55)} and 65 → {slate.tens(65)}."),
        _item("R-BROUC-7", f"Dehors à {slate.OUT} : {slate.PARTIE_COCHES} coche au perdant, ardoises à zéro.",
              f"Out at {slate.OUT}: {slate.PARTIE_COCHES} coche to the loser, slates back to zero."),
        _item("R-BROUC-8", f"La cape : {slate.CAPE_COCHES} coches, mariages annulés. Demandée à "
              f"{slate.DEHORS_FROM}+ : {slate.DECLARED_COCHES['cape_dehors']} ; pas dédoublé (autre camp ≤ "
              f"{slate.PAS_DEDOUBLE_UP_TO}) : {slate.DECLARED_COCHES['cape_dehors_pas_dedouble']}. Manquée : aux "
              "demandeurs.", f"La cape: {slate.CAPE_COCHES} coches, marriages cancelled. Declared at "
              f"{slate.DEHORS_FROM}+: {slate.DECLARED_COCHES['cape_dehors']}; pas dédoublé (other side ≤ "
              f"{slate.PAS_DEDOUBLE_UP_TO}): {slate.DECLARED_COCHES['cape_dehors_pas_dedouble']}. Missed: to the "
              "declarers."),
        _item("R-BROUC-8b", f"Cape non demandée : ses {slate.CAPE_COCHES} coches seulement ; les points des cartes "
              "de la donne ne s'écrivent pas, les annonces restent. Pas de demande après un pli perdu. Une annonce ne "
              "s'allonge pas (roi-dame, puis roi-dame-valet : refusé).", f"Undeclared cape: its "
              f"{slate.CAPE_COCHES} coches alone; the deal's card points are not written, the announces stay. No "
              "declaration once the side has lost a trick. An announce is never extended (king-queen, then "
              "king-queen-jack: refused)."),
    ]
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BROUC-2"}


def _brulot(o: dict, w: dict) -> dict:
    widows = ", ".join(f"{n}: {brulot.widow_size(n)}" for n in range(3, 7))
    trump = ("sans atout" if o["no_trump"] else "la couleur de la carte du dessus de la veuve",
             "no trump" if o["no_trump"] else "the suit of the widow's top card")
    items = [
        _item("R-BRULOT-1", f"52 cartes, 3 à 6 joueurs ; veuve (joueurs : cartes) {widows}. Ses cartes sont hors "
              "jeu.", f"52 cards, 3 to 6 players; widow (players: cards) {widows}. Its cards are out of play."),
        _item("R-BRULOT-2", f"Atout : {trump[0]} ; à 4 : {w['trump_without_widow']['fr']}.",
              f"Trump: {trump[1]}; with 4: {w['trump_without_widow']['en']}."),
        _item("R-BRULOT-3", f"Fournir si possible, sinon n'importe quoi. Force : {' > '.join(brulot.RANKS)}.",
              f"Follow suit if you can, otherwise anything. Strength: {' > '.join(brulot.RANKS)}."),
        _item("R-BRULOT-4", "Qui ne joue ni la couleur ni atout est brûlé et montre son jeu.",
              "Whoever plays neither the suit led nor a trump is brûlé and shows his hand."),
        _item("R-BRULOT-5", f"Une donne vaut {4 * sum(o['penalties'])} points de pénalité moins ceux de la veuve."
              + (f" Donne propre : −{o['clean_deal_bonus']}." if o["clean_deal_bonus"] else ""),
              f"A deal holds {4 * sum(o['penalties'])} penalty points less the widow's."
              + (f" Clean deal: −{o['clean_deal_bonus']}." if o["clean_deal_bonus"] else "")),
        _item("R-BRULOT-6", "Le total le plus bas gagne ; égalité : victoire partagée."
              + (" Partenaires : pénalités additionnées." if o["partnership"] else ""),
              "The lowest total wins; equal totals share the win."
              + (" Partners add their penalties." if o["partnership"] else "")),
    ]
    points = dict(zip(brulot.PENALTY_RANKS, o["penalties"]))
    return {"items": items, "values": _values(points, brulot.PENALTY_RANKS), "values_rule": "R-BRULOT-5",
            "low_wins": True}


def _brusquembille(o: dict, w: dict) -> dict:
    s = brusquembille
    order = " > ".join(s.STRENGTH_ORDER)
    jetons = s.JETONS
    items = [
        _item("R-BRUSQ-1", f"3 à 5 joueurs, équipes de 2 à 4. {s.PIQUET_32.size} cartes à 4, 30 sinon (retirés : "
              f"{w['removed']['fr']}). Force : {order}.", f"3 to 5 players, teams of 2 at 4. "
              f"{s.PIQUET_32.size} cards at 4, 30 otherwise (removed: {w['removed']['en']}). Strength: {order}."),
        _item("R-BRUSQ-2", f"{s.HAND_SIZE} cartes, la suivante retournée pour l'atout. Pas d'obligation de fournir. "
              "Chacun pioche après le pli, le gagnant d'abord ; la retournée " +
              ("en dernier." if o["turned_card_last"] else "au gagnant du premier pli."),
              f"{s.HAND_SIZE} cards, the next turned for trump. No obligation to follow. Everyone draws after the "
              "trick, the winner first; the turned card " +
              ("last." if o["turned_card_last"] else "to the first trick's winner.")),
        _item("R-BRUSQ-4", f"Jetons : un as dont le camp gagne le pli reçoit {jetons['A']} de chaque adversaire ; "
              f"coupé, il leur paie {jetons['A']}. Un dix : {jetons['10']}. Jeton = {w['jeton_value']['fr']}.",
              f"Jetons: an ace whose side wins the trick receives {jetons['A']} from each opponent; trumped, it pays "
              f"them {jetons['A']}. A ten: {jetons['10']}. One jeton = {w['jeton_value']['en']}."),
        _item("R-BRUSQ-5", (f"Série : le premier à {o['target_points']} points." if o["target_points"] else
                            f"Série : {o['deals']} donnes, le plus haut total gagne."),
              (f"Series: first to {o['target_points']} points." if o["target_points"] else
               f"Series: {o['deals']} deals, the highest total wins.")),
    ]
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BRUSQ-3"}


def _buraco(o: dict, w: dict) -> dict:
    m, b = buraco_melds, buraco
    bonus = m.BONUS
    items = [
        _item("R-BURACO-1", f"Deux jeux de 54 cartes ({b.BURACO_108.size}), 11 cartes chacun et un puits de 11 par "
              "camp ; à 3 ou 5, puits de 18 et 11.", f"Two 54-card decks ({b.BURACO_108.size}), 11 cards each and "
              "a pot of 11 per side; with 3 or 5, pots of 18 and 11."),
        _item("R-BURACO-2", f"Suite d'une couleur (as en bas ou en haut, au plus {m.MAX_RUN}) ou série d'une "
              f"valeur (au plus {m.MAX_SET}), 3 cartes au moins, une seule frimée (joker ou 2).",
              f"A run of one suit (ace low or high, at most {m.MAX_RUN}) or a set of one rank (at most "
              f"{m.MAX_SET}), 3 cards or more, one wild card at most (joker or 2)."),
        _item("R-BURACO-3", f"Burraco ({m.BURACO}+ cartes) : pur {bonus['pure']}, semi-pur {bonus['semi_pure']}, "
              f"sale {bonus['dirty']}.", f"Burraco ({m.BURACO}+ cards): pure {bonus['pure']}, semi-pure "
              f"{bonus['semi_pure']}, dirty {bonus['dirty']}."),
        _item("R-BURACO-5", f"Fermer : puits pris, un burraco, plus de carte ; +{b.CLOSING}. Puits jamais pris : "
              f"−{b.NO_POT}.", f"Closing: pot taken, a burraco, no card left; +{b.CLOSING}. Pot never taken: "
              f"−{b.NO_POT}."),
        _item("R-BURACO-6", f"Fin de la série à {o['target']} points.", f"The series ends at {o['target']} points."),
    ]
    sample = {"A": "AS", "K": "KS", "8": "8S", "7": "7S", "3": "3S", "2": "2S", "JK": "JK"}
    values = [{"rank": rank, "points": m.card_value(b.BURACO_108.parse(code))} for rank, code in sample.items()]
    return {"items": items, "values": values, "values_rule": "R-BURACO-4"}
