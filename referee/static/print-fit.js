// Printed pages fill their one A4 page: the server chose a type size from an estimate (the class fs-N, kept without
// JavaScript); here the page is laid out at the printed width (182 mm) in each of the sizes it offers (data-sizes)
// and keeps the largest whose height stays within the printed page (273 mm) with no text wider than its box.
(function () {
  "use strict";
  function overflow(page) {  // how far text goes past its box: the page itself, a table cell, a heading (px)
    var boxes = [page].concat(Array.prototype.slice.call(page.querySelectorAll("th, td, h1, h2, li, p")));
    return boxes.reduce(function (sum, box) {
      return sum + Math.max(0, box.scrollWidth - box.clientWidth - 1);
    }, 0);
  }
  function fit(page) {
    var sizes = (page.getAttribute("data-sizes") || "").split(" ").filter(Boolean);
    if (!sizes.length) {
      return;
    }
    var probe = document.createElement("div");
    probe.className = "page-probe";
    document.body.appendChild(probe);
    var limit = probe.getBoundingClientRect().height;
    probe.remove();
    // The largest size that keeps to one page with the least text past its box (none, where any size allows it).
    var chosen = sizes[0];
    var least = Infinity;
    page.classList.add("measuring");
    sizes.forEach(function (size) {
      page.className = page.className.replace(/\bfs-\d+\b/g, "").trim() + " fs-" + size;
      if (page.getBoundingClientRect().height <= limit) {
        var past = overflow(page);
        if (past <= least) {
          chosen = size;
          least = past;
        }
      }
    });
    page.className = page.className.replace(/\bfs-\d+\b/g, "").trim() + " fs-" + chosen;
    page.classList.remove("measuring");
    page.setAttribute("data-fitted", chosen);
  }
  function fitAll() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-sizes]"), fit);
  }
  if (document.fonts && document.fonts.ready) {
    document.fonts.ready.then(fitAll);
  }
  fitAll();
})();
