// The numbers typed on the numbers screen and not saved yet, kept on the phone they were typed on (localStorage), per
// table and deal (the form's data-keep), so that a reload, Back and Forward, a language switch or a lost connection
// loses none of them (issue 38). With them the field typed in, and the sheet's taps (its ``x`` and ``pick``: Buraco's
// who closed, burracos and pots, Brusquembille's brusquembilles), which the page's address carries: a page opened
// again on the table's plain link gets them back. static/numbers.js asks this file: ``restore`` puts the kept
// numbers back into the fields when the page shows them, ``field`` names the field typed in, ``reopen`` asks the page
// again with the taps kept, ``keep`` writes it all after every key and tap, ``forget`` drops it once the deal is saved
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

  // The sheet's taps as the form carries them (_entry_fields.html): its rows ``x`` and what the next tap is for.
  function taps(form) {
    var rows = form.querySelector("input[type='hidden'][name='x']");
    var pick = form.querySelector("input[type='hidden'][name='pick']");
    return { x: rows ? rows.value : "", pick: pick ? pick.value : "" };
  }

  // The fields, the one typed in and the sheet's taps as they are now; nothing typed nor tapped, nothing is kept.
  function keep(form) {
    var place = storage();
    var name = nameOf(form);
    if (!place || !name) { return; }
    var values = {};
    fields(form).forEach(function (input) { values[input.name] = input.value; });
    var active = form.querySelector("input[data-keypad].active");
    var tapped = taps(form);
    try {
      if (typed(form) || tapped.x || tapped.pick) {
        place.setItem(name, JSON.stringify({ values: values, active: active ? active.name : "", x: tapped.x,
                                             pick: tapped.pick, at: Date.now() }));
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

  // The field typed in when the numbers were kept, when the page has it.
  function field(form) {
    var kept = read(nameOf(form));
    var name = kept && typeof kept.active === "string" && /^v[0-9]{1,2}$/.test(kept.active) ? kept.active : "";
    return name ? form.querySelector("input[data-keypad][name='" + name + "']") : null;
  }

  // The page shows this deal without the taps kept on this phone (opened again on the table's plain link, the
  // address that carried them lost): it is asked again with them, in their place in the address. Once: an address
  // that names the taps already (``x``) is left as the server answered it. Whether the page is on its way.
  function reopen(form) {
    var kept = read(nameOf(form));
    var now = taps(form);
    var rows = kept && typeof kept.x === "string" && /^[A-Za-z0-9_.:~]{0,1600}$/.test(kept.x) ? kept.x : "";
    var pick = kept && typeof kept.pick === "string" && /^[A-Za-z0-9_.:]{0,60}$/.test(kept.pick) ? kept.pick : "";
    var address = new URL(window.location.href);
    if (!(rows || pick) || now.x || now.pick || address.searchParams.has("x")) { return false; }
    address.searchParams.set("mode", "numbers");
    address.searchParams.set("x", rows);
    if (pick) { address.searchParams.set("pick", pick); }
    address.hash = "";
    window.location.replace(address.toString());
    return true;
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
    if (!button || button.disabled || !form) { return; }
    if (!typed(form)) {  // only taps kept, no number: nothing to ask, and nothing of this deal kept after it
      forget(form.getAttribute("data-keep"));
      return;
    }
    if (window.confirm(form.getAttribute("data-undo-ask"))) {
      forget(form.getAttribute("data-keep"));
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  window.refereeKept = { keep: keep, restore: restore, field: field, reopen: reopen, forget: forget };
  prune();
})();
