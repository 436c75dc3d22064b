// Installs Referee's service worker (static/sw.js, served as /sw.js) where the browser runs one: https, or
// localhost. On plain http://<LAN address> there is none, and the pages work as they always did.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) { return; }
  var script = document.currentScript;
  var worker = (script && script.getAttribute("data-worker")) || "/sw.js";
  navigator.serviceWorker.register(worker, {scope: "/"}).catch(function () { return undefined; });

  // After htmx changed the scorer's page, the worker fetches its fresh copy once things are quiet, so that a reload
  // without the network shows what the server last said.
  var timer = null;
  document.addEventListener("htmx:afterSettle", function () {
    if (!navigator.serviceWorker.controller || !navigator.onLine) { return; }
    if (!document.body.classList.contains("scorer-page")) { return; }  // viewers' live views: never
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (navigator.serviceWorker.controller && navigator.onLine) {
        navigator.serviceWorker.controller.postMessage({type: "refresh", url: location.href});
      }
    }, 1500);
  });
})();
