"""A member's rating over time as a small SVG chart, drawn by the server (no chart library in the page, nothing to
run in the phone): one point per rated series of the game, the ladder's number (the ordinal, mu − 3·sigma, R-CLUB-1)
on the vertical axis, the series in order on the horizontal one; a line at 0 (where every member starts), the
first and last values written, and the whole said in words for a screen reader."""
from __future__ import annotations

from flask_babel import format_decimal, gettext as _, ngettext
from markupsafe import Markup, escape

from referee.web.i18n import lang

WIDTH, HEIGHT = 320, 120
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 18


def rating_chart(points: list, names) -> Markup:
    """``points``: [(ordinal, ISO time or None for the start)], the start first."""
    values = [round(value, 2) for value, _at in points]
    low, high = min(values + [0.0]), max(values + [0.0])
    if high - low < 1:
        high, low = high + 0.5, low - 0.5
    span_x = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / span_x

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    label = _("Rating in %(game)s: %(first)s at the start, %(last)s after %(count)s series.", game=names[lang()],
              first=_number(values[0]), last=_number(values[-1]), count=len(values) - 1)
    count = ngettext("%(num)s series", "%(num)s series", len(values) - 1)  # the member list's words
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"/>' for i, v in enumerate(values))
    svg = (f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
           f'preserveAspectRatio="xMidYMid meet">'
           f'<line class="zero" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>'
           f'<text class="axis" x="{LEFT - 4}" y="{y(high) + 4:.1f}" text-anchor="end">{_number(high)}</text>'
           f'<text class="axis" x="{LEFT - 4}" y="{y(low):.1f}" text-anchor="end">{_number(low)}</text>'
           f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 3}" text-anchor="end">'
           f'{escape(count)}</text>'
           f'<polyline points="{line}"/><g class="dots">{dots}</g></svg>')
    return Markup(svg)


def _number(value: float) -> str:
    return format_decimal(round(value, 1) + 0.0, format="0.0").replace("-", "−")
