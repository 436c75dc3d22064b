"""Once per form: what a creation is called and keyed, worked out from the form that asked for it.

A form that makes something (a table, an imported table, a tournament) carries its own id (``form_id``, or the API's
``Idempotency-Key``). The new record's id and keys are not drawn at random but derived from that id, from what the
form asks for (the set-up as the engine read it) and from the app's secret key, by HMAC-SHA256:

- the same form posted twice (a double tap, a resent post, the second arriving while the first is being stored)
  asks for the same id: the database's primary key lets one row in, and the other finds it. Both answers carry the
  same keys, worked out again, though only the scorer key's hash is stored;
- the same form changed (the Back button, a name mended, then "Create" again) asks for something else: its own
  record, as a new form would;
- the keys cannot be guessed: they need the app's secret, the form's id (it exists only in that phone's page) and
  what the form says.

A director's act (a penalty, an arbitral result, a round seated or closed, an entrant added or withdrawn: R-TOURN-5)
makes no new record of its own: its form (or ``Idempotency-Key``) and what it asks give the act a key (``act_key``),
stored with the act under a primary key (``tournament_acts``), so that the same act sent twice is stored once.

Nothing here touches the database or Flask: the ledger and the tournaments' store mint with it (``referee/
ledger.py``, ``referee/tournament/store.py``); the web layer makes a ``Once`` from the request (``referee/web/
forms.py``). Without one, a creation draws its id and keys at random, as before.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

ID_BYTES, KEY_BYTES = 8, 24  # as secrets.token_urlsafe(8) and (24) make them: 11 and 32 characters
MAX_FORM_ID = 128


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass(frozen=True)
class Minted:
    """A new record's id, its writer's key (a table's scorer, a tournament's director) and its viewer key."""

    id: str
    writer_key: str
    viewer_key: str

    @classmethod
    def drawn(cls) -> Minted:
        """At random: a creation no form names."""
        return cls(secrets.token_urlsafe(ID_BYTES), secrets.token_urlsafe(KEY_BYTES),
                   secrets.token_urlsafe(KEY_BYTES))


@dataclass(frozen=True)
class Once:
    """One form's post: the app's secret and the form's own id."""

    secret: bytes
    form_id: str

    @staticmethod
    def valid(form_id) -> bool:
        return isinstance(form_id, str) and 0 < len(form_id) <= MAX_FORM_ID and form_id.isprintable()

    def mint(self, kind: str, content) -> Minted:
        """The id and keys of the ``kind`` of record (``"table"``, ``"tournament"``) this form asks for with this
        ``content`` (JSON: what the record is made of, as stored)."""
        said = json.dumps([kind, self.form_id, content], sort_keys=True, separators=(",", ":"))  # ASCII: any text
        seed = hmac.new(self.secret, said.encode(), hashlib.sha256).digest()

        def part(label: str, size: int) -> str:
            return _text(hmac.new(seed, label.encode(), hashlib.sha256).digest()[:size])

        return Minted(part("id", ID_BYTES), part("writer", KEY_BYTES), part("viewer", KEY_BYTES))

    def act_key(self, kind: str, content) -> str:
        """The key of a director's act (R-TOURN-5: ``"penalty"``, ``"arbitral"``, ``"closed"``, ``"seated"``,
        ``"added"``, ``"withdrawn"``, ``"hidden"``) this form or ``Idempotency-Key`` asks with this ``content`` (JSON:
        what the act is given): 64 hex digits. The same post again asks for the same key; the same form asking for
        another act (another entrant, another penalty) for another."""
        said = json.dumps(["act", kind, self.form_id, content], sort_keys=True, separators=(",", ":"))
        return hmac.new(self.secret, said.encode(), hashlib.sha256).hexdigest()


def minted(once: Once | None, kind: str, content) -> Minted:
    """What ``once`` mints, or drawn at random without one."""
    return once.mint(kind, content) if once is not None else Minted.drawn()


class Created(tuple):
    """What a creation answers: ``(state, writer_key, viewer_key)`` (it unpacks as before), and ``status``: 201 made
    now, 200 made before by the same form (the same record, its keys)."""

    status: int

    def __new__(cls, state: dict, writer_key: str, viewer_key: str, status: int = 201):
        made = super().__new__(cls, (state, writer_key, viewer_key))
        made.status = status
        return made
