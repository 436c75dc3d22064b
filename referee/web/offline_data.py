"""What the scorer's page hands to ``static/offline.js`` so that it can go on entering tricks while the Wi-Fi is
down: the table as the server last saw it (revision, players, sides, the deal's leader, trump suit and cards
played), the game's strength order and card points, and the cards' labels. Rendered as a JSON block the browser
never executes (``<script type="application/json">``, allowed by the CSP). The client works out whose card comes
next and who wins a trick with the shared rule (R-COMMON-2, ``tricks.trick_winner``); the server decides the rest
when the queued entries arrive."""
from __future__ import annotations

from referee.games.tricks import TrickGame


def offline_data(game, table, state: dict, entry, key: str) -> dict | None:
    """The client-side copy for the card-by-card picker of a trick game's open deal, else None."""
    deal = table.current
    if not isinstance(game, TrickGame) or entry.mode != "trick" or state["next"]["action"] != "trick" \
            or deal is None or deal.complete:
        return None
    deck = game.deck_for(table)
    points = game.points_for(table)
    return {
        "table": state["id"], "key": key, "game": state["game"], "revision": state["revision"],
        "players": list(table.players), "sides": [list(side) for side in table.sides],
        "deal": deal.number, "leader": deal.leader, "trump_suit": deal.trump_suit,
        "played": sorted(c.code for c in deal.played), "tricks": len(deal.tricks),
        "tricks_per_deal": game.tricks_per_deal(table, deal),
        "points": list(deal.card_points) or [0] * len(table.sides),
        "pending": [c.code for c in entry.pending],
        "strength": dict(game.strength), "card_points": dict(points),
        "labels": {c.code: c.short() for c in dict.fromkeys(deck.cards)},
    }
