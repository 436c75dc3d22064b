/* The set-up page: the last players' names offered again, one tap to fill the seats.
   The names are kept in this browser only (localStorage); the server never stores them. Without JavaScript the
   page works as before, the chips are simply not shown. */
(function () {
  "use strict";
  var KEY = "referee.players";
  var KEEP = 3;

  function load() {
    try {
      var groups = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(groups) ? groups.filter(function (g) {
        return Array.isArray(g) && g.every(function (n) { return typeof n === "string" && n; });
      }) : [];
    } catch (e) {
      return [];
    }
  }

  function same(a, b) {
    return a.length === b.length && a.every(function (n, i) { return n.toLowerCase() === b[i].toLowerCase(); });
  }

  function written(form) {
    return Array.prototype.map.call(form.querySelectorAll("input[name=player]"), function (i) {
      return i.value.trim();
    }).filter(function (n) { return n; });
  }

  function remember(names) {
    if (names.length < 2) { return; }
    var groups = [names].concat(load().filter(function (g) { return !same(g, names); })).slice(0, KEEP);
    try { window.localStorage.setItem(KEY, JSON.stringify(groups)); } catch (e) { /* private mode: nothing kept */ }
  }

  function fill(form, names) {
    var seats = form.querySelectorAll("li.seat");
    var list = form.querySelector("ol.seats");
    names.forEach(function (name, i) {
      if (i < seats.length) {
        seats[i].querySelector("input[name=player]").value = name;
      } else {
        var extra = document.createElement("input");
        extra.type = "hidden";
        extra.name = "player";
        extra.value = name;
        list.appendChild(extra);
      }
    });
    for (var i = names.length; i < seats.length; i++) { seats[i].remove(); }
  }

  function offer() {
    var form = document.getElementById("setup");
    var box = form && form.querySelector(".remembered");
    if (!box || box.dataset.done) { return; }
    box.dataset.done = "1";
    var least = Number(form.dataset.least) || 2, most = Number(form.dataset.most) || 12;
    var template = box.querySelector("template");
    var chips = box.querySelector(".chips");
    var now = written(form);
    load().forEach(function (names) {
      if (names.length < least || names.length > most || same(names, now)) { return; }
      var chip = template.content.firstElementChild.cloneNode(true);
      chip.value = "count:" + names.length;
      chip.textContent = names.join(", ");
      chip.addEventListener("click", function () { fill(form, names); });
      chips.appendChild(chip);
    });
    box.hidden = !chips.children.length;
    var refusal = form.querySelector(".refusal");
    if (refusal && refusal.getBoundingClientRect().top < 0) { refusal.scrollIntoView({block: "center"}); }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "setup" && event.submitter && event.submitter.value === "create") { remember(written(form)); }
  }, true);
  document.addEventListener("DOMContentLoaded", offer);
  document.addEventListener("htmx:afterSettle", offer);
})();
