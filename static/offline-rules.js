// The rules the scorer's phone applies by itself while the Wi-Fi is down (static/offline.js): a whole trick's
// winner and points (R-COMMON-2, as referee/games/tricks.py trick_winner: the highest trump if a trump was played,
// else the highest card of the suit led), with the trump suit, strength order and card points the server sent;
// and the next deal once its card is turned.
window.RefereeOfflineRules = (function () {
  "use strict";
  function suitOf(code) { return code.slice(-1); }
  function rankOf(code) { return code.slice(0, -1); }
  // R-COMMON-2 (tricks.trick_winner): the highest trump if a trump was played, else the highest of the suit led.
  function winnerIndex(cards, trump, strength) {
    var best = 0;
    for (var i = 1; i < cards.length; i += 1) {
      var top = cards[best];
      if (suitOf(cards[i]) === suitOf(top)) {
        if (strength[rankOf(cards[i])] > strength[rankOf(top)]) { best = i; }
      } else if (suitOf(cards[i]) === trump) {
        best = i;
      }
    }
    return best;
  }
  function sideOf(base, player) {
    for (var s = 0; s < base.sides.length; s += 1) {
      if (base.sides[s].indexOf(player) >= 0) { return s; }
    }
    return 0;
  }
  // A trick applied to a copy of the deal (the fields a step changes are new; the game's tables are shared): the
  // next base and what the trick gave.
  function applyTrick(base, cards) {
    var n = base.players.length;
    var winner = (base.leader + winnerIndex(cards, base.trump_suit, base.strength)) % n;
    var points = cards.reduce(function (sum, code) { return sum + (base.card_points[rankOf(code)] || 0); }, 0);
    var next = Object.assign({}, base);
    next.played = base.played.concat(cards);
    next.leader = winner;
    next.tricks = base.tricks + 1;
    next.points = base.points.slice();
    next.points[sideOf(base, winner)] += points;
    return { base: next, trick: { number: next.tricks, winner: winner, points: points } };
  }
  // R-COMMON-2: the next deal, its card turned for trump: the player after the dealer leads, nothing played yet.
  function newDeal(base, event) {
    var next = Object.assign({}, base);
    var n = base.players.length;
    next.deal = base.next_deal.number;
    next.dealer = event.dealer;
    next.leader = (event.dealer + 1) % n;
    next.trump_suit = suitOf(event.trump);
    next.turned = event.trump;
    next.played = [];
    next.tricks = 0;
    next.complete = false;
    next.points = base.points.map(function () { return 0; });
    next.next_deal = { number: next.deal + 1, dealer: (event.dealer + 1) % n };
    return next;
  }
  // Every trick of the deal is in (or the server's deal was complete already).
  function dealOver(base) { return !!base.complete || (base.tricks !== undefined && base.tricks >= base.tricks_per_deal); }

  // One waiting entry applied to the deal as the phone has it: a trick (``step``: its winner and points), a deal
  // begun (``step``: its number), or a pile's or the numbers' save (the server works those out: no step).
  function advance(base, entry) {
    if (entry.deal) {
      var next = newDeal(base, entry.deal);
      return { base: next, step: { deal: next.deal } };
    }
    if (entry.form) { return { base: base, step: null }; }
    var done = applyTrick(base, entry.cards);
    return { base: done.base, step: done.trick };
  }

  return { advance: advance, dealOver: dealOver };
})();
