"""A server's worker processes as `make run` starts them (at least two), and a kept-alive connection held by each."""
import http.client
import time

from referee.web import serving

WORKERS = max(2, serving.default_workers())


def workers_env() -> dict:
    """Worker processes as `make run` would start them: one per core, but at least two on a one-core machine."""
    env = {"REFEREE_WORKER_HEADER": "1"}
    if serving.default_workers() < 2:
        env["WEB_CONCURRENCY"] = "2"
    return env


def connection_per_worker(url_port: int, count: int, seconds: float = 120) -> dict:
    """Kept-alive connections until one is held by each of ``count`` workers: {worker pid: connection}.

    A connection answered by a worker already held is closed at once: left open, idle connections from this one
    address would pile up round after round while a worker is still starting, until the server's cap per address
    (``gevent_worker``: at the cap a new connection closes the oldest idle one) closed a held one."""
    held, since, deadline = {}, {}, time.monotonic() + seconds
    while len(held) < count and time.monotonic() < deadline:
        for worker in [w for w, t in since.items() if time.monotonic() - t > 20]:  # the server's keep-alive is 30 s:
            held.pop(worker).close()  # a connection held that long (a worker slow to start) is taken again fresh
            del since[worker]
        opened = [http.client.HTTPConnection("127.0.0.1", url_port, timeout=10) for _ in range(8)]
        try:
            for connection in opened:  # several at once: a busy worker leaves the next one to another
                connection.request("GET", "/api/v1/games")
        except ConnectionRefusedError:  # not listening yet
            for connection in opened:
                connection.close()
            time.sleep(0.1)
            continue
        for connection in opened:
            response = connection.getresponse()
            response.read()
            worker = response.headers["X-Referee-Worker"]
            if worker in held:
                connection.close()
            else:
                held[worker], since[worker] = connection, time.monotonic()
    assert len(held) == count, f"{len(held)} of {count} workers answered"
    return held
