"""One-page rule summaries, written from the engines' own data: every number printed (card values, strength
orders, deck sizes, bonuses, limits) is read from the module that applies it, never typed twice. Sentences come in
French and English; each carries the ruling id it summarises. Cards are written by name, options by their words:
never a card code or an option's value as the code stores it.
"""
from __future__ import annotations

import re

from referee.cards import JOKER_NAMES, rank_names
from referee.games import get_game
from referee.games.brisca import engine as brisca
from referee.games.brouc import engine as brouc
from referee.games.brouc import slate as brouc_slate
from referee.games.brulot import engine as brulot
from referee.games.brusquembille import engine as brusquembille
from referee.games.buraco import engine as buraco
from referee.games.buraco import melds as buraco_melds
from referee.games.brisca.score import DOUBLE_OVER, HALF, MEXICAN_LIMIT
from referee.games.tricks import TrickGame
from referee.languages import LANGUAGES
from referee.words import Words, said

# The Spanish ranks in French and English summaries keep their Spanish names (the cards' own names say "knight"
# and "cavalier"); every other rank is named as the cards name it, the unnamed ones (2 to 10, 2 to 9) by number.
SPANISH_WORDS = {
    "fr": {"1": "as", "12": "rey", "11": "caballo", "10": "sota"},
    "en": {"1": "ace", "12": "rey", "11": "caballo", "10": "sota"},
}
_BEFORE = re.compile(r" ([:;!?])")


def rank(code: str, lang: str, spanish: bool = False) -> str:
    """A rank by its name ("roi", "caballo"), or its number; in a language beyond French and English, as the cards
    name it (``referee/cards.py``)."""
    words = SPANISH_WORDS.get(lang) if spanish else None
    if words is None:
        words = {**rank_names(lang, spanish), "JK": JOKER_NAMES.get(lang, "joker")}
    return words.get(code, code)


def ranks(codes, lang: str, spanish: bool = False, joiner: str = ", ") -> str:
    return joiner.join(rank(c, lang, spanish) for c in codes)


def names(codes, spanish: bool = False, joiner: str = ", ") -> Words:
    """Ranks by name, in every language: "1 > 3 > rey…"."""
    return Words({lang: ranks(codes, lang, spanish, joiner) for lang in LANGUAGES})


def _item(rule: str, fr: str, en: str, **values) -> Words:
    """One ruled sentence; ``fr`` and ``en`` are templates of ``values`` (the English one is the msgid; a value
    said per language, like a Words, is said in each language). French typography (a no-break space before
    : ; ! ?) whatever the source typed."""
    item = said(fr, en, **values)
    item["fr"] = _BEFORE.sub("\u00a0\\1", item["fr"])
    item["rule"] = rule
    return item


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
    values = [{"label": Words({lang: ranks(g["codes"], lang, spanish) for lang in LANGUAGES}),
               "points": g["points"]} for g in groups]
    if rest:
        values.append({"label": said("les autres", "the rest"), "points": 0})
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
    doc = build(options, {o["name"]: o["value"] for o in every})
    doc["items"] = [_turns_item(game)] + doc["items"] + [_entry_item(game), _signing_item(), _correction_item()]
    doc.update(game=game, options=options, every=every, changed=[o for o in every if o["changed"]],
               rulings=sorted({i["rule"].rsplit("-", 1)[0] for i in doc["items"]}, key=lambda r: r != "R-COMMON"))
    return doc


def _words(option, value) -> dict:
    """An option's value as players say it, per language (never its code)."""
    return Words({lang: option.word(value, lang) for lang in LANGUAGES})


def _turns_item(game) -> dict:
    """R-COMMON-1, 2: who deals and who leads (in a game of tricks), for every game."""
    if not isinstance(game, TrickGame):
        return _item("R-COMMON-2", "Le premier donneur est choisi avec la table ; la donne passe au joueur suivant "
                     "après chaque manche.", "The first dealer is chosen with the table; the deal passes to the "
                     "next player after every hand.")
    return _item("R-COMMON-2", "Le premier donneur est choisi avec la table ; la donne passe au joueur suivant. Le "
                 "joueur après le donneur entame, le gagnant de chaque pli entame le suivant.", "The first dealer is "
                 "chosen with the table; the deal passes to the next player. The player after the dealer leads; the "
                 "winner of each trick leads the next.")


def _entry_item(game) -> Words:
    """R-COMMON-6: the ways a deal is entered, and what each checks."""
    if game.trick_entry == "melds":
        return _item("R-COMMON-6", "Une manche se saisit combinaison par combinaison (chacune vérifiée) ou par ses "
                     "nombres ; les points sont les mêmes.", "A hand is entered meld by meld (each one checked) or by "
                     "its numbers; the points are the same.")
    extras = game.piles_carry
    return _item("R-COMMON-6", "Une donne se saisit carte par carte (le jeu est vérifié), par les plis ramassés de "
                 "chaque camp ou par ses nombres{extras} ; les points sont les mêmes.",
                 "A deal is entered card by card (the play is checked), by each side's captured piles or by its "
                 "numbers{extras}; the points are the same.", extras=extras)


def _signing_item() -> Words:
    """R-COMMON-7, 8: how a result is signed and corrected, for every game."""
    return _item("R-COMMON-7", "La partie finie, chaque camp confirme le résultat sur le téléphone de la table, ou "
                 "appelle l'arbitre. À une table de tournoi, un résultat signé est fermé : seul l'arbitre le corrige, "
                 "et l'historique de la table garde chaque saisie, qui l'a faite et la raison de chaque correction.",
                 "Once the series is over, each side confirms the result on the table's phone, or calls the "
                 "director. At a tournament's table a signed result is closed: only the director corrects it, and "
                 "the table's history keeps every entry, who made it and the reason of every correction.")


def _correction_item() -> Words:
    """R-COMMON-7b: what a side signs, and a correction that asks the sides again, for every game."""
    return _item("R-COMMON-7b", "Chaque camp signe le résultat de la série dans l'unité où elle se compte. Si "
                 "l'arbitre corrige un résultat signé et le change, les signatures données avant ne valent plus : "
                 "chaque camp confirme à nouveau le résultat corrigé.",
                 "Each side signs the series' result in the unit the series is counted in. If the director "
                 "corrects a signed result and changes it, the signatures given before no longer count: each side "
                 "confirms the corrected result again.")


def _brisca(o: dict, w: dict) -> dict:
    s = brisca
    order = names(s.STRENGTH_ORDER, True, " > ")
    double = said(" Plus de {over} : deux victoires.", " More than {over}: two wins.", over=DOUBLE_OVER) \
        if o["double_over_100"] else ""
    items = [
        _item("R-BRISCA-1", "Jeu espagnol de {forty} cartes (1 à 7, sota, caballo, rey ; oros, copas, espadas, "
              "bastos) à 2 ou 4 ; {forty_eight} avec les 8 et 9 à 6.", "Spanish deck of {forty} cards (1 to 7, sota, "
              "caballo, rey; oros, copas, espadas, bastos) for 2 or 4; {forty_eight} with the 8s and 9s for 6.",
              forty=s.SPANISH_40.size, forty_eight=s.SPANISH_48.size),
        _item("R-BRISCA-2", "{hand} cartes chacun ; la suivante est retournée pour l'atout et tirée en dernier. "
              "Après chaque pli chacun pioche, le gagnant d'abord ; les trois derniers plis se jouent de la main.",
              "{hand} cards each; the next is turned for trump and drawn last. After each trick everyone draws, the "
              "winner first; the last three tricks are played from the hand.", hand=s.HAND_SIZE),
        _item("R-BRISCA-3", "Pas d'obligation de fournir ni de monter. Le plus haut atout gagne, sinon la plus "
              "haute carte de la couleur demandée. Force : {order}.", "No obligation to follow or to win. The "
              "highest trump wins, else the highest card of the suit led. Strength: {order}.", order=order),
        _item("R-BRISCA-4", "Le 7 d'atout s'échange contre une carte retournée {seven} ; le 2 contre {two}. Une "
              "fois par donne, avant la dernière pioche, {exchange}.", "The 7 of trump takes a turned {seven}; the "
              "2 takes {two}. Once a deal, before the last draw, {exchange}.",
              seven=names(s.SEVEN_TAKES, True), two=names(s.TWO_TAKES, True), exchange=w["exchange_requires"]),
        _item("R-BRISCA-5", "Talon vide : un camp qui montre les trois (ou deux) plus hauts atouts restants prend "
              "tout le reste.", "Stock empty: a side showing the three (or two) highest trumps still out takes "
              "everything left."),
        _item("R-BRISCA-6", "{deal} points par donne ; plus de {half} gagne. À {half}–{half} : {tie}.{double} "
              "Série : {wins} donnes gagnées.", "{deal} points a deal; more than {half} wins. At {half}–{half}: "
              "{tie}.{double} Series: {wins} deal wins.", deal=s.DEAL_POINTS, half=HALF, tie=w["tie_rule"],
              double=double, wins=o["wins_needed"]),
    ]
    if o["trump_rotation"]:
        items.append(_item("R-BRISCA-7", "Quatre donnes, atout fixé : oros, copas, espadas, bastos ; le plus de "
                           "victoires, puis de points.", "Four deals, trump fixed: oros, copas, espadas, bastos; "
                           "most wins, then most points."))
    if o["mexican_11"]:
        items.append(_item("R-BRISCA-8", "Règle mexicaine : gagne le camp qui fait {limit} points ou moins.",
                           "Mexican rule: the side with {limit} points or fewer wins.", limit=MEXICAN_LIMIT))
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER, True), "values_rule": "R-BRISCA-1",
            "strength": order}


def _brouc(o: dict, w: dict) -> dict:
    s, slate = brouc, brouc_slate
    order = names(s.STRENGTH_ORDER, joiner=" > ")
    items = [
        _item("R-BROUC-1", "4 joueurs, deux camps (partenaires en face), {size} cartes ; 1, 3 puis 4 cartes. La "
              "dernière carte du donneur, retournée, fait l'atout et reste dans sa main.", "4 players, two sides "
              "(partners opposite), {size} cards; 1, 3 then 4 cards. The dealer's last card, turned, makes trump and "
              "stays in his hand.", size=s.PIQUET_32.size),
        _item("R-BROUC-2", "Force = points, dans toutes les couleurs : {order}. 120 points, pas de dix de der.",
              "Strength follows points, in every suit: {order}. 120 points, no last-trick bonus.", order=order),
        _item("R-BROUC-3", "Fournir ; pas couper en ayant la couleur ; pas sous-couper, sauf pour un mariage sur "
              "table ou avec seulement des atouts plus bas.", "Follow suit; no trumping while holding the suit; no "
              "under-trumping, except to make a table marriage or holding only lower trumps."),
        _item("R-BROUC-4", "Annonces : roi-dame {kq}, roi-dame-valet {kqj}, doublées en atout, après un pli gagné, "
              "jamais avec la première carte.", "Announces: king-queen {kq}, king-queen-jack {kqj}, doubled in "
              "trump, after a trick won, never with the first card.",
              kq=slate.announce_points({"K", "Q"}, False), kqj=slate.announce_points({"K", "Q", "J"}, False)),
        _item("R-BROUC-5", "Mariage sur table : mêmes valeurs, au camp qui gagne le pli et ôtées à l'autre.",
              "Table marriage: same values, to the side winning the trick and taken from the other."),
        _item("R-BROUC-6", "Ardoise en dizaines : 44 → {t44}, 46 → {t46}, sur le point 55 → {t55} et 65 → "
              "{t65}. Annonces et mariages s'y ajoutent en dizaines.", "Slate in tens: 44 → {t44}, 46 → {t46}, on the "
              "point 55 → {t55} and 65 → {t65}. Announces and marriages are added in tens.",
              t44=slate.tens(44), t46=slate.tens(46), t55=slate.tens(55), t65=slate.tens(65)),
        _item("R-BROUC-7", "Dehors à {out} : {coches} coche au perdant, ardoises à zéro. Les deux dehors : la plus "
              "haute ardoise gagne ; égalité : une donne de plus.", "Out at {out}: {coches} coche to the loser, "
              "slates back to zero. Both out: the higher slate wins; equal: one more deal.",
              out=slate.OUT, coches=slate.PARTIE_COCHES),
        _item("R-BROUC-8", "La cape : {cape} coches, mariages annulés. Demandée à {dehors}+ : {declared} ; pas "
              "dédoublé (autre camp ≤ {up_to}) : {pas_dedouble}. Manquée : aux demandeurs.", "La cape: {cape} "
              "coches, marriages cancelled. Declared at {dehors}+: {declared}; “pas dédoublé”, the other side at "
              "{up_to} or less: {pas_dedouble}. Missed: to the declarers.", cape=slate.CAPE_COCHES,
              dehors=slate.DEHORS_FROM, declared=slate.DECLARED_COCHES["cape_dehors"],
              up_to=slate.PAS_DEDOUBLE_UP_TO, pas_dedouble=slate.DECLARED_COCHES["cape_dehors_pas_dedouble"]),
        _item("R-BROUC-8b", "Cape non demandée : ses {cape} coches seulement ; les points des cartes de la donne ne "
              "s'écrivent pas, les annonces restent. Pas de demande après un pli perdu. Une annonce ne s'allonge "
              "pas (roi-dame, puis roi-dame-valet : refusé).", "Undeclared cape: its {cape} coches alone; the "
              "deal's card points are not written, the announces stay. No declaration once the side has lost a "
              "trick. An announce is never extended (king-queen, then king-queen-jack: refused).",
              cape=slate.CAPE_COCHES),
    ]
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BROUC-2",
            "strength": order}


def _brulot(o: dict, w: dict) -> dict:
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
        _item("R-BRULOT-1", "52 cartes, 3 à 6 joueurs, chacun autant que le jeu en partage ; le reste fait la "
              "veuve ({widows}). Ses cartes sont hors jeu.", "52 cards, 3 to 6 players, each as many as the deck "
              "shares out; the rest is the widow ({widows}). Its cards are out of play.", widows=widows),
        _item("R-BRULOT-2", "Sans atout : aucune carte n'est retournée.", "No trump: no card is turned.")
        if o["no_trump"] else
        _item("R-BRULOT-2", "Atout : {trump} ; à 4 : {with_4}.", "Trump: {trump}; with 4: {with_4}.", trump=trump,
              with_4=said("la dernière carte du donneur", "the dealer's last card")),
        _item("R-BRULOT-3", "Fournir si possible, sinon n'importe quoi. Force : {order}.",
              "Follow suit if you can, otherwise anything. Strength: {order}.", order=order),
        _item("R-BRULOT-4", "Qui ne joue ni la couleur ni atout est brûlé et montre son jeu ; ses cartes suivantes "
              "doivent en venir.", "Whoever plays neither the suit led nor a trump is brûlé and shows his hand; "
              "his later cards must come from it."),
        _item("R-BRULOT-5", "Une donne vaut {total} points de pénalité moins ceux de la veuve.{clean}",
              "A deal holds {total} penalty points less the widow's.{clean}", total=4 * sum(o["penalties"]),
              clean=clean),
        _item("R-BRULOT-6", "Le total le plus bas gagne ; égalité : victoire partagée.{partners}",
              "The lowest total wins; equal totals share the win.{partners}", partners=partners),
    ]
    points = dict(zip(brulot.PENALTY_RANKS, o["penalties"]))
    return {"items": items, "values": _values(points, brulot.PENALTY_RANKS, rest=True), "values_rule": "R-BRULOT-5",
            "low_wins": True, "strength": order}


def _brusquembille(o: dict, w: dict) -> dict:
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
        _item("R-BRUSQ-1", "3 à 5 joueurs, équipes de 2 à 4. {size} cartes à 4, 30 sinon (retirés : {removed}). "
              "Force : {order}.", "3 to 5 players, teams of 2 at 4. {size} cards at 4, 30 otherwise (removed: "
              "{removed}). Strength: {order}.", size=s.PIQUET_32.size, removed=w["removed"], order=order),
        _item("R-BRUSQ-2", "{hand} cartes, la suivante retournée pour l'atout. Pas d'obligation de fournir. "
              "Chacun pioche après le pli, le gagnant d'abord ; la retournée {turned}", "{hand} cards, the next "
              "turned for trump. No obligation to follow. Everyone draws after the trick, the winner first; the "
              "turned card {turned}", hand=s.HAND_SIZE, turned=turned),
        _item("R-BRUSQ-4", "Jetons : un as dont le camp gagne le pli reçoit {ace} de chaque adversaire ; coupé, il "
              "leur paie {ace} ; battu par une plus haute de sa couleur, rien. Un dix : {ten}. L'as d'atout ne perd "
              "pas. Jeton = {value}.", "Jetons: an ace whose side wins the trick receives {ace} from each opponent; "
              "trumped, it pays them {ace}; beaten by a higher card of its suit, nothing. A ten: {ten}. The ace of "
              "trump cannot lose. One jeton = {value}.", ace=jetons["A"], ten=jetons["10"],
              value=w["jeton_value"]),
        _item("R-BRUSQ-5", "{series} Égalité en tête : série partagée.", "{series} Equal highest totals share the "
              "series.", series=series),
    ]
    return {"items": items, "values": _values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BRUSQ-3",
            "strength": order}


def _buraco(o: dict, w: dict) -> dict:
    m, b = buraco_melds, buraco
    bonus = m.BONUS
    low_ace = said(" Un as posé en bas (as-2-3) vaut 5.", " An ace laid low (ace-2-3) counts 5.") \
        if o["low_ace_counts_5"] else ""
    items = [
        _item("R-BURACO-1", "Deux jeux de 54 cartes ({size}), 11 cartes chacun et un puits de 11 par camp ; à 4, "
              "deux équipes (partenaires en face).", "Two 54-card decks ({size}), 11 cards each and a pot of 11 per "
              "side; with 4, two teams (partners opposite).", size=b.BURACO_108.size),
        _item("R-BURACO-1b", "À 3 ou 5, puits de 18 et 11 : le premier au puits prend les 18 et joue seul, les "
              "autres font équipe et prennent les 11 ; chacun d'eux marque les points de l'équipe divisés par leur "
              "nombre.", "With 3 or 5, pots of 18 and 11: the first to a pot takes the 18 and plays alone, the others "
              "team up and take the 11; each of them scores the team's points divided among them."),
        _item("R-BURACO-2", "Suite d'une couleur (as en bas ou en haut, au plus {run}) ou série d'une valeur (au plus "
              "{set}), 3 cartes au moins, une seule frimée (joker ou 2).", "A run of one suit (ace low or high, at "
              "most {run}) or a set of one rank (at most {set}), 3 cards or more, one wild card at most (joker or "
              "2).", run=m.MAX_RUN, set=m.MAX_SET),
        _item("R-BURACO-3", "Burraco ({size}+ cartes) : pur {pure}, semi-pur {semi_pure}, sale {dirty}.",
              "Burraco ({size}+ cards): pure {pure}, semi-pure {semi_pure}, dirty {dirty}.", size=m.BURACO,
              pure=bonus["pure"], semi_pure=bonus["semi_pure"], dirty=bonus["dirty"]),
        _item("R-BURACO-4", "Un 2 à sa place dans une suite vaut 5.{low_ace} Les cartes restées en main se "
              "retranchent.", "A 2 in its own place in a run counts 5.{low_ace} Cards left in hand are taken off.",
              low_ace=low_ace),
        _item("R-BURACO-5", "Fermer : puits pris, un burraco, plus de carte ; +{closing}. Puits jamais pris : "
              "−{no_pot}.", "Closing: pot taken, a burraco, no card left; +{closing}. Pot never taken: −{no_pot}.",
              closing=b.CLOSING, no_pot=b.NO_POT),
        _item("R-BURACO-6", "Une manche : combinaisons + burracos + fermeture − main − puits. Fin de la série à "
              "{target} points ; les deux y sont : le plus haut total gagne.", "A hand: melds + burracos + "
              "closing − hand − pot. The series ends at {target} points; both there: the higher total wins.",
              target=o["target"]),
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
    span = said("{first} à {last}", "{first} to {last}")  # a msgid: "3 to 7" in every language
    def label(codes, lang):
        first, last = rank(codes[0], lang), rank(codes[-1], lang)
        return span[lang].format(first=first, last=last) if len(codes) > 1 else first
    values = [{"label": Words({lang: label(g["codes"], lang) for lang in LANGUAGES}), "points": g["points"]}
              for g in groups]
    values.append({"label": said("2 frimé ou en main", "2 wild or in hand"), "points": value(parse("2S"))})
    values.append({"label": Words({lang: rank("JK", lang) for lang in LANGUAGES}), "points": value(parse("JK"))})
    return values
