// The scorer's screen: a refused entry also buzzes the phone briefly where phones allow it (progressive
// enhancement: the sentence in the status bar and the shaking card say it without JavaScript too).
(function () {
  "use strict";
  function buzz(root) {
    var scope = root && root.querySelector ? root : document;
    if (scope.querySelector(".status-bar .refusal") && navigator.vibrate) {
      try { navigator.vibrate(120); } catch (ignored) { /* a browser that refuses: nothing to do */ }
    }
  }
  document.addEventListener("htmx:afterSwap", function (event) { buzz(event.detail && event.detail.elt); });
})();
