// The director's board (tournament_director.html, referee/web/tournaments/board.py): the live part (its stream's
// "live" event or its poll's answer) brings every table's row out of band (hx-swap-oob), each with its version
// (data-v). This htmx extension ("rows", on the page's .live-stream) takes out of the answer, before htmx swaps it,
// the rows the page does not show (another status filtered, searched away) and those whose version the page holds
// already: a table's change redraws its own row and no other, whatever the page's filter.
(function () {
  "use strict";
  htmx.defineExtension("rows", {
    transformResponse: function (text) {
      if (text.indexOf("data-v=") < 0) {
        return text;
      }
      var holder = document.createElement("template");
      holder.innerHTML = text;
      Array.prototype.forEach.call(holder.content.querySelectorAll("[hx-swap-oob][data-v]"), function (row) {
        var shown = document.getElementById(row.id);
        if (!shown || shown.getAttribute("data-v") === row.getAttribute("data-v")) {
          row.parentNode.removeChild(row);
        }
      });
      return holder.innerHTML;
    }
  });
}());
