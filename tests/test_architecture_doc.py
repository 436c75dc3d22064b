"""docs/architecture.md is the map of the tree (issue 39): every path it names exists, its tree of `referee/` and its
table of `referee/web` name every entry there is, every count it states of modules, areas, entries or languages is
the tree's, and every section of it that a module cites ("docs/architecture.md, \"…\"") is one of its headings.
A failure names the path, the entry, the count or the section, and what the tree holds instead."""
import re

from tests.support.env import ROOT

DOC = ROOT / "docs" / "architecture.md"
WEB = ROOT / "referee" / "web"
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
# What a token in backticks must look like to be taken for a path: one word of path characters, with a slash or a
# file's extension. An address (`/t/<id>/tap`) starts with a slash and is no path of the repository.
PATH_LIKE = re.compile(r"[\w./<>-]+")
EXTENSIONS = (".py", ".html", ".js", ".css", ".md", ".toml", ".json", ".po", ".pot", ".txt", ".svg", ".cfg", ".ini",
              ".yml", ".yaml")
PLACEHOLDER = re.compile(r"<[\w-]+>")  # `<game>`, `<code>`: any one of them
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}
COUNTED = re.compile(r"\b(?:(at most|up to|at least) )?(%s|\d+) (shared modules|modules|areas|entries|languages)\b"
                     r"(?: (at most|or fewer|at least|or more)\b)?" % "|".join(NUMBERS), re.I)
BOUNDS = {"at most": "<=", "up to": "<=", "or fewer": "<=", "at least": ">=", "or more": ">="}
SKIPPED_NAMES = {"__pycache__"}
TOPS = ("referee", "tests", "docs", "deploy", "scripts", "bench", ".ci")  # the folders a path may start from


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def prose(text: str) -> str:
    return FENCE.sub("", text)


def tree_files() -> list[str]:
    """Every file and folder of the repository that a doc may name, relative to the root ('/' for folders)."""
    found = [path.name for path in ROOT.iterdir() if path.is_file()]
    for top in TOPS:
        for path in (ROOT / top).rglob("*"):
            if SKIPPED_NAMES & set(path.parts) or "vendor" in path.relative_to(ROOT).parts[:3]:
                continue
            relative = path.relative_to(ROOT).as_posix()
            found.append(relative + "/" if path.is_dir() else relative)
        found.append(top + "/")
    return found


def named_paths(text: str) -> list[str]:
    """The paths in backticks outside code blocks, a line break after a slash joined up."""
    paths = []
    for token in re.findall(r"`([^`]+)`", prose(text)):
        token = re.sub(r"/\s+", "/", token.strip())
        if not PATH_LIKE.fullmatch(token) or token.startswith("/") or token.startswith(".") and "/" not in token:
            continue
        if "/" in token or token.endswith(EXTENSIONS):
            paths.append(token)
    return list(dict.fromkeys(paths))


def pattern_of(path: str) -> re.Pattern:
    """A named path as a pattern over the tree's paths: from the root when it starts at a top folder, else the end of
    a path (`tables/scorer.py` is referee/web/tables/scorer.py); a placeholder is any one name."""
    folder = path.endswith("/")
    parts = [re.escape(part) for part in PLACEHOLDER.split(path.rstrip("/"))]
    body = r"[^/]+".join(parts)
    start = "" if path.split("/")[0] in TOPS else r"(?:.*/)?"
    return re.compile(start + body + ("/" if folder else "/?"))


def absent(paths: list[str], files: list[str]) -> list[str]:
    """The paths that match no file or folder of the tree."""
    return [path for path, pattern in ((path, pattern_of(path)) for path in paths)
            if not any(pattern.fullmatch(each) for each in files)]


def missing_paths(text: str, files: list[str]) -> list[str]:
    return absent(named_paths(text), files)


def test_every_path_the_doc_names_is_in_the_tree():
    files = tree_files()
    missing = missing_paths(doc_text(), files)
    assert not missing, ("docs/architecture.md names paths that are not in the tree (moved? say where they are now):\n"
                         + "\n".join(f"  `{path}`" for path in missing))


def test_a_path_that_is_not_in_the_tree_is_found_and_a_placeholder_is_any_name():
    """The check can fail: a name that is nowhere, and one that only ends like a file, are missing."""
    files = tree_files()
    text = ("`referee/games/<game>/engine.py` `tables/scorer.py` `store/`\n`tournament/\n  reading.py`"
            " `referee/nowhere.py` `ables/scorer.py` `tables/nowhere/` `/t/<id>/tap`")
    assert missing_paths(text, files) == ["referee/nowhere.py", "ables/scorer.py", "tables/nowhere/"]


def tree_block(text: str) -> list[str]:
    """The paths of the doc's tree of `referee/` (its first code block): each line's names (before the comment
    column), under the folder above it by indentation."""
    block = FENCE.search(text)
    assert block, "docs/architecture.md has no tree of referee/ in a code block"
    paths, stack = [], []
    for line in block.group(0).splitlines()[1:-1]:
        if not line.strip():
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2
        names = re.split(r"\s{2,}", line.strip())[0].split()
        stack = stack[:depth]
        for name in names:
            paths.append("".join(stack) + name)
        if names[-1].endswith("/"):
            stack.append(names[-1])
    return paths


def test_the_docs_tree_of_referee_names_every_entry_and_only_those():
    text = doc_text()
    paths = tree_block(text)
    files = tree_files()
    missing = absent(paths, files)
    assert not missing, "docs/architecture.md's tree names entries that are not in the tree:\n" + "\n".join(missing)
    named = {path.split("/")[1] for path in paths if path.startswith("referee/")}  # games/ → "games"
    unnamed = sorted(entry.name for entry in (ROOT / "referee").iterdir()
                     if entry.name not in named and entry.name not in SKIPPED_NAMES and not entry.name.startswith("__"))
    assert not unnamed, "referee/ holds entries that docs/architecture.md's tree does not name:\n" + "\n".join(unnamed)


def web_entries() -> list[str]:
    """What `ls referee/web` shows (a package with a slash)."""
    return sorted(entry.name + ("/" if entry.is_dir() else "") for entry in WEB.iterdir()
                  if entry.name not in SKIPPED_NAMES)


def is_area(entry: str) -> bool:
    """An area is a package of referee/web that defines a blueprint in its __init__.py."""
    init = WEB / entry / "__init__.py"
    return entry.endswith("/") and init.exists() and "Blueprint(" in init.read_text(encoding="utf-8")


FACTORY = {"__init__.py", "app.py"}


def web_table(text: str) -> list[str]:
    """The first column of the table under "The web face"."""
    section = text.split("## The web face", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.M)


def test_the_web_faces_table_has_a_row_for_each_entry_of_referee_web():
    rows = set(web_table(doc_text()))
    entries = set(web_entries()) - {"__init__.py"}
    unsaid, gone = sorted(entries - rows), sorted(rows - entries)
    assert not unsaid, f"referee/web entries with no row in docs/architecture.md's web table: {unsaid}"
    assert not gone, f"rows of docs/architecture.md's web table that are not in referee/web (moved?): {gone}"


def tree_counts() -> dict:
    """What each counted noun of the doc counts in the tree."""
    entries = web_entries()
    areas = [entry for entry in entries if is_area(entry)]
    shared = [entry for entry in entries if entry not in FACTORY and entry not in areas]
    catalogues = sorted(path.parts[-3]
                        for path in (ROOT / "referee" / "translations").glob("*/LC_MESSAGES/messages.po"))
    return {
        "shared modules": (shared, "the shared modules of referee/web (neither the factory nor an area)"),
        "modules": (shared, "the shared modules of referee/web (neither the factory nor an area)"),
        "areas": (areas, "the areas of referee/web (packages defining a blueprint)"),
        "entries": (entries, "the entries of `ls referee/web`"),
        "languages": (catalogues, "the catalogues in referee/translations"),
    }


def stated_counts(text: str) -> list[tuple[str, int, str, str]]:
    """Every "<number> <noun>" the doc states (in words or digits, across a line break): (the words, the number, the
    noun, "==" or the bound it is: "a dozen entries at most" is "<=")."""
    found = []
    for match in COUNTED.finditer(" ".join(text.split())):
        before, word, noun, after = match.groups()
        bound = BOUNDS.get((before or after or "").lower(), "==")
        found.append((match.group(0), int(word) if word.isdigit() else NUMBERS[word.lower()], noun.lower(), bound))
    return found


def wrong_counts(text: str) -> list[str]:
    counts = tree_counts()
    wrong = []
    for said, number, noun, bound in stated_counts(text):  # a noun is one of tree_counts()'s
        names, what = counts[noun]
        if not {"==": number == len(names), "<=": len(names) <= number, ">=": len(names) >= number}[bound]:
            wrong.append(f'"{said}": {what} are {len(names)}: {", ".join(names)}')
    return wrong


def test_every_count_the_doc_states_is_the_trees():
    wrong = wrong_counts(doc_text())
    assert not wrong, "docs/architecture.md states counts the tree does not hold:\n" + "\n".join(wrong)


def test_a_wrong_count_is_found():
    shared = len(tree_counts()["shared modules"][0])
    areas = len(tree_counts()["areas"][0])
    wrong = wrong_counts(f"the factory, {shared + 1} shared modules, {areas} areas; the other modules")
    assert len(wrong) == 1 and wrong[0].startswith(f'"{shared + 1} shared modules": the shared modules')
    entries = len(web_entries())
    assert wrong_counts(f"{entries} entries") == [] and len(wrong_counts(f"{entries + 1} entries")) == 1
    assert wrong_counts(f"at most {entries} entries") == [] and wrong_counts(f"{entries - 1} entries or more") == []
    assert len(wrong_counts(f"{entries - 1} entries at most")) == 1
    assert stated_counts("a dozen entries at most, seven\n  languages, the areas") == [
        ("a dozen entries at most", 12, "entries", "<="), ("seven languages", 7, "languages", "==")]


def headings(text: str) -> set[str]:
    return {line.lstrip("#").strip() for line in prose(text).splitlines() if line.startswith("#")}


CITATION = re.compile(r'docs/architecture\.md,? "([^"]+)"')


def test_every_section_of_the_doc_that_a_module_cites_is_one_of_its_headings():
    known = headings(doc_text())
    cited = []
    for top in ("referee", "tests"):
        for path in (ROOT / top).rglob("*.py"):
            for section in CITATION.findall(path.read_text(encoding="utf-8")):
                if section not in known:
                    cited.append(f'{path.relative_to(ROOT)}: "{section}"')
    assert not cited, (f"sections cited that docs/architecture.md does not have (its headings: {sorted(known)}):\n"
                       + "\n".join(cited))
