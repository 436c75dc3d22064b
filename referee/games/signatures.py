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
- What a side signs is the series' result in its own unit (R-COMMON-7b, ``Game.result``: Brisca deals won, not card
  points): a ``confirm`` carries it (``result``: ``{"values", "winners"}``, the engine's, never the phone's), so that
  a signature given before a director's correction still says what it signed once the deal it followed is withdrawn.
- A correction asks again (R-COMMON-7b): when the series is over again with another result than a side signed
  (another number in the unit, or another winner), those signatures no longer count; ``correction`` keeps which sides
  had signed, what, and the event that changed it (``version``: its number among the events in force; the ledger says
  whose key, why and when). The sides may confirm the new result; ``correction`` stays as a record.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.errors import ParseError, RuleError

SIGNATURES = ("confirm", "dispute")  # the events that sign a result (R-COMMON-7)
MAX_MESSAGE = 300


@dataclass(frozen=True)
class Confirm:
    type: ClassVar[str] = "confirm"
    engine_fields: ClassVar[tuple] = ("result",)  # stored as the engine made them, whatever the body said
    side: int
    result: dict | None = None  # what the side signed (R-COMMON-7b): {"values", "winners"}


@dataclass(frozen=True)
class Dispute:
    type: ClassVar[str] = "dispute"
    side: int
    message: str | None = None


def signed_result(result: dict) -> dict:
    """What a side signs of ``Game.result``'s answer (R-COMMON-7b): each side's number in the unit and the winners,
    and the numbers the headline says beside them (``beside``: Brusquembille's jetons, Brouc's coches) if any."""
    signed = {"values": list(result["values"]), "winners": list(result["winners"])}
    if result.get("beside"):
        signed["beside"] = [list(measure["values"]) for measure in result["beside"]]
    return signed


def _stored_result(found) -> dict | None:
    """A stored confirmation's ``result`` as the engine wrote it; None for one stored before it was kept."""
    if not isinstance(found, dict):
        return None
    values, winners = found.get("values"), found.get("winners")
    if not isinstance(values, list) or not isinstance(winners, list):
        return None
    signed = {"values": list(values), "winners": list(winners)}
    if isinstance(found.get("beside"), list):
        signed["beside"] = [list(v) for v in found["beside"] if isinstance(v, list)]
    return signed


def _same(signed: dict | None, result: dict) -> bool:
    """R-COMMON-7b: a signature stands while the result has the same numbers in the unit and the same winners (one
    stored before the result was kept with it is taken as standing, as it always did)."""
    if signed is None:
        return True
    beside = [list(measure["values"]) for measure in result.get("beside") or ()]
    return (list(signed["values"]) == list(result["values"]) and sorted(signed["winners"]) == sorted(result["winners"])
            and ("beside" not in signed or signed["beside"] == beside))


def parse(table, data: dict, result: dict | None = None):
    """A ``confirm`` or ``dispute`` body for this table: its side (an index of ``table.sides``), a dispute's
    sentence (at most MAX_MESSAGE printable characters, blank is none). ``result``: the series' result now
    (``Game.result``, once it is over), which a confirmation signs (R-COMMON-7b); while the series is open again
    (a correction under way, a replay) the one it was stored with."""
    side = data.get("side")
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < len(table.sides):
        raise ParseError("bad_event", "Field side must be a side's index from 0 to {last}, not {value}.",
                         last=len(table.sides) - 1, value=repr(side), field="side")
    if data.get("type") == "confirm":
        signed = signed_result(result) if table.finished and result is not None else _stored_result(data.get("result"))
        return Confirm(side, signed)
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
    signed_for = {side: result for side, result in table.signed_for.items() if side != event.side}
    if event.type == "confirm":
        signatures.append(event.side)
        signed_for[event.side] = event.result
    else:
        disputes.append({"side": event.side, "message": event.message})
    table.signatures = sorted(signatures)
    table.signed_for = signed_for
    table.disputes = sorted(disputes, key=lambda call: call["side"])


def recheck(table, result: dict) -> None:
    """R-COMMON-7b, after an entry that leaves the series over: the signatures of another result than ``result``
    (``Game.result``) no longer count, and ``table.correction`` says whose they were and what they signed."""
    stale = [side for side in table.signatures if not _same(table.signed_for.get(side), result)]
    if not stale:
        return
    before = table.signed_for[stale[0]]
    table.correction = {"sides_before": sorted(stale), "result_before": list(before["values"]),
                        "winners_before": list(before["winners"]), "version": table.version}
    table.signatures = [side for side in table.signatures if side not in stale]
    table.signed_for = {side: signed for side, signed in table.signed_for.items() if side not in stale}


def complete(table) -> bool:
    """Every side confirmed and no call is open (R-COMMON-7)."""
    return len(table.signatures) == len(table.sides) and not table.disputes


def document(table) -> dict:
    """The state's ``signed``: ``{"sides", "complete", "disputes": [{"side", "message"}]}``, and after a correction
    that changed the signed result (R-COMMON-7b) ``corrected``: ``{"sides_before", "result_before",
    "winners_before", "version"}`` (the ledger adds ``by``, ``reason`` and ``at`` of the entry at ``version``)."""
    doc = {"sides": list(table.signatures), "complete": complete(table),
           "disputes": [dict(call) for call in table.disputes]}
    if table.correction is not None:
        doc["corrected"] = dict(table.correction)
    return doc
