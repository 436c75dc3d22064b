// The live views (viewer, big screen, a tournament's wall and phones, the director's page). Each page holds one
// stream of server-sent events (htmx's SSE extension, on the ".live-stream" holder: the live part swapped at each
// "live" event, an "alive" event every 5 s); its live part also polls every second (hx-trigger "every 1s"). While
// the stream is healthy (an event came in the last ALIVE_MS) this holds the poll back; a stream that fails, is
// refused (204, 401) or is buffered by a proxy (no event ever comes) leaves the poll on by itself.
// It marks the view "not live since hh:mm" when neither brought anything for STALE_MS (Wi-Fi lost, server
// restarting) or the phone says it is offline: the board stays as last received; the stream and the poll go on by
// themselves and the mark goes away with the next good news. A poll answered 286 (the key revoked) stops the stream.
// Once the series goes on at a rematch, the view goes there by itself: told by the stream's "referee:rematch" event
// or the poll's answer (its HX-Trigger event "referee:rematch": the rematch moves the old table's revision), or by
// the page's own link when it was opened after the rematch. location.replace: the back button never bounces here.
(function () {
  "use strict";
  var ALIVE_MS = 7000;  // the stream says "alive" every 5 s (referee/web/serving/live_streams.py)
  var STALE_MS = 9000;  // past the stream's silence and the poll's first answer after it
  var lastGood = Date.now();  // the last good news: an answered poll or a stream's event
  var lastEvent = 0;  // the stream's last event; 0: none yet, or the network went away
  var source = null;  // the stream, once open
  function clock(moment) {
    return new Date(moment).toLocaleTimeString(document.documentElement.lang || [],
                                               {hour: "2-digit", minute: "2-digit", hour12: false});
  }
  function healthy() {
    return Date.now() - lastEvent < ALIVE_MS;
  }
  function mark() {
    var status = document.getElementById("live-status");
    var stale = !navigator.onLine || Date.now() - lastGood > STALE_MS;
    if (status) {
      var off = status.querySelector(".off[data-since]");
      if (stale && off && !status.classList.contains("stale")) {  // the board shown is the last one received
        off.textContent = off.getAttribute("data-since").replace("{time}", clock(lastGood));
      }
      status.classList.toggle("stale", stale);
    }
    // how the page hears of changes now, for the curious (and the tests): "pushed" or "polled"
    document.documentElement.setAttribute("data-live", !stale && healthy() ? "pushed" : "polled");
  }
  function heard() {
    lastEvent = lastGood = Date.now();
    mark();
  }
  function follow(url) {
    if (url) {
      window.location.replace(url);
    }
  }
  function live(element) {  // a live part: swapped by the stream's "live" events, polling every second
    return element && element.closest && element.closest(".live-stream") && element.hasAttribute("sse-swap");
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    source = event.detail && event.detail.source;
    if (source) {
      source.addEventListener("alive", heard);
      source.addEventListener("live", heard);
      source.addEventListener("referee:rematch", function (message) {
        try {
          follow(JSON.parse(message.data).url);
        } catch (ignored) {  // not ours: stay
        }
      });
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (live(event.detail && event.detail.elt) && healthy()) {
      event.preventDefault();  // the stream brings every change: no poll while it is healthy
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    if (detail.xhr && detail.xhr.status === 286 && live(detail.elt)) {  // the key no longer opens it: for good
      var holder = detail.elt.closest(".live-stream");
      holder.removeAttribute("sse-connect");  // the extension's reconnection finds nothing to open
      if (source) {
        source.close();
      }
      lastEvent = 0;
    }
    if (detail.successful) {
      lastGood = Date.now();
      mark();
    }
  });
  window.addEventListener("offline", function () {
    lastEvent = 0;  // polls at once, so the first answer back ends the mark
    mark();
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
