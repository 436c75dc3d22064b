const PRECACHE = {"version": "", "assets": [], "offline": ""};
// Referee's service worker (served as /sw.js by referee/web/tables/offline.py, which fills the line above: the files under
// static/, the offline page and a version made of their contents). Plain JavaScript, no library.
//
// - The app shell (styles, scripts, htmx, icons, the offline page) is kept at install, one cache per version, and
//   answered from that cache: a new version replaces the old cache whole. Its files are listed under the addresses
//   the pages ask for (/static/x.css?v=<its hash>, referee/web/serving/static_files.py).
// - Pages are network-first. A table's page (/t/<id>?key=…: the scorer's, or a viewer's) and the home page are kept
//   under their address each time the network gives them; with no network (or none within WAIT_MS) the kept copy
//   answers — the same address, else the newest copy of that table with that key (the entry in progress differs),
//   else the offline page.
// - The API, form posts and htmx's fragments are never kept nor answered here: they go to the network as they are.
"use strict";

const SHELL = "referee-shell-" + PRECACHE.version;
const ASSET_PATHS = PRECACHE.assets.map(function (asset) { return asset.split("?")[0]; });
const PAGES = "referee-pages";
const KEEP_PAGES = 40;  // the newest copies; older ones are dropped
const WAIT_MS = 6000;  // a network that answers nothing in this time is taken as down (a café's weak Wi-Fi)
const TABLE_PAGE = /^\/t\/[^/]+$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll(PRECACHE.assets.concat([PRECACHE.offline]));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("referee-shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function keptAddress(url) {
  return url.origin === self.location.origin &&
    (url.pathname === "/" || (TABLE_PAGE.test(url.pathname) && url.searchParams.has("key")));
}

function keepable(response) {
  return response.ok && response.status === 200 && response.type === "basic" &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

function keep(url, response) {
  return caches.open(PAGES).then(function (cache) {
    return cache.put(url.href, response).then(function () { return cache.keys(); }).then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES)).map(function (old) {
        return cache.delete(old);
      }));
    });
  });
}

function forget(url) {
  return caches.open(PAGES).then(function (cache) { return cache.delete(url.href); });
}

// The copy kept under this address, else the newest one of the same table opened with the same key.
function keptPage(url) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(url.href).then(function (exact) {
      if (exact || !TABLE_PAGE.test(url.pathname)) { return exact; }
      return cache.keys().then(function (keys) {
        var same = keys.filter(function (request) {
          var other = new URL(request.url);
          return other.pathname === url.pathname && other.searchParams.get("key") === url.searchParams.get("key");
        });
        return same.length ? cache.match(same[same.length - 1]) : undefined;
      });
    });
  });
}

function network(request) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("no answer within " + WAIT_MS + " ms")); }, WAIT_MS);
    fetch(request).then(function (response) { clearTimeout(timer); resolve(response); },
                        function (error) { clearTimeout(timer); reject(error); });
  });
}

function page(event) {
  var url = new URL(event.request.url);
  return network(event.request).then(function (response) {
    if (keptAddress(url)) {
      if (keepable(response)) {
        event.waitUntil(keep(url, response.clone()));
      } else if ([401, 403, 404, 410].indexOf(response.status) !== -1) {
        event.waitUntil(forget(url));  // a renewed key or a removed table: its old copy must not open again
      }
    }
    return response;
  }, function () {
    return keptPage(url).then(function (kept) {
      return kept || caches.match(PRECACHE.offline, {cacheName: SHELL});
    }).then(function (answer) { return answer || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) { return; }
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (PRECACHE.assets.indexOf(url.pathname + url.search) !== -1) {
    event.respondWith(caches.match(request, {cacheName: SHELL}).then(function (kept) {
      return kept || fetch(request);
    }));
  } else if (!url.search && ASSET_PATHS.indexOf(url.pathname) !== -1) {
    // a kept file asked without its version (the manifest's icons): the kept copy, whatever its version
    event.respondWith(caches.match(request, {cacheName: SHELL, ignoreSearch: true}).then(function (kept) {
      return kept || fetch(request);
    }));
  }
});

// static/register-sw.js asks for a fresh copy of a table's page after htmx changed it (a trick stored), so that a
// reload without the network shows the table as the server last said it, not as the page was first opened.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "refresh" || typeof data.url !== "string") { return; }
  var url = new URL(data.url, self.location.href);
  if (!keptAddress(url)) { return; }
  url.hash = "";
  event.waitUntil(fetch(url.href, {credentials: "same-origin"}).then(function (response) {
    return keepable(response) ? keep(url, response) : undefined;
  }).catch(function () { return undefined; }));
});
