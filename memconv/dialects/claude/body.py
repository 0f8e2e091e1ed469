"""Structure inside a claude entry's body: titles, bold-label sections, links.

Legacy Claude Code entries carry meaning in their bodies: a bare file's name
is its first ``# `` heading, a ``feedback`` entry's rule for applying it is
its ``**How to apply:**`` section. Reading that with line regexes alone would
mistake a ``# comment`` or a ``**How to apply:**`` inside a code fence for
structure, so the body is parsed once with markdown-it-py (CommonMark) and
only lines of real paragraphs and headings are looked at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

#: Block structure only: inline parsing (emphasis, links) is most of markdown-it's time and
#: nothing here needs it; a heading's text is its raw content.
_MD = MarkdownIt("commonmark").disable(["inline", "text_join"], ignoreInvalid=True)

#: A bold label opening a line: ``**How to apply:** text`` or ``**Why**: text``.
_LABEL = re.compile(r"^\*\*(?P<label>[^*\n]{1,40}?):?\*\*:?[ \t]*")


class Found:
    """A link found by a scanner below: the parts of ``re.Match`` its callers use."""

    __slots__ = ("string", "span", "groups")

    def __init__(self, string: str, start: int, end: int, **groups: str | None):
        self.string, self.span, self.groups = string, (start, end), groups

    def group(self, name: int | str = 0) -> str | None:
        return self.string[self.span[0]:self.span[1]] if name == 0 else self.groups[name]


#: Where a wikilink's inside ends: a ``]`` or the end of the line.
_WIKI_STOP = re.compile(r"[\]\n]")


def wikilinks(text: str) -> list[Found]:
    r"""Every wikilink: ``[[decision_local-db-choice]]`` or ``[[name|shown text]]``.

    What ``re.finditer(r"\[\[(?P<target>[^\]|\n]+?)(?P<rest>\|[^\]\n]*)?\]\]", text)``
    finds, in linear time (that regex is quadratic on ``[[[[…``): every ``[[``
    before the same ``]`` ends at it, so the first of them with a target wins.
    """
    found: list[Found] = []
    pos = 0
    while (i := text.find("[[", pos)) >= 0:
        stop = _WIKI_STOP.search(text, i + 2)
        if stop is None:
            break
        j = stop.start()
        if not text.startswith("]]", j):
            pos = j + 1
            continue
        k = i
        while k >= 0 and (k + 2 >= j or text[k + 2] == "|"):
            k = text.find("[[", k + 1, j)
        if k >= 0:
            inside = text[k + 2:j]
            bar = inside.find("|")
            found.append(Found(text, k, j + 2, target=inside if bar < 0 else inside[:bar],
                               rest=None if bar < 0 else inside[bar:]))
        pos = j + 1
    return found


#: Where a sibling link's file name ends: ``)``, ``#``, ``/`` or white space.
_MD_STOP = re.compile(r"[)\s/#]")
#: Where a link's ``#part`` ends.
_TAIL_STOP = re.compile(r"[)\s]")


def md_links(text: str) -> list[Found]:
    r"""Every markdown link to a sibling file: ``[Title](user_role.md)``, ``[x](./a.md#part)``.

    What ``re.finditer(r"(?P<head>\]\()(?P<dot>\./)?(?P<target>[^)\s/#]+\.md)(?P<tail>#[^)\s]*)?\)", text)``
    finds, in linear time (that regex is quadratic on ``](](…``): the file name
    runs to the next ``)``, ``#``, ``/`` or space, which every ``](`` before it shares.
    """
    found: list[Found] = []
    pos = 0
    cached: tuple[int, int | None] = (-1, None)  # (where a name ends, where its link ends or None)
    while (i := text.find("](", pos)) >= 0:
        dot = text.startswith("./", i + 2)
        start = i + 4 if dot else i + 2
        if cached[0] < start:
            stop = _MD_STOP.search(text, start)
            d = stop.start() if stop else len(text)
            end = None
            if d < len(text) and text[d] == ")":
                end = d + 1
            elif d < len(text) and text[d] == "#":
                tail = _TAIL_STOP.search(text, d + 1)
                end = tail.end() if tail is not None and tail.group(0) == ")" else None
            cached = (d, end)
        d, end = cached
        name = text[start:d]
        if end is not None and len(name) > 3 and name.endswith(".md"):
            found.append(Found(text, i, end, head="](", dot="./" if dot else None, target=name,
                               tail=text[d:end - 1] if end - 1 > d else None))
            pos = end
        else:
            pos = i + 1
    return found


def _sub(finder, replace, text: str) -> str:
    """``text`` with each link ``finder`` finds replaced by ``replace(link)``."""
    out, pos = [], 0
    for m in finder(text):
        out.append(text[pos:m.span[0]])
        out.append(replace(m))
        pos = m.span[1]
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


#: The labels Claude Code writes in feedback and project entries.
HOW_TO_APPLY = "how to apply"
WHY = "why"


@dataclass
class Outline:
    """What markdown-it saw in a body, by line number (0-based)."""

    #: Lines inside fenced/indented code or raw HTML: never structure, never rewritten.
    code: set[int]
    #: Lines that belong to top-level paragraphs.
    prose: set[int]
    #: Top-level headings: (line, level, text).
    headings: list[tuple[int, int, str]]
    #: Top-level paragraphs: (first line, line after the last).
    paragraphs: list[tuple[int, int]]


@lru_cache(maxsize=256)
def outline(body: str) -> Outline:
    """Parse ``body`` once and say which lines are code, prose and headings (read-only, cached).

    A body of the simplest shapes is read by :func:`simple_outline` without markdown-it.
    """
    return simple_outline(body) or parsed_outline(body)


#: A line the simple outline takes as prose: starts with an ASCII letter or digit, a quote, a
#: backtick, a parenthesis or ``**`` and a word (``**Why:**``); an ordered-list marker is not prose.
_SIMPLE_PROSE = re.compile(r"(?:[A-Za-z0-9`\"'(]|\*\*[A-Za-z])")
_SIMPLE_ORDERED = re.compile(r"[0-9]{1,9}[.)](?:[ \t]|$)")
#: An ATX heading with plain text: ``## Title`` (no closing hashes, no leading spaces).
_SIMPLE_HEADING = re.compile(r"(#{1,6}) +([^#\s][^#]*?) *")
#: A bullet of the simplest kind: ``- text``.
_SIMPLE_ITEM = re.compile(r"- +[^\s]")


def simple_outline(body: str) -> Outline | None:
    """The :func:`parsed_outline` of a body made of prose lines, ``- item`` lists, ATX headings and
    blank lines alone, worked out line by line; None for any other body (markdown-it reads it).

    Declined: anything that may be code or HTML, carriage returns and form feeds, indented lines,
    a list item right under prose or prose right under a list item (markdown-it's lazy
    continuation), and every other block marker. ``tests/test_claude_simple_outline.py`` holds
    the answer to markdown-it's.
    """
    if _MAYBE_CODE.search(body) or "\r" in body or "\x0b" in body or "\x0c" in body:
        return None
    prose: set[int] = set()
    headings: list[tuple[int, int, str]] = []
    paragraphs: list[tuple[int, int]] = []
    start = None  # the first line of the paragraph being read
    previous = "blank"
    lines = body.split("\n")
    for n, line in enumerate(lines):
        if not line.strip(" \t"):  # markdown's blank line: spaces and tabs only
            kind = "blank"
        elif _SIMPLE_ITEM.match(line):
            kind = "item"
        elif line[0] == "#":
            m = _SIMPLE_HEADING.fullmatch(line)
            if m is None:
                return None
            kind = "heading"
        elif _SIMPLE_PROSE.match(line) and not _SIMPLE_ORDERED.match(line) and line[0] not in " \t":
            kind = "prose"
        else:
            return None
        if (kind == "item" and previous == "prose") or (kind == "prose" and previous == "item"):
            return None
        if kind != "prose" and start is not None:
            paragraphs.append((start, n))
            prose.update(range(start, n))
            start = None
        if kind == "prose" and start is None:
            start = n
        elif kind == "heading":
            headings.append((n, len(m.group(1)), m.group(2).strip()))
        previous = kind
    if start is not None:
        end = len(lines)
        while end > start and not lines[end - 1].strip(" \t"):
            end -= 1
        paragraphs.append((start, end))
        prose.update(range(start, end))
    return Outline(set(), prose, headings, paragraphs)


def parsed_outline(body: str) -> Outline:
    """What markdown-it sees in ``body``: :func:`outline` without the simple path."""
    code: set[int] = set()
    prose: set[int] = set()
    headings: list[tuple[int, int, str]] = []
    paragraphs: list[tuple[int, int]] = []
    tokens = _MD.parse(body)
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        start, end = tok.map
        if tok.type in ("fence", "code_block", "html_block"):
            code.update(range(start, end))
        elif tok.type == "paragraph_open" and tok.level == 0:
            prose.update(range(start, end))
            paragraphs.append((start, end))
        elif tok.type == "heading_open" and tok.level == 0:
            text = tokens[i + 1].content if i + 1 < len(tokens) else ""
            headings.append((start, int(tok.tag[1:]), text.strip()))
    return Outline(code, prose, headings, paragraphs)


#: Text that may start code or raw HTML: a fence, an indented line, a tag. Without any of
#: these a body has no code lines, and link scanning need not parse it.
_MAYBE_CODE = re.compile(r"```|~~~|<|(?:^|\n)(?: {4}|\t)")


def code_lines(body: str) -> set[int]:
    """Lines of ``body`` inside code or raw HTML (parses only when there may be some)."""
    return outline(body).code if _MAYBE_CODE.search(body) else set()


def first_title(body: str) -> str | None:
    """The text of the first level-1 heading (``# Title``), outside code."""
    if "#" not in body:
        return None
    for _, level, text in outline(body).headings:
        if level == 1:
            return text
    return None


@lru_cache(maxsize=1 << 16)
def section(body: str, label: str) -> str | None:
    """The text of the ``**Label:**`` section of ``body``, or None if it has none.

    Remembered for many bodies (the answer is small, and the body is the record's own string):
    the reader asks it of every lesson, and the writer asks again for the same body when it
    renders the record, long after :func:`outline`'s few cached parses have gone.

    The section is the rest of the paragraph the label opens, up to the next
    bold label. A label alone on its line (``**How to apply:**`` then a list)
    takes the blocks that follow instead, up to the next paragraph, heading or
    label. Labels inside code fences do not count; code inside the section is kept.
    """
    if "**" not in body or label not in body.lower():
        return None
    lines = body.split("\n")
    shape = outline(body)
    stops = {line for line, _, _ in shape.headings} | {start for start, _ in shape.paragraphs}
    for start, end in shape.paragraphs:
        for n in range(start, end):
            match = _LABEL.match(lines[n])
            if match is None or match.group("label").strip().lower() != label:
                continue
            collected = [lines[n][match.end():]]
            for m in range(n + 1, end):
                if _LABEL.match(lines[m]):
                    break
                collected.append(lines[m])
            if not "\n".join(collected).strip():
                for m in range(end, len(lines)):
                    if m in stops:
                        break
                    collected.append(lines[m])
            text = "\n".join(collected).strip()
            return text or None
    return None


def rewrite_links(body: str, names: dict[str, str]) -> tuple[str, list[str]]:
    """``body`` with wikilinks and ``(file.md)`` links renamed by ``names`` (old link name → new).

    Code blocks are left alone. Returns the new body and one line per link changed.
    """
    if not names or ("[[" not in body and ".md" not in body):
        return body, []
    code = code_lines(body)
    lines = body.split("\n")
    changed: list[str] = []

    def wiki(m: Found) -> str:
        target = m.group("target").strip()
        new = names.get(target)
        if new is None or new == target:
            return m.group(0)
        changed.append(f"[[{target}]] → [[{new}]]")
        return f"[[{new}{m.group('rest') or ''}]]"

    def md(m: Found) -> str:
        target = m.group("target")[:-3]
        new = names.get(target)
        if new is None or new == target:
            return m.group(0)
        changed.append(f"({target}.md) → ({new}.md)")
        return f"{m.group('head')}{m.group('dot') or ''}{new}.md{m.group('tail') or ''})"

    for n, line in enumerate(lines):
        if n in code or ("[[" not in line and ".md" not in line):
            continue
        lines[n] = _sub(md_links, md, _sub(wikilinks, wiki, line))
    return "\n".join(lines), changed


def link_targets(body: str) -> list[str]:
    """Every wikilink target and sibling ``.md`` link target (as a link name) outside code."""
    if "[[" not in body and ".md" not in body:
        return []
    code = code_lines(body)
    found = []
    for n, line in enumerate(body.split("\n")):
        if n in code:
            continue
        found.extend(m.group("target").strip() for m in wikilinks(line))
        found.extend(m.group("target")[:-3] for m in md_links(line))
    return found
