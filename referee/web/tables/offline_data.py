"""What the scorer's page hands to ``static/offline.js`` so that it can go on entering while the Wi-Fi is down:
the table as the server last saw it (revision, players, sides and their names, the open deal), the way of entry,
and the cards' labels; for the card-by-card picker of a trick game also the deal's leader, trump suit and cards
played, the game's strength order and card points, and what the app knows of the cards (``known_cards``). Rendered
as a JSON block the browser never executes (``<script type="application/json">``, allowed by the CSP). The client
works out whose card comes next and who wins a trick with the shared rule (R-COMMON-2, ``tricks.trick_winner``),
refuses a card the server would refuse for what it knows of the hands (R-COMMON-4, ``tricks.verify_cards``),
gathers a pile's cards and keeps a deal's typed numbers; the server decides the rest when the queued entries arrive
(the other pile, the numbers' points, the game's own checks such as a brûlé player's suit)."""
from __future__ import annotations

from flask_babel import gettext

from referee.games.tricks import CARD_REFUSALS
from referee.web.i18n import lang

MODES = ("trick", "capture", "numbers")  # the ways of entry that can go on offline


def offline_data(game, table, state: dict, entry, key: str) -> dict | None:
    """The client-side copy for a deal entered card by card, by captured piles or by numbers, else None: an open
    deal, or card by card the deal just finished when the next one can start offline."""
    deal = table.current
    tricks = entry.mode == "trick"
    if entry.mode not in MODES or deal is None or tricks and not game.plays_tricks:
        return None  # a Buraco page's picker lays melds: nothing the phone works out
    # Card by card, the next deal can start offline too where it starts with a turned card and nothing else (a
    # Brûlot deal has a widow the phone does not follow).
    following = tricks and not game.deals_a_widow and game.turned_card(table) == "required"
    now = state["next"]["action"]
    if tricks:  # card by card: a trick to enter, or the next deal when it can start offline
        goes_on = now == "trick" or (now == "deal" and following)
    else:  # by piles or by numbers: the deal still open
        goes_on = not deal.complete
    if not goes_on:
        return None
    deck, language = game.deck_for(table), lang()  # the language asked once, not once a card (a tap's cost)
    data = {
        "table": state["id"], "key": key, "game": state["game"], "mode": entry.mode, "revision": state["revision"],
        "deal_word": game.deal_word,  # "deal" or "hand": how the queue names an entry
        "players": list(table.players), "sides": [list(side) for side in table.sides],
        "side_names": [table.side_name(s) for s in range(len(table.sides))], "deal": deal.number,
        "side": entry.side or 0, "captured": [s for s, pile in enumerate(getattr(deal, "captures", None) or [])
                                              if pile is not None],
        "pending": [c.code for c in entry.pending],
        "labels": deck.labels(language),  # made once per deck and language
    }
    if tricks:
        data.update({
            "leader": deal.leader, "trump_suit": deal.trump_suit, "played": sorted(c.code for c in deal.played),
            "tricks": len(deal.tricks), "tricks_per_deal": game.tricks_per_deal(table, deal),
            "complete": deal.complete, "points": list(deal.card_points) or [0] * len(table.sides),
            "strength": dict(game.strength), "card_points": dict(game.points_for(table)),
        }, **known_cards(game, table, deal, language))
    if following:  # R-COMMON-2: the next player deals (Brouc: the same after a declared cape, R-BROUC-8)
        data["next_deal"] = {"number": deal.number + 1, "dealer": game.next_dealer(table)}
    return data


def known_cards(game, table, deal, language: str) -> dict:
    """What the app knows of the cards (R-COMMON-4), for the phone to refuse what the server would: the cards known
    in a hand, out of play, on or under the stock and who draws it (``turned_draw``: after which trick, the seat from
    its winner), a hand's size (``hand_limit`` while a stock lasts), where the next deal's turned card goes, and the
    refusals' sentences in the page's language."""
    stock = game.under_stock(deal)
    refusals = {**CARD_REFUSALS, "stock": game.stock_refusal}
    return {"known": {c.code: p for c, p in deal.known.items() if c not in deal.played},
            "out": sorted(c.code for c in deal.out_of_play), "under_stock": stock.code if stock else None,
            "turned_draw": list(game.turned_draw(table) or ()) or None, "turned_holder": game.turned_holder(table),
            "hand_limit": game.hand_limit, "refusals": said_once(refusals, language)}


_SAID: dict = {}  # (language, the sentences) -> each in that language: the same few at every tap


def said_once(sentences: dict, language: str) -> dict:
    """``sentences`` (name -> an English sentence, None for none) in the page's language (``language``, as
    ``lang()`` says it), translated once per language and kept; a tap asked the catalogue for each again."""
    key = (language, tuple(sentences.items()))
    found = _SAID.get(key)
    if found is None:
        found = _SAID[key] = {name: gettext(text) for name, text in sentences.items() if text}
    return found
