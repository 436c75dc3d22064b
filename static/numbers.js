// The numbers screen's keypad (R-COMMON-6): big keys type into the sheet's fields without the phone's keyboard;
// with two or more sides the one field left blank shows what remains of the deal's points. Without JavaScript the
// fields take the phone's own keyboard; either way the server works out the blank field the same way.
(function () {
  "use strict";
  var active = null;
  var loaded = false;  // once the page is loaded, a new sheet comes with a swap: measured when it has settled
  var settling = null;

  function fields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-keypad]"));
  }

  function activate(input, scroll) {
    if (active) { active.classList.remove("active"); }
    active = input;
    if (active) { active.classList.add("active"); reveal(active, scroll); }
  }

  // The field typed in is seen, with its group (a Buraco side's burracos) when they fit: brought up above the keypad
  // when the keypad, kept in reach at the bottom of the screen, hides it; brought down when it is above the screen
  // and ``scroll`` is "both" (the keypad's own moves).
  function reveal(input, scroll) {
    var keypad = input.form && input.form.querySelector(".keypad");
    if (!scroll || !keypad || keypad.hidden) { return; }
    var box = input.getBoundingClientRect();
    var top = keypad.getBoundingClientRect().top;
    var room = window.innerHeight - keypad.offsetHeight - 72;  // above the keypad and the save at the bottom
    var group = input.closest("fieldset");
    if (group && group.getBoundingClientRect().height < room - 16) { box = group.getBoundingClientRect(); }
    if (box.bottom > top) {
      window.scrollBy(0, box.bottom - top + 8);
    } else if (box.top < 0 && scroll === "both") {
      window.scrollBy(0, box.top - 8);
    }
  }

  // The one field left blank shows what remains (as its placeholder: it stays blank, the server counts the same).
  function fillRest(form) {
    var whole = parseInt(form.getAttribute("data-whole"), 10);
    var all = fields(form);
    if (isNaN(whole) || all.length < 2) { return; }
    var open = all.filter(function (input) { return input.value === ""; });
    all.forEach(function (input) { input.placeholder = ""; });
    if (open.length !== 1) { return; }
    var sum = all.reduce(function (total, input) { return total + (parseInt(input.value, 10) || 0); }, 0);
    open[0].placeholder = String(whole - sum);
  }

  // The fields "→" goes through: a field marked data-skip (a closer's empty hand) is tapped to be typed in.
  function stops(form) {
    return fields(form).filter(function (input) { return !input.hasAttribute("data-skip"); });
  }

  // A field with data-max that can take no more digit (0, or ten times it passes the most) is done: the next one.
  function full(input) {
    var most = parseInt(input.getAttribute("data-max"), 10);
    return !isNaN(most) && input.value !== "" && (input.value === "0" || parseInt(input.value, 10) * 10 > most);
  }

  function moveOn(form, wrap) {
    var all = stops(form);
    var after = all.filter(function (input) {
      return active.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    if (after.length) { activate(after[0], "both"); } else if (wrap && all.length) { activate(all[0], "both"); }
  }

  function type(form, key) {
    if (!active) { return; }
    if (key === "next") {
      moveOn(form, true);
      return;
    }
    var value = key === "back" ? active.value.slice(0, -1) : (active.value + key).replace(/^0+(?=[0-9])/, "");
    if (value.length > (parseInt(active.getAttribute("maxlength"), 10) || 4)) { return; }
    active.value = value;
    fillRest(form);
    var typed = active;
    if (key !== "back" && full(active)) { moveOn(form, false); }
    typed.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function setup(root) {
    var form = root.id === "sheet" ? root : root.querySelector && root.querySelector("#sheet");
    if (!form || form.getAttribute("data-ready")) { return; }
    form.setAttribute("data-ready", "1");
    var keypad = form.querySelector(".keypad");
    var all = fields(form);
    if (!keypad || !all.length) { return; }
    keypad.hidden = false;
    all.forEach(function (input) {
      input.setAttribute("inputmode", "none");  // the keypad types; a hardware keyboard still can
      input.addEventListener("focus", function () { activate(input); });
      input.addEventListener("click", function () { activate(input); });
      input.addEventListener("input", function (event) { if (event.isTrusted) { fillRest(form); } });
    });
    var blank = stops(form).filter(function (input) { return input.value === ""; });
    activate(blank[0] || stops(form)[0] || all[0]);
    // A new sheet shows its first field; a sheet tapped on (a chip, a stepper) moves only to bring a field up.
    var scroll = blank.length === stops(form).length ? "both" : "up";
    if (loaded) { settling = scroll; } else { reveal(active, scroll); }
    keypad.addEventListener("click", function (event) {
      var button = event.target.closest("[data-key]");
      if (button) { type(form, button.getAttribute("data-key")); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setup(document); loaded = true; });
  document.addEventListener("htmx:load", function (event) { setup(event.detail.elt); });
  document.addEventListener("htmx:afterSettle", function () {
    if (settling && active && document.contains(active)) { reveal(active, settling); }
    settling = null;
  });
})();
