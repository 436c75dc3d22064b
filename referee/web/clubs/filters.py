"""The clubs' template filters: a rating (one decimal, the page's decimal sign), its move (signed), a day (the
page's language's medium date)."""
from __future__ import annotations

from datetime import date

from flask_babel import format_date, format_decimal

from referee.web.clubs import bp


@bp.app_template_filter("rating")
def rating(value: float) -> str:
    text = format_decimal(round(value, 1) + 0.0, format="0.0")
    return text.replace("-", "−")


@bp.app_template_filter("moved")
def moved(value: float) -> str:
    shown = round(value, 1) + 0.0
    if shown == 0:
        return "="
    return ("+" if shown > 0 else "−") + format_decimal(abs(shown), format="0.0")


@bp.app_template_filter("day")
def day(value: str | None) -> str:
    if not value:
        return ""
    try:
        return format_date(date.fromisoformat(value[:10]), format="medium")
    except ValueError:
        return value


@bp.app_template_filter("first_upper")
def first_upper(text: str) -> str:
    """A label that starts a line ("donnes gagnées" → "Donnes gagnées"), the rest as it is."""
    return text[:1].upper() + text[1:]
