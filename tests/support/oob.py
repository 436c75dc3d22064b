"""htmx's out-of-band swaps done on a page's HTML, as the browser does them on its DOM: each element of an answer that
carries ``hx-swap-oob="true"`` replaces the element of the same id; one that carries ``hx-swap-oob="beforeend:#id"``
adds its children at the end of that element. So a test compares the page a phone holds after its taps with a fresh
GET."""
from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
OOB_ATTRIBUTE = re.compile(r'\s+hx-swap-oob="true"')


class Spans(HTMLParser):
    """Where each element with an id starts and ends in ``text`` (character offsets), and the elements marked out of
    band: (their ``hx-swap-oob``, their id, where they start and end, where their children start and end)."""

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
        if tag in VOID:
            self.found(attrs.get("id"), start, start + len(self.get_starttag_text()))
        else:
            self.stack.append((tag, attrs, start, start + len(self.get_starttag_text())))

    def handle_startendtag(self, tag, attrs):
        start, attrs = self.position(), dict(attrs)
        self.found(attrs.get("id"), start, start + len(self.get_starttag_text()))

    def handle_endtag(self, tag):
        end = self.text.index(">", self.position()) + 1
        while self.stack:
            open_tag, attrs, start, inner = self.stack.pop()
            self.found(attrs.get("id"), start, end)
            if attrs.get("hx-swap-oob"):
                self.oob.append((attrs["hx-swap-oob"], attrs.get("id"), start, end, inner, self.position()))
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
    """``page`` with each out-of-band part of ``answer`` swapped in, in the answer's order; and the ids of the
    elements swapped (``+id`` for one added to). A part whose target the page lacks is an error here (htmx would drop
    it silently)."""
    swapped = []
    for how, element_id, start, end, inner, inner_end in sorted(Spans(answer).oob, key=lambda part: part[2]):
        target = element_id if how == "true" else how.removeprefix("beforeend:#")
        spans = Spans(page).spans
        assert target in spans, f"the answer swaps #{target}, which the page has not"
        at, to = spans[target]
        if how == "true":
            page = page[:at] + OOB_ATTRIBUTE.sub("", answer[start:end], count=1) + page[to:]
            swapped.append(target)
        else:
            assert how.startswith("beforeend:#"), how
            close = page.rindex("</", at, to)
            page = page[:close] + answer[inner:inner_end] + page[close:]
            swapped.append(f"+{target}")
    return page, swapped


def normal(html: str) -> str:
    """The HTML as a browser's DOM compares: white space collapsed, each form's own id and token left out (a new one
    each time a form is drawn), the trick just won no longer lit nor said again (a tap's answer lights it)."""
    html = html.replace('class="status-last fresh" role="status"', 'class="status-last"')
    html = re.sub(r'(name="(?:event_id|csrf_token)" value=")[^"]*"', r'\1…"', html)
    html = re.sub(r'("(?:event_id|csrf_token)":\s*")[^"]*"', r'\1…"', html)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


def same_html(held: str, loaded: str, what: str) -> None:
    """``held`` (the page a phone holds) and ``loaded`` (a fresh GET's) are the same HTML once ``normal``; else an
    error that shows where they part."""
    held, loaded = normal(held), normal(loaded)
    if held != loaded:
        at = next((i for i, (a, b) in enumerate(zip(held, loaded)) if a != b), min(len(held), len(loaded)))
        raise AssertionError(f"{what}: the page held differs from a fresh one at {at}:\n"
                             f"held:   …{held[max(0, at - 300):at + 300]}\n"
                             f"loaded: …{loaded[max(0, at - 300):at + 300]}")
