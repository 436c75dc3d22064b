"""Fills one of deploy/'s templates: every @NAME@ replaced by NAME's value, given as NAME=value arguments or, for
those not given, taken from the environment. A placeholder left without a value stops it with a sentence (a site
or a unit half filled in never reaches /etc).

    python3 deploy/fill.py deploy/nginx-referee.conf LISTEN=443 CERT=/etc/ssl/... > /etc/nginx/sites-available/referee
"""
from __future__ import annotations

import os
import re
import sys

PLACEHOLDER = re.compile(r"@([A-Z][A-Z0-9_]*)@")


def fill(text: str, values: dict) -> str:
    """``text`` with each @NAME@ replaced by ``values[NAME]``; ValueError naming those that have no value."""
    missing = sorted({name for name in PLACEHOLDER.findall(text) if name not in values})
    if missing:
        raise ValueError("no value for " + ", ".join(missing) + " (give NAME=value, or set it in the environment)")
    return PLACEHOLDER.sub(lambda found: values[found.group(1)], text)


def main(argv: list) -> int:
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    given = dict(arg.split("=", 1) for arg in argv[2:])
    with open(argv[1], encoding="utf-8") as template:
        text = template.read()
    try:
        sys.stdout.write(fill(text, {**os.environ, **given}))
    except ValueError as error:
        print(f"{argv[1]}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
