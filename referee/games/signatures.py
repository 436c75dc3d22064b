"""Signed results (R-COMMON-7), the same in every game: once a series is over, each side confirms the result on the
table's phone, as a paper sheet is signed, or calls the director (``dispute``, with an optional sentence).

- ``confirm`` and ``dispute`` are events of every game's log; they change no total, only the table's ``signatures``
  (the sides that confirmed) and ``disputes`` (the open calls, one per side, with its sentence).
- An entry of either is refused before the series is over (``not_finished``) and a side confirms once
  (``already_confirmed``); both checks are an entry's (``verify``), not the replay's: a director's correction
  withdraws a deal from before the signatures, which stay in force (the replay then meets them on a series not yet
  over again, and keeps them).
- A side's ``confirm`` answers its own call; its ``dispute`` takes back its confirmation.
- The result is signed (``complete``) once every side has confirmed and no call is open. What that locks is the
  ledger's business (a tournament's table, R-COMMON-7): the engine only says it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.errors import ParseError, RuleError

KINDS = ("confirm", "dispute")
MAX_MESSAGE = 300


@dataclass(frozen=True)
class Confirm:
    type: ClassVar[str] = "confirm"
    side: int


@dataclass(frozen=True)
class Dispute:
    type: ClassVar[str] = "dispute"
    side: int
    message: str | None = None


def parse(table, data: dict):
    """A ``confirm`` or ``dispute`` body for this table: its side (an index of ``table.sides``), a dispute's
    sentence (at most MAX_MESSAGE printable characters, blank is none)."""
    side = data.get("side")
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < len(table.sides):
        raise ParseError("bad_event", "Field side must be a side's index from 0 to {last}, not {value}.",
                         last=len(table.sides) - 1, value=repr(side), field="side")
    if data.get("type") == "confirm":
        return Confirm(side)
    message = data.get("message")
    if isinstance(message, str):
        message = " ".join(message.split())  # a line break typed in the text box is a space
    if message is not None:
        if not isinstance(message, str) or len(message) > MAX_MESSAGE or not message.isprintable():
            raise ParseError("bad_event", "The message to the director is a sentence of at most {max} printable "
                             "characters.", max=MAX_MESSAGE, field="message")
        message = message.strip() or None
    return Dispute(side, message)


def verify(table, event) -> None:
    """What an entry of a signature must meet (R-COMMON-7): the series over, a side confirming once."""
    if not table.finished:
        raise RuleError("not_finished", "The series is not over yet: the result is confirmed once it is.",
                        rule="R-COMMON-7")
    if event.type == "confirm" and event.side in table.signatures:
        raise RuleError("already_confirmed", "{side} confirmed this result already.", rule="R-COMMON-7",
                        side=table.side_name(event.side))


def step(table, event) -> None:
    """The signature on ``table`` in place (the replay's step: no check)."""
    signatures = [side for side in table.signatures if side != event.side]
    disputes = [call for call in table.disputes if call["side"] != event.side]
    if event.type == "confirm":
        signatures.append(event.side)
    else:
        disputes.append({"side": event.side, "message": event.message})
    table.signatures = sorted(signatures)
    table.disputes = sorted(disputes, key=lambda call: call["side"])


def complete(table) -> bool:
    """Every side confirmed and no call is open (R-COMMON-7)."""
    return len(table.signatures) == len(table.sides) and not table.disputes


def document(table) -> dict:
    """The state's ``signed``: ``{"sides", "complete", "disputes": [{"side", "message"}]}``."""
    return {"sides": list(table.signatures), "complete": complete(table),
            "disputes": [dict(call) for call in table.disputes]}
