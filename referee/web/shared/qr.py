"""QR codes of the links phones open (a table's, a tournament's standings, a club's wall and pages): SVG drawn in the
page, with its link said for a screen reader; PNG to print.

The SVG is one path of the dark modules, a rectangle per run of them along a row (about half the bytes of the
library's square per module, and no ``id``: 150 table cards share one page). A link's modules are kept
(``modules_of``, 1,024 links a process): a table card's link is the same every round, so the second round's cards
cost no QR code at all; the first round's 150 cost about 12 ms each (the library's choice of mask, as the standard
asks)."""
from __future__ import annotations

import io
from functools import lru_cache

import qrcode
from flask_babel import gettext
from markupsafe import Markup
from qrcode.image.pure import PyPNGImage

BORDER = 2  # modules of white round the code (the page's own margin adds to it)


@lru_cache(maxsize=1024)
def modules_of(text: str) -> tuple[int, str]:
    """The code's side in modules, border included, and its dark modules as an SVG path (runs along each row)."""
    code = qrcode.QRCode(border=BORDER)  # error correction M, the smallest version that holds the text
    code.add_data(text)
    code.make(fit=True)
    runs = []
    for y, row in enumerate(code.modules):
        x, width = 0, len(row)
        while x < width:
            if row[x]:
                start = x
                while x < width and row[x]:
                    x += 1
                runs.append(f"M{start + BORDER},{y + BORDER}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return len(code.modules) + 2 * BORDER, "".join(runs)


def qr_svg(text: str) -> Markup:
    side, path = modules_of(text)
    label = Markup.escape(gettext("QR code of %(link)s", link=text))
    return Markup(f'<svg role="img" aria-label="{label}" class="qr" width="{side}mm" height="{side}mm" version="1.1" '
                  f'viewBox="0 0 {side} {side}" xmlns="http://www.w3.org/2000/svg"><path d="{path}" fill="#000"/>'
                  f'</svg>')


def qr_png(text: str) -> bytes:
    buffer = io.BytesIO()
    qrcode.make(text, image_factory=PyPNGImage, box_size=10, border=4).save(buffer)
    return buffer.getvalue()
