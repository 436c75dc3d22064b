/* "My club" remembered on this phone: the club's page (opened with the club key) keeps its name and link in the
   browser's own storage (never sent anywhere), and the home page offers the clubs kept here, the last opened first,
   so that a club's link is not lost with a closed tab. Without JavaScript, or in private browsing, nothing is kept:
   the club's page asks to keep its link. */
(function () {
  "use strict";
  var KEY = "referee.clubs";
  var KEEP = 5;

  function load() {
    try {
      var clubs = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(clubs) ? clubs.filter(function (c) {
        return c && typeof c.id === "string" && typeof c.name === "string" && typeof c.url === "string" &&
          c.url.indexOf("/clubs/") === 0;
      }) : [];
    } catch (e) {
      return [];
    }
  }

  function keep(club) {
    var clubs = [club].concat(load().filter(function (c) { return c.id !== club.id; })).slice(0, KEEP);
    try { window.localStorage.setItem(KEY, JSON.stringify(clubs)); } catch (e) { /* private mode: nothing kept */ }
  }

  function offer(box) {
    var list = box.querySelector("ul");
    load().forEach(function (club) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.className = "button";
      link.href = club.url;
      link.textContent = club.name;
      item.appendChild(link);
      list.appendChild(item);
    });
    box.hidden = !list.children.length;
  }

  function start() {
    var here = document.querySelector("[data-club-remember]");
    if (here) {
      keep({id: here.getAttribute("data-club-id"), name: here.getAttribute("data-club-name"),
            url: window.location.pathname + window.location.search});
    }
    var box = document.querySelector(".remembered-clubs");
    if (box) { offer(box); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
