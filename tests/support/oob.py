"""htmx's out-of-band swaps done on a page's HTML, as the browser does them on its DOM: each element of an answer that
carries ``hx-swap-oob="true"`` replaces the element of the same id (``<template>`` wrappers, for a table's parts, are
left behind as htmx leaves them). So a test compares the page a phone holds after its taps with a fresh GET."""
from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
OOB_ATTRIBUTE = re.compile(r'\s+hx-swap-oob="true"')


class Spans(HTMLParser):
    """Where each element with an id starts and ends in ``text`` (character offsets), and the ids marked out of band,
    in their order."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.text, self.stack, self.spans, self.oob = text, [], {}, []
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.feed(text)
        self.close()

    def position(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        start, attrs = self.position(), dict(attrs)
        if attrs.get("hx-swap-oob") and attrs.get("id"):
            self.oob.append(attrs["id"])
        if tag in VOID:
            self.found(attrs.get("id"), start, start + len(self.get_starttag_text()))
        else:
            self.stack.append((tag, attrs.get("id"), start))

    def handle_startendtag(self, tag, attrs):
        start, attrs = self.position(), dict(attrs)
        self.found(attrs.get("id"), start, start + len(self.get_starttag_text()))

    def handle_endtag(self, tag):
        end = self.text.index(">", self.position()) + 1
        while self.stack:
            open_tag, element_id, start = self.stack.pop()
            self.found(element_id, start, end)
            if open_tag == tag:
                break

    def found(self, element_id, start, end):
        if element_id and element_id not in self.spans:
            self.spans[element_id] = (start, end)


def element(text: str, element_id: str) -> str:
    """The outer HTML of the element of that id."""
    start, end = Spans(text).spans[element_id]
    return text[start:end]


def apply_oob(page: str, answer: str) -> tuple[str, list]:
    """``page`` with each out-of-band part of ``answer`` swapped in (outerHTML, by id); and the ids swapped. A part
    whose id the page lacks is an error here (htmx would drop it silently)."""
    parts = Spans(answer)
    for element_id in parts.oob:
        start, end = parts.spans[element_id]
        spans = Spans(page).spans
        assert element_id in spans, f"the answer swaps #{element_id}, which the page has not"
        at, to = spans[element_id]
        page = page[:at] + OOB_ATTRIBUTE.sub("", answer[start:end], count=1) + page[to:]
    return page, parts.oob


def normal(html: str) -> str:
    """The HTML as a browser's DOM compares: white space collapsed, each form's own id and token left out (a new one
    each time a form is drawn), the trick just won no longer lit nor said again (a tap's answer lights it)."""
    html = html.replace('class="status-last fresh" role="status"', 'class="status-last"')
    html = re.sub(r'(name="(?:event_id|csrf_token)" value=")[^"]*"', r'\1…"', html)
    html = re.sub(r'("(?:event_id|csrf_token)":\s*")[^"]*"', r'\1…"', html)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()
