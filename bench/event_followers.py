"""The evening's followers in a process of their own (``bench/event.py``): tests/support/evening_streams.py's
``Followers``, each holding its page's stream as a browser does, but apart from the phones. In the phones' process
their work (2,000 streams' TLS, inflating and reading every event) held the phones' requests waiting for their turn
on the same hub, and the bench timed that wait as the server's: nginx's log showed no entry over 4 s while the bench
said 30 to 48 s. A follower's moments are ``time.monotonic()``, the machine's one clock, so that they compare with
the phones' own.

Spoken over stdin and stdout, a JSON line each way: first the evening (``url``, ``cafile`` for https, ``id``,
``viewer_key``, ``director_key``, ``count``, ``spread``), then ``"opened"`` (answered ``{"opened": n}``), ``["behind",
R]`` (``{"behind": [path, …]}``: the streams not yet at revision R) and ``"stop"`` (``{"followers": [[kind,
revisions, moments], …], "timings": {"page": […]}}``, then the process ends).
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import ssl  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from gevent.fileobject import FileObjectPosix  # noqa: E402

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]
from tests.support.evening import Phone  # noqa: E402
from tests.support.evening_streams import Followers, seen_lags  # noqa: E402

ADDRESSES = [f"127.0.0.{2 + n}" for n in range(40)]  # as the phones': people on a Wi-Fi have addresses of their own


def serve() -> None:
    """The followers' side: starts them, then answers the bench's questions until "stop"."""
    asking = FileObjectPosix(sys.stdin.fileno(), "r")  # read without stopping the followers meanwhile
    said = json.loads(asking.readline())
    context = ssl.create_default_context(cafile=said["cafile"]) if said.get("cafile") else None
    timings: dict = {}  # "page": each page opened, as the phones' process notes its requests

    def phone(n: int) -> Phone:
        return Phone(said["url"], context, ADDRESSES[n % len(ADDRESSES)] if context else "127.0.0.1", timings)

    evening = SimpleNamespace(id=said["id"], viewer_key=said["viewer_key"], director_key=said["director_key"])
    following = Followers(phone, evening, said["count"], spread=said["spread"]).start()
    for line in asking:
        asked = json.loads(line)
        if asked == "opened":
            answer = {"opened": following.opened()}
        elif isinstance(asked, list) and asked[0] == "behind":
            answer = {"behind": following.behind(asked[1])}
        else:
            following.stop()
            answer = {"followers": [[f.kind, f.revisions, f.moments] for f in following.all],
                      "timings": timings}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if "followers" in answer:
            return


class Seen:
    """A follower as its process reported it: its page's kind and when it first saw each revision."""

    def __init__(self, kind: str, revisions: list, moments: list):
        self.kind, self.revisions, self.moments = kind, revisions, moments

    def saw(self, revision: int) -> float | None:
        return next((at for seen, at in zip(self.revisions, self.moments) if seen >= revision), None)


class FollowersProcess:
    """The bench's side: ``Followers``' questions (``opened``, ``behind``, ``lags`` once stopped) asked of the
    followers' own process."""

    def __init__(self, url: str, cafile, evening, count: int, spread: float, timings: dict):
        self.timings = timings  # the pages' openings join the phones' requests' timings when the followers stop
        self.process = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.all: list = []
        self._tell({"url": url, "cafile": str(cafile) if cafile else None, "id": evening.id,
                    "viewer_key": evening.viewer_key, "director_key": evening.director_key, "count": count,
                    "spread": spread}, answered=False)

    def _tell(self, message, answered: bool = True):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline()) if answered else None

    def opened(self) -> int:
        return self._tell("opened")["opened"]

    def behind(self, revision: int) -> list:
        """The streams not yet at ``revision`` (once stopped, as they were then: their kinds)."""
        if self.process.poll() is not None:
            return [f.kind for f in self.all if not f.revisions or f.revisions[-1] < revision]
        return self._tell(["behind", revision])["behind"]

    def stop(self) -> None:
        if self.process.poll() is None:
            said = self._tell("stop")
            self.all = [Seen(*followed) for followed in said["followers"]]
            for kind, taken in said["timings"].items():
                self.timings.setdefault(kind, []).extend(taken)
            self.process.wait(60)

    def lags(self, changes: list, kind: str, most: int = 400) -> tuple:
        """As ``Followers.lags``, from what the followers' process reported when it stopped."""
        followers = [f for f in self.all if f.kind == kind]
        return seen_lags((sent, revision, followers) for sent, revision in changes[::max(1, len(changes) // most)])


if __name__ == "__main__":
    serve()
