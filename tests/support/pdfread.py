"""What a printed PDF holds, read back with poppler-utils (pdfinfo, pdftotext, pdftohtml) and from its own drawing
operators: its pages, its text, where the text stands on the page, its smallest type and the lines it strokes."""
from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from dataclasses import dataclass
from html import unescape

from tests.support.env import need

# pdftohtml writes a font's size times its zoom, rounded (zoom 3 at most): 27 is 9 pt within 0.17 pt.
ZOOM = 3
# Any card code of the decks (docs/api.md, "Cards"): rank then suit, French or Spanish, or a joker.
CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA]|1[0-2]?)[SHDCOEB]\b|\bJK\b")
SNAKE_CASE = re.compile(r"\b[A-Za-z]+(?:_[A-Za-z0-9]+)+\b")
PYTHON_WORDS = re.compile(r"\b(?:True|False|None)\b")


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


@dataclass
class Printed:
    pages: int
    text: str  # the words, one space between them
    width: float  # the page, in points
    height: float
    top: float  # the highest word's top and the lowest word's bottom, in points from the page's top
    bottom: float
    smallest: float  # the smallest type on the page, in points (to 1/ZOOM of a point)
    strokes: list  # the straight lines stroked, ((x1, y1), (x2, y2)) in points from the top left
    rows: list  # the words standing on one line across the page, left to right, one text per line
    words: list  # each word of the first page: (top, bottom, left, text), in points from the top left

    @property
    def covered(self) -> float:
        """The share of the page's height the text spans, from its first line's top to its last line's bottom."""
        return (self.bottom - self.top) / self.height

    def leaks(self) -> list:
        """Codes on the page: snake_case words, card codes, Python's True/False/None."""
        return SNAKE_CASE.findall(self.text) + CARD_CODE.findall(self.text) + PYTHON_WORDS.findall(self.text)

    def vertical_lines(self, at_least: float) -> list:
        """Stroked vertical lines at least ``at_least`` points long."""
        return [(a, b) for a, b in self.strokes if abs(a[0] - b[0]) < 0.5 and abs(a[1] - b[1]) >= at_least]


def read(path) -> Printed:
    need(shutil.which("pdfinfo") is not None, "pdfinfo is missing (Debian poppler-utils; .ci/run installs it)")
    info = _run("pdfinfo", str(path))
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    width, height = map(float, re.search(r"^Page size:\s+([\d.]+) x ([\d.]+)", info, re.M).groups())
    text = " ".join(_run("pdftotext", str(path), "-").split())
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>',
                       _run("pdftotext", "-bbox", "-f", "1", "-l", "1", str(path), "-"))
    words = [(float(top), float(bottom), float(left), unescape(word)) for left, top, bottom, word in words
             if unescape(word).strip()]
    xml = _run("pdftohtml", "-xml", "-i", "-zoom", str(ZOOM), "-stdout", str(path))
    sizes = dict(re.findall(r'<fontspec id="(\d+)" size="(\d+)"', xml))
    used = {sizes[f] for f, shown in re.findall(r'<text [^>]*font="(\d+)"[^>]*>(.*?)</text>', xml)
            if re.sub(r"<[^>]+>", "", shown).strip()}
    return Printed(pages, text, width, height, min(w[0] for w in words), max(w[1] for w in words),
                   min(int(s) for s in used) / ZOOM, _strokes(path, height), _rows(words), words)


def _rows(words: list) -> list:
    """Words whose bottoms are within 2 pt of each other make a line, read left to right."""
    lines = []
    for word in sorted(words, key=lambda w: w[1]):
        if lines and word[1] - lines[-1][-1][1] <= 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [" ".join(w[3] for w in sorted(line, key=lambda w: w[2])) for line in lines]


def _strokes(path, height: float) -> list:
    """The straight segments the page's content stream strokes (``m``/``l`` then ``S``), through its ``cm``
    transforms, in points from the top left. Enough for Chromium's output: Form XObjects are not followed."""
    data = open(path, "rb").read()
    lines = []
    for found in re.finditer(rb"stream\r?\n", data):
        start = found.end()
        try:
            stream = zlib.decompress(data[start:data.find(b"endstream", start)])
        except zlib.error:
            continue
        ctm, stack, operands, path_points = (1, 0, 0, 1, 0, 0), [], [], []
        for token in re.findall(rb"<[^>]*>|\([^)]*\)|/\S+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z*'\"]+|\[|\]", stream):
            if re.fullmatch(rb"[-+]?(?:\d+\.?\d*|\.\d+)", token):
                operands.append(float(token))
                continue
            if token == b"q":
                stack.append(ctm)
            elif token == b"Q" and stack:
                ctm = stack.pop()
            elif token == b"cm" and len(operands) >= 6:
                a, b, c, d, e, f = operands[-6:]
                A, B, C, D, E, F = ctm
                ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E,
                       e * B + f * D + F)
            elif token in (b"m", b"l", b"c", b"v", b"y") and len(operands) >= 2:
                x, y = operands[-2:]
                point = (x * ctm[0] + y * ctm[2] + ctm[4], height - (x * ctm[1] + y * ctm[3] + ctm[5]))
                path_points = path_points + [point] if token == b"l" else [point]  # a curve: on from its end
            elif token in (b"S", b"s"):
                lines += list(zip(path_points, path_points[1:]))
                path_points = []
            elif token in (b"f", b"F", b"f*", b"n", b"B", b"b", b"B*", b"b*"):
                path_points = []
            operands = [] if not token.startswith((b"/", b"<", b"(", b"[", b"]")) else operands
    return lines
