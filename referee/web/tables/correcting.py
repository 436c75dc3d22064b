"""Whose key opened a table's scorer page, and the director's correction under way (R-COMMON-8): the director's key
of the table's tournament opens its scorer page; every write made with it carries the reason the director gave when
the correction began, on every form of the page (``_entry_fields.html``) and in the address it comes back to."""
from __future__ import annotations

from flask import request

from referee.store import MAX_REASON
from referee.web.services import ledger, tournaments
from referee.web.tables import bp


def directing(table_id: str, key: str | None) -> bool:
    """The page was opened with the director's key of the table's tournament (a free table has none)."""
    return tournaments().seat(table_id) is not None and ledger().authorize(table_id, key) == "director"


def kept_reason() -> dict:
    """The director's reason as the request carries it, for the address a form comes back to."""
    reason = (request.values.get("reason") or "").strip()
    return {"reason": reason[:MAX_REASON]} if reason and reason.isprintable() else {}


@bp.url_defaults
def keep_the_reason(endpoint: str, values: dict) -> None:
    """Every link of a page under correction back to the table's scorer page (its sides, melds, piles, the way of
    entry, the language switch) carries the correction's reason, so that the director never has to give it again;
    a link given ``reason=None`` ends the correction (``_correction.html``)."""
    if endpoint in ("tables.table", "tables.choose_entry") and "reason" not in values:
        values.update(kept_reason())


def signing_context(table_id: str, key: str | None) -> dict:
    """``directing`` (the director's key) and the ``reason`` of the correction under way, for the scorer's page."""
    director = directing(table_id, key)
    return {"directing": director, "reason": kept_reason().get("reason") if director else None}
