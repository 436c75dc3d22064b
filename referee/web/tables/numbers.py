"""The numbers screen's posts (``_numbers.html``): a tap on the sheet, the deal saved as a tally, and the fragment of
what the sheet would write. Registered on the scorer's blueprint, as its other entries (``scorer.py``)."""
from __future__ import annotations

from flask import render_template, request

from referee.games import get_game
from referee.web.services import ledger, request_key
from referee.web.tables.scorer import Post, bp, scorer_post, sheet_preview
from referee.web.tables.sheet import tally_body
from referee.web.tables.views import ScorerInput, read_entry


@scorer_post("/t/<table_id>/sheet")
def sheet(post: Post) -> ScorerInput:
    """The numbers screen: a tap on the sheet (pick, add, cycle, remove), or the deal saved as a tally."""
    action = request.form.get("act", "")
    if action != "save":
        return post.entry.with_sheet(post.entry.sheet.act(action, post.game.numbers_outcomes))
    post.store(tally_body(post.game.id, post.entry.sheet, post.game.numbers_whole(post.table), post.table))
    return ScorerInput()


@bp.post("/t/<table_id>/sheet/preview")
def sheet_preview_fragment(table_id):
    """What the sheet would write, worked out by the engine on a copy: nothing is stored."""
    ledger().authorize(table_id, request_key() or request.form.get("key"), write=True)
    state, table = ledger().snapshot(table_id)
    game = get_game(state["game"])
    entry = read_entry(request.form, game, table)
    return render_template("_sheet_preview.html", state=state, key=request_key(), entry=entry,
                           **sheet_preview(game, table, entry))
