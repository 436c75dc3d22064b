"""QR codes of the links phones open (a table's, a tournament's standings, a club's wall and pages): SVG drawn in the
page, with its link said for a screen reader; PNG to print."""
from __future__ import annotations

import io

import qrcode
from flask_babel import gettext
from markupsafe import Markup
from qrcode.image.pure import PyPNGImage
from qrcode.image.svg import SvgPathImage


def qr_svg(text: str) -> Markup:
    image = qrcode.make(text, image_factory=SvgPathImage, box_size=10, border=2)
    svg = image.to_string(encoding="unicode")
    label = Markup.escape(gettext("QR code of %(link)s", link=text))
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{label}" class="qr" ', 1))


def qr_png(text: str) -> bytes:
    buffer = io.BytesIO()
    qrcode.make(text, image_factory=PyPNGImage, box_size=10, border=4).save(buffer)
    return buffer.getvalue()
