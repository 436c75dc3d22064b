"""One-page rule summaries, written from the engines' own data: every number printed (card values, strength
orders, deck sizes, bonuses, limits) is read from the module that applies it, never typed twice. Sentences come in
French and English; each carries the ruling id it summarises. Cards are written by name, options by their words:
never a card code or an option's value as the code stores it.
"""
from __future__ import annotations

import re

from referee.games import brisca, brouc, brouc_slate, brulot, brusquembille, buraco, buraco_melds, get_game
from referee.games.brisca_score import DOUBLE_OVER, HALF, MEXICAN_LIMIT

# Ranks as players say them; the others (2 to 10 in French decks, 2 to 9 in Spanish ones) are their number.
RANK_WORDS = {
    "fr": {"A": "as", "K": "roi", "Q": "dame", "J": "valet", "JK": "joker"},
    "en": {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "JK": "joker"},
}
SPANISH_WORDS = {
    "fr": {"1": "as", "12": "rey", "11": "caballo", "10": "sota"},
    "en": {"1": "ace", "12": "rey", "11": "caballo", "10": "sota"},
}
_BEFORE = re.compile(r" ([:;!?])")


def rank(code: str, lang: str, spanish: bool = False) -> str:
    """A rank by its name ("roi", "caballo"), or its number."""
    return (SPANISH_WORDS if spanish else RANK_WORDS)[lang].get(code, code)


def ranks(codes, lang: str, spanish: bool = False, joiner: str = ", ") -> str:
    return joiner.join(rank(c, lang, spanish) for c in codes)


def both(codes, spanish: bool = False, joiner: str = ", ") -> tuple:
    return tuple(ranks(codes, lang, spanish, joiner) for lang in ("fr", "en"))


def _item(rule: str, fr: str, en: str) -> dict:
    """One ruled sentence; French typography (a no-break space before : ; ! ?) whatever the source typed."""
    return {"rule": rule, "fr": _BEFORE.sub("\u00a0\\1", fr), "en": en}


def _values(points: dict, order, spanish: bool = False, rest: bool = False) -> list:
    """Card values in strength order, ranks worth the same side by side grouped ("9, 8, 7 = 0"); ``rest`` adds
    "the rest = 0" for ranks the order leaves out."""
    groups = []
    for code in order:
        value = points.get(code, 0)
        if groups and groups[-1]["points"] == value:
            groups[-1]["codes"].append(code)
        else:
            groups.append({"codes": [code], "points": value})
    values = [{"label": dict(zip(("fr", "en"), both(g["codes"], spanish))), "points": g["points"]} for g in groups]
    if rest:
        values.append({"label": {"fr": "les autres", "en": "the rest"}, "points": 0})
    return values


def summary(game_id: str, options: dict | None = None) -> dict:
    """The summary of a game for a table's options (defaults when None): sections of ruled sentences, the card
    values and strength order, and every option in words (those that differ from the defaults marked)."""
    game = get_game(game_id)
    defaults = {o.name: o.default for o in game.options}
    options = {**defaults, **(options or {})}
    every = [{"name": o.name, "label": o.label, "help": o.help, "rule": o.rule, "changed": options[o.name] != o.default,
              "value": _words(o, options[o.name]), "default": _words(o, o.default)} for o in game.options]
    build = {"brisca": _brisca, "brouc": _brouc, "brulot": _brulot, "brusquembille": _brusquembille,
             "buraco": _buraco}[game_id]
    said = {o.name: _words(o, options[o.name]) for o in game.options}
    doc = build(options, said)
    doc["items"] = [_turns_item(game_id)] + doc["items"] + [_entry_item(game_id)]
    doc.update(game=game, options=options, every=every, changed=[o for o in every if o["changed"]],
               rulings=sorted({i["rule"].rsplit("-", 1)[0] for i in doc["items"]}, key=lambda r: r != "R-COMMON"))
    return doc


def _words(option, value) -> dict:
    """An option's value as players say it, per language (never its code)."""
    return {lang: option.word(value, lang) for lang in ("fr", "en")}


def _turns_item(game_id: str) -> dict:
    """R-COMMON-1, 2: who deals and who leads, for every game."""
    if game_id == "buraco":
        return _item("R-COMMON-2", "Le premier donneur est choisi avec la table ; la donne passe au joueur suivant "
                     "après chaque manche.", "The first dealer is chosen with the table; the deal passes to the "
                     "next player after every hand.")
    return _item("R-COMMON-2", "Le premier donneur est choisi avec la table ; la donne passe au joueur suivant. Le "
                 "joueur après le donneur entame, le gagnant de chaque pli entame le suivant.", "The first dealer is "
                 "chosen with the table; the deal passes to the next player. The player after the dealer leads; the "
                 "winner of each trick leads the next.")


def _entry_item(game_id: str) -> dict:
    """R-COMMON-6: the ways a deal is entered, and what each checks."""
    if game_id == "buraco":
        return _item("R-COMMON-6", "Une manche se saisit combinaison par combinaison (chacune vérifiée) ou par ses "
                     "nombres ; les points sont les mêmes.", "A hand is entered meld by meld (each one checked) or by "
                     "its numbers; the points are the same.")
    extras = {"brouc": (" (annonces, mariages et cape compris)", " (announces, mariages and cape included)"),
              "brusquembille": (" (jetons compris)", " (jetons included)")}.get(game_id, ("", ""))
    return _item("R-COMMON-6", "Une donne se saisit carte par carte (le jeu est vérifié), par les plis ramassés de "
                 f"chaque camp ou par ses nombres{extras[0]} ; les points sont les mêmes.",
                 "A deal is entered card by card (the play is checked), by each side's captured piles or by its "
                 f"numbers{extras[1]}; the points are the same.")


def _brisca(o: dict, w: dict) -> dict:
    s = brisca
    order = both(s.STRENGTH_ORDER, True, " > ")
    seven, two = both(s.SEVEN_TAKES, True), both(s.TWO_TAKES, True)
    items = [
        _item("R-BRISCA-1", f"Jeu espagnol de {s.SPANISH_40.size} cartes (1 à 7, sota, caballo, rey ; oros, copas, "
              f"espadas, bastos) à 2 ou 4 ; {s.SPANISH_48.size} avec les 8 et 9 à 6.", f"Spanish deck of "
              f"{s.SPANISH_40.size} cards (1 to 7, sota, caballo, rey; oros, copas, espadas, bastos) for 2 or 4; "
              f"{s.SPANISH_48.size} with the 8s and 9s for 6."),
        _item("R-BRISCA-2", f"{s.HAND_SIZE} cartes chacun ; la suivante est retournée pour l'atout et tirée en "
              "dernier. Après chaque pli chacun pioche, le gagnant d'abord ; les trois derniers plis se jouent de la "
              "main.", f"{s.HAND_SIZE} cards each; the next is turned for trump and drawn last. After each trick "
              "everyone draws, the winner first; the last three tricks are played from the hand."),
        _item("R-BRISCA-3", "Pas d'obligation de fournir ni de monter. Le plus haut atout gagne, sinon la plus "
              f"haute carte de la couleur demandée. Force : {order[0]}.", "No obligation to follow or to win. The "
              f"highest trump wins, else the highest card of the suit led. Strength: {order[1]}."),
        _item("R-BRISCA-4", f"Le 7 d'atout s'échange contre une carte retournée {seven[0]} ; le 2 contre {two[0]}. "
              f"Une fois par donne, avant la dernière pioche, {w['exchange_requires']['fr']}.", f"The 7 of trump "
              f"takes a turned {seven[1]}; the 2 takes {two[1]}. Once a deal, before the last draw, "
              f"{w['exchange_requires']['en']}."),
        _item("R-BRISCA-5", "Talon vide : un camp qui montre les trois (ou deux) plus hauts atouts restants prend "
              "tout le reste.", "Stock empty: a side showing the three (or two) highest trumps still out takes "
              "everything left."),
        _item("R-BRISCA-6", f"{s.DEAL_POINTS} points par donne ; plus de {HALF} gagne. À {HALF}–{HALF} : "
              f"{w['tie_rule']['fr']}." + (f" Plus de {DOUBLE_OVER} : deux victoires." if o["double_over_100"]
                                           else "") + f" Série : {o['wins_needed']} donnes gagnées.",
              f"{s.DEAL_POINTS} points a deal; more than {HALF} wins. At {HALF}–{HALF}: {w['tie_rule']['en']}."
              + (f" More than {DOUBLE_OVER}: two wins." if o["double_over_100"] else "")
              + f" Series: {o['wins_needed']} deal wins."),
    ]
    if o["trump_rotation"]:
        items.append(_item("R-BRISCA-7", "Quatre donnes, atout fixé : oros, copas, espadas, bastos ; le plus de "
                           "victoires, puis de points.", "Four deals, trump fixed: oros, copas, espadas, bastos; "
                           "most wins, then most points."))
    if o["mexican_11"]:
        items.append(_item("R-BRISCA-8", f"Règle mexicaine : gagne le camp qui fait {MEXICAN_LIMIT} points ou "
                           "moins.", f"Mexican rule: the side with {MEXICAN_LIMIT} points or fewer wins."))
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER, True), "values_rule": "R-BRISCA-1",
            "strength": order}


def _brouc(o: dict, w: dict) -> dict:
    s, slate = brouc, brouc_slate
    order = both(s.STRENGTH_ORDER, joiner=" > ")
    items = [
        _item("R-BROUC-1", f"4 joueurs, deux camps (partenaires en face), {s.PIQUET_32.size} cartes ; 1, 3 puis 4 "
              "cartes. La dernière carte du donneur, retournée, fait l'atout et reste dans sa main.",
              f"4 players, two sides (partners opposite), {s.PIQUET_32.size} cards; 1, 3 then 4 cards. The "
              "dealer's last card, turned, makes trump and stays in his hand."),
        _item("R-BROUC-2", f"Force = points, dans toutes les couleurs : {order[0]}. 120 points, pas de dix de der.",
              f"Strength follows points, in every suit: {order[1]}. 120 points, no last-trick bonus."),
        _item("R-BROUC-3", "Fournir ; pas couper en ayant la couleur ; pas sous-couper, sauf pour un mariage sur "
              "table ou avec seulement des atouts plus bas.", "Follow suit; no trumping while holding the suit; no "
              "under-trumping, except to make a table marriage or holding only lower trumps."),
        _item("R-BROUC-4", f"Annonces : roi-dame {slate.announce_points({'K', 'Q'}, False)}, roi-dame-valet "
              f"{slate.announce_points({'K', 'Q', 'J'}, False)}, doublées en atout, après un pli gagné, jamais avec "
              "la première carte.", f"Announces: king-queen {slate.announce_points({'K', 'Q'}, False)}, "
              f"king-queen-jack {slate.announce_points({'K', 'Q', 'J'}, False)}, doubled in trump, after a trick "
              "won, never with the first card."),
        _item("R-BROUC-5", "Mariage sur table : mêmes valeurs, au camp qui gagne le pli et ôtées à l'autre.",
              "Table marriage: same values, to the side winning the trick and taken from the other."),
        _item("R-BROUC-6", f"Ardoise en dizaines : 44 → {slate.tens(44)}, 46 → {slate.tens(46)}, sur le point "
              f"55 → {slate.tens(55)} et 65 → {slate.tens(65)}. Annonces et mariages s'y ajoutent en dizaines.",
              f"Slate in tens: 44 → {slate.tens(44)}, 46 → {slate.tens(46)}, on the point 55 → {slate.tens(55)} "
              f"and 65 → {slate.tens(65)}. Announces and marriages are added in tens."),
        _item("R-BROUC-7", f"Dehors à {slate.OUT} : {slate.PARTIE_COCHES} coche au perdant, ardoises à zéro. Les "
              "deux dehors : la plus haute ardoise gagne ; égalité : une donne de plus.", f"Out at {slate.OUT}: "
              f"{slate.PARTIE_COCHES} coche to the loser, slates back to zero. Both out: the higher slate wins; "
              "equal: one more deal."),
        _item("R-BROUC-8", f"La cape : {slate.CAPE_COCHES} coches, mariages annulés. Demandée à "
              f"{slate.DEHORS_FROM}+ : {slate.DECLARED_COCHES['cape_dehors']} ; pas dédoublé (autre camp ≤ "
              f"{slate.PAS_DEDOUBLE_UP_TO}) : {slate.DECLARED_COCHES['cape_dehors_pas_dedouble']}. Manquée : aux "
              "demandeurs.", f"La cape: {slate.CAPE_COCHES} coches, marriages cancelled. Declared at "
              f"{slate.DEHORS_FROM}+: {slate.DECLARED_COCHES['cape_dehors']}; pas dédoublé (other side ≤ "
              f"{slate.PAS_DEDOUBLE_UP_TO}): {slate.DECLARED_COCHES['cape_dehors_pas_dedouble']}. Missed: to the "
              "declarers."),
        _item("R-BROUC-8b", f"Cape non demandée : ses {slate.CAPE_COCHES} coches seulement ; les points des cartes "
              "de la donne ne s'écrivent pas, les annonces restent. Pas de demande après un pli perdu. Une annonce ne "
              "s'allonge pas (roi-dame, puis roi-dame-valet : refusé).", f"Undeclared cape: its "
              f"{slate.CAPE_COCHES} coches alone; the deal's card points are not written, the announces stay. No "
              "declaration once the side has lost a trick. An announce is never extended (king-queen, then "
              "king-queen-jack: refused)."),
    ]
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BROUC-2",
            "strength": order}


def _brulot(o: dict, w: dict) -> dict:
    def widow(n, lang):
        size = brulot.widow_size(n)
        return (f"{n} joueurs : {size} carte" + ("s" * (size > 1)) if lang == "fr" else
                f"{n} players: {size} card" + ("s" * (size != 1)))
    widows = {lang: ", ".join(widow(n, lang) for n in range(3, 7)) for lang in ("fr", "en")}
    trump = ("sans atout" if o["no_trump"] else "la couleur de la carte du dessus de la veuve",
             "no trump" if o["no_trump"] else "the suit of the widow's top card")
    order = both(brulot.RANKS, joiner=" > ")
    items = [
        _item("R-BRULOT-1", f"52 cartes, 3 à 6 joueurs, chacun autant que le jeu en partage ; le reste fait la "
              f"veuve ({widows['fr']}). Ses cartes sont hors jeu.", f"52 cards, 3 to 6 players, each as many as the "
              f"deck shares out; the rest is the widow ({widows['en']}). Its cards are out of play."),
        _item("R-BRULOT-2", f"Atout : {trump[0]} ; à 4 : {w['trump_without_widow']['fr']}.",
              f"Trump: {trump[1]}; with 4: {w['trump_without_widow']['en']}."),
        _item("R-BRULOT-3", f"Fournir si possible, sinon n'importe quoi. Force : {order[0]}.",
              f"Follow suit if you can, otherwise anything. Strength: {order[1]}."),
        _item("R-BRULOT-4", "Qui ne joue ni la couleur ni atout est brûlé et montre son jeu ; ses cartes suivantes "
              "doivent en venir.", "Whoever plays neither the suit led nor a trump is brûlé and shows his hand; "
              "his later cards must come from it."),
        _item("R-BRULOT-5", f"Une donne vaut {4 * sum(o['penalties'])} points de pénalité moins ceux de la veuve."
              + (f" Donne propre : −{o['clean_deal_bonus']}." if o["clean_deal_bonus"] else ""),
              f"A deal holds {4 * sum(o['penalties'])} penalty points less the widow's."
              + (f" Clean deal: −{o['clean_deal_bonus']}." if o["clean_deal_bonus"] else "")),
        _item("R-BRULOT-6", "Le total le plus bas gagne ; égalité : victoire partagée."
              + (" Partenaires : pénalités additionnées." if o["partnership"] else ""),
              "The lowest total wins; equal totals share the win."
              + (" Partners add their penalties." if o["partnership"] else "")),
    ]
    points = dict(zip(brulot.PENALTY_RANKS, o["penalties"]))
    return {"items": items, "values": _values(points, brulot.PENALTY_RANKS, rest=True), "values_rule": "R-BRULOT-5",
            "low_wins": True, "strength": order}


def _brusquembille(o: dict, w: dict) -> dict:
    s = brusquembille
    order = both(s.STRENGTH_ORDER, joiner=" > ")
    jetons = s.JETONS
    items = [
        _item("R-BRUSQ-1", f"3 à 5 joueurs, équipes de 2 à 4. {s.PIQUET_32.size} cartes à 4, 30 sinon (retirés : "
              f"{w['removed']['fr']}). Force : {order[0]}.", f"3 to 5 players, teams of 2 at 4. "
              f"{s.PIQUET_32.size} cards at 4, 30 otherwise (removed: {w['removed']['en']}). Strength: {order[1]}."),
        _item("R-BRUSQ-2", f"{s.HAND_SIZE} cartes, la suivante retournée pour l'atout. Pas d'obligation de fournir. "
              "Chacun pioche après le pli, le gagnant d'abord ; la retournée " +
              ("en dernier." if o["turned_card_last"] else "au gagnant du premier pli."),
              f"{s.HAND_SIZE} cards, the next turned for trump. No obligation to follow. Everyone draws after the "
              "trick, the winner first; the turned card " +
              ("last." if o["turned_card_last"] else "to the first trick's winner.")),
        _item("R-BRUSQ-4", f"Jetons : un as dont le camp gagne le pli reçoit {jetons['A']} de chaque adversaire ; "
              f"coupé, il leur paie {jetons['A']} ; battu par une plus haute de sa couleur, rien. Un dix : "
              f"{jetons['10']}. L'as d'atout ne perd pas. Jeton = {w['jeton_value']['fr']}.",
              f"Jetons: an ace whose side wins the trick receives {jetons['A']} from each opponent; trumped, it pays "
              f"them {jetons['A']}; beaten by a higher card of its suit, nothing. A ten: {jetons['10']}. The ace of "
              f"trump cannot lose. One jeton = {w['jeton_value']['en']}."),
        _item("R-BRUSQ-5", (f"Série : le premier à {o['target_points']} points." if o["target_points"] else
                            f"Série : {o['deals']} donnes, le plus haut total gagne.") + " Égalité en tête : série "
              "partagée.", (f"Series: first to {o['target_points']} points." if o["target_points"] else
                            f"Series: {o['deals']} deals, the highest total wins.") + " Equal highest totals share "
              "the series."),
    ]
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BRUSQ-3",
            "strength": order}


def _buraco(o: dict, w: dict) -> dict:
    m, b = buraco_melds, buraco
    bonus = m.BONUS
    items = [
        _item("R-BURACO-1", f"Deux jeux de 54 cartes ({b.BURACO_108.size}), 11 cartes chacun et un puits de 11 par "
              "camp ; à 4, deux équipes (partenaires en face).", f"Two 54-card decks ({b.BURACO_108.size}), 11 "
              "cards each and a pot of 11 per side; with 4, two teams (partners opposite)."),
        _item("R-BURACO-1b", "À 3 ou 5, puits de 18 et 11 : le premier au puits prend les 18 et joue seul, les "
              "autres font équipe et prennent les 11 ; chacun d'eux marque les points de l'équipe divisés par leur "
              "nombre.", "With 3 or 5, pots of 18 and 11: the first to a pot takes the 18 and plays alone, the others "
              "team up and take the 11; each of them scores the team's points divided among them."),
        _item("R-BURACO-2", f"Suite d'une couleur (as en bas ou en haut, au plus {m.MAX_RUN}) ou série d'une "
              f"valeur (au plus {m.MAX_SET}), 3 cartes au moins, une seule frimée (joker ou 2).",
              f"A run of one suit (ace low or high, at most {m.MAX_RUN}) or a set of one rank (at most "
              f"{m.MAX_SET}), 3 cards or more, one wild card at most (joker or 2)."),
        _item("R-BURACO-3", f"Burraco ({m.BURACO}+ cartes) : pur {bonus['pure']}, semi-pur {bonus['semi_pure']}, "
              f"sale {bonus['dirty']}.", f"Burraco ({m.BURACO}+ cards): pure {bonus['pure']}, semi-pure "
              f"{bonus['semi_pure']}, dirty {bonus['dirty']}."),
        _item("R-BURACO-4", "Un 2 à sa place dans une suite vaut 5." + (" Un as posé en bas (as-2-3) vaut 5."
              if o["low_ace_counts_5"] else "") + " Les cartes restées en main se retranchent.", "A 2 in its own "
              "place in a run counts 5." + (" An ace laid low (ace-2-3) counts 5." if o["low_ace_counts_5"] else "")
              + " Cards left in hand are taken off."),
        _item("R-BURACO-5", f"Fermer : puits pris, un burraco, plus de carte ; +{b.CLOSING}. Puits jamais pris : "
              f"−{b.NO_POT}.", f"Closing: pot taken, a burraco, no card left; +{b.CLOSING}. Pot never taken: "
              f"−{b.NO_POT}."),
        _item("R-BURACO-6", f"Une manche : combinaisons + burracos + fermeture − main − puits. Fin de la série à "
              f"{o['target']} points ; les deux y sont : le plus haut total gagne.", f"A hand: melds + burracos + "
              f"closing − hand − pot. The series ends at {o['target']} points; both there: the higher total wins."),
    ]
    return {"items": items, "values": _buraco_values(), "values_rule": "R-BURACO-4", "strength": None}


def _buraco_values() -> list:
    """R-BURACO-4 by ranges, each value read from the engine's card_value: 3 to 7, 8 to king, ace, 2, joker."""
    parse, value = buraco.BURACO_108.parse, buraco_melds.card_value
    run = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    groups = []
    for code in run:
        points = value(parse(code + "S"))
        if groups and groups[-1]["points"] == points:
            groups[-1]["codes"].append(code)
        else:
            groups.append({"codes": [code], "points": points})
    span = {"fr": "{} à {}", "en": "{} to {}"}
    values = [{"label": {lang: span[lang].format(rank(g["codes"][0], lang), rank(g["codes"][-1], lang))
                         if len(g["codes"]) > 1 else rank(g["codes"][0], lang) for lang in ("fr", "en")},
               "points": g["points"]} for g in groups]
    values.append({"label": {"fr": "2 frimé ou en main", "en": "2 wild or in hand"}, "points": value(parse("2S"))})
    values.append({"label": {"fr": "joker", "en": "joker"}, "points": value(parse("JK"))})
    return values
