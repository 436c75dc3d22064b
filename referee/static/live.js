// The live views (viewer, big screen): htmx asks every second whether the table changed. This marks the view
// "not live since hh:mm" when no answer came for a few seconds (Wi-Fi lost, server restarting, key revoked): the
// board stays as last received; polling goes on by itself and the mark goes away with the next good answer.
// Once the series goes on at a rematch, the view goes there by itself: told by the poll's answer (the rematch moves
// the old table's revision; the answer carries the HX-Trigger event "referee:rematch" with the link), or by the
// page's own link when it was opened after the rematch. location.replace: the back button never bounces here.
(function () {
  "use strict";
  var lastGood = Date.now();
  function clock(moment) {
    return new Date(moment).toLocaleTimeString(document.documentElement.lang || [], {hour: "2-digit", minute: "2-digit", hour12: false});
  }
  function mark() {
    var status = document.getElementById("live-status");
    if (status) {
      var stale = Date.now() - lastGood > 3500;
      var off = status.querySelector(".off[data-since]");
      if (stale && off && !status.classList.contains("stale")) {  // the board shown is the last one received
        off.textContent = off.getAttribute("data-since").replace("{time}", clock(lastGood));
      }
      status.classList.toggle("stale", stale);
    }
  }
  function follow(url) {
    if (url) {
      window.location.replace(url);
    }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) {
      lastGood = Date.now();
      mark();
    }
  });
  document.addEventListener("referee:rematch", function (event) {
    follow(event.detail && event.detail.url);
  });
  var link = document.querySelector("a[data-follow]");
  if (link) {
    follow(link.href);
  }
  setInterval(mark, 1000);
})();
