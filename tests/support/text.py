"""Words on a page: the placeholders of a message, punctuation by language, the text a reader sees."""
import re
from html.parser import HTMLParser


NNBSP = "\u202f"


FIELDS = re.compile(r"%\(\w+\)s|\{\w+\}")


PLAIN_SPACE_BEFORE = re.compile(r" [:;!?](?=[\s\"')]|$)")


# Issue 24: French puts a no-break space (U+00A0, or the narrow U+202F) before : ; ! ? and inside « », never none and
# never a plain one; es, ca, it, pt_BR, de and en put no space before them. Not sentences: an address
# (https://…, /t/…?key=…), a time (18:30), a header's name (Content-Type: application/json).
FRENCH_PUNCTUATION = re.compile(r"[^\u00a0\u202f][:;!?]|«[^\u00a0\u202f]|[^\u00a0\u202f]»")


SPACE_BEFORE = re.compile(r"\s[:;!?]")


NOT_WORDS = re.compile(r"\S*(?:https?://|/)\S*|\?\w+=\S*|\b\d{1,2}:\d{2}\b|Content-Type: \S+")


def punctuation_faults(text: str, lang: str) -> list:
    """The places where ``text`` punctuates against its language's rule, each with the words before it."""
    text = NOT_WORDS.sub(" ", text)
    rule = FRENCH_PUNCTUATION if lang == "fr" else SPACE_BEFORE
    return [re.sub(r"[ \t\r\n]+", " ", text[max(0, m.start() - 30):m.end() + 5]) for m in rule.finditer(text)]


class _ReadText(HTMLParser):
    """What a reader reads on a page: its text as it runs (inline elements joined as the browser joins them), and
    the words of its title, aria-label, placeholder and alt attributes; never a script or a style."""

    READ = ("title", "aria-label", "placeholder", "alt")

    def __init__(self):
        super().__init__()
        self.text, self.attributes, self.hidden = [], [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")
        self.attributes += [value for name, value in attrs if name in self.READ and value]

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.text.append(data)


def read_text(page: str) -> list:
    reader = _ReadText()
    reader.feed(page)
    return ["".join(reader.text)] + reader.attributes
