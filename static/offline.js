// The scorer's picker goes on when the Wi-Fi drops (trick games, card by card). While the server cannot be reached
// (navigator.onLine false, or a request that failed), a tap is handled here: whose card comes next, the cards
// already played, a whole trick and its winner (R-COMMON-2: the highest trump, else the highest card of the suit
// led, with the trump and strength order the server sent in #offline-data). Each whole trick waits in a queue kept
// in IndexedDB, one record per table, so a reload or a closed tab loses nothing. When the connection comes back (the
// `online` event, the page's load, a retry every few seconds) the queue goes to the JSON API in order, one entry at a
// time, each with the client_event_id made when it was tapped and the revision it was made on: a retry is stored
// once (docs/api.md). A refusal or a conflict stops the queue at that entry, with the server's sentence and two
// choices; nothing after it is sent until the scorer chooses. After a full sync the fragment comes from the server.
(function () {
  "use strict";
  var STORE = "queues";
  var RETRY_MS = 4000;
  var words = {};
  var data = null;     // the server's copy of the open deal (#offline-data), for this page
  var record = null;   // {table, base, entries: [{id, revision, cards, refused?}], pending: [codes]}
  var failed = false;  // a request did not reach the server: stay offline until one does
  var syncing = false;
  var lastCard = null; // the card of an htmx tap under way: entered here if its request cannot be sent

  // ---- IndexedDB: one record per table ---------------------------------------------------------------------
  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = indexedDB.open("referee-offline", 1);
        request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "table" }); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return dbPromise;
  }
  function transact(mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(request && request.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function load(table) { return transact("readonly", function (store) { return store.get(table); }); }
  function save() {
    if (!record) { return Promise.resolve(); }
    var copy = JSON.parse(JSON.stringify(record));
    if (!copy.entries.length && !copy.pending.length) {
      return transact("readwrite", function (store) { return store.delete(copy.table); });
    }
    return transact("readwrite", function (store) { return store.put(copy); });
  }

  // ---- the rules the client can apply ------------------------------------------------------------------------
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
  // A trick applied to a copy of the deal: the next base and what the trick gave.
  function applyTrick(base, cards) {
    var n = base.players.length;
    var winner = (base.leader + winnerIndex(cards, base.trump_suit, base.strength)) % n;
    var points = cards.reduce(function (sum, code) { return sum + (base.card_points[rankOf(code)] || 0); }, 0);
    var next = JSON.parse(JSON.stringify(base));
    next.played = base.played.concat(cards);
    next.leader = winner;
    next.tricks = base.tricks + 1;
    next.points[sideOf(base, winner)] += points;
    return { base: next, trick: { number: next.tricks, winner: winner, points: points } };
  }
  function local() {
    var base = record.base;
    var tricks = [];
    record.entries.forEach(function (entry) {
      var step = applyTrick(base, entry.cards);
      base = step.base;
      tricks.push(step.trick);
    });
    return { base: base, tricks: tricks };
  }

  // ---- when the page handles taps itself ------------------------------------------------------------------
  function offline() { return failed || !navigator.onLine; }
  function active() {
    return !!(data && record && (record.entries.length || offline()));
  }
  function ensureRecord() {
    if (!record) {
      record = { table: data.table, key: data.key, base: baseFrom(data), entries: [], pending: data.pending.slice() };
    }
    return record;
  }
  function baseFrom(source) {
    var fields = ["revision", "players", "sides", "leader", "trump_suit", "played", "tricks", "tricks_per_deal",
      "points", "strength", "card_points", "labels", "deal"];
    var base = {};
    fields.forEach(function (name) { base[name] = JSON.parse(JSON.stringify(source[name])); });
    return base;
  }
  function randomId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes); // randomUUID needs a secure context; plain http on a LAN has none
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function say(template, values) {
    return String(template || "").replace(/%\((\w+)\)s/g, function (whole, name) {
      return values[name] !== undefined ? values[name] : whole;
    });
  }
  function label(code) { return (record.base.labels && record.base.labels[code]) || code; }

  function tap(code, eventId) {
    ensureRecord();
    var now = local();
    var note = null;
    if (now.base.played.indexOf(code) >= 0 || record.pending.indexOf(code) >= 0) {
      note = say(words.played, { card: label(code) });
    } else if (now.base.tricks >= now.base.tricks_per_deal) {
      note = words.deal_over;
    } else {
      record.pending.push(code);
      if (record.pending.length === now.base.players.length) {
        record.entries.push({ id: eventId || randomId(), revision: record.base.revision + record.entries.length,
          cards: record.pending });
        record.pending = [];
      }
    }
    return save().then(function () { render(note); });
  }
  function undo() {
    var note = null;
    if (record.pending.length) {
      record.pending.pop();
    } else if (record.entries.length && !record.entries[record.entries.length - 1].refused) {
      record.entries.pop();
    } else {
      note = words.undo_online;
    }
    return save().then(function () { render(note); });
  }

  // ---- what the page shows --------------------------------------------------------------------------------
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function wonText(trick) {
    var template = trick.points === 1 ? words.won_1 : trick.points === 0 ? words.won_0 : words.won_n;
    return say(template, { n: trick.number, winner: record.base.players[trick.winner], num: trick.points });
  }
  function render(note) {
    var scorer = document.getElementById("scorer");
    if (!scorer || !record || !data) { return; }
    var now = local();
    var base = now.base;
    var played = {};
    base.played.forEach(function (code) { played[code] = true; });
    document.querySelectorAll("#picker button.card").forEach(function (button) {
      var code = button.value;
      if (!button.dataset.server) {
        button.dataset.server = (button.className.match(/\b(free|played|out|held|stock|pending)\b/) || ["free"])[0];
      }
      var server = button.dataset.server;
      var index = record.pending.indexOf(code);
      var status = index >= 0 ? "pending" : played[code] ? "played"
        : server === "pending" || server === "played" ? "free" : server;
      button.className = "card " + status;
      var badge = button.querySelector(".badge");
      if (index >= 0) {
        if (!badge) { badge = button.appendChild(element("span", "badge")); badge.setAttribute("aria-hidden", "true"); }
        badge.textContent = String(index + 1);
      } else if (badge && (status === "free" || status === "played")) {
        badge.remove();
      }
    });
    var next = scorer.querySelector(".status-next");
    if (next) {
      next.textContent = say(words.trick, { n: base.tricks + 1 }) + ": ";
      record.pending.forEach(function (code, i) {
        var span = next.appendChild(element("span", "played-now",
          base.players[(base.leader + i) % base.players.length] + " " + label(code)));
        next.appendChild(document.createTextNode(" "));
        span.dataset.card = code;
      });
      if (base.tricks < base.tricks_per_deal) {
        next.appendChild(element("strong", "next-card", say(words.next,
          { name: base.players[(base.leader + record.pending.length) % base.players.length] })));
      }
    }
    var last = scorer.querySelector(".status-last");
    if (last && now.tricks.length) { last.textContent = wonText(now.tricks[now.tricks.length - 1]); }
    scorer.querySelectorAll(".status-totals .total-chip strong").forEach(function (strong, side) {
      if (base.points[side] !== undefined) { strong.textContent = String(base.points[side]); }
    });
    var banner = document.getElementById("offline");
    if (banner) { banner.hidden = true; } // "nothing was saved" is not so here: the entries wait on this phone
    renderQueue(scorer, now, note);
  }
  function renderQueue(scorer, now, note) {
    var panel = document.getElementById("offline-queue");
    if (!panel) {
      panel = element("section", "offline-queue");
      panel.id = "offline-queue";
      panel.setAttribute("aria-live", "polite");
      var bar = scorer.querySelector(".status-bar");
      scorer.insertBefore(panel, bar ? bar.nextSibling : scorer.firstChild);
    }
    panel.textContent = "";
    panel.hidden = !(record.entries.length || record.pending.length || note || record.again || offline());
    if (record.entries.length) { panel.appendChild(element("h2", "offline-title", words.title)); }
    var state = element("p", "offline-state", offline() ? words.offline : syncing ? words.sending : "");
    if (state.textContent) { panel.appendChild(state); }
    if (note) { panel.appendChild(element("p", "offline-note", note)); }
    if (record.again) { panel.appendChild(element("p", "offline-again", say(words.again, { cards: record.again }))); }
    var list = panel.appendChild(element("ol", "offline-list"));
    record.entries.forEach(function (entry, i) {
      var item = list.appendChild(element("li", entry.refused ? "refused" : "waiting"));
      item.dataset.clientEventId = entry.id;
      item.appendChild(element("span", "offline-trick", wonText(now.tricks[i]) + " "));
      item.appendChild(element("span", "offline-cards", entry.cards.map(label).join(" ") + " "));
      if (entry.refused) {
        item.appendChild(element("p", "offline-refusal", words.refused + " " + entry.refused));
        var fix = item.appendChild(element("button", "button offline-fix", words.fix));
        fix.type = "button";
        var drop = item.appendChild(element("button", "button offline-drop", words.drop));
        drop.type = "button";
      } else {
        item.appendChild(element("span", "offline-mark", words.waiting));
      }
    });
  }

  // ---- sending the queue, in order, exactly once ----------------------------------------------------------
  function post(entry) {
    var body = { type: "trick", cards: entry.cards, client_event_id: entry.id,
      expected_revision: entry.revision === null ? undefined : entry.revision };
    return fetch("/api/v1/tables/" + encodeURIComponent(record.table) + "/events", {
      method: "POST", credentials: "omit", cache: "no-store",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + record.key },
      body: JSON.stringify(body)
    });
  }
  function revisionNow() {
    return fetch("/api/v1/tables/" + encodeURIComponent(record.table), {
      credentials: "omit", cache: "no-store", headers: { Authorization: "Bearer " + record.key }
    }).then(function (response) { return response.json(); }).then(function (body) { return body.revision; });
  }
  // The deal as the server has it now (after a co-scorer's entry): the base the waiting entries follow.
  function rebase() {
    if (!record.entries.length) { return Promise.resolve(); }
    return fetch("/api/v1/tables/" + encodeURIComponent(record.table), {
      credentials: "omit", cache: "no-store", headers: { Authorization: "Bearer " + record.key }
    }).then(function (response) { return response.json(); }).then(function (state) {
      var deal = state.deals && state.deals[state.deals.length - 1];
      if (!deal || deal.complete || deal.number !== record.base.deal) { return; } // the server decides
      var base = record.base;
      base.revision = state.revision;
      base.tricks = deal.tricks.length;
      base.played = [].concat.apply([], deal.tricks.map(function (t) { return t.cards; }));
      base.leader = deal.tricks.length ? deal.tricks[deal.tricks.length - 1].winner : base.leader;
      base.points = deal.points.slice();
      record.entries.forEach(function (e, i) { e.revision = state.revision + i; });
    }).catch(function () { /* offline again: the revision is asked for when the entry is sent */ });
  }
  function sync() {
    if (syncing || !record || !record.entries.length || !navigator.onLine) {
      if (record && !record.entries.length && !offline()) { finish(); }
      return Promise.resolve();
    }
    var entry = record.entries[0];
    if (entry.refused) { return Promise.resolve(); } // the scorer chooses first
    syncing = true;
    render();
    var ready = entry.revision === null
      ? revisionNow().then(function (revision) { entry.revision = revision; })
      : Promise.resolve();
    return ready.then(function () { return post(entry); }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        syncing = false;
        failed = false;
        if (response.status === 200 || response.status === 201) {
          var step = applyTrick(record.base, entry.cards);
          record.base = step.base;
          record.base.revision = body.state ? body.state.revision : record.base.revision + 1;
          record.entries.shift();
        } else if (response.status === 409 || response.status === 422) {
          entry.refused = (body.error && body.error.message) || String(response.status);
        } else {
          failed = true; // 5xx, 429 …: try again later, in the same order
        }
        return save().then(function () {
          render();
          if (!failed && record.entries.length && !record.entries[0].refused) { return sync(); }
          if (!record.entries.length) { finish(); }
        });
      });
    }, function () {
      syncing = false;
      failed = true; // the request did not reach the server (or its answer was lost): the same entry again later
      render();
    });
  }
  // Everything is stored (or dropped): the server's own fragment and totals, the trick in progress carried along.
  function finish() {
    if (!record || record.entries.length || !window.htmx) { return; }
    var url = new URL(window.location.href);
    url.searchParams.delete("pending");
    if (record.pending.length) { url.searchParams.set("pending", record.pending.join(".")); }
    var again = record.again;
    var table = record.table;
    record = null;
    transact("readwrite", function (store) { return store.delete(table); }).then(function () {
      window.history.replaceState(null, "", url.toString());
      return window.htmx.ajax("GET", url.toString(), { target: "#scorer", swap: "outerHTML" });
    }).then(function () {
      if (again && data) {
        ensureRecord();
        record.again = again;
        render();
      }
    });
  }
  function choose(fix) {
    if (fix) { // it and every entry after it go back to the scorer's hands, on the server's state
      record.again = record.entries.map(function (e) { return e.cards.map(label).join(" "); }).join(" · ");
      record.entries = [];
      record.pending = [];
    } else { // only it: the rest waits, made again on the table as the server has it now
      record.entries.shift();
      record.entries.forEach(function (e) { e.revision = null; });
    }
    rebase().then(save).then(function () {
      if (!record.entries.length) {
        finish();
      } else {
        render();
        sync();
      }
    });
  }

  // ---- wiring -----------------------------------------------------------------------------------------------
  function readData() {
    var block = document.getElementById("offline-data");
    data = block ? JSON.parse(block.textContent) : null;
  }
  function start() {
    var wordsBlock = document.getElementById("offline-words");
    words = wordsBlock ? JSON.parse(wordsBlock.textContent) : {};
    readData();
    if (!data || !window.indexedDB) { return; }
    load(data.table).then(function (kept) {
      if (kept && (kept.entries.length || kept.pending.length)) {
        record = kept;
        record.key = data.key;
        render();
      }
      sync();
    });
  }
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) { return; }
    var fix = target.closest("#offline-queue .offline-fix, #offline-queue .offline-drop");
    if (fix && record) {
      event.preventDefault();
      choose(fix.classList.contains("offline-fix"));
      return;
    }
    if (!data) { return; }
    var card = target.closest("#picker button.card");
    var undoButton = target.closest("form.undo button");
    if (!card && !undoButton) { return; }
    if (!active() && !offline()) {
      lastCard = card ? card.value : null;
      return; // online: htmx posts it as ever
    }
    event.preventDefault();
    event.stopPropagation();
    ensureRecord();
    if (card) { tap(card.value); } else { undo(); }
  }, true);
  document.addEventListener("htmx:sendError", function (event) {
    failed = true;
    var form = event.detail && event.detail.elt;
    if (data && lastCard && form && form.id === "picker") {
      var id = form.querySelector("input[name=event_id]");
      var code = lastCard;
      lastCard = null;
      ensureRecord();
      tap(code, id && id.value); // the form's own id: had it reached the server, the retry is stored once
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    lastCard = null;
    readData();
    if (record && data) { render(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful && !(event.detail.elt && event.detail.elt.id === "live")) {
      failed = false;
    }
  });
  window.addEventListener("online", function () { failed = false; render(); sync(); });
  window.addEventListener("offline", function () { if (record) { render(); } });
  setInterval(function () {
    if (record && record.entries.length && navigator.onLine && !syncing) { failed = false; sync(); }
  }, RETRY_MS);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
