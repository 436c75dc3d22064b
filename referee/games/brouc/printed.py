"""Brouc on paper: its part of the printed rule summary (the deal, announces and mariages, the slate in tens, the
partie and the cape, R-BROUC-1 to 8b) and its score sheet, the slate (``templates/_sheet_print_brouc.html``): the
scorer's side on the right of the line, parties flowing into columns. The engine's module is read when a page is
made (it imports this one)."""
from __future__ import annotations

from referee.games.brouc import engine as brouc
from referee.games.brouc import slate as brouc_slate
from referee.games.printed import complete_deals
from referee.games.summary_text import card_values, names, ruled

SLATE_ROWS = 30  # rows of a slate column before the next partie starts a new column beside it (4 columns at most)


def summary(game, o: dict, w: dict) -> dict:
    """The printed rule summary's part of brouc (``o`` its options, ``w`` their words)."""
    s, slate = brouc, brouc_slate
    order = names(s.STRENGTH_ORDER, joiner=" > ")
    items = [
        ruled("R-BROUC-1", "4 joueurs, deux camps (partenaires en face), {size} cartes ; 1, 3 puis 4 cartes. La "
              "dernière carte du donneur, retournée, fait l'atout et reste dans sa main.", "4 players, two sides "
              "(partners opposite), {size} cards; 1, 3 then 4 cards. The dealer's last card, turned, makes trump and "
              "stays in his hand.", size=s.PIQUET_32.size),
        ruled("R-BROUC-2", "Force = points, dans toutes les couleurs : {order}. 120 points, pas de dix de der.",
              "Strength follows points, in every suit: {order}. 120 points, no last-trick bonus.", order=order),
        ruled("R-BROUC-3", "Fournir ; pas couper en ayant la couleur ; pas sous-couper, sauf pour un mariage sur "
              "table ou avec seulement des atouts plus bas.", "Follow suit; no trumping while holding the suit; no "
              "under-trumping, except to make a table marriage or holding only lower trumps."),
        ruled("R-BROUC-4", "Annonces : roi-dame {kq}, roi-dame-valet {kqj}, doublées en atout, après un pli gagné, "
              "jamais avec la première carte.", "Announces: king-queen {kq}, king-queen-jack {kqj}, doubled in "
              "trump, after a trick won, never with the first card.",
              kq=slate.announce_points({"K", "Q"}, False), kqj=slate.announce_points({"K", "Q", "J"}, False)),
        ruled("R-BROUC-5", "Mariage sur table : mêmes valeurs, au camp qui gagne le pli et ôtées à l'autre.",
              "Table marriage: same values, to the side winning the trick and taken from the other."),
        ruled("R-BROUC-6", "Ardoise en dizaines : 44 → {t44}, 46 → {t46}, sur le point 55 → {t55} et 65 → "
              "{t65}. Annonces et mariages s'y ajoutent en dizaines.", "Slate in tens: 44 → {t44}, 46 → {t46}, on the "
              "point 55 → {t55} and 65 → {t65}. Announces and marriages are added in tens.",
              t44=slate.tens(44), t46=slate.tens(46), t55=slate.tens(55), t65=slate.tens(65)),
        ruled("R-BROUC-7", "Dehors à {out} : {coches} coche au perdant, ardoises à zéro. Les deux dehors : la plus "
              "haute ardoise gagne ; égalité : une donne de plus.", "Out at {out}: {coches} coche to the loser, "
              "slates back to zero. Both out: the higher slate wins; equal: one more deal.",
              out=slate.OUT, coches=slate.PARTIE_COCHES),
        ruled("R-BROUC-8", "La cape : {cape} coches, mariages annulés. Demandée à {dehors}+ : {declared} ; pas "
              "dédoublé (autre camp ≤ {up_to}) : {pas_dedouble}. Manquée : aux demandeurs.", "La cape: {cape} "
              "coches, marriages cancelled. Declared at {dehors}+: {declared}; “pas dédoublé”, the other side at "
              "{up_to} or less: {pas_dedouble}. Missed: to the declarers.", cape=slate.CAPE_COCHES,
              dehors=slate.DEHORS_FROM, declared=slate.DECLARED_COCHES["cape_dehors"],
              up_to=slate.PAS_DEDOUBLE_UP_TO, pas_dedouble=slate.DECLARED_COCHES["cape_dehors_pas_dedouble"]),
        ruled("R-BROUC-8b", "Cape non demandée : ses {cape} coches seulement ; les points des cartes de la donne ne "
              "s'écrivent pas, les annonces restent. Pas de demande après un pli perdu. Une annonce ne s'allonge "
              "pas (roi-dame, puis roi-dame-valet : refusé).", "Undeclared cape: its {cape} coches alone; the "
              "deal's card points are not written, the announces stay. No declaration once the side has lost a "
              "trick. An announce is never extended (king-queen, then king-queen-jack: refused).",
              cape=slate.CAPE_COCHES),
    ]
    return {"items": items, "values": card_values(s.POINTS, s.STRENGTH_ORDER), "values_rule": "R-BROUC-2",
            "strength": order}


def sheet(game, state: dict | None) -> dict:
    """The slate: the scorer's side on the right of the line (R-BROUC-6), a partie's deals in tens with the slate so
    far, its end and its coches (R-BROUC-7, 8); parties flow into columns, each with its own line."""
    if state is None:
        return {"names": [None, None], "coches": [0, 0], "columns": [], "first_dealer": None,
                "rows": [None] * game.blank_rows, "on_slate": None, "limit": None}
    right = state["options"]["scorer_side"]
    order = [1 - right, right]
    parties, partie, running = [], [], [0, 0]
    for deal in complete_deals(state):
        running = [running[s] + deal["slate"][s] for s in (0, 1)]
        partie.append({"kind": "deal", "number": deal["number"], "tens": [deal["slate"][s] for s in order],
                       "running": [running[s] for s in order], "coches": [deal["coches"][s] for s in order]})
        for a in deal["announces"]:
            partie.append({"kind": "announce", "side": order.index(a["side"]), "tens": a["tens"],
                           "points": a["points"]})
        if deal["cape"]:
            partie.append({"kind": "cape", "reason": deal["cape"]["reason"]})
        if deal["partie_end"]:
            end = deal["partie_end"]
            partie.append({"kind": "end", "slate": [end["slate"][s] for s in order], "loser": end["loser"]})
            parties.append(partie)
            partie, running = [], [0, 0]
    open_partie = bool(partie) or any(state["totals"])
    if partie:
        parties.append(partie)
    columns, column = [], []
    height = max(SLATE_ROWS, -(-sum(len(p) for p in parties) // 4) + 4)
    for partie in parties:
        if column and len(column) + len(partie) > height:
            columns.append(column)
            column = []
        column = column + partie
    if column or not columns:
        columns.append(column)
    dealer = state["first_dealer"]
    return {"names": [state["sides"][s]["name"] for s in order], "order": order,
            "coches": [state["series"]["coches"][s] for s in order], "columns": columns,
            "first_dealer": state["players"][dealer], "dealer_side": order.index(0 if dealer in (0, 2) else 1),
            "on_slate": [state["totals"][s] for s in order] if open_partie else None,
            "limit": state["series"].get("coches_to_lose"), "rows": []}


def extent(game, model: dict) -> tuple:
    """The slate's rows (its longest column, then the rows left to write in) and its width, 20 em a column."""
    columns = model["columns"] or [[]]
    return max(len(c) for c in columns) + len(model["rows"]) + 3, 20 * len(columns)


def room(game, model: dict, more) -> None:
    """The rows left to write in: under the slate's last column."""
    model["rows"] = more(len(model["columns"][-1]))
