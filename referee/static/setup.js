/* The set-up page: the players of the last tables made here offered again, one tap to fill the seats.
   The names are kept in this browser only (localStorage); the server never stores them. They are kept once the
   server answered that it made the table (htmx's 204 with HX-Redirect), never for a set-up it refused. Without
   JavaScript the page works as before, the chips are simply not shown. */
(function () {
  "use strict";
  var KEY = "referee.made-players";  // "referee.players" also kept refused set-ups: dropped
  var KEEP = 3;
  var sent = null;  // the names of the "Create" under way

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
    var counts = (form.dataset.counts || "").split(" ").map(Number);
    var template = box.querySelector("template");
    var chips = box.querySelector(".chips");
    var now = written(form);
    load().forEach(function (names) {
      if (counts.indexOf(names.length) < 0 || same(names, now)) { return; }
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

  // A name typed in a seat is that seat's name at once in the first dealer's list (its option's value is the seat)
  // and the partners' sentence (data-seat), as a member's chip writes it by drawing the form again; an empty seat
  // says its placeholder.
  function follow(input) {
    var form = input.form;
    var seat = (input.id || "").replace("player-", "");
    if (!form || form.id !== "setup" || !/^[0-9]+$/.test(seat)) { return; }
    var name = input.value.trim() || input.placeholder;
    var named = '[data-seat="' + seat + '"], select[name=dealer] option[value="' + seat + '"]';
    Array.prototype.forEach.call(form.querySelectorAll(named), function (el) {
      el.textContent = name;
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("#setup input[name=player]")) { follow(event.target); }
  });

  // The page's address names its form (?form=<id>): Back to it after "Create" asks the server, which answers the
  // table that form made (referee/web/tables/setup.py), not an empty form.
  function nameTheForm() {
    var id = document.querySelector("#setup input[name=form_id]");
    if (!id || !window.history.replaceState || !window.URL) { return; }
    var url = new URL(window.location.href);
    if (url.searchParams.get("form") === id.value) { return; }
    url.searchParams.set("form", id.value);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }

  var made = false;  // this page's form made its table
  window.addEventListener("pageshow", function (event) {
    // Back to this page from the browser's memory (bfcache): ask the server again, which leads to the table
    if (event.persisted && made) { window.location.reload(); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "setup") {
      sent = event.submitter && event.submitter.value === "create" ? written(form) : null;
    }
  }, true);
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr, elt = event.detail.elt;
    if (sent && elt && elt.id === "setup" && xhr.status === 204 && xhr.getResponseHeader("HX-Redirect")) {
      remember(sent);  // the table is made: its players are worth offering again
    }
    if (elt && elt.id === "setup" && xhr.status === 204 && xhr.getResponseHeader("HX-Redirect")) { made = true; }
    if (elt && elt.id === "setup") { sent = null; }
  });
  try { window.localStorage.removeItem("referee.players"); } catch (e) { /* nothing kept */ }
  document.addEventListener("DOMContentLoaded", offer);
  document.addEventListener("DOMContentLoaded", nameTheForm);
  document.addEventListener("htmx:afterSettle", offer);
})();
