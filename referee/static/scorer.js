// The scorer's screen: a refused entry also buzzes the phone briefly where phones allow it (progressive
// enhancement: the sentence in the status bar and the shaking card say it without JavaScript too); and what the page
// names in #scorer's data-reveal (the next deal's turned card, the choice a tap opened) is brought into view under the
// sticky status bar, scrolling as little as it can, when a page loads or a swap names something new.
(function () {
  "use strict";
  function buzz(root) {
    var scope = root && root.querySelector ? root : document;
    if (scope.querySelector(".status-bar .refusal") && navigator.vibrate) {
      try { navigator.vibrate(120); } catch (ignored) { /* a browser that refuses: nothing to do */ }
    }
  }
  function reveal() {
    var scorer = document.getElementById("scorer");
    var target = scorer && scorer.dataset.reveal && document.getElementById(scorer.dataset.reveal);
    if (!target) { return; }
    var bar = scorer.querySelector(".status-bar");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;
    var box = target.getBoundingClientRect();
    if (box.top >= top && box.bottom <= window.innerHeight) { return; }
    if (box.bottom + window.scrollY <= window.innerHeight) { // whole from the page's top: nothing above it hidden
      window.scrollTo(0, 0);
      return;
    }
    var room = window.innerHeight - top;
    // Its top under the bar when it is above or taller than the room left, else its bottom at the screen's bottom.
    var by = box.top < top || box.height > room ? box.top - top - 4 : box.bottom - window.innerHeight + 8;
    window.scrollBy(0, by);
  }
  // After a swap only what is newly named moves the page: a tap inside an open choice (a card of the pile, a chip of
  // the sheet under it) leaves the page where the finger put it.
  var named = null;
  function naming() {
    var scorer = document.getElementById("scorer");
    return scorer ? scorer.dataset.reveal || "" : "";
  }
  // A tap's answer may swap only the cards it changed (scorer.py, tapped.py): a card refused before stops shaking
  // once anything is answered; a refusal's answer is the whole scorer, that marks it again.
  document.addEventListener("htmx:beforeSwap", function () {
    named = naming();
    document.querySelectorAll("#picker .card.refused").forEach(function (card) { card.classList.remove("refused"); });
  });
  // htmx says afterSwap once for each part an answer swaps (a tap's: seven or more, by id), each time once every
  // part is in: the page is brought to what it names once an answer.
  var swappedBy = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    buzz(event.detail && event.detail.elt);
    var answer = event.detail && event.detail.xhr;
    if (answer && answer === swappedBy) { return; }
    swappedBy = answer || null;
    if (naming() !== named) { reveal(); }
  });
  window.addEventListener("load", reveal);  // after the browser's own move to the address's #picker
})();
