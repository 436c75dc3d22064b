"""Command line: ``flask --app referee init-db`` and ``flask --app referee serve``."""
from __future__ import annotations

import socket

import click
import qrcode


def lan_addresses() -> list:
    """This machine's IPv4 addresses other than loopback, read from its interfaces (no packet is sent)."""
    found = []
    try:
        import fcntl
        import struct

        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            except OSError:
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127."):
                found.append(address)
        probe.close()
    except (ImportError, OSError):
        pass
    if not found:
        try:
            address = socket.gethostbyname(socket.gethostname())
            if not address.startswith("127."):
                found.append(address)
        except OSError:
            pass
    return found


def register(app) -> None:
    @app.cli.command("init-db")
    def init_db():
        """Create the database tables (safe to run again: existing data is kept)."""
        ledger = app.extensions["referee.ledger"]
        ledger.init_db()
        click.echo(f"Database ready: {ledger.engine.url.render_as_string(hide_password=True)}")

    @app.cli.command("serve")
    @click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (all: the LAN).")
    @click.option("--port", default=5000, show_default=True, type=int)
    @click.option("--threads", default=8, show_default=True, type=int)
    def serve(host, port, threads):
        """Serve Referee on the local network and print the address phones at the table can open."""
        from waitress import serve as waitress_serve

        app.extensions["referee.ledger"].init_db()
        addresses = lan_addresses() if host in ("0.0.0.0", "") else [host]
        url = app.config.get("PUBLIC_URL") or f"http://{(addresses or ['127.0.0.1'])[0]}:{port}"
        app.config["PUBLIC_URL"] = url
        click.echo(f"\nReferee is open at  {url}\nPhones on the same Wi-Fi can scan this code:\n")
        code = qrcode.QRCode(border=2)
        code.add_data(url)
        code.print_ascii(invert=True)
        click.echo(f"(on this machine: http://127.0.0.1:{port})  Stop with Ctrl+C.\n", err=False)
        waitress_serve(app, host=host, port=port, threads=threads, ident="referee")
