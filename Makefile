# Referee — developer tasks.  Start with `make run`; see `make help`.
SHELL       := /bin/bash
PYTHON      ?= python3
VENV        := .venv
PORT        ?= 5000
PYTEST_ARGS ?=
# Both cores (pytest-xdist), a test file's tests on one worker (its module's server and browser stay shared);
# XDIST= runs in one process.
XDIST       ?= -n 2 --dist loadfile
FLASK       := $(VENV)/bin/flask --app referee

.PHONY: help install install-test db backup run test test-fast test-tools bench event taps translations clean

help:
	@echo "make install                 create .venv (the app's Python deps) and node_modules (htmx, its SSE extension)"
	@echo "make db                      create the database, or upgrade it in place (migrations; data kept)"
	@echo "make backup [TO=path]        copy the live database to instance/backups/ (SQLite; PostgreSQL: pg_dump)"
	@echo "make run  [PORT=5000]        install, init the db and serve on the LAN"
	@echo "make test-fast [PYTEST_ARGS=...]  after every change: engines, ledger, API (the tests marked fast, < 30 s)"
	@echo "make test [PYTEST_ARGS=...]  before landing: install and run the whole suite, on both cores (XDIST=)"
	@echo "make bench [BENCH_ARGS=...]  print Referee's figures beside its floor's (bench/run.py; ~20 min; PostgreSQL too: BENCH_DATABASE_URL, else its own where installed)"
	@echo "make event [EVENT_ARGS=...]  the evening rehearsed alone (bench/event.py; --quick: 40 tables, 200 followers)"
	@echo "make taps                    print taps, scrolls and seconds per deal in each way of entry (Chromium)"
	@echo "make clean                   remove .venv, node_modules and referee/static/vendor"

install: $(VENV)/.installed referee/static/vendor/htmx.min.js referee/static/vendor/htmx-ext-sse.min.js

install-test: install $(VENV)/.installed-test

# Two stamps: `make run` installs the app's dependencies only; `make test` adds the test extra (pytest, Playwright)
# once, and again whenever pyproject.toml (so .installed) is newer than its stamp.
$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo >&2 "*** Referee needs Python >= 3.11 as '$(PYTHON)' (try: make PYTHON=python3.11 ...)"; exit 1; }
	@test -x $(VENV)/bin/pip || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo >&2 "*** '$(PYTHON) -m venv' failed. On Debian/Ubuntu: sudo apt-get install python3-venv"; exit 1; }
	$(VENV)/bin/pip install -e . || \
	  { echo >&2 "*** pip install failed: check your network access to PyPI and the error above."; exit 1; }
	@touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(VENV)/bin/pip install -e '.[test]' || \
	  { echo >&2 "*** pip install failed: check your network access to PyPI and the error above."; exit 1; }
	@touch $@

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || \
	  { echo >&2 "*** npm not found: install Node.js >= 18 with npm (Debian: sudo apt-get install npm)"; exit 1; }
	npm ci || { echo >&2 "*** 'npm ci' failed: check your network access to the npm registry and the error above."; exit 1; }
	@touch $@

referee/static/vendor/htmx.min.js: node_modules/.installed
	mkdir -p $(@D)
	cp node_modules/htmx.org/dist/htmx.min.js $@

referee/static/vendor/htmx-ext-sse.min.js: node_modules/.installed
	mkdir -p $(@D)
	cp node_modules/htmx-ext-sse/dist/sse.min.js $@

db: $(VENV)/.installed
	$(FLASK) init-db

backup: $(VENV)/.installed
	@test -n "$(TO)" || mkdir -p instance/backups
	$(FLASK) backup $(or $(TO),instance/backups)

run: install db
	$(FLASK) serve --port $(PORT)

test: install-test test-tools
	$(VENV)/bin/python -m pytest $(XDIST) $(PYTEST_ARGS)

# Markers (pyproject.toml) given by tests/support/markers.py from the fixtures a test uses, or by pytestmark.
test-fast: install-test
	$(VENV)/bin/python -m pytest $(XDIST) -m fast $(PYTEST_ARGS)

# Debian tools some tests use: Chromium (browser tests), zbarimg (reads QR codes), pdfinfo (printed pages), nginx and
# redis-server (the rig of several servers, tests/test_rig.py: it runs its own, on ports of its own). Installed when run as
# root with apt-get (as CI does); otherwise those tests say what is missing and are skipped (never under CI=true).
test-tools:
	@missing=""; command -v zbarimg >/dev/null || missing="$$missing zbar-tools"; \
	  test -x /usr/bin/chromium || missing="$$missing chromium"; \
	  command -v pdfinfo >/dev/null || missing="$$missing poppler-utils"; \
	  command -v nginx >/dev/null || test -x /usr/sbin/nginx || missing="$$missing nginx"; \
	  command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	  if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	    else echo "note: missing$$missing (sudo apt-get install$$missing): those tests are skipped"; fi; fi

# The benches' own tools (locust) in a third stamp: neither `make run` nor `make test` installs them. The rig's
# benches (bench/cluster.py, bench/event.py) start it as the tests do (tests/support/rig.py): the test extra too.
bench: install $(VENV)/.installed-test $(VENV)/.installed-bench
	$(VENV)/bin/python bench/run.py $(BENCH_ARGS)

# The evening rehearsed (part of `make bench`), alone: the floor, one server as `make run` serves, the rig.
event: install $(VENV)/.installed-test $(VENV)/.installed-bench
	$(VENV)/bin/python bench/event.py $(EVENT_ARGS)

$(VENV)/.installed-bench: $(VENV)/.installed
	$(VENV)/bin/pip install -e '.[bench]' || \
	  { echo >&2 "*** pip install failed: check your network access to PyPI and the error above."; exit 1; }
	@touch $@

taps: install-test test-tools
	$(VENV)/bin/python bench/taps.py

clean:
	rm -rf $(VENV) node_modules referee/static/vendor

# Message catalogues: extract the English msgids, then merge them into each language's .po (edit fr by hand).
translations: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -k gettext -k msg -k RuleError:2 -k ParseError:2 \
	  -k said:2 -k _both:2 -k ruled:3 -k _outcome:6 \
	  -k RefereeError:2 -k Conflict:2 -k NotFound:2 -k Unauthorized:2 -k Forbidden:2 \
	  --no-location --sort-output --omit-header --width 120 -o referee/translations/messages.pot .
	$(VENV)/bin/pybabel update -i referee/translations/messages.pot -d referee/translations --no-fuzzy-matching --ignore-obsolete --width 120
