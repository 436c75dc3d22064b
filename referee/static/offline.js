// The scorer's page goes on when the Wi-Fi drops: card by card (trick games), by captured piles or by numbers.
// While the server cannot be reached (navigator.onLine false, or a request that failed), a tap is handled here:
// whose card comes next, the cards already played, a whole trick and its winner (R-COMMON-2, static/offline-rules.js,
// with the trump and strength order the server sent in #offline-data); a pile's cards gathered; a deal's typed
// numbers saved as they are (static/offline-view.js shows it all). Each entry waits in the queue that
// static/offline-queue.js keeps in IndexedDB and sends, in order, exactly once, when the connection comes back
// (the `online` event, the page's load, a retry every few seconds: static/offline-sync.js). A refusal or a conflict
// stops the queue at that entry, with the server's sentence and two choices; nothing after it is sent until the
// scorer chooses. After a full sync the fragment comes from the server. The cards of a trick tapped here and not yet
// whole go to the server's trick under way (/t/<table>/draft) with the one this phone began from: kept if no other
// phone tapped meanwhile, else refused, and said as cards to enter again (another phone's taps are never merged).
(function () {
  "use strict";
  var queue = window.RefereeOfflineQueue;
  var rules = window.RefereeOfflineRules;
  // What this script, the view and the sync share; the sync writes record, failed and syncing too.
  var page = {
    words: {},
    data: null,     // the server's copy of the open deal (#offline-data), for this page
    record: null,   // {table, key, mode, base, side, entries: [{id, revision, cards | form, text, closes, refused?}],
                    //  pending, seen: the server's trick under way it began from, unsent: its pending changed here}
    failed: false,  // a request did not reach the server: stay offline until one does
    syncing: false
  };
  var view = window.RefereeOfflineView({
    record: function () { return page.record; }, data: function () { return page.data; },
    words: function () { return page.words; }, local: function () { return local(); },
    offline: function () { return offline(); }, syncing: function () { return page.syncing; }
  });
  var sending = window.RefereeOfflineSync(page, { view: view, offline: offline, ensureRecord: ensureRecord });
  var sync = sending.sync;
  var choose = sending.choose;
  var say = view.say;
  var plural = view.plural;
  var label = view.label;
  var render = view.render;
  var element = view.element;
  var setField = view.setField;
  var formFields = view.formFields;
  var typed = view.typed;
  var RETRY_MS = 4000;
  var lastCard = null; // the card of an htmx tap under way: entered here if its request cannot be sent
  var lastForm = null; // the same for a pile or a deal's numbers saved online: {form, fields}
  var loaded = Promise.resolve(); // the waiting entries read from IndexedDB (start): no tap is handled before

  // The deal as this phone has it: the server's copy and every waiting entry after it.
  function local() {
    var record = page.record;
    var base = record.base;
    var tricks = [];
    var closed = false;
    record.entries.forEach(function (entry) {
      var done = rules.advance(base, entry);
      closed = closed || !!entry.closes;
      base = done.base;
      tricks.push(done.step);
    });
    var over = rules.dealOver(base);
    // closed: nothing more can be entered before the server has the waiting entries (over with no next deal here)
    return { base: base, tricks: tricks, over: over, closed: closed || over && !base.next_deal };
  }

  // ---- when the page handles taps itself ------------------------------------------------------------------
  function offline() { return page.failed || !navigator.onLine; }
  function active() {
    return !!(page.data && page.record && (page.record.entries.length || offline() || page.record.unsent));
  }
  function ensureRecord() {
    var data = page.data;
    if (!page.record) {
      page.record = { table: data.table, key: data.key, mode: data.mode, base: baseFrom(data), side: data.side,
        entries: [], pending: data.pending.slice(), seen: data.pending.slice(), unsent: false };
    }
    return page.record;
  }
  function baseFrom(source) {
    var base = {};
    Object.keys(source).forEach(function (name) {
      if (name !== "key" && name !== "pending") { base[name] = JSON.parse(JSON.stringify(source[name])); }
    });
    return base;
  }
  function nextRevision() { return page.record.base.revision + page.record.entries.length; }

  function tap(code, eventId) {
    var record = ensureRecord();
    var now = local();
    var note = null;
    var refused;
    if (now.closed) {
      note = record.mode === "trick" ? page.words.deal_over : page.words.deal_waits;
    } else if (record.mode === "capture" && record.entries.some(function (e) { return (e.cards || []).indexOf(code) >= 0; })) {
      note = say(page.words.played, { card: label(code) }); // in a pile that waits already
    } else if (record.mode === "capture") { // tapping again takes the card back, as the server's pile does
      var at = record.pending.indexOf(code);
      if (at >= 0) { record.pending.splice(at, 1); } else { record.pending.push(code); }
    } else if (now.over) { // the card turned for the next deal: it starts here (R-COMMON-2)
      record.entries.push({ id: eventId || queue.randomId(), revision: nextRevision(),
        deal: { type: "deal", trump: code, dealer: dealerOf(now.base) } });
    } else if (now.base.played.indexOf(code) >= 0 || record.pending.indexOf(code) >= 0) {
      note = say(page.words.played, { card: label(code) });
    } else if ((refused = rules.refusal(now.base, record.pending, code, label))) { // R-COMMON-4, as the server
      note = say(refused.template, refused.values);
    } else {
      record.pending.push(code);
      record.unsent = true; // the trick under way is the server's too: sent when the connection is back
      if (record.pending.length === now.base.players.length) {
        record.entries.push({ id: eventId || queue.randomId(), revision: nextRevision(), cards: record.pending });
        record.pending = [];
      }
    }
    return queue.keep(record).then(function () { render(note); });
  }
  // The next deal's dealer: the one chosen on the page when it offers the choice (the deal to start is the page's
  // next), else the next player.
  function dealerOf(base) {
    var select = document.querySelector("#picker select[name=dealer]");
    var first = !page.record.entries.some(function (e) { return e.deal; });
    return select && first && page.data.complete ? Number(select.value) : base.next_deal.dealer;
  }
  // A pile or a deal's numbers, saved as the form would have posted it; the server works it out when it arrives.
  function queueForm(form, fields, eventId) {
    var record = ensureRecord();
    var note = null;
    if (local().closed) {
      note = page.words.deal_waits;
    } else {
      var entry = { id: eventId || queue.randomId(), revision: nextRevision(), form: { action: form.action, fields: fields } };
      if (record.mode === "capture") {
        setField(fields, "pending", record.pending.join("."));
        setField(fields, "side", String(record.side));
        var side = record.base.side_names[record.side];
        entry.text = plural("pile", record.pending.length, { side: side, num: record.pending.length });
        var missing = record.base.side_names.map(function (name, s) { return s; }).filter(function (s) {
          return s !== record.side && record.base.captured.indexOf(s) < 0 && !record.entries.some(function (e) {
            return e.side === s;
          });
        });
        entry.side = record.side;
        entry.cards = record.pending.slice();
        entry.closes = missing.length <= 1; // the last pile is worked out (R-COMMON-6)
        if (missing.length > 1) { record.side = missing[0]; }
        record.pending = [];
      } else {
        entry.text = say(record.base.deal_word === "hand" ? page.words.numbers_hand : page.words.numbers,
          { n: record.base.deal, values: typed(form) });
        entry.closes = true;
        form.querySelectorAll("input[data-keypad]").forEach(function (input) { input.value = ""; });
        if (window.refereeKept) { window.refereeKept.forget(form.getAttribute("data-keep")); }  // in the queue now
      }
      record.entries.push(entry);
    }
    return queue.keep(record).then(function () { render(note); });
  }
  function undo() {
    var record = page.record;
    var note = null;
    if (record.pending.length) {
      record.pending.pop();
      record.unsent = record.unsent || record.mode === "trick";
    } else if (record.entries.length && !record.entries[record.entries.length - 1].refused &&
               !record.entries[record.entries.length - 1].sending) { // one on its way is the server's to answer
      var last = record.entries.pop();
      if (last.side !== undefined) { record.side = last.side; }
    } else {
      note = page.words.undo_online;
    }
    return queue.keep(record).then(function () { render(note); });
  }

  // ---- wiring -----------------------------------------------------------------------------------------------
  function readData() {
    var block = document.getElementById("offline-data");
    page.data = block ? JSON.parse(block.textContent) : null;
  }
  function start() {
    var wordsBlock = document.getElementById("offline-words");
    page.words = wordsBlock ? JSON.parse(wordsBlock.textContent) : {};
    readData();
    if (!page.data || !window.indexedDB) { document.documentElement.setAttribute("data-queue-read", ""); return; }
    loaded = queue.load(page.data.table).then(function (kept) {
      if (kept && (kept.entries.length || kept.pending.length || kept.unsent)) {
        page.record = kept;
        kept.key = page.data.key;
        kept.mode = kept.mode || "trick";
        kept.entries.forEach(function (entry) { delete entry.sending; }); // a page closed while one was on its way
        render();
      }
      document.documentElement.setAttribute("data-queue-read", ""); // the waiting entries are this page's now
      sync();
    });
  }
  // What a click on the scorer's page is, for this script: a card, the undo, a pile's or the numbers' save, a
  // side chosen for the pile, another tap of the numbers' sheet (that one needs the server), or none of these.
  function clicked(target) {
    if (target.closest("form.undo button")) { return { kind: "undo" }; }
    var what = entered(target);
    // Entries waiting from another way of entry (the page was opened in another mode): they are sent first.
    return what && page.record && page.record.mode !== page.data.mode ? { kind: "server" } : what;
  }
  function entered(target) {
    var card = target.closest("#picker button.card");
    if (card) { return { kind: "card", card: card.value }; }
    var chip = page.data.mode === "capture" && target.closest("#scorer .actions form p > .button");
    if (chip) { return { kind: "side", side: Array.prototype.indexOf.call(chip.parentNode.children, chip) }; }
    var button = target.closest("#scorer form button[type=submit], #scorer form button:not([type])");
    if (!button) { return null; }
    var form = button.form;
    if (form.id === "sheet") { // the numbers' save; the sheet's other taps (announces, burracos …) need the server
      return page.data.mode === "numbers" && button.value === "save" ? { kind: "save", form: form, button: button }
        : { kind: "server" };
    }
    if (page.data.mode === "capture" && view.savesPile(form)) {
      return { kind: "save", form: form, button: button };
    }
    return null;
  }
  function act(what) {
    if (what.kind === "server") { // nothing to keep on the phone: said, as any tap that needs the server
      if (page.record) { render(page.words.needs_connection); } else { showBanner(); }
      return;
    }
    ensureRecord();
    if (what.kind === "card") { tap(what.card); }
    if (what.kind === "undo") { undo(); }
    if (what.kind === "save") { queueForm(what.form, what.fields); }
    if (what.kind === "side") { page.record.side = what.side; queue.keep(page.record).then(function () { render(); }); }
  }
  function showBanner() {
    var banner = document.getElementById("offline");
    if (banner) { banner.hidden = false; }
  }
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) { return; }
    var choice = target.closest("#offline-queue .offline-fix, #offline-queue .offline-drop");
    if (choice && page.record) {
      event.preventDefault();
      choose(choice.classList.contains("offline-fix"));
      return;
    }
    if (!page.data) { return; }
    var what = clicked(target);
    if (!what) { return; }
    if (what.kind === "save") { what.fields = formFields(what.form, what.button); }
    if (!active() && !offline()) { // online: htmx posts it as ever; kept in case its request cannot be sent
      lastCard = what.kind === "card" ? what.card : null;
      lastForm = what.kind === "save" ? what : null;
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    loaded.then(function () { act(what); }); // never before the waiting entries are read: they are kept as they are
  }, true);
  document.addEventListener("htmx:sendError", function (event) {
    page.failed = true;
    var form = event.detail && event.detail.elt;
    if (!page.data || !form) { return; }
    var id = form.querySelector && form.querySelector("input[name=event_id]");
    if (lastCard && form.id === "picker") { // the form's own id: had it reached the server, the retry is stored once
      var code = lastCard;
      lastCard = null;
      loaded.then(function () { tap(code, id && id.value); });
    } else if (lastForm && lastForm.form === form) {
      var saved = lastForm;
      lastForm = null;
      loaded.then(function () {
        ensureRecord();
        queueForm(saved.form, saved.fields, id && id.value);
      });
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (page.data && offline() && elt && elt.id === "sheet-preview") { event.preventDefault(); } // no server to ask
  });
  // htmx says afterSwap once for each part an answer swaps (a tap's answer swaps seven or more by id, hx-swap-oob),
  // each time once every part is in: the page's copy is read again once an answer.
  var swappedBy = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    var answer = event.detail && event.detail.xhr;
    if (answer && answer === swappedBy) { return; }
    swappedBy = answer || null;
    lastCard = null;
    lastForm = null;
    readData();
    if (page.record && page.data) { render(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful && !(event.detail.elt && event.detail.elt.id === "live")) {
      page.failed = false;
    }
  });
  window.addEventListener("online", function () { page.failed = false; render(); sync(); });
  window.addEventListener("offline", function () { if (page.record) { render(); } });
  setInterval(function () {
    var record = page.record;
    if (record && (record.entries.length || record.unsent) && navigator.onLine && !page.syncing) {
      page.failed = false;
      sync();
    }
  }, RETRY_MS);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
