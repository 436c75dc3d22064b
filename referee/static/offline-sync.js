// Sending what waits on this phone once the connection is back (static/offline.js decides what waits): the queue
// in order, exactly once, each entry on the revision the server has now (a co-scorer's entry moves it); a refusal or
// a conflict stops the queue at that entry until the scorer chooses (enter it and the rest again, or drop only it);
// after a full sync the fragment comes from the server. The cards of a trick tapped here and not yet whole go to the
// server's trick under way (/t/<table>/draft) with the one this phone began from: kept if no other phone tapped
// meanwhile, else refused, and said as cards to enter again.
// `page` is what offline.js and this file share: {record, data, words, failed, syncing} (offline.js says what each
// is); `tools` its helpers: {view, offline, ensureRecord}.
window.RefereeOfflineSync = function (page, tools) {
  "use strict";
  var queue = window.RefereeOfflineQueue;
  var rules = window.RefereeOfflineRules;
  var view = tools.view;
  var say = view.say;
  var label = view.label;
  var render = view.render;
  var element = view.element;

  // The deal as the server has it now (after a co-scorer's entry): the base the waiting entries follow.
  function rebase() {
    var record = page.record; // the one asked about, even if the page has moved on when the answer comes
    if (!record || !record.entries.length) { return Promise.resolve(); }
    return queue.state(record).then(function (state) {
      var deal = state.deals && state.deals[state.deals.length - 1];
      record.entries.forEach(function (e, i) { e.revision = state.revision + i; });
      record.base.revision = state.revision;
      if (!deal || deal.complete || deal.number !== record.base.deal || record.mode !== "trick") { return; }
      var base = record.base; // the server decides the rest
      base.tricks = deal.tricks.length;
      base.played = [].concat.apply([], deal.tricks.map(function (t) { return t.cards; }));
      base.leader = deal.tricks.length ? deal.tricks[deal.tricks.length - 1].winner : base.leader;
      base.points = deal.points.slice();
    }).catch(function () { /* offline again: the revision is asked for when the entry is sent */ });
  }
  function sync() {
    if (page.syncing || !page.record || !page.record.entries.length || !navigator.onLine) {
      if (page.record && !page.record.entries.length && !tools.offline()) { finish(); }
      return Promise.resolve();
    }
    var entry = page.record.entries[0];
    if (entry.refused) { return Promise.resolve(); } // the scorer chooses first
    page.syncing = true;
    entry.sending = true;
    render();
    var sent = page.record;
    var ready = entry.revision === null ? rebase() : Promise.resolve();
    return ready.then(function () { return queue.send(sent, entry); }).then(function (answer) {
      delete entry.sending;
      // the page moved on meanwhile (never while an entry waits)
      if (page.record !== sent) { page.syncing = false; return; }
      page.failed = answer.outcome === "failed";
      if (answer.outcome === "stored") {
        sent.base = rules.advance(sent.base, entry).base;
        sent.base.revision = entry.revision + 1;
        sent.entries.splice(sent.entries.indexOf(entry), 1);
        sent.stale = true; // the server's page is newer than this one
        sent.seen = []; // and its trick under way went with the revision this entry moved
      } else if (answer.outcome === "refused") {
        entry.refused = answer.message;
        sent.stale = true;
      }
      // Still syncing until the record is kept: a sync() meanwhile (the "online" event) would finish the page
      // under this answer, and the record with it.
      var kept = function () {
        page.syncing = false;
        if (page.record !== sent) { return; }
        render();
        if (!page.failed && sent.entries.length && !sent.entries[0].refused) { return sync(); }
        if (!sent.entries.length) { finish(); }
      };
      return queue.keep(sent).then(kept, kept);
    }, function () {
      page.syncing = false;
      delete entry.sending;
      page.failed = true; // the request did not reach the server (or its answer was lost): the same entry again later
      render();
    });
  }
  // Everything is stored (or dropped): the server's own fragment and totals, the trick or pile in progress carried
  // along. When nothing reached the server (taps only), a pile's or the numbers' page stays as it is (typed points
  // included: the forms already carry the pile); a trick's cards go to the server's page, that carries them.
  function finish() {
    var record = page.record;
    if (!record || record.entries.length || !window.htmx || page.syncing) { return; }
    if (unsentTrick(record)) { sendTrick(); return; }
    var again = record.again;
    var note = record.note;
    var table = record.table;
    if (!record.stale && record.mode !== "trick") {
      page.record = null;
      var panel = document.getElementById("offline-queue");
      if (panel) { panel.remove(); }
      queue.drop(table);
      return;
    }
    var url = new URL(window.location.href);
    url.searchParams.delete("pending");
    if (record.mode === "capture") { url.searchParams.set("mode", "capture"); url.searchParams.set("side", String(record.side)); }
    if (record.pending.length && record.mode !== "numbers") { url.searchParams.set("pending", record.pending.join(".")); }
    page.record = null;
    queue.drop(table).then(function () {
      window.history.replaceState(null, "", url.toString());
      return window.htmx.ajax("GET", url.toString(), { target: "#scorer", swap: "outerHTML" });
    }).then(function () {
      if ((again || note) && page.data) {
        tools.ensureRecord();
        page.record.again = again;
        render(note);
      } else if (again) { // the deal is over on the server: what to enter again is still said, once
        var scorer = document.getElementById("scorer");
        var panel = scorer && scorer.insertBefore(element("section", "offline-queue"), scorer.firstChild);
        if (panel) {
          panel.id = "offline-queue";
          panel.appendChild(element("p", "offline-again", say(page.words.again, { cards: again })));
        }
      }
    });
  }
  // The trick under way as tapped here differs from the one the server had when this phone began: it is sent.
  function unsentTrick(record) {
    return record.mode === "trick" && record.unsent && record.pending.join(".") !== (record.seen || []).join(".");
  }
  function sendTrick() {
    page.syncing = true;
    queue.sendTrick(page.record).then(function (answer) {
      page.syncing = false;
      page.failed = answer.outcome === "failed";
      if (page.failed) { render(); return; }
      var record = page.record;
      if (answer.outcome === "refused") { // another phone tapped meanwhile: these cards are the scorer's to enter again
        record.again = record.pending.map(label).join(" ") || undefined;
        record.note = answer.message;
      }
      record.pending = [];
      record.unsent = false;
      record.stale = true;
      return queue.keep(record).then(finish);
    }, function () {
      page.syncing = false;
      page.failed = true;
      render();
    });
  }
  // The scorer's choice on a refused entry (the panel's two buttons).
  function choose(fix) {
    var record = page.record;
    if (fix) { // it and every entry after it go back to the scorer's hands, on the server's state
      record.again = record.entries.map(function (e) {
        return e.form ? e.text : e.deal ? label(e.deal.trump) : e.cards.map(label).join(" ");
      }).concat(record.mode === "trick" && record.pending.length ? [record.pending.map(label).join(" ")] : [])
        .join(" · ");
      record.entries = [];
      record.pending = [];
      record.unsent = false; // the server's trick under way stays as it is: the scorer enters again from there
    } else { // only it: the rest waits, made again on the table as the server has it now
      record.entries.shift();
      record.entries.forEach(function (e) { e.revision = null; });
    }
    record.stale = true;
    rebase().then(function () { return queue.keep(record); }).then(function () {
      if (page.record !== record) { return; } // the page moved on meanwhile
      if (!record.entries.length) {
        finish();
      } else {
        render();
        sync();
      }
    });
  }

  return { sync: sync, choose: choose };
};
