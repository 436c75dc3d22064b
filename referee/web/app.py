"""The application factory: configuration, the services (the ledger, the tournaments, the live views' watch),
security headers, error pages, the areas' blueprints."""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import quote

from flask import Flask, jsonify, make_response, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from jinja2 import ChoiceLoader, FileSystemLoader
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from referee.errors import RefereeError, Unauthorized
from referee.club.store import Clubs
from referee.games import GAMES
from referee.store import Ledger
from referee.tournament.store import Tournaments
from referee.web.i18n import api_refusal, refusal
from referee.web.serving.limits import init_limits, key_failed
from referee.web.serving.live_streams import init_streams
from referee.web.serving.compression import init_compression
from referee.web.serving.static_files import init_static_versions
from referee.web.serving.server_timing import ServerTiming
from referee.web.services import is_htmx, known_ids, printable_query, status_of
from referee.web.shared.live import REFRESH_SECONDS, KeyedWatch
from referee.web.tables.watch import Watch

# A strict policy: our own scripts and styles only, never inline script (the brief's security basics).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


def _secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else one made on first start and kept in instance/ (never in the repo)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()


def instance_path() -> str | None:
    """REFEREE_INSTANCE when set; else Flask's own: ``instance/`` beside the package in a source checkout (or an
    editable install), ``<prefix>/var/referee-instance`` for an installed package."""
    return os.environ.get("REFEREE_INSTANCE") or None


def template_loader(app: Flask) -> ChoiceLoader:
    """Flask's own (the app's templates/, then each blueprint's), then every registered game's own templates (its
    board, sheets, partials: ``Game.template_folder``), so that a page includes ``_board_<game>.html`` by its name."""
    games = [str(game.template_folder) for game in GAMES.values() if game.template_folder.is_dir()]
    return ChoiceLoader([app.create_global_jinja_loader(), FileSystemLoader(games)])


def create_app(config: dict | None = None) -> Flask:
    app = Flask("referee", instance_path=instance_path())  # templates/ and static/: the package's own
    app.jinja_options = {**app.jinja_options, "loader": template_loader(app)}
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'referee.sqlite3'}",
        PUBLIC_URL=os.environ.get("PUBLIC_URL"),
        MAX_CONTENT_LENGTH=64 * 1024,  # an entry is a few hundred bytes
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,  # a scorer's page stays open all evening
        IMPORT_MAX_BYTES=8 * 1024 * 1024,  # an export: ~200 bytes an event, state included (share.import_table)
        PROXY_FIX_X_FOR=0,  # behind a reverse proxy: how many of them set X-Forwarded-For/-Proto
    )
    app.config.from_prefixed_env()  # operators set any of these as FLASK_<NAME> (FLASK_RATELIMIT_ENABLED=false)
    app.config.update(config or {})
    if str(app.config.get("PUBLIC_URL") or "").lower().startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True  # served over https: no cookie ever travels in clear
    if app.config["PROXY_FIX_X_FOR"]:  # rate limits count the client's address, not the proxy's
        hops = int(app.config["PROXY_FIX_X_FOR"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    app.wsgi_app = ServerTiming(app.wsgi_app)  # Server-Timing: the app's own time (serving/server_timing.py)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.json.sort_keys = False
    make_services(app)
    app.url_value_preprocessor(known_ids)  # an id none can have is 404 before it reaches the database
    app.before_request(printable_query)  # a control character in the query: 400, never a 5xx
    init_static_versions(app)  # /static/x.css?v=<its hash>, kept a year (serving/static_files.py)
    init_compression(app)  # first registered, so the last after_request hook: it compresses the final body

    from flask_wtf.csrf import CSRFProtect

    from referee.web import api, cli, clubs, i18n, printing, tables, tournaments
    from referee.web.shared import filters

    i18n.init_app(app)
    filters.init_app(app)
    csrf = CSRFProtect(app)  # every form post carries the session's token
    csrf.exempt(api.bp)  # the JSON APIs prove their right with a key (a table's, a director's), never with a cookie
    app.register_blueprint(api.bp)
    app.register_blueprint(tables.bp)  # home, set-up, scorer, share, live views, /sw.js and /offline
    app.register_blueprint(printing.bp)
    app.register_blueprint(clubs.bp)  # a club's pages: its members, ladder, wall, a member's page
    app.register_blueprint(tournaments.bp)  # a tournament's pages: the form, the director, standings, prints
    csrf.exempt(tables.share.import_table)
    init_limits(app)
    cli.register(app)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")  # keys travel in links: never leak them
        response.headers.setdefault("X-Frame-Options", "DENY")
        if request.path.startswith("/api/") or request.args.get("key"):
            response.headers.setdefault("Cache-Control", "no-store")
        if app.config["SESSION_COOKIE_SECURE"]:  # the session's own cookie is Secure by Flask's setting
            secure_cookies(response)
        if os.environ.get("REFEREE_WORKER_HEADER"):  # tests of several worker processes say who answered
            response.headers["X-Referee-Worker"] = str(os.getpid())
        return response

    @app.errorhandler(RefereeError)
    def refused(error: RefereeError):
        limited = key_failed() if isinstance(error, Unauthorized) else None  # every 401: a key guess
        if limited is not None:
            return limited
        if request.path.startswith("/api/"):
            response = jsonify(error=api_refusal(error))
            response.vary.add("Accept-Language")
            return response, status_of(error)
        return refusal_page(error, status_of(error))

    @app.errorhandler(CSRFError)
    def csrf_refused(error):
        if is_htmx() or not request.path.startswith("/api/"):
            return refusal_page(error, 400, csrf=True)
        return jsonify(error={"code": "csrf", "message": error.description}), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if request.path.startswith("/api/"):
            code = (error.name or "error").lower().replace(" ", "_").replace("'", "")
            response = jsonify(error={"code": code, "message": error.description})
        else:
            response = app.make_response(render_template("error.html", error=error))
        response.status_code = error.code
        for name, value in error.get_headers():  # a 405's Allow, for one
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    return app


def make_services(app: Flask) -> None:
    """Every service the views use (``referee/web/services.py`` reads them): one of each per app."""
    ledger = Ledger(app.config["DATABASE_URL"])
    app.extensions["referee.ledger"] = ledger

    @app.after_request
    def measure_after(response):
        """A write's new state is measured for the replay cache once its answer is sent (``Ledger.settle_cache``):
        the phone has its answer a walk of the state sooner."""
        if ledger.cache_pending:
            response.call_on_close(ledger.settle_cache)
        return response

    app.extensions["referee.tournaments"] = Tournaments(ledger)  # through the ledger's doors and replay cache
    app.extensions["referee.clubs"] = Clubs(ledger)  # the same
    app.config.setdefault("LIVE_REFRESH_SECONDS", REFRESH_SECONDS)
    app.extensions["referee.watch"] = Watch(ledger, app.config["LIVE_REFRESH_SECONDS"])
    # the keyed live views' memos: a tournament's standings, walls and director's round; a club's wall
    standings = KeyedWatch(lambda: app.extensions["referee.tournaments"], "tournament_id")
    walls = KeyedWatch(lambda: app.extensions["referee.clubs"], "club_id")
    app.extensions["referee.standings_watch"], app.extensions["referee.club_watch"] = standings, walls
    for kept in (standings, walls):
        app.after_request(kept.told)  # a write through this process: the next poll reads the revision again
    init_streams(app)  # the process's watcher: every stream of a table or tournament told of its changes


def refusal_page(error, status: int, csrf: bool = False):
    """The error page, its sentence in the page's language; to an htmx post (static/offline-queue.js sending what
    waited) also in the Referee-Refusal header."""
    said = gettext("This form is too old or came from elsewhere: go back, reload the page and try again.") if csrf \
        else refusal(error)
    response = make_response(render_template("error.html", error=error, said=said), status)
    if is_htmx():
        response.headers["Referee-Refusal"] = quote(said, safe="")
    return response


def secure_cookies(response) -> None:
    """Every cookie the pages set (the language) is Secure under https, like the session's."""
    cookies = response.headers.getlist("Set-Cookie")
    if any("; secure" not in cookie.lower() for cookie in cookies):
        response.headers.setlist("Set-Cookie", [cookie if "; secure" in cookie.lower() else cookie + "; Secure"
                                                for cookie in cookies])
