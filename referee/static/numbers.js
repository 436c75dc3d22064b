// The numbers screen's keypad (R-COMMON-6), the one of every number field of every game: big keys type into the
// field drawn active, in the order the sheet asks them. A field moves on to the next one by itself as soon as no
// further digit could make a number it can hold (more than its most, or no card makes it: Buraco's multiples of 5,
// R-BURACO-4: after 60, a 4 starts the next field rather than make 604), and a → typed just after, on a field that
// must be typed, is then no second move; → moves on from a field that holds a number or may be left blank
// (data-blank: the sentence under the keypad says so), in reading order, and never back to the first (at the last
// field it says so under the keypad, and the save comes into view). A number its field cannot hold (more than a
// field can, the fields together more than the deal holds, not a multiple of the card values' step) is said under
// that field at once, and comes into view, never under the status bar; a field tapped (or reached by →) that holds a
// number is drawn chosen, and the first digit typed replaces its number (⌫ mends it digit by digit instead); the save waits until it is mended. The page
// holds still: a tap that opens a choice brings the whole choice into view, any other tap keeps its button where it
// was, a refused save keeps the field typed in, a saved deal brings the next deal's first action into view. With two
// or more sides the one field left blank shows what remains of the deal's points. What is typed is kept on the
// phone until saved (static/numbers-kept.js). Without JavaScript the fields take the phone's own keyboard and the
// server says the same in its refusal; either way the server works out the blank field the same way.
(function () {
  "use strict";
  var active = null;  // the field the keys type into
  var moved = false;  // the last digit moved the active field on by itself: a → now is not a second move
  var tapped = null;  // the sheet's button just tapped (and the field active then), until its answer is swapped in
  var hadSheet = false;  // a sheet was on the page before the swap: one that was not is a new deal's, shown whole
  var replacing = false;  // the active field was tapped (or reached by →) holding a number: a digit types a new one
  var toSave = false;  // the last field is done: the save is kept in view while the result above it changes
  var kept = window.refereeKept || { keep: function () {}, restore: function () { return false; },
                                     field: function () { return null; }, reopen: function () { return false; } };

  function fields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-keypad]"));
  }

  // The fields "→" goes through: a field marked data-skip (a closer's empty hand) is tapped to be typed in.
  function stops(form) {
    return fields(form).filter(function (input) { return !input.hasAttribute("data-skip"); });
  }

  function attribute(element, name) {
    return parseInt(element.getAttribute(name), 10);
  }

  function following(form, input) {
    var all = stops(form);
    return all.filter(function (other) {
      return input.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING;
    })[0] || null;
  }

  function tooBig(input) {
    var most = attribute(input, "data-max");
    return input.value !== "" && !isNaN(most) && parseInt(input.value, 10) > most;
  }

  // Whether the field can hold ``value``: no more than its most, a multiple of its step (the card values' bounds).
  function holds(input, value) {
    var most = attribute(input, "data-max");
    return (isNaN(most) || value <= most) && value % (attribute(input, "data-step") || 1) === 0;
  }

  // Whether some digits typed after ``value`` make a number the field can hold (a leading 0 takes none).
  function grows(input, value) {
    var most = attribute(input, "data-max");
    for (var digit = 0; value > 0 && digit < 10; digit += 1) {
      var longer = value * 10 + digit;
      if (longer <= most && (holds(input, longer) || grows(input, longer))) { return true; }
    }
    return false;
  }

  // A field with data-max whose number no further digit can make one it holds is done (0 at once; Brouc's 60 of
  // 120; a Brûlot player's 5 of at most 40 penalty points).
  function full(input) {
    return !isNaN(attribute(input, "data-max")) && input.value !== "" && !grows(input, parseInt(input.value, 10));
  }

  // A digit that would make of a whole number one that no further digit mends, and fits the field (Buraco: 60,
  // then 4), is the next field's first when that one is blank.
  function startsNext(input, value) {
    var now = parseInt(input.value, 10);
    var then = parseInt(value, 10);
    var most = attribute(input, "data-max");
    return input.value !== "" && !isNaN(most) && holds(input, now) && then <= most && !holds(input, then) &&
      !grows(input, then);
  }

  // The room the page keeps for what a tap shows: under the sticky status bar, above the bottom of the screen.
  function room() {
    var bar = document.querySelector(".status-bar");
    return { top: (bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0) + 6, bottom: window.innerHeight - 6 };
  }

  // A field as it is shown: its name, box and refusal, with its side's name (Buraco) and, when they fit, its group's
  // title (the "Card points" over the first row stays clear of the status bar).
  function around(input) {
    var group = input.closest("fieldset");
    return [group && group.querySelector("legend"), input.closest(".sheet-side"), input.closest(".sheet-field")];
  }

  // Scrolls as little as it takes to show the elements whole, together. Where they cannot all fit, the first one's
  // top stays in view; with ``last`` the last one is what must be whole (a choice, under the button that opened it).
  function show(elements, last) {
    var boxes = elements.filter(Boolean).map(function (element) { return element.getBoundingClientRect(); });
    if (!boxes.length) { return; }
    var space = room();
    var top = Math.min.apply(null, boxes.map(function (box) { return box.top; }));
    var bottom = Math.max.apply(null, boxes.map(function (box) { return box.bottom; }));
    if (last && bottom - top > space.bottom - space.top) { top = boxes[boxes.length - 1].top; }
    var by = bottom > space.bottom ? bottom - space.bottom : 0;
    if (top - by < space.top) { by = top - space.top; }
    if (by) { window.scrollBy(0, by); }
  }

  function activate(input, chosen) {
    if (active) { active.classList.remove("active", "replacing"); }
    active = input;
    replacing = !!(chosen && input && input.value !== "");  // as a spreadsheet's cell: typing replaces, ⌫ mends
    if (replacing) { input.classList.add("replacing"); }
    if (active) {
      active.classList.add("active");
      kept.keep(active.form);  // the field typed in is kept with the numbers: a reload types on in it
    }
  }

  // Every field the sheet needs is typed, but for the one it works out (its placeholder shows it): the save is
  // what comes next (a field left blank on purpose, data-blank, is needed by no one).
  function ready(form) {
    var open = stops(form).filter(function (input) {
      return input.value === "" && !input.hasAttribute("data-blank");
    });
    return !open.length || (open.length === 1 && open[0].placeholder !== "");
  }

  // The one field left blank shows what remains (as its placeholder: it stays blank, the server counts the same).
  function fillRest(form) {
    var whole = attribute(form, "data-whole");
    var all = fields(form);
    if (isNaN(whole) || all.length < 2) { return; }
    var open = all.filter(function (input) { return input.value === ""; });
    all.forEach(function (input) { input.placeholder = ""; });
    if (open.length !== 1) { return; }
    var sum = all.reduce(function (total, input) { return total + (parseInt(input.value, 10) || 0); }, 0);
    open[0].placeholder = whole >= sum ? String(whole - sum) : "";  // past the whole: the sum's refusal says it
  }

  function say(form, input, sentence) {
    var place = document.getElementById(input.name + "-error");
    if (!place) { return; }
    place.textContent = sentence ? sentence + " " : "";
    if (sentence && form.getAttribute("data-rule")) {
      var rule = document.createElement("span");
      rule.className = "rule";
      rule.textContent = form.getAttribute("data-rule");
      place.appendChild(rule);
    }
    input.classList.toggle("wrong", !!sentence);
    if (sentence) { input.setAttribute("aria-invalid", "true"); } else { input.removeAttribute("aria-invalid"); }
  }

  // What no field can hold, said under it; the fields together passing the deal's whole, under the last one typed.
  // The save waits while anything is said (it stays as another script left it otherwise: offline-view.js).
  function check(form) {
    var wrong = false;
    var before = fields(form).filter(function (input) { return input.classList.contains("wrong"); });
    var total = 0;
    var last = null;
    fields(form).forEach(function (input) {
      var value = parseInt(input.value, 10);
      var step = attribute(input, "data-step");
      var sentence = "";
      if (input.value !== "") { total += value; last = input; }
      if (tooBig(input)) {
        sentence = form.getAttribute("data-too-big");
      } else if (input.value !== "" && step > 1 && value % step && (input !== active || full(input))) {
        sentence = form.getAttribute("data-step-wrong").replace("{value}", input.value);
      }
      say(form, input, sentence);
      wrong = wrong || !!sentence;
    });
    var most = attribute(form, "data-total");
    if (!wrong && last && !isNaN(most) && total > most) {
      say(form, last, form.getAttribute("data-sum-too-big").replace("{total}", String(total)));
      wrong = true;
    }
    var save = form.querySelector(".sheet-save");
    if (save && wrong) {
      save.disabled = true;
      save.setAttribute("data-wrong", "1");
    } else if (save && save.hasAttribute("data-wrong")) {
      save.disabled = false;
      save.removeAttribute("data-wrong");
    }
    return fields(form).filter(function (input) {  // the fields whose refusal is new: brought into view
      return input.classList.contains("wrong") && before.indexOf(input) < 0;
    });
  }

  function note(form, sentence) {
    var place = form.querySelector(".keypad-note");
    if (place) { place.textContent = sentence || ""; }
  }

  // The last field is done: the save comes into view (the result above it, when both fit); a refusal first.
  function showSave(form) {
    var wrong = fields(form).filter(function (input) { return input.classList.contains("wrong"); })[0];
    toSave = !wrong;
    show(wrong ? around(wrong) : [active, form.querySelector(".sheet-save")], true);
  }

  function next(form) {
    var blank = active.hasAttribute("data-blank");
    if (moved && !blank) { moved = false; return; }  // the field moved on by itself already: no second move
    moved = false;
    toSave = false;
    if (active.value === "" && !blank) { note(form, form.getAttribute("data-empty")); return; }
    var after = following(form, active);
    if (after) {
      activate(after, true);
      var raised = check(form);  // the field left may now be refused (not a multiple of the step)
      if (!raised.length && after.value === "" && ready(form)) { showSave(form); return; }  // the one worked out
      show(raised.length ? around(raised[0]).concat([after]) : around(after), !raised.length);
    } else {
      note(form, form.getAttribute("data-last"));
      showSave(form);
    }
  }

  function type(form, key) {
    if (!active) { return; }
    note(form, "");
    if (key === "next") { next(form); return; }  // a → that is no second move keeps the save in view
    toSave = false;
    moved = false;
    var fresh = replacing;  // a number chosen to be typed again: the first digit starts it anew
    replacing = false;
    active.classList.remove("replacing");
    if (key === "back") {
      active.value = active.value.slice(0, -1);
    } else {
      var value = ((fresh ? "" : active.value) + key).replace(/^0+(?=[0-9])/, "");
      var blank = following(form, active);
      if (startsNext(active, value) && blank && blank.value === "") {
        activate(blank);
        value = key;
      }
      if (value.length > (attribute(active, "maxlength") || 4)) {  // no digit more fits: said, never dropped unseen
        note(form, form.getAttribute("data-full"));
        return;
      }
      active.value = value;
    }
    fillRest(form);
    var typed = active;
    var done = key !== "back" && full(active) && !tooBig(active) && holds(active, parseInt(active.value, 10));
    var after = done ? following(form, active) : null;
    if (after && after.value === "") {  // into a field already typed, it would add digits to its number
      activate(after);
      moved = true;
    }
    var raised = check(form);
    if (raised.length) {
      show(around(raised[0]).concat([active]));
    } else if (done && (!after || ready(form))) {  // the last field, or the next is the one the sheet works out
      showSave(form);
    } else {
      show(around(active), true);
    }
    kept.keep(form);
    typed.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The field typed in after a swap: the same one after a save the server refused (⌫ erases where it did); after
  // another tap on the sheet, the field done with hands over to the next, as → would; on a new sheet the first blank.
  function startField(form) {
    var all = stops(form);
    var before = tapped && tapped.field ? form.querySelector("input[name='" + tapped.field + "']") : null;
    if (before && (tapped.act === "save" || before.value === "")) { return before; }
    var next = before && following(form, before);
    if (before) { return next && next.value === "" ? next : before; }
    if (kept.field(form)) { return kept.field(form); }  // the page shown again: typing goes on where it was
    return all.filter(function (input) { return input.value === ""; })[0] || all[0] || fields(form)[0];
  }

  function setup(root) {
    var form = root.id === "sheet" ? root : root.querySelector && root.querySelector("#sheet");
    if (!form || form.getAttribute("data-ready")) { return; }
    form.setAttribute("data-ready", "1");
    var opening = null;  // a <details> of the sheet opened by a tap on its summary: its choices come into view
    form.addEventListener("click", function (event) {
      var summary = event.target.closest("summary");
      opening = summary ? summary.parentElement : null;
    });
    form.addEventListener("toggle", function (event) {
      if (event.target === opening && event.target.open) { show([event.target]); }
      opening = null;
    }, true);
    var keypad = form.querySelector(".keypad");
    var all = fields(form);
    if (!keypad || !all.length) { return; }
    keypad.hidden = false;
    all.forEach(function (input) {
      input.setAttribute("inputmode", "none");  // the keypad types; a hardware keyboard still can
      input.addEventListener("focus", function () { if (active !== input) { moved = false; activate(input); } });
      input.addEventListener("click", function () { moved = false; activate(input, true); });
      input.addEventListener("input", function (event) {
        if (event.isTrusted) { fillRest(form); check(form); kept.keep(form); }
      });
    });
    moved = false;
    var restored = kept.restore(form);
    if (root === document && kept.reopen(form)) { return; }  // the taps kept, lost from the address: asked again
    activate(startField(form));
    fillRest(form);
    check(form);
    if (restored) {  // the numbers kept on this phone: the result follows them (once htmx has set the page up)
      window.setTimeout(function () { form.dispatchEvent(new Event("input", { bubbles: true })); }, 0);
    }
    keypad.addEventListener("click", function (event) {
      var button = event.target.closest("[data-key]");
      if (button) { type(form, button.getAttribute("data-key")); }
    });
  }

  // After a swap the page comes back where the finger was (see the top of this file).
  function settle(event) {
    var part = event.detail.target && event.detail.target.id;
    if (part === "sheet-preview" && toSave && document.getElementById("sheet")) {  // the result changed its height
      show([active, document.querySelector("#sheet .sheet-save")], true);
    }
    if (part !== "scorer") { return; }  // a part: the result as typed
    var was = tapped;
    var fresh = !hadSheet;
    tapped = null;
    hadSheet = false;
    var form = document.getElementById("sheet");
    var keypad = form && form.querySelector(".keypad");
    if (was && was.act === "save" && !form) {  // the deal is stored: the next one starts at the top of the page
      if (kept.forget) { kept.forget(was.keep); }
      window.scrollTo(0, 0);
      return;
    }
    if (!form) { return; }
    if (keypad && fresh) {  // a new deal's sheet: its numbers and the keypad
      show([form.querySelector(".sheet-points"), keypad]);
      return;
    }
    if (!was) { return; }
    var choice = form.querySelector("[data-choice]");
    var same = form.querySelector("button[name='act'][value='" + was.act + "']");
    if (choice && was.act !== "save") {  // the button tapped and the choice it opened; the choice whole, at least
      show([same, choice], true);
      return;
    }
    if (was.act === "save") {
      show([active]);
      return;
    }
    if (same) { window.scrollBy(0, same.getBoundingClientRect().top - was.top); }
    if (ready(form)) {  // the tap completes a sheet already typed (a burraco, the last trick): the save comes next
      toSave = true;
      show([same, form.querySelector(".sheet-save")], true);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#sheet button[name='act']");
    if (button) {
      tapped = { act: button.value, top: button.getBoundingClientRect().top, field: active && active.name,
                 keep: button.form && button.form.getAttribute("data-keep") };
    }
  }, true);
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "scorer") {
      hadSheet = !!document.querySelector("#sheet .keypad");
    } else {
      hadSheet = true;  // a part of the page (the result): nothing moves
    }
  });
  // The page shown again from the browser's memory (Back, Forward): the numbers kept are put back if they differ.
  window.addEventListener("pageshow", function (event) {
    var form = document.getElementById("sheet");
    if (event.persisted && form && kept.restore(form)) {
      fillRest(form);
      check(form);
      form.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  document.addEventListener("htmx:load", function (event) { setup(event.detail.elt); });
  document.addEventListener("htmx:afterSettle", settle);
})();
