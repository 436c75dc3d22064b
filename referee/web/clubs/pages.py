"""A club's pages."""
from __future__ import annotations

from referee.web.clubs import bp


@bp.get("/clubs/<club_id>")
def club(club_id):
    return ""


@bp.get("/clubs/<club_id>/wall")
def wall(club_id):
    return ""
