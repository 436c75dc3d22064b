"""Command line: ``referee init-db``, ``serve``, ``backup <path>`` and ``db-revision <message>`` (the installed
console script, ``main``), the same commands as ``flask --app referee …``."""
from __future__ import annotations


import click
import qrcode

from referee.web import serving


def upgrade_database(app) -> str:
    """Brings the app's database to the newest revision in place (referee/migrations); says what it did."""
    from referee.store import migrations

    ledger = app.extensions["referee.ledger"]
    before, after = migrations.upgrade(ledger.url)
    where = ledger.where()
    if before == after:
        return f"Database ready at revision {after} (up to date): {where}"
    return f"Database ready at revision {after} (was {before or 'without a revision'}): {where}"


def register(app) -> None:
    @app.cli.command("init-db")
    def init_db():
        """Create the database or upgrade it to this version's schema in place (its data is kept)."""
        click.echo(upgrade_database(app))

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=True, writable=True))
    def backup(path):
        """Write a consistent copy of the live database to PATH (a file, or a directory for a dated file).

        SQLite: the online backup API, safe while Referee serves. PostgreSQL: pg_dump's custom format."""
        from referee.store.backup import BackupError, backup as take_backup

        try:
            done = take_backup(app.extensions["referee.ledger"].url, path)
        except (BackupError, OSError) as error:
            raise click.ClickException(str(error)) from error
        counts = "".join(f"{done[name]} {name[:-1] if done[name] == 1 else name}, " for name in ("tables", "events")
                         if name in done)
        click.echo(f"Backup written: {done['path']} ({counts}{done['bytes']:,} bytes)")

    @app.cli.command("db-revision")
    @click.argument("message")
    def db_revision(message):
        """Write the next migration from what the models changed (read it before committing)."""
        from referee.store import migrations

        click.echo(f"New revision: {migrations.new_revision(message)}")

    @app.cli.command("serve")
    @click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (all: the LAN).")
    @click.option("--port", default=5000, show_default=True, type=int)
    @click.option("--workers", type=click.IntRange(min=1), default=None,
                  help="Worker processes (gunicorn) [default: WEB_CONCURRENCY, else one per core].")
    @click.option("--threads", default=8, show_default=True, type=click.IntRange(min=1),
                  help="Threads of waitress's process (gunicorn's gevent workers need none).")
    @click.option("--server", type=click.Choice(["auto", "gunicorn", "waitress"]), default="auto",
                  show_default=True, help="auto: gunicorn's gevent processes where the system can fork, else "
                  "waitress.")
    @click.option("--schema", type=click.Choice(["upgrade", "check"]), envvar="REFEREE_SCHEMA", default="upgrade",
                  show_default=True, help="upgrade: bring the database to this version first (one machine); check: "
                  "refuse to start on an older or newer one (several servers: `init-db` once) [env REFEREE_SCHEMA].")
    def serve(host, port, workers, threads, server, schema):
        """Serve Referee on the local network and print the address phones at the table can open."""

        if server == "auto":
            server = "gunicorn" if serving.can_fork() else "waitress"
        if server == "gunicorn" and not serving.can_fork():
            raise click.ClickException("gunicorn needs a system that can fork: use --server waitress")
        try:
            tls = serving.tls_files()  # REFEREE_TLS_CERT, REFEREE_TLS_KEY: https on the LAN
        except ValueError as error:
            raise click.ClickException(str(error)) from error
        if tls and server == "waitress":
            raise click.ClickException("waitress serves plain http: for https use gunicorn, or a proxy in front")
        if schema == "check":  # one of several servers: the database was upgraded once, by init-db
            from referee.store import migrations

            refused = migrations.mismatch(app.extensions["referee.ledger"].url)
            if refused:
                raise click.ClickException(refused)
            click.echo(f"Database schema checked: revision {migrations.head()}.")
        else:
            click.echo(upgrade_database(app))  # once, before any worker starts
        addresses = serving.lan_addresses() if host in ("0.0.0.0", "") else [host]
        scheme = "https" if tls else "http"
        url = app.config.get("PUBLIC_URL") or f"{scheme}://{(addresses or ['127.0.0.1'])[0]}:{port}"
        app.config["PUBLIC_URL"] = url
        if tls:
            app.config["SESSION_COOKIE_SECURE"] = True  # as with PUBLIC_URL=https://…: no cookie travels in clear
        click.echo(f"\nReferee is open at  {url}\nPhones on the same Wi-Fi can scan this code:\n")
        code = qrcode.QRCode(border=2)
        code.add_data(url)
        code.print_ascii(invert=True)
        if server == "gunicorn":
            workers = workers or serving.default_workers()
            how = (f"{workers} gevent worker process{'es' if workers > 1 else ''} of up to "
                   f"{serving.CONNECTIONS:,} connections")
        else:
            how = f"one process of {threads} threads"
        click.echo(f"(on this machine: {scheme}://127.0.0.1:{port}; {how})  Stop with Ctrl+C.\n", err=False)
        if server == "waitress":
            serving.serve_waitress(app, host, port, threads)
            return
        overrides = {"PUBLIC_URL": url, **({"SESSION_COOKIE_SECURE": True} if tls else {})}

        def worker_app():  # made in each worker once gevent patched it (serving.py says why)
            from referee.web.app import create_app

            return create_app(overrides)

        app.extensions["referee.ledger"].forget_connections()  # nothing of the master's crosses the fork
        serving.share_cache(workers)  # the workers' replay caches: 64 MB together unless REFEREE_CACHE_MB is set
        serving.serve_gunicorn(worker_app, host, port, workers, threads, tls)


def main(argv=None) -> None:
    """``referee``: the installed command (pyproject.toml's console script; ``python -m referee`` too). Flask's own
    command group over the application, so its commands are those of ``flask --app referee``, with ``--help``."""
    from flask.cli import FlaskGroup

    from referee.web.app import create_app

    group = FlaskGroup(name="referee", create_app=lambda: create_app(), add_version_option=False,
                       help="Referee: keeps score and referees card games played with real cards at a real table.")
    group.main(args=argv, prog_name="referee")
