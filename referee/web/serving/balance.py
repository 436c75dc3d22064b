"""Connections shared out among a server's workers by their number, not by who happens to be idle.

gunicorn's workers share one listening socket, and a connection stays with the worker that accepted it for as long
as the phone keeps it. Whichever worker is free at that moment accepts: when fifty phones come at once while one
worker is busy (say with the first tables it must bring up to date), the other takes nearly all of them, and stays
with them. Measured under fifty scorers: 43 connections on one worker and 7 on the other for a whole round, then 50
and 1, one core doing the work of two and its phones waiting ten times as long.

Here every worker writes in memory shared by the server's processes (made by the master before it forks) how many
connections it holds, with a heartbeat; a worker holding more than ``SLACK`` connections above the least loaded
worker that is answering (its heartbeat younger than ``STALE`` seconds) stops accepting until the others catch up.
The least loaded one always accepts; a worker busy with one long answer (a print of 150 table cards) stops beating
and is left out of the count meanwhile, so nobody waits for it; a worker gone (killed, restarted) is left out the
same way and its slot taken by the next one.
"""
from __future__ import annotations

import multiprocessing
import os
import time
from multiprocessing.sharedctypes import RawArray

SLOTS = 64  # workers of one server at most that share out their connections (more: the rest accept as before)
SLACK = 2  # connections a worker may hold above the least loaded one before it stops accepting
STALE = 0.5  # seconds: a heartbeat older than this is a worker busy or gone, left out of the fair share
BEAT = 0.1  # seconds between a worker's heartbeats (``Worker.balance``)


class Shares:
    """Each worker's slot: its pid, the connections it holds, its last heartbeat (``time.monotonic``, the same clock
    for every process of the machine). Made in the master before any fork; each worker claims a slot once it
    serves (``claim``) and leaves it when it stops (``leave``)."""

    def __init__(self, slots: int = SLOTS):
        self.pids, self.held, self.beats = RawArray("q", slots), RawArray("q", slots), RawArray("d", slots)
        self.lock = multiprocessing.Lock()
        self.slot: int | None = None

    def claim(self) -> None:
        """This process takes a free slot: never used, or whose worker is gone."""
        with self.lock:
            for slot, pid in enumerate(self.pids):
                if pid == 0 or not _alive(pid):
                    self.pids[slot], self.held[slot], self.beats[slot] = os.getpid(), 0, time.monotonic()
                    self.slot = slot
                    return
        self.slot = None  # every slot taken: this worker accepts as gunicorn's do

    def leave(self) -> None:
        if self.slot is not None and self.pids[self.slot] == os.getpid():
            self.pids[self.slot] = 0
        self.slot = None

    def note(self, held: int) -> None:
        """This worker's heartbeat: it holds ``held`` connections."""
        if self.slot is not None:
            self.held[self.slot], self.beats[self.slot] = held, time.monotonic()

    def over(self, held: int) -> bool:
        """Whether this worker, holding ``held`` connections, holds more than ``SLACK`` above the least loaded
        worker that answers (its own count noted by the way)."""
        if self.slot is None:
            return False
        self.note(held)
        now, least = time.monotonic(), held
        for slot, pid in enumerate(self.pids):
            if pid and slot != self.slot and now - self.beats[slot] < STALE:
                least = min(least, self.held[slot])
        return held > least + SLACK


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive, and not ours to reuse
        return True
    return True


def balanced(server_class, shares: Shares, servers: list):
    """``server_class`` (gevent's ``StreamServer``) whose servers also count as full while this worker holds more
    than its share (``Shares.over``, all its servers' connections together); each one made is added to ``servers``
    for the heartbeat, which starts accepting again (``accept_if_fair``) once the others caught up."""

    def held() -> int:
        return sum(len(server.pool) for server in servers if server.pool is not None)

    class Balanced(server_class):
        held_back = False  # stopped accepting by its share, not by its pool's bound nor an error's back-off

        def set_spawn(self, spawn):
            super().set_spawn(spawn)
            pool_full = self.full  # the pool's own bound (gunicorn's worker_connections)

            def full():
                if pool_full():
                    return True
                self.held_back = shares.over(held())
                return self.held_back
            self.full = full
            servers.append(self)

        def _start_accepting_if_started(self, _event=None):
            """gevent's restart when its pool lets a connection go (linked when it found the server full): not
            while this worker holds more than its share, else it would stop and start again at once, a core's
            worth of work, for as long as a connection waits in the backlog. The heartbeat restarts it."""
            if self.started and not self.full():
                self.start_accepting()

        def accept_if_fair(self) -> None:
            """The heartbeat's: accepting again, if it was held back by its share and no longer holds more."""
            if self.held_back and self.started and not self.full():
                self.start_accepting()

    return Balanced
