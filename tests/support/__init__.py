"""What the test modules share (a test module never imports another, nor conftest: conftest keeps the fixtures and
the hooks). By subject:

- env: the repository root, CI or not, ``need`` (a skip here, an error in CI), a free port;
- server: a real ``flask serve`` process; isolation: each xdist worker's own PostgreSQL database;
  markers: the browser / server / postgres marks given from the fixtures a test uses;
- browser: Chromium as a phone (viewport, screenshots, htmx idle, taps, the keypad, the sheet's preview, live polls);
  offline: a phone that loses the network once its service worker is ready;
- api: the JSON API over HTTP or Flask's client, answers checked against the OpenAPI document;
  scorer, sheet, picker: the scorer's pages, the numbers sheet and Buraco's picker through Flask's client;
- deals, series, simulate, engine: recorded deals and series, deals played to the rules, an engine driver;
- ledgers, limits, fuzzing, http_load: ledger and database helpers, rate limits, the fuzzers' tables, many phones;
  rig: nginx, servers, Redis on this machine; evening, evening_streams, evening_check: a signed Burraco evening
  played through the API, its followers' streams, and what it must leave behind;
- text, printing, pdfread: words on a page, printed pages read back; waiting: ``until`` a condition holds.
"""
