"""Issue 40: a Burraco evening played through the API as a federation's plays it, for the rehearsal's test
(tests/test_event_rehearsal.py) and its bench (bench/event.py). A tournament of ``tables`` tables (twice as many
pairs), three rounds of 3 hands (two Mitchell, one Danish), ``require_signatures``. In each round every table's phone
(a thread: a greenlet under the bench's gevent) enters its hands by their numbers, a pause after each entry, then
both sides sign; the tables drawn to call the director dispute instead. The director then gives those an arbitral
result, corrects signed results (the last hand withdrawn and entered again, with reasons; half the corrected tables
sign again), gives penalties, closes the round and seats the next. Every call goes through the tables' and the
tournaments' API as a phone's or a director's does (``Phone``: sent again as it was when no answer came, its
``client_event_id`` or ``Idempotency-Key`` making it count once); what was acknowledged is kept to be checked
(``check.py``: every entry once, every table settled, the standings recomputed)."""
from __future__ import annotations

import gzip
import http.client
import json
import random
import threading
import time
import urllib.parse

PLAN = [{"movement": "mitchell", "hands": 3}, {"movement": "mitchell", "hands": 3},
        {"movement": "danish", "hands": 3}]
HANDS = 3
# Over the evening, round by round: tables that call the director (each given an arbitral result), results the
# director corrects, penalties.
CALLS, CORRECTIONS, PENALTIES = (2, 2, 1), (4, 3, 3), (1, 0, 1)


class Phone:
    """One kept-alive connection (http, or https with ``context``) from loopback address ``source``. ``call``
    answers (status, JSON); a call that got no answer (a reset, nginx's 502/503/504: the server behind went down) is
    sent again as it was, as a phone does. Each answered call's time is noted under its ``kind`` (and when it was
    sent, given ``moments``)."""

    def __init__(self, url: str, context=None, source: str = "127.0.0.1", timings: dict | None = None,
                 moments: dict | None = None):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.https = parts.hostname, parts.port, parts.scheme == "https"
        self.context, self.source, self.timings = context, source, timings if timings is not None else {}
        self.moments = moments  # kind -> when each timed call was sent (``time.monotonic``), beside ``timings``
        self.connection = None

    def open(self, timeout: float = 60):
        if self.https:
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=self.context,
                                               source_address=(self.source, 0))
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout, source_address=(self.source, 0))

    def call(self, method: str, path: str, body=None, key: str | None = None, kind: str | None = None,
             headers: dict | None = None, tries: int = 30) -> tuple:
        sent = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {}),
                **(headers or {})}
        data = None if body is None else json.dumps(body)
        for attempt in range(tries):
            if self.connection is None:
                self.connection = self.open()
            started = time.monotonic()
            try:
                self.connection.request(method, path, body=data, headers=sent)
                answer = self.connection.getresponse()
                raw = answer.read()
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                time.sleep(0.1 * (attempt + 1))
                continue
            if answer.status in (502, 503, 504):  # nginx: no server answered
                time.sleep(0.1 * (attempt + 1))
                continue
            took = time.monotonic() - started
            if kind:
                self.timings.setdefault(kind, []).append(took)
                if self.moments is not None:
                    self.moments.setdefault(kind, []).append(started)
            if answer.getheader("Content-Encoding") == "gzip":  # a page, asked as a browser asks it
                raw = gzip.decompress(raw)
            try:
                return answer.status, json.loads(raw or b"null")
            except ValueError:
                return answer.status, raw.decode(errors="replace")
        raise RuntimeError(f"{method} {path}: no answer after {tries} tries")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def hand_numbers(rng: random.Random) -> list:
    """A hand's numbers per side, (melds, card points left in hand), ended by the stock with both pots taken and no
    burraco: within the 1,080 card points in play (R-BURACO-4)."""
    return [[rng.randrange(50, 405, 5), rng.randrange(0, 65, 5)] for _ in range(2)]


def tally(numbers: list) -> dict:
    return {"type": "tally", "closed_by": None,
            "sides": [{"melds": melds, "burracos": {}, "pot": True, "hand": left} for melds, left in numbers]}


def card_key(table: dict) -> str:
    return table["scorer_url"].split("key=")[1]


class Evening:
    """The tournament and what was acknowledged: ``entries[table_id]`` the ``client_event_id`` of every write
    acknowledged at that table, in order; ``hands[table_id]`` the numbers of its hands in force; ``arbitral``,
    ``penalties`` and ``corrected`` the director's acts. ``phone(n)`` makes the n-th phone (a connection of its own);
    ``pace`` the pause after each entry, drawn in (low, high) seconds; ``midway(round)`` is called once per round
    when half of its entries are acknowledged (the bench kills a server there)."""

    def __init__(self, phone, tables: int, seed: int = 40, pace: tuple = (0.05, 0.3), midway=None):
        self.phone, self.count, self.pace, self.midway = phone, tables, pace, midway
        self.rng = random.Random(seed)
        self.director_phone = phone(0)
        self.entries: dict = {}
        self.hands: dict = {}
        self.arbitral: dict = {}  # table_id -> [vp ns, vp ew]
        self.penalties: list = []
        self.corrected: list = []
        self.resigned: list = []  # corrected tables both sides signed again
        self.changes: list = []  # (sent, the tournament's revision at least, once acknowledged)
        self.seen_revisions: dict = {}  # table_id -> its highest acknowledged revision
        self.own_revision = 0
        self.lock = threading.Lock()
        self.rounds: list = []  # per round: {"close", "seat"} seconds
        self.playing = (0.0, 0.0)
        self.errors: list = []  # what went wrong at a table (its phone's thread stopped there)

    # --- the director ---------------------------------------------------------------------------------------
    def director(self, method: str, path: str, body=None, kind: str = "director", once: str | None = None) -> dict:
        headers = {"Idempotency-Key": f"{self.id}-{once}"} if once else None
        status, answer = self.director_phone.call(method, path, body, self.director_key, kind=kind, headers=headers)
        assert status in (200, 201), (method, path, status, answer)
        return answer

    def create(self) -> "Evening":
        pairs = [[f"Pair {n} North", f"Pair {n} South"] for n in range(1, 2 * self.count + 1)]
        status, made = self.director_phone.call("POST", "/api/v1/tournaments", {
            "game": "buraco", "name": "National evening", "entrants": pairs, "rounds": PLAN,
            "vp_table": "burraco_3", "require_signatures": True}, kind="create")
        assert status == 201, made
        self.id, self.director_key, self.viewer_key = made["id"], made["director_key"], made["viewer_key"]
        return self

    def state(self, key: str | None = None, kind: str = "standings") -> dict:
        status, state = self.director_phone.call("GET", f"/api/v1/tournaments/{self.id}?key={key or self.viewer_key}",
                                                 kind=kind)
        assert status == 200, state
        return state

    def seat(self, number: int) -> list:
        started = time.monotonic()
        state = self.director("POST", f"/api/v1/tournaments/{self.id}/rounds", {}, kind="seat",
                              once=f"seat-{number}")
        self.rounds.append({"seat": time.monotonic() - started})
        tables = state["rounds"][number - 1]["tables"]
        assert len(tables) == self.count, len(tables)
        for table in tables:
            self.entries[table["table_id"]], self.hands[table["table_id"]] = [], []
        now = self.state(self.director_key, kind="director state")
        self.seen_revisions = {t["table_id"]: t["revision"] for r in now["rounds"] for t in r["tables"]}
        self.own_revision = now["revision"] - sum(self.seen_revisions.values())  # the tournament's own (its acts)
        return tables

    # --- a table's phone ------------------------------------------------------------------------------------
    def post(self, phone: Phone, table: dict, body: dict, kind: str, key: str | None = None) -> dict:
        ident = table["table_id"]
        sent = time.monotonic()
        status, answer = phone.call("POST", f"/api/v1/tables/{ident}/events", body, key or card_key(table), kind=kind)
        assert status in (200, 201), (kind, status, answer)
        with self.lock:
            self.entries[ident].append(body["client_event_id"])
            revision = answer["state"]["revision"]
            if revision > self.seen_revisions[ident]:
                self.seen_revisions[ident] = revision
            self.changes.append((sent, self.own_revision + sum(self.seen_revisions.values())))
        return answer

    def play(self, number: int, table: dict, calls: bool, half: threading.Event, counted: list) -> None:
        try:
            self.entered(number, table, calls, half, counted)
        except Exception as error:  # noqa: BLE001 — said by ``round``, which fails with it
            self.errors.append(f"round {number} table {table['number']}: {error!r}")
            half.set()

    def entered(self, number: int, table: dict, calls: bool, half: threading.Event, counted: list) -> None:
        phone = self.phone(table["number"])
        rng = random.Random(f"{self.id}-{number}-{table['number']}")
        ident = table["table_id"]
        try:
            time.sleep(rng.uniform(0, self.pace[1]))
            for hand in range(HANDS):
                self.post(phone, table, {"type": "deal", "trump": None, "client_event_id": f"{ident}-{hand}-deal"},
                          "entry")
                time.sleep(rng.uniform(*self.pace))
                numbers = hand_numbers(rng)
                self.post(phone, table, {**tally(numbers), "client_event_id": f"{ident}-{hand}-tally"}, "entry")
                self.hands[ident].append(numbers)
                self.step(counted, half)
                time.sleep(rng.uniform(*self.pace))
            if calls:  # the table calls the director (R-COMMON-7): a dispute, not a signature
                self.post(phone, table, {"type": "dispute", "side": 1, "message": "The second hand's melds are wrong",
                                         "client_event_id": f"{ident}-dispute"}, "signature")
                return
            for side in (0, 1):
                self.post(phone, table, {"type": "confirm", "side": side, "client_event_id": f"{ident}-sign-{side}"},
                          "signature")
                time.sleep(rng.uniform(*self.pace))
        finally:
            phone.close()

    def step(self, counted: list, half: threading.Event) -> None:
        with self.lock:
            counted[0] += 1
            reached = counted[0] == counted[1] // 2
        if reached:
            half.set()

    # --- a round --------------------------------------------------------------------------------------------
    def round(self, number: int, tables: list | None = None) -> None:
        """Round ``number`` played, settled and closed; seated first unless its ``tables`` are given (seated)."""
        tables = tables or self.seat(number)
        drawn = self.rng.sample(tables, CALLS[number - 1] + CORRECTIONS[number - 1])
        calling, correcting = drawn[:CALLS[number - 1]], drawn[CALLS[number - 1]:]
        half, counted = threading.Event(), [0, len(tables) * HANDS]
        threads = [threading.Thread(target=self.play, args=(number, table, table in calling, half, counted))
                   for table in tables]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        if self.midway is not None:
            while not half.wait(0.5) and any(thread.is_alive() for thread in threads):
                pass  # half the round's hands entered, or every phone done
            if not self.errors:
                self.midway(number)
        for thread in threads:
            thread.join()
        assert not self.errors, self.errors[:5]
        self.playing = (self.playing[0] + time.monotonic() - started, self.playing[1])
        self.settle(number, calling, correcting)
        started = time.monotonic()
        closed = self.director("POST", f"/api/v1/tournaments/{self.id}/rounds/{number}/close", {}, kind="close",
                               once=f"close-{number}")
        assert closed.get("closed") is True, closed
        self.rounds[-1]["close"] = time.monotonic() - started

    def settle(self, number: int, calling: list, correcting: list) -> None:
        """The director's acts of round ``number``: an arbitral result for each table that called (with a reason),
        a correction of each drawn signed table, the round's penalties."""
        for table in calling:
            vp = self.rng.choice([[12, 8], [10, 10], [6, 14], [15, 5]])
            self.director("POST", f"/api/v1/tournaments/{self.id}/rounds/{number}/tables/{table['number']}/result",
                          {"vp": vp, "reason": "Melds miscounted at the table: result given by the director"},
                          kind="arbitral", once=f"arbitral-{table['table_id']}")
            self.arbitral[table["table_id"]] = vp
        for count, table in enumerate(correcting):
            self.correct(table, again=count % 2 == 0)
        for n in range(PENALTIES[number - 1]):
            entrant = self.rng.randrange(2 * self.count)
            self.director("POST", f"/api/v1/tournaments/{self.id}/penalties",
                          {"entrant": entrant, "vp": -(n + 1), "reason": "Late at the table", "round": number},
                          kind="penalty", once=f"penalty-{number}-{n}")
            self.penalties.append({"entrant": entrant, "vp": -(n + 1)})

    def correct(self, table: dict, again: bool) -> None:
        """R-COMMON-7b: the last hand's tally withdrawn and entered again by the director, East-West's cards in hand
        5 more (a reason each); the sides sign the corrected result again when ``again``."""
        ident = table["table_id"]
        reason = "East-West held 5 more in hand in the last hand"
        path = f"/api/v1/tables/{ident}/undo"
        self.director_phone.close()  # a connection of its own: never one the server closed while it was idle
        status, answer = self.director_phone.call("POST", path, {"reason": reason}, self.director_key, kind="correct",
                                                  tries=1)  # never sent twice: an undo has no id of its own
        assert status == 200, (status, answer)
        numbers = [list(side) for side in self.hands[ident][-1]]
        numbers[1][1] += 5
        phone = self.phone(table["number"])
        try:
            self.post(phone, table, {**tally(numbers), "reason": reason, "client_event_id": f"{ident}-fix"},
                      "correct", key=self.director_key)
            self.hands[ident][-1] = numbers
            self.corrected.append(ident)
            for side in (0, 1) if again else ():
                self.post(phone, table, {"type": "confirm", "side": side, "client_event_id": f"{ident}-resign-{side}"},
                          "signature")
            if again:
                self.resigned.append(ident)
        finally:
            phone.close()

    def run(self) -> dict:
        """The whole evening; the final state (the standings' read timed as ``standings``)."""
        self.create()
        for number in range(1, len(PLAN) + 1):
            self.round(number)
        return self.state()
