// The rules the scorer's phone applies by itself while the Wi-Fi is down (static/offline.js): a whole trick's
// winner and points (R-COMMON-2, as referee/games/tricks.py trick_winner: the highest trump if a trump was played,
// else the highest card of the suit led), with the trump suit, strength order and card points the server sent;
// what is known of the cards and the refusals that follow (R-COMMON-4, as tricks.verify_cards: a card out of play,
// known in another hand, on the stock, or outside a hand known whole); and the next deal once its card is turned.
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
    next.known = {};
    Object.keys(base.known || {}).forEach(function (code) {
      if (cards.indexOf(code) < 0) { next.known[code] = base.known[code]; }
    });
    // the card on or under the stock is drawn after trick turned_draw[0], by that trick's winner + turned_draw[1]
    if (base.under_stock && base.turned_draw && next.tricks === base.turned_draw[0]) {
      next.known[base.under_stock] = (winner + base.turned_draw[1] + n) % n;
      next.under_stock = null;
    }
    return { base: next, trick: { number: next.tricks, winner: winner, points: points } };
  }
  // R-COMMON-4 (tricks.known_hand): the cards ``player`` holds when the app knows as many as he holds, else null.
  function knownHand(base, player) {
    var left = base.tricks_per_deal - base.tricks;
    var size = base.hand_limit ? Math.min(base.hand_limit, left) : left;
    var held = Object.keys(base.known || {}).filter(function (code) { return base.known[code] === player; });
    return held.length && held.length >= size ? held : null;
  }
  // What the card ``code`` is for the player whose card comes next after ``pending`` (the picker's marks, as
  // views.picker): played, pending, out, held (by ``holder``), stock, not-held (his hand is known without it) or free.
  function status(base, pending, code) {
    var player = (base.leader + pending.length) % base.players.length;
    var known = base.known || {};
    var hand;
    if (pending.indexOf(code) >= 0) { return { status: "pending" }; }
    if (base.played.indexOf(code) >= 0) { return { status: "played" }; }
    if ((base.out || []).indexOf(code) >= 0) { return { status: "out" }; }
    if (known[code] !== undefined && known[code] !== player) { return { status: "held", holder: known[code] }; }
    if (code === base.under_stock) { return { status: "stock" }; }
    hand = knownHand(base, player);
    if (hand && hand.indexOf(code) < 0) { return { status: "not-held", player: player, hand: hand }; }
    return { status: "free", player: player };
  }
  // The server's refusal of that card, in the page's language (its sentence and fields), or null: taken.
  function refusal(base, pending, code, label) {
    var seen = status(base, pending, code);
    var player = (base.leader + pending.length) % base.players.length;
    var values = { card: label(code), name: base.players[player] };
    var sentences = base.refusals || {};
    if (seen.status === "out") { return { template: sentences.card_out_of_play, values: values }; }
    if (seen.status === "held") {
      values.holder = base.players[seen.holder];
      return { template: sentences.card_in_other_hand, values: values };
    }
    if (seen.status === "stock") { return { template: sentences.stock, values: values }; }
    if (seen.status === "not-held") {
      values.held_card = label(seen.hand[0]);
      return { template: seen.hand.length === 1 ? sentences.last_card_known : sentences.hand_known, values: values };
    }
    return null;
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
    next.out = [];
    next.known = {};
    next.under_stock = base.turned_holder === "stock" ? event.trump : null;
    if (base.turned_holder === "dealer") { next.known[event.trump] = event.dealer; } // R-BROUC-1
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

  return { advance: advance, dealOver: dealOver, status: status, refusal: refusal };
})();
