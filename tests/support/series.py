"""Whole series: every game with every kind of entry (``SERIES``), and each game's quickest finished series
(``FINISHED``, played by ``finished``)."""
import json
from pathlib import Path

from tests.support.deals import (ANA, BO, BURACO_HAND, CLEAN_RUN, DEAL_4P, DEAL_A, DEAL_D, PILE_44, PILE_64, PILE_76,
                                 PILE_100, tricks)
from tests.support.http_load import LONG_SERIES, PLAYERS4, brulot_log
from tests.support.simulate import brusquembille_deal


RECORDED = json.loads((Path(__file__).parents[1] / "recorded" / "brisca_4p_series.json").read_text())


# Every game, every kind of entry: (game, players, options, entries).
SERIES = [
    ("brisca", PLAYERS4, {"wins_needed": 7}, RECORDED["events"][:33] + [
        {"type": "deal", "trump": "11E"}, {"type": "tally", "points": [70, 50]},
        {"type": "deal", "trump": "11E"}, *({"type": "trick", "cards": cards} for cards, _, _ in DEAL_4P[:4])]),
    ("brulot", PLAYERS4, LONG_SERIES, brulot_log(70)),
    ("brusquembille", PLAYERS4, {"deals": 5},
     [e for deal in range(3) for e in brusquembille_deal(4, deal, deal)]),
    ("brouc", PLAYERS4, {}, [{"type": "deal", "trump": "AH"}, *({"type": "trick", "cards": c} for c in DEAL_A)]
     + [e for pile in [PILE_44] * 4 + [PILE_64] for e in ({"type": "deal", "trump": "7D"},
                                                          {"type": "capture", "side": 0, "cards": pile})]),
    ("buraco", PLAYERS4, {}, BURACO_HAND + (BURACO_HAND[:4] + [BURACO_HAND[-1]]) * 2),
]


BRISCA_DEAL = [{"type": "deal", "trump": "1O"}, {"type": "tally", "points": [70, 50]}]  # Ana & Cy win the deal


# Each game's quickest finished series: (players, options, first dealer, entries, dealers of its deals, next dealer).
FINISHED = {
    # three deals won by Ana & Cy (wins_needed 3, R-BRISCA-6): Cy, Di, Ana dealt, Bo deals next (R-COMMON-2)
    "brisca": (PLAYERS4, {"wins_needed": 3, "tie_rule": "last_trick"}, 2, BRISCA_DEAL * 3, [2, 3, 0], 1),
    # 24/12 after three piles, then Cy declares la cape et dehors and it comes true: 3 coches end the evening
    # (coches_to_lose 1); the dealer stays after a declared cape (R-BROUC-8): Ana again, not Bo
    "brouc": (PLAYERS4, {"coches_to_lose": 1, "scorer_side": 0}, 1,
              [{"type": "deal", "trump": "7D"}, {"type": "capture", "side": 0, "cards": PILE_76}] * 3
              + [{"type": "deal", "trump": "10H"}, *tricks(DEAL_D[:6]),
                 {"type": "declare", "player": 2, "call": "cape_dehors"}, *tricks(DEAL_D[6:])], [1, 2, 3, 0], 0),
    # two deals of captured piles (deals 2, R-BRULOT-6): Ana and Bo dealt, Cy deals next
    "brulot": (["Ana", "Bo", "Cy"], {"deals": 2}, 0,
               [{"type": "deal", "trump": "2D"}, {"type": "capture", "side": 0, "cards": ANA},
                {"type": "capture", "side": 1, "cards": BO}] * 2, [0, 1], 2),
    # one deal (deals 1, R-BRUSQ-5) dealt by Cy: Ana deals next, round the table
    "brusquembille": (["Ana", "Bo", "Cy"], {"deals": 1}, 2,
                      [{"type": "deal", "trump": "9S"}, {"type": "capture", "side": 0, "cards": PILE_100},
                       {"type": "capture", "side": 1, "cards": ["QS", "QH", "QD"]}], [2], 0),
    # one hand to 250 (R-BURACO-6): Ana 365, Bo 265; Ana dealt, Bo deals next
    "buraco": (["Ana", "Bo"], {"target": 250}, 0,
               [{"type": "deal", "trump": None}, {"type": "meld", "side": 0, "cards": CLEAN_RUN},
                {"type": "meld", "side": 1, "cards": ["KH", "QH", "JH", "10H", "9H", "8H", "7H"]},
                {"type": "pot", "side": 0}, {"type": "pot", "side": 1},
                {"type": "count", "closed_by": 0, "hands": [[], []]}], [0], 1),
}


def finished(ledger, game="brisca"):
    """A table of ``game`` whose series is over: (table id, scorer key, viewer key, its last state)."""
    players, options, dealer, bodies, dealers, _ = FINISHED[game]
    state, scorer, viewer = ledger.create_table(game, players, options, dealer)
    for body in bodies:
        _, state = ledger.append(state["id"], body)
    assert state["series"]["finished"] is True and [d["dealer"] for d in state["deals"]] == dealers
    return state["id"], scorer, viewer, ledger.state(state["id"])
