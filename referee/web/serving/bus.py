"""The bus that tells every server of a deployment of a write (issue 28): Redis publish/subscribe, when ``BUS_URL``
is set (``FLASK_BUS_URL=redis://…``, deploy/referee.env); none on one machine.

A write through a process already wakes that process's watcher (``live_streams.Watcher.written``); with the bus it
also publishes the table and tournament it wrote, and every process of every server, subscribed, wakes its own
watcher for them as if the write had been its own: its streams read the database at once instead of at their next
tick. The database stays the only truth: a message says "read now", never what changed, and a message lost (Redis
restarting, a server just starting) costs nothing but the tick the watcher would have waited anyway (0.25 s).
Redis rather than PostgreSQL's LISTEN/NOTIFY: the deployment has it already (the limits' counts), its client is
plain sockets (cooperative under gevent's workers), and the data's database takes no connection per process held
open to listen. Publishing never fails a write: an error is logged and counted (``Bus.failed``), and the tick
covers it."""
from __future__ import annotations

import json
import logging
import os
import threading
import time

CHANNEL = "referee:written"
log = logging.getLogger(__name__)


class Bus:
    """This process's publisher and its subscriber thread (started after a fork, with the watcher's thread)."""

    def __init__(self, url: str | None):
        self.url = url
        self._pid = None
        self._client = None
        self._listening = None
        self.published = 0  # writes this process told the other servers of
        self.failed = 0  # writes it could not tell (Redis away: logged, the write kept, the tick covers it)

    def _own(self):
        import redis  # only where a bus is set

        if self._pid != os.getpid():
            self._pid, self._client, self._listening = os.getpid(), redis.Redis.from_url(self.url), None
        return self._client

    def publish(self, table_id: str | None, tournament_id: str | None) -> None:
        if not self.url:
            return
        try:
            self._own().publish(CHANNEL, json.dumps([table_id, tournament_id]))
        except Exception:  # Redis away: the other servers see the write at their next tick
            self.failed += 1
            log.warning("the bus could not publish a write", exc_info=True)
        else:
            self.published += 1

    def listen(self, written) -> None:
        """Calls ``written(table_id, tournament_id)`` for every write any server publishes, in a daemon thread of
        this process (one, whatever the number of calls)."""
        if not self.url:
            return
        self._own()
        if self._listening is not None and self._listening.is_alive():
            return
        self._listening = threading.Thread(target=self._run, args=(written,), name="referee-bus", daemon=True)
        self._listening.start()

    def _run(self, written) -> None:
        failing = False  # said once while Redis stays away, not every second
        while True:
            try:
                subscriber = self._own().pubsub(ignore_subscribe_messages=True)
                subscriber.subscribe(CHANNEL)
                failing = False
                for message in subscriber.listen():
                    table_id, tournament_id = json.loads(message["data"])
                    written(table_id, tournament_id)
            except Exception as error:  # Redis restarting: listen again in a moment; the ticks go on meanwhile
                if not failing:
                    log.warning("the bus stopped listening (%s); trying again every second", error)
                failing = True
                time.sleep(1)
