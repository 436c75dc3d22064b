// The live views (viewer, big screen): htmx asks every second whether the table changed. This marks the view
// "not live" when no answer came for a few seconds (Wi-Fi lost, server restarting, key revoked); polling goes on
// by itself and the mark goes away with the next good answer.
(function () {
  "use strict";
  var lastGood = Date.now();
  function mark() {
    var status = document.getElementById("live-status");
    if (status) {
      status.classList.toggle("stale", Date.now() - lastGood > 3500);
    }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) {
      lastGood = Date.now();
      mark();
    }
  });
  setInterval(mark, 1000);
})();
