"""Signing a result on the table's phone (R-COMMON-7): once the series is over, one big button per side ("Ana & Bo
confirm") and a call to the director with an optional sentence; both are entries of the table's log (``confirm``,
``dispute``: referee/games/signatures.py), posted as every scorer's form is (``scorer_post``)."""
from __future__ import annotations

from flask import request

from referee.errors import ParseError
from referee.web.tables.scorer import Post, scorer_post
from referee.web.tables.views import ScorerInput


@scorer_post("/t/<table_id>/sign")
def sign(post: Post) -> ScorerInput:
    """One side's confirmation (``kind=confirm``) or call to the director (``kind=dispute``, ``message``)."""
    kind = request.form.get("kind")
    if kind not in ("confirm", "dispute"):
        raise ParseError("bad_form", "This form is damaged: load the page again and enter it again.")
    body = {"type": kind, "side": post.number("signer", reads="side")}  # "side" is the entry's own field
    if kind == "dispute" and request.form.get("message", "").strip():
        body["message"] = request.form["message"]
    post.store(body)
    return ScorerInput()

