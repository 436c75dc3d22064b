// The numbers typed on the numbers screen and not saved yet, kept on the phone they were typed on (localStorage), per
// table and deal (the form's data-keep), so that a reload, Back and Forward, a language switch or a lost connection
// loses none of them (issue 38). static/numbers.js asks this file: ``restore`` puts the kept numbers back into the
// fields when the page shows them, ``keep`` writes them after every key, ``forget`` drops them once the deal is saved
// or its start undone on purpose. An undo tapped with numbers typed asks first, and a refusal keeps everything as it
// is (without JavaScript the undo is the server's as ever: nothing typed is kept there). Kept a week at most.
(function () {
  "use strict";
  var PREFIX = "referee:numbers:";
  var WEEK = 7 * 24 * 3600 * 1000;

  function storage() {
    try { return window.localStorage; } catch (refused) { return null; }  // a browser that keeps nothing
  }

  function nameOf(form) {
    var key = form && form.getAttribute("data-keep");
    return key ? PREFIX + key : null;
  }

  function fields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-keypad]"));
  }

  function read(name) {
    var place = storage();
    try {
      var kept = place && name ? JSON.parse(place.getItem(name) || "null") : null;
      return kept && typeof kept.values === "object" && kept.values ? kept : null;
    } catch (unreadable) {
      return null;
    }
  }

  function typed(form) {
    return fields(form).some(function (input) { return input.value !== ""; });
  }

  // The fields as they are now; none typed, nothing is kept.
  function keep(form) {
    var place = storage();
    var name = nameOf(form);
    if (!place || !name) { return; }
    var values = {};
    fields(form).forEach(function (input) { values[input.name] = input.value; });
    try {
      if (typed(form)) {
        place.setItem(name, JSON.stringify({ values: values, at: Date.now() }));
      } else {
        place.removeItem(name);
      }
    } catch (full) { /* the phone's storage is full or refused: the page works as before, nothing is kept */ }
  }

  // The kept numbers back into their fields; whether any field changed.
  function restore(form) {
    var kept = read(nameOf(form));
    var changed = false;
    if (!kept) { return false; }
    fields(form).forEach(function (input) {
      var value = kept.values[input.name];
      if (typeof value === "string" && /^[0-9]{0,4}$/.test(value) && input.value !== value) {
        input.value = value;
        changed = true;
      }
    });
    return changed;
  }

  function forget(key) {
    var place = storage();
    if (!place || !key) { return; }
    try { place.removeItem(PREFIX + key); } catch (refused) { /* nothing was kept */ }
  }

  // What was kept more than a week ago (a deal saved on another phone, a table left) is dropped.
  function prune() {
    var place = storage();
    if (!place) { return; }
    var names = [];
    for (var i = 0; i < place.length; i += 1) {
      var name = place.key(i);
      if (name && name.indexOf(PREFIX) === 0) { names.push(name); }
    }
    names.forEach(function (name) {
      var kept = read(name);
      if (!kept || !(Date.now() - kept.at < WEEK)) { forget(name.slice(PREFIX.length)); }
    });
  }

  // The undo with numbers typed and not saved: asked first (the sentence is the form's data-undo-ask). Registered
  // before static/offline.js's click (this file is loaded first): a refusal reaches no other script.
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("form.undo button");
    var form = document.getElementById("sheet");
    if (!button || button.disabled || !form || !typed(form)) { return; }
    if (window.confirm(form.getAttribute("data-undo-ask"))) {
      forget(form.getAttribute("data-keep"));
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  window.refereeKept = { keep: keep, restore: restore, forget: forget };
  prune();
})();
