"""Buraco on paper: its part of the printed rule summary (the decks and pots, melds, burracos, closing, the hand's
points and the series, R-BURACO-1 to 6; the card values by ranges) and its score sheet (per side, a hand's columns
and the running total: ``templates/_sheet_print_buraco.html``). The engine's module is read when a page is made
(it imports this one)."""
from __future__ import annotations

from referee.games.buraco import engine as buraco
from referee.games.buraco import melds as buraco_melds
from referee.games.buraco.tally import BONUS_OF, KINDS
from referee.games.printed import complete_deals, default_of
from referee.games.summary_text import rank, ruled
from referee.languages import LANGUAGES
from referee.words import Words, said


def summary(game, o: dict, w: dict) -> dict:
    """The printed rule summary's part of buraco (``o`` its options, ``w`` their words)."""
    m, b = buraco_melds, buraco
    bonus = m.BONUS
    low_ace = said(" Un as posé en bas (as-2-3) vaut 5.", " An ace laid low (ace-2-3) counts 5.") \
        if o["low_ace_counts_5"] else ""
    items = [
        ruled("R-BURACO-1", "Deux jeux de 54 cartes ({size}), 11 cartes chacun et un puits de 11 par camp ; à 4, "
              "deux équipes (partenaires en face).", "Two 54-card decks ({size}), 11 cards each and a pot of 11 per "
              "side; with 4, two teams (partners opposite).", size=b.BURACO_108.size),
        ruled("R-BURACO-1b", "À 3 ou 5, puits de 18 et 11 : le premier au puits prend les 18 et joue seul, les "
              "autres font équipe et prennent les 11 ; chacun d'eux marque les points de l'équipe divisés par leur "
              "nombre.", "With 3 or 5, pots of 18 and 11: the first to a pot takes the 18 and plays alone, the others "
              "team up and take the 11; each of them scores the team's points divided among them."),
        ruled("R-BURACO-2", "Suite d'une couleur (as en bas ou en haut, au plus {run}) ou série d'une valeur (au plus "
              "{set}), 3 cartes au moins, une seule frimée (joker ou 2).", "A run of one suit (ace low or high, at "
              "most {run}) or a set of one rank (at most {set}), 3 cards or more, one wild card at most (joker or "
              "2).", run=m.MAX_RUN, set=m.MAX_SET),
        ruled("R-BURACO-3", "Burraco ({size}+ cartes) : pur {pure}, semi-pur {semi_pure}, sale {dirty}.",
              "Burraco ({size}+ cards): pure {pure}, semi-pure {semi_pure}, dirty {dirty}.", size=m.BURACO,
              pure=bonus["pure"], semi_pure=bonus["semi_pure"], dirty=bonus["dirty"]),
        ruled("R-BURACO-4", "Un 2 à sa place dans une suite vaut 5.{low_ace} Les cartes restées en main se "
              "retranchent.", "A 2 in its own place in a run counts 5.{low_ace} Cards left in hand are taken off.",
              low_ace=low_ace),
        ruled("R-BURACO-5", "Fermer : puits pris, un burraco, plus de carte ; +{closing}. Puits jamais pris : "
              "−{no_pot}.", "Closing: pot taken, a burraco, no card left; +{closing}. Pot never taken: −{no_pot}.",
              closing=b.CLOSING, no_pot=b.NO_POT),
        ruled("R-BURACO-6", "Une manche : combinaisons + burracos + fermeture − main − puits. Fin de la série à "
              "{target} points ; les deux y sont : le plus haut total gagne.", "A hand: melds + burracos + "
              "closing − hand − pot. The series ends at {target} points; both there: the higher total wins.",
              target=o["target"]),
    ]
    return {"items": items, "values": values_by_range(), "values_rule": "R-BURACO-4", "strength": None}


def values_by_range() -> list:
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


def sheet(game, state: dict | None) -> dict:
    """Per side, a hand's columns: melds, burracos by class, closing, pot, cards left in hand, the hand's points
    and the running total toward the target (R-BURACO-3, 5, 6)."""
    if state is None:
        return {"sides": [{"name": None, "rows": [None] * game.blank_rows, "total": None}] * 2,
                "target": default_of(game, "target")}
    sides = []
    for s, side in enumerate(state["sides"]):
        rows, running = [], 0
        for hand in complete_deals(state):
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


def extent(game, model: dict) -> tuple:
    """Each side's column of hands, one under the other."""
    return sum(len(side["rows"]) + 4 for side in model["sides"]), 47


def room(game, model: dict, more) -> None:
    """The rows left to write in: under each side's column."""
    for side in model["sides"]:
        side["rows"] = side["rows"] + more(len(side["rows"]))
