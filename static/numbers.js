// The numbers screen's keypad (R-COMMON-6): big keys type into the sheet's fields without the phone's keyboard;
// with two or more sides the one field left blank shows what remains of the deal's points. Without JavaScript the
// fields take the phone's own keyboard; either way the server works out the blank field the same way.
(function () {
  "use strict";
  var active = null;

  function fields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-keypad]"));
  }

  function activate(input) {
    if (active) { active.classList.remove("active"); }
    active = input;
    if (active) { active.classList.add("active"); }
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

  function type(form, key) {
    if (!active) { return; }
    if (key === "next") {
      var all = fields(form);
      activate(all[(all.indexOf(active) + 1) % all.length]);
      return;
    }
    var value = key === "back" ? active.value.slice(0, -1) : (active.value + key).replace(/^0+(?=[0-9])/, "");
    if (value.length > (parseInt(active.getAttribute("maxlength"), 10) || 4)) { return; }
    active.value = value;
    fillRest(form);
    active.dispatchEvent(new Event("input", { bubbles: true }));
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
    activate(all.filter(function (input) { return input.value === ""; })[0] || all[0]);
    keypad.addEventListener("click", function (event) {
      var button = event.target.closest("[data-key]");
      if (button) { type(form, button.getAttribute("data-key")); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  document.addEventListener("htmx:load", function (event) { setup(event.detail.elt); });
})();
