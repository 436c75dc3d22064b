// When htmx cannot reach the server, or the server refuses a request the page cannot show (an expired page, a key
// that was replaced), say so in a sentence instead of leaving a tap that seems to do nothing.
(function () {
  "use strict";
  function show(id) {
    ["offline", "refused"].forEach(function (other) {
      var element = document.getElementById(other);
      if (element) { element.hidden = other !== id; }
    });
  }
  document.addEventListener("htmx:sendError", function () { show("offline"); });
  document.addEventListener("htmx:responseError", function (event) {
    var live = event.detail && event.detail.elt && event.detail.elt.id === "live";
    if (!live) { show("refused"); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) { show(null); }
  });
})();
