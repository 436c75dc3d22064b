// A time the server wrote in UTC (<time datetime="…Z">16:40 <abbr>UTC</abbr></time>, the table's history) written
// again in the phone's own time, "17:40". Without JavaScript the UTC time stays, said as such.
(function () {
  "use strict";
  function local() {
    var lang = document.documentElement.lang || [];
    document.querySelectorAll("time[datetime]").forEach(function (element) {
      var moment = new Date(element.getAttribute("datetime"));
      if (!isNaN(moment.getTime())) {
        element.textContent = moment.toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit", hour12: false});
        element.title = moment.toLocaleString(lang);
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", local);
  } else {
    local();
  }
}());
