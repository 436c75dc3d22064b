"""gunicorn's gevent worker as ``serve`` runs it: every connection a greenlet, with deadlines and a cap per address.

- **Headers deadline** (``REFEREE_HEADER_SECONDS``, 10 s): a new connection's request line and headers arrive whole
  within it, or the connection is closed (a slowloris, a socket opened and left silent).
- **Kept alive** (``REFEREE_KEEPALIVE_SECONDS``, 30 s): after an answer, the next request's headers arrive whole
  within it, or the connection is closed. gunicorn's own ``keepalive`` setting, which its async workers apply around
  the reading of every request's headers (``timeout_ctx``); here the first request has the shorter deadline above.
- **Body deadline** (``REFEREE_BODY_SECONDS``, 30 s, from the end of the headers): the app's reads of a request's
  body end within it, or the read raises ``RequestTimeout``, which the app answers 408 (its own error page or JSON
  error), and the connection is closed after. The body is read as the app reads it (nothing buffered beyond what
  gunicorn does: the app's size limits hold); what the app left unread is drained within the kept-alive bound.
- **TLS** (``REFEREE_TLS_CERT``): each step of the handshake within the headers deadline.
- **Per address** (``REFEREE_CONNECTIONS_PER_ADDRESS``, 200 per worker process; 0: no cap): at the cap, a new
  connection from that address closes the oldest of that address's connections still waiting for a request (idle
  or sending its headers), so that an honest phone sharing an address with an attacker still gets in; with none
  waiting (all being answered), the new connection is closed. Behind a reverse proxy every client has the proxy's
  address: set 0 there and let the proxy limit its clients.

- **Connections shared out** (``balance.py``): a worker holding more connections than the least loaded one (by
  more than ``SLACK``) stops accepting until the others catch up, so that phones that came at once are not left on
  one worker while another idles.

- **Lingering close**: a connection the server closes (the client said ``Connection: close``, or the worker stops)
  before it read the whole body (an answer refused early: 413 from ``Content-Length``) reads what the client still
  sends and drops it, up to ``LINGER_BYTES`` within ``LINGER_SECONDS``, as nginx's ``lingering_close`` does: closed
  with unread data, the socket would be reset, and a client still sending its body gets "broken pipe" instead of
  the answer. Never after the body deadline fired (a slow body is not waited for twice).

A deadline of 0 is none. None of these cuts an answer being written: a server-sent event stream
(``text/event-stream``) lasts as long as its view holds it, and the worker's heartbeat (gunicorn's ``timeout``) goes
on in a greenlet of its own meanwhile.
"""
from __future__ import annotations

import os
import select
import socket
import ssl
import sys
import time
from dataclasses import dataclass

import gevent
from gevent import getcurrent
from gevent.server import StreamServer
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import RequestTimeout

from referee.web.serving.balance import BEAT, Shares, balanced


LINGER_SECONDS = 2.0
LINGER_BYTES = 16 * 1024 * 1024


def setting(name: str, default: float) -> float:
    """A number of the environment (``REFEREE_…``); the default when unset or not a number >= 0."""
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value >= 0 else default


@dataclass(frozen=True)
class Limits:
    header_seconds: float = 10.0
    keepalive_seconds: float = 30.0
    body_seconds: float = 30.0
    per_address: int = 200

    @staticmethod
    def from_env() -> "Limits":
        return Limits(setting("REFEREE_HEADER_SECONDS", 10.0), setting("REFEREE_KEEPALIVE_SECONDS", 30.0),
                      setting("REFEREE_BODY_SECONDS", 30.0), int(setting("REFEREE_CONNECTIONS_PER_ADDRESS", 200)))


class BodyDeadline:
    """gunicorn's body reader (``req.body.reader``), each read within what is left of the body's deadline."""

    def __init__(self, req, seconds: float):
        self.req, self.reader = req, req.body.reader
        self.ends = time.monotonic() + seconds if seconds else float("inf")  # 0: no deadline
        self.expired = False

    def __getattr__(self, name):  # the reader's other attributes (a LengthReader's ``length``)
        return getattr(self.reader, name)

    def read(self, size):
        left = self.ends - time.monotonic()
        if left <= 0:
            self.expire()
        timer = gevent.Timeout(None if left == float("inf") else left)
        timer.start()
        try:
            return self.reader.read(size)
        except gevent.Timeout as fired:
            if fired is not timer:
                raise
            self.expire()
        finally:
            timer.close()

    def expire(self):
        self.expired = True
        self.req.must_close = True  # the answer says ``Connection: close``: the rest of the body is never read
        raise RequestTimeout("The request's body came too slowly.")

    def answered(self) -> None:
        """The app answered: what it left unread is drained under the kept-alive bound, not this deadline."""
        self.ends = float("inf")

    def linger(self) -> None:
        """The connection closes now: the body's rest, as the client still sends it, read and dropped (bounded)."""
        if self.expired:
            return
        left = LINGER_BYTES
        with gevent.Timeout(LINGER_SECONDS, False):
            try:
                while left > 0:
                    chunk = self.reader.read(min(65536, left))
                    if not chunk:
                        return
                    left -= len(chunk)
            except Exception:  # the client gone, a malformed chunk: nothing more to read
                return


class Connection:
    """One client connection in this worker: its greenlet, whether it waits for a request (evictable), the
    deadline it waits under, the requests it was answered."""

    __slots__ = ("greenlet", "waiting", "deadline", "served")

    def __init__(self, greenlet):
        self.greenlet, self.waiting, self.deadline, self.served = greenlet, True, None, 0

    def evictable(self) -> bool:
        """Waiting inside gunicorn's read of a request's headers (its deadline set there, cleared once read)."""
        return self.waiting and self.deadline is not None

    def evict(self) -> None:
        """Its deadline fires now: gunicorn's loop ends the connection as at any deadline (quietly, then closed)."""
        self.greenlet.kill(self.deadline, block=False)


def cooperative_psycopg() -> None:
    """psycopg 3 picks its wait function when first imported: its C one, which blocks the hub, if gevent had not
    patched ``select`` yet (the master imported it: the app it made to upgrade the schema). Picked again here, as
    psycopg would have picked after patching (``psycopg/waiting.py``: gevent's patched select is detected)."""
    waiting = sys.modules.get("psycopg.waiting")
    if waiting is not None and waiting.wait is getattr(waiting, "wait_c", None):
        waiting.wait = waiting.wait_poll if hasattr(select, "poll") else waiting.wait_select


class Worker(GeventWorker):
    """``serving.serve_gunicorn``'s worker class (``limits`` read again by its master before it forks); also
    ``gunicorn -k referee.web.serving.gevent_worker.Worker "referee:create_app()"``."""

    limits = Limits.from_env()
    shares: Shares | None = None  # made by the master with its first worker, before any fork (balance.py)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if Worker.shares is None:
            Worker.shares = Shares()
        self.by_address: dict[str, dict[Connection, None]] = {}  # oldest first
        self.current: dict[object, Connection] = {}  # greenlet -> its connection

    def patch(self):
        super().patch()
        cooperative_psycopg()
        if self.cfg.is_ssl:  # gevent's server shakes hands before ``handle``: each step of it within the deadline
            socket.setdefaulttimeout(self.limits.header_seconds or None)  # ``handle`` makes the socket blocking
            hub = gevent.get_hub()  # a handshake timed out or refused is routine: no traceback in the log for it
            hub.NOT_ERROR = (*hub.NOT_ERROR, TimeoutError, ConnectionError, ssl.SSLError)

    def run(self):
        gevent.spawn(self.close_waiting_when_stopping)
        servers: list = []
        ggevent.StreamServer = balanced(StreamServer, self.shares, servers)  # gunicorn's run makes its servers
        self.shares.claim()
        gevent.spawn(self.balance, servers)
        super().run()

    def balance(self, servers: list) -> None:
        """The heartbeat: the connections this worker holds, noted every ``BEAT`` seconds; a server that stopped
        accepting while this worker held more than its share accepts again once it no longer does."""
        while self.alive:
            self.shares.note(sum(len(server.pool) for server in servers if server.pool is not None))
            for server in servers:
                server.accept_if_fair()
            gevent.sleep(BEAT)

    def close_waiting_when_stopping(self) -> None:
        """Stopping, gunicorn waits up to ``graceful_timeout`` for every connection: the idle ones end at once (a
        phone's kept-alive connection would hold a restart for the whole wait), those being answered go on; the app's
        server-sent event streams end (``live_streams.Watcher.close``: their browsers come back to another worker)."""
        while self.alive:
            gevent.sleep(0.2)
        self.shares.leave()  # accepting no more: the others no longer wait for this worker to catch up
        watcher = getattr(self.wsgi, "extensions", {}).get("referee.watcher")
        if watcher is not None:
            watcher.close()
        for connection in list(self.current.values()):
            if connection.evictable():
                connection.evict()

    def timeout_ctx(self):
        """Around the reading of each request's line and headers (gunicorn's async loop): silent, the connection
        closes when it fires."""
        connection = self.current.get(getcurrent())
        seconds = self.limits.keepalive_seconds if connection and connection.served else self.limits.header_seconds
        deadline = gevent.Timeout(seconds or None, False)  # 0: no deadline
        if connection is not None:
            connection.deadline = deadline
        return deadline

    def handle(self, listener, client, addr):
        address = addr[0] if isinstance(addr, tuple) and addr else None
        cap = self.limits.per_address
        held = self.by_address.setdefault(address, {}) if cap and address is not None else None
        if held is not None and len(held) >= cap and not self.evict_oldest_waiting(held):
            client.close()
            return
        connection = Connection(getcurrent())
        if held is not None:
            held[connection] = None
        self.current[getcurrent()] = connection
        try:
            super().handle(listener, client, addr)
        finally:
            self.current.pop(getcurrent(), None)
            if held is not None:
                held.pop(connection, None)
                if not held and self.by_address.get(address) is held:
                    del self.by_address[address]

    @staticmethod
    def evict_oldest_waiting(held: dict) -> bool:
        for connection in held:
            if connection.evictable():
                del held[connection]
                connection.evict()
                return True
        return False

    def handle_request(self, listener_name, req, sock, addr):
        connection = self.current.get(getcurrent())
        if connection is not None:
            connection.waiting, connection.deadline = False, None
        body = req.body.reader = BodyDeadline(req, self.limits.body_seconds)
        try:
            return super().handle_request(listener_name, req, sock, addr)
        except StopIteration:  # the connection closes after this answer
            body.linger()
            raise
        finally:
            body.answered()
            if connection is not None:
                connection.waiting, connection.served = True, connection.served + 1
