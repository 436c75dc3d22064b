// The wall's standings that do not fit the screen (tournament_screen.html: the box ".wall-standings", which
// scrolls by hand without this script) scroll by themselves: a pause at the top, then slowly and without a jump
// down to the last row, a pause there, back to the top, and again. The pace is the holder's (data-wall-pace:
// seconds for a row to pass; data-wall-pause: seconds at the top and at the bottom). The live part is swapped at
// every change (the stream's "live" event or the poll): the box is a new element each time, so the position is
// kept here and given to the new box at once (htmx:afterSwap, htmx:load, and at the next frame in any case): the
// loop goes on where it was. A hand on the box (wheel, touch, key) holds the loop for HOLD_MS; with
// prefers-reduced-motion nothing moves (the box stays a list scrolled by hand). The box says where the loop is in
// data-wall-phase (top, down, bottom, up; off).
(function () {
  "use strict";
  var HOLD_MS = 15000;
  var BACK_MS = 1500;  // the way back to the top, quick but seen
  var motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var box = null;  // the box this script moves (the newest swapped in)
  var position = 0;  // kept across swaps, in pixels (fractional: the box may round what it is given)
  var phase = "top";
  var since = 0;  // when the phase began
  var last = 0;  // the previous frame
  var heldUntil = 0;
  var running = false;

  function still() {
    return motion !== null && motion.matches;
  }
  function setting(name, fallback) {
    var holder = box && box.closest("[data-wall-" + name + "]");
    var value = holder ? parseFloat(holder.getAttribute("data-wall-" + name)) : NaN;
    return isFinite(value) && value >= 0 ? value : fallback;
  }
  function mark(value) {
    if (box && box.getAttribute("data-wall-phase") !== value) {
      box.setAttribute("data-wall-phase", value);
    }
  }
  function enter(value, now) {
    phase = value;
    since = now;
    mark(value);
  }
  function adopt() {  // the box of the page now: a new one after a swap takes the kept position
    var found = document.querySelector(".wall-standings");
    if (found !== box) {
      box = found;
      if (box) {
        box.scrollTop = position;
        mark(still() ? "off" : phase);
      }
    }
    return box;
  }
  function frame(now) {
    if (!running) {
      return;
    }
    window.requestAnimationFrame(frame);
    var step = Math.min(now - (last || now), 100) / 1000;  // a hidden tab's long gap is not a leap
    last = now;
    if (!adopt()) {
      return;
    }
    var end = box.scrollHeight - box.clientHeight;
    if (end <= 1) {  // it fits (a phone's page, a large screen): nothing to move
      position = 0;
      enter("top", now);
      return;
    }
    if (now < heldUntil) {  // someone scrolls by hand: the loop goes on from there afterwards
      position = box.scrollTop;
      since = now;
      return;
    }
    var row = box.querySelector("tbody tr");
    var speed = (row ? row.getBoundingClientRect().height : 30) / Math.max(setting("pace", 2), 0.02);
    var pause = setting("pause", 6) * 1000;
    position = Math.min(position, end);
    if (phase === "top" && now - since >= pause) {
      enter("down", now);
    } else if (phase === "down") {
      position = Math.min(end, position + speed * step);
      if (position >= end) {
        enter("bottom", now);
      }
    } else if (phase === "bottom" && now - since >= pause) {
      enter("up", now);
    } else if (phase === "up") {
      position = Math.max(0, position - Math.max(speed * 4, end * 1000 / BACK_MS) * step);
      if (position <= 0) {
        enter("top", now);
      }
    }
    box.scrollTop = position;
  }
  function start() {
    adopt();
    if (still()) {
      running = false;
      mark("off");
      return;
    }
    if (!running) {
      running = true;
      last = 0;
      since = performance.now();
      window.requestAnimationFrame(frame);
    }
  }
  function held(event) {
    if (box && event.target && box.contains(event.target)) {
      heldUntil = performance.now() + HOLD_MS;
    }
  }
  ["wheel", "touchstart", "pointerdown", "keydown"].forEach(function (name) {
    document.addEventListener(name, held, {passive: true});
  });
  document.addEventListener("scroll", function (event) {  // by hand, with the loop stopped: kept across swaps too
    if (!running && box && event.target === box) {
      position = box.scrollTop;
    }
  }, {capture: true, passive: true});
  ["htmx:afterSwap", "htmx:load"].forEach(function (name) {
    document.addEventListener(name, adopt);
  });
  if (motion !== null) {
    if (motion.addEventListener) {
      motion.addEventListener("change", start);
    } else if (motion.addListener) {
      motion.addListener(start);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
