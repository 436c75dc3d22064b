// The entries that wait on this phone for the Wi-Fi (static/offline.js decides what they are), kept and sent.
// Kept in IndexedDB, one record per table, so that a reload or a closed tab loses nothing. Sent one at a time, in
// order, each with the id made when it was entered and the revision it was made on, so that a retry is stored once
// (docs/api.md). A whole trick or a deal's turned card goes to the JSON API; a pile or a deal's numbers go to the scorer's own form, as the
// page would have posted them: the server works out there what the client cannot (the other pile, the points); the
// cards of a trick not yet whole, to the scorer's /draft form.
// Either way a refusal comes back in the page's language.
window.RefereeOfflineQueue = (function () {
  "use strict";
  var STORE = "queues";
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
  function drop(table) { return transact("readwrite", function (store) { return store.delete(table); }); }
  // A record with nothing waiting, nothing tapped and no trick under way to send is not kept.
  function keep(record) {
    if (!record) { return Promise.resolve(); }
    var copy = JSON.parse(JSON.stringify(record));
    if (!copy.entries.length && !copy.pending.length && !copy.unsent) { return drop(copy.table); }
    return transact("readwrite", function (store) { return store.put(copy); });
  }
  function randomId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes); // randomUUID needs a secure context; plain http on a LAN has none
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // 409 (another phone entered first), 422 (the rules say no), a key no longer valid …: the scorer chooses. A 5xx,
  // a 429 or a lost answer: the same entry again later, in the same order.
  function refused(status) { return status >= 400 && status < 500 && status !== 408 && status !== 429; }

  function language() { return document.documentElement.lang || "en"; } // the page's, for the server's sentences

  // ---- the JSON API: a trick, and the table as the server has it ----------------------------------------------
  function api(record, path, init) {
    init.headers = Object.assign({ Authorization: "Bearer " + record.key, "Accept-Language": language() },
      init.headers || {});
    init.credentials = "omit";
    init.cache = "no-store";
    return fetch("/api/v1/tables/" + encodeURIComponent(record.table) + path, init);
  }
  function state(record) {
    return api(record, "", {}).then(function (response) { return response.json(); });
  }
  function sendEvent(record, entry) {
    var body = Object.assign({}, entry.deal || { type: "trick", cards: entry.cards },
      { client_event_id: entry.id, expected_revision: entry.revision });
    return api(record, "/events", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (response.ok) { return { outcome: "stored" }; }
        if (refused(response.status)) {
          return { outcome: "refused", message: (answer.error && answer.error.message) || String(response.status) };
        }
        return { outcome: "failed" };
      });
    });
  }

  // ---- the scorer's forms: a pile, a deal's numbers --------------------------------------------------------------
  function token() {
    var input = document.querySelector("input[name=csrf_token]");
    return input ? input.value : "";
  }
  // The page kept from an earlier visit may carry an older session's token: the page's own, asked again.
  function freshToken() {
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-store",
      headers: { "HX-Request": "true" } }).then(function (response) { return response.text(); }).then(function (html) {
      var found = new DOMParser().parseFromString(html, "text/html").querySelector("input[name=csrf_token]");
      if (found) {
        document.querySelectorAll("input[name=csrf_token]").forEach(function (input) { input.value = found.value; });
      }
    });
  }
  function sendForm(record, entry, tokenRenewed) {
    var fields = new URLSearchParams(entry.form.fields);
    fields.set("event_id", entry.id);
    fields.set("revision", String(entry.revision));
    fields.set("csrf_token", token());
    var action = new URL(entry.form.action, window.location.href);
    action.searchParams.set("key", record.key); // the page's key now (a renewed key replaces the old one)
    return fetch(action.toString(), { method: "POST", credentials: "same-origin", cache: "no-store", body: fields,
      headers: { "HX-Request": "true", "Accept-Language": language() } }).then(function (response) {
      var refusal = response.headers.get("Referee-Refusal");
      if (response.status === 400 && !tokenRenewed) {
        return freshToken().then(function () { return sendForm(record, entry, true); });
      }
      if (response.ok && !refusal) { return { outcome: "stored" }; }
      if (refusal || refused(response.status)) {
        return { outcome: "refused", message: refusal ? decodeURIComponent(refusal) : String(response.status) };
      }
      return { outcome: "failed" };
    });
  }

  // What became of one entry: "stored", "refused" (with the server's sentence) or "failed" (the same entry later).
  function send(record, entry) {
    return entry.form ? sendForm(record, entry, false) : sendEvent(record, entry);
  }
  // The cards tapped here into a trick not yet whole, to the server's trick under way, with the one this phone
  // began from (refused when another phone changed it meanwhile): the same outcomes.
  function sendTrick(record) {
    return sendForm(record, { id: randomId(), revision: record.base.revision, form: {
      action: "/t/" + encodeURIComponent(record.table) + "/draft",
      fields: [["mode", "trick"], ["pending", (record.seen || []).join(".")], ["cards", record.pending.join(".")]]
    } }, false);
  }

  return { load: load, keep: keep, drop: drop, randomId: randomId, send: send, sendTrick: sendTrick, state: state };
})();
