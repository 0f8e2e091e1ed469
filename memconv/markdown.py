"""Links and code in a markdown body: the one rule for finding and renaming ``[[wikilinks]]``.

Every dialect's bodies are markdown, and link names differ between dialects
(``fact_x``, ``X``, ``ms_…``), so a conversion renames every ``[[link]]`` in
every body; an upgrade of a Claude folder renames sibling ``(file.md)`` links
too. Code is never touched: blocks are found with markdown-it-py (not a regex),
so a ``[[x]]`` inside a fence, an indented block or raw HTML is left as
written, and inline code spans are skipped on the lines that remain. The
finders run in linear time (the regexes they replace are quadratic on
``[[[[…``, ``](](…`` and long runs of backticks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Mapping

from .model import Edge


#: A carriage return with no line feed after it: markdown-it ends a line there, and memconv's line
#: numbers (``body.split("\n")``) do not.
_LONE_CR = re.compile(r"\r(?!\n)")


def _block_tokens(body: str) -> list:
    r"""markdown-it's block tokens of ``body``, their line numbers (``map``) those of ``body.split("\n")``:
    a lone carriage return is read as a space. Taken for a line end, it put the lines of a body such as
    ``a\rb`` out of step with its split (an IndexError found by fuzzing, CI 2026-12-03)."""
    return _markdown_it().parse(_LONE_CR.sub(" ", body) if "\r" in body else body)


@lru_cache(maxsize=1)
def _markdown_it():
    """markdown-it, imported and set up when the first body needs it: most bodies are read by
    :func:`simple_outline`, and its import and set-up were a fifth of memconv's start-up (220
    million instructions; docs/performance.md).

    Block structure only: inline parsing (emphasis, links) is most of markdown-it's time and
    nothing here needs it; a heading's text is its raw content.
    """
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable(["inline", "text_join"], ignoreInvalid=True)


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

    What ``re.finditer(r"\[\[(?P<target>[^\[\]|\n]+?)(?P<rest>\|[^\[\]\n]*)?\]\]", text)``
    finds, in linear time (that regex is slow on ``[[[[…``): only the last ``[[``
    before a ``]]`` can open a link, since the inside of a link holds no ``[``.
    """
    found: list[Found] = []
    pos = 0
    while (i := text.find("[[", pos)) >= 0:
        stop = _WIKI_STOP.search(text, i + 2)
        if stop is None:
            break
        j = stop.start()
        if text.startswith("]]", j):
            k = text.rfind("[[", i, j)
            inside = text[k + 2:j]
            if inside and inside[0] != "|" and "[" not in inside:
                bar = inside.find("|")
                found.append(Found(text, k, j + 2, target=inside if bar < 0 else inside[:bar],
                                   rest=None if bar < 0 else inside[bar:]))
        pos = j + 1
    return found


#: Where a sibling link's file name ends: ``)``, ``#``, ``/`` or white space.
_MD_STOP = re.compile(r"[)\s/#]")
#: Where a link's ``#part`` ends.
_TAIL_STOP = re.compile(r"[)\s]")
#: The title a link may have after its file name, up to the link's ``)``: `` "Her role")``, `` 'x')``, `` (x))``.
#: Each title ends at the next quote (or parenthesis) of its kind, so every search stops at most at the next link's.
_TITLE_OPEN = re.compile(r"[ \t]+([\"'(])")
_TITLE_CLOSE = {'"': re.compile(r'["\n]'), "'": re.compile(r"['\n]"), "(": re.compile(r"[()\n]")}
_TITLE_END = re.compile(r"[ \t]*\)")


def _title_end(text: str, at: int) -> int | None:
    """Where the link whose file name (and ``#part``) ends at ``at``, before white space, ends with a title
    (`` "title")``): the index after its ``)``, or None when no closed title and ``)`` follow."""
    opened = _TITLE_OPEN.match(text, at)
    if opened is None:
        return None
    quote = opened.group(1)
    close = _TITLE_CLOSE[quote].search(text, opened.end())
    if close is None or close.group(0) != (")" if quote == "(" else quote):
        return None
    end = _TITLE_END.match(text, close.end())
    return end.end() if end is not None else None


def md_links(text: str) -> list[Found]:
    r"""Every markdown link to a sibling file: ``[Title](user_role.md)``, ``[x](./a.md#part)``,
    ``[x](a.md "a title")``, ``[x](<a b.md>)`` (:data:`_ANGLED`: its ``head`` is ``](<``, its ``title`` starts
    at the ``>``).

    What ``re.finditer(r"(?P<head>\]\()(?P<dot>\./)?(?P<target>[^)\s/#]+\.md)(?P<tail>#[^)\s]*)?"
    r"(?P<title>[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))[ \t]*)?\)", text)`` finds, in linear time (that
    regex is quadratic on ``](](…``): the file name runs to the next ``)``, ``#``, ``/`` or space, which every ``](``
    before it shares. A title is CommonMark's, on the link's line (*forty-sixth session*: a link with one was no link,
    and an upgrade left it naming the old file).
    """
    found: list[Found] = []
    pos = 0
    cached: tuple[int, int | None, int] = (-1, None, -1)  # (where a name ends, where its link ends, where its part)
    while (i := text.find("](", pos)) >= 0:
        if text.startswith("<", i + 2):
            link = _angled_link(text, i)
            if link is not None:
                found.append(link)
            pos = link.span[1] if link is not None else i + 1
            continue
        dot = text.startswith("./", i + 2)
        start = i + 4 if dot else i + 2
        if cached[0] < start:
            stop = _MD_STOP.search(text, start)
            d = stop.start() if stop else len(text)
            end, part = None, d
            if d < len(text) and text[d] == ")":
                end = d + 1
            elif d < len(text) and text[d] == "#":
                tail = _TAIL_STOP.search(text, d + 1)
                part = tail.start() if tail is not None else len(text)
                end = tail.end() if tail is not None and tail.group(0) == ")" else None
            if end is None and part < len(text) and text[part] in " \t":
                end = _title_end(text, part)
            cached = (d, end, part)
        d, end, part = cached
        name = text[start:d]
        if end is not None and len(name) > 3 and name.endswith(".md"):
            found.append(Found(text, i, end, head="](", dot="./" if dot else None, target=name,
                               tail=text[d:part] if part > d else None,
                               title=text[part:end - 1] if end - 1 > part else None))
            pos = end
        else:
            pos = i + 1
    return found


#: A sibling file's name, and a ``#part``, inside a destination written in ``<>``: CommonMark's form for a name with
#: a space, ``(<a b.md#part>)``. The ``<>`` hold no line end and no ``<`` (CommonMark), and here no backslash either:
#: an escape is not read, and the link is left as written, as a ``MEMORY.md`` link line's (``claude.index.LINK_LINE``).
_IN_ANGLE_NAME, _IN_ANGLE_PART = r"[^<>\n\\/#]", r"[^<>\n\\]"
#: A sibling file link's destination in ``<>``, from its ``<`` to its ``>`` (:func:`md_links`).
_ANGLED = re.compile(rf"<(?P<dot>\./)?(?P<target>{_IN_ANGLE_NAME}+\.md)(?P<tail>#{_IN_ANGLE_PART}*)?>")


def _angled_link(text: str, i: int) -> Found | None:
    """The link to a sibling file whose ``](<`` is at ``i`` (:data:`_ANGLED`), closed by ``)`` right after its ``>``
    or after a title, else None. *Forty-seventh session:* ``[x](<a b.md>)``, a link Claude Code follows to
    ``a b.md``, was no link here, and an upgrade left it naming the old file."""
    m = _ANGLED.match(text, i + 2)
    if m is None:
        return None
    after = m.end()
    end = after + 1 if text.startswith(")", after) else _title_end(text, after)
    if end is None:
        return None
    return Found(text, i, end, head="](<", dot=m.group("dot"), target=m.group("target"), tail=m.group("tail"),
                 title=text[after - 1:end - 1])


#: A link reference definition to a sibling file, a whole line (CommonMark): ``[r]: user_role.md "a title"``,
#: ``[r]: <./user_role.md#why>``, ``[r]: <a b.md>``. Each line is tried once, at its start; the label holds no
#: bracket but an escaped one.
_MD_DEFINITION = re.compile(
    r"^ {0,3}\[(?:[^\\\[\]\n]|\\[^\n])+\]:[ \t]*(?P<angle><)?(?P<dot>\./)?"
    rf"(?P<target>(?(angle){_IN_ANGLE_NAME}|[^\s<>)/#])+\.md)(?P<tail>#(?(angle){_IN_ANGLE_PART}|[^\s<>])*)?"
    r"(?(angle)>)(?P<title>(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*)$",
    re.MULTILINE)


def md_definitions(text: str) -> list[Found]:
    """Every link reference definition to a sibling file in ``text`` (:data:`_MD_DEFINITION`), each a line of its
    own; its ``head`` is all before the file name, its ``title`` all after it and its ``#part`` (a ``>`` too).
    *Forty-sixth session:* ``[r]: user_role.md`` is a link Claude Code follows as ``[x](user_role.md)``, and an
    upgrade left it naming the old file."""
    if "]:" not in text:
        return []
    return [Found(text, m.start(), m.end(), head=text[m.start():m.start("dot" if m.group("dot") else "target")],
                  dot=m.group("dot"), target=m.group("target"), tail=m.group("tail"),
                  title=text[m.end("tail" if m.group("tail") else "target"):m.end()])
            for m in _MD_DEFINITION.finditer(text)]


#: A backslash escape in link text (CommonMark: any ASCII punctuation), and where one is needed when writing.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_TO_ESCAPE = re.compile(r"[\[\]]|\\(?=[!-/:-@\[-`{-~]|$)")


def link_text(written: str) -> str:
    """The title a link's text says: ``Use \\[x\\] arrays`` → ``Use [x] arrays`` (backslash escapes undone)."""
    return _ESCAPED.sub(r"\1", written) if "\\" in written else written


def escape_link_text(title: str) -> str:
    """``title`` as link text that reads back as it is: ``[``, ``]`` and a backslash that would escape, escaped.

    The one rule for every ``[title](file.md)`` memconv writes: a Claude ``MEMORY.md`` line, and the
    readable lines of a store note (:mod:`memconv.converters.notes`)."""
    return _TO_ESCAPE.sub(lambda m: "\\" + m.group(0), title)


def substitute(finder: Callable[[str], list[Found]], replace: Callable[[Found], str], text: str) -> str:
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


#: A run of backticks, the fences of inline code spans.
_TICKS = re.compile(r"`+")


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each inline code span in ``text``: `` `code` `` or ``` ``code`` ```.

    Exactly what ``re.finditer(r"(`+)(?:(?!\1).)+?\1", text)`` finds, in
    linear time (that regex takes minutes on a long run of backticks). A span
    opened by k backticks is closed by the first later run of at least k; an
    opening run longer than twice the longest run after it cannot open one.
    """
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):  # a span never crosses a line
        runs = [(m.start(), m.end() - m.start()) for m in _TICKS.finditer(line)]
        later = [0] * (len(runs) + 1)  # later[j]: the longest run from j on
        for j in range(len(runs) - 1, -1, -1):
            later[j] = max(runs[j][1], later[j + 1])
        j, used = 0, 0  # the run the search is in, and how many of its backticks a span took
        while j < len(runs) and later[j + 1]:
            start, length = runs[j]
            longest = later[j + 1]
            skip = max(used, length - 2 * longest + 1)
            k = min(length - skip, longest)
            close = j + 1
            while runs[close][1] < k:
                close += 1
            spans.append((offset + start + skip, offset + runs[close][0] + k))
            j, used = close, k
            if used == runs[j][1]:
                j, used = j + 1, 0
        offset += len(line) + 1
    return spans


def code_span(text: str) -> str:
    """``text`` as one inline code span: fenced by one backtick more than its longest run of them,
    padded with a space where it starts or ends with a backtick (CommonMark takes one off each side)."""
    fence = "`" * (max((len(run) for run in _TICKS.findall(text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return fence + pad + text + pad + fence


def code_span_text(text: str) -> str | None:
    """The code of ``text`` when it is one inline code span (:func:`code_span`'s making undone), else None."""
    ticks = _TICKS.match(text)
    if ticks is None or code_spans(text) != [(0, len(text))]:
        return None
    inner = text[ticks.end():len(text) - ticks.end()]
    return inner[1:-1] if inner[:1] == " " and inner[-1:] == " " and inner.strip() else inner


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
    blank lines alone, worked out line by line (:func:`blocks`' simple reading); None for any other
    body (markdown-it reads it).

    Declined: anything that may be code or HTML, carriage returns and form feeds, indented lines,
    a list item right under prose or prose right under a list item (markdown-it's lazy
    continuation), and every other block marker. ``tests/test_claude_simple_outline.py`` holds
    the answer to markdown-it's.
    """
    found = _simple_blocks(body)
    if found is None:
        return None
    prose: set[int] = set()
    headings: list[tuple[int, int, str]] = []
    paragraphs: list[tuple[int, int]] = []
    lines: list[str] | None = None  # split again only for a heading's text
    for kind, start, end, _ in found:
        if kind == "paragraph":
            paragraphs.append((start, end))
            prose.update(range(start, end))
        elif kind == "heading":
            lines = lines or body.split("\n")
            m = _SIMPLE_HEADING.fullmatch(lines[start])
            headings.append((start, len(m.group(1)), m.group(2).strip()))
    return Outline(set(), prose, headings, paragraphs)


def parsed_outline(body: str) -> Outline:
    """What markdown-it sees in ``body``: :func:`outline` without the simple path."""
    code: set[int] = set()
    prose: set[int] = set()
    headings: list[tuple[int, int, str]] = []
    paragraphs: list[tuple[int, int]] = []
    tokens = _block_tokens(body)
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


#: A top-level block of a body, in order: (kind, first line, line after the last, code text or None).
#: ``kind`` is ``paragraph``, ``heading``, ``item`` (one item of a top-level list), ``code`` (fenced
#: or indented; the text is the code, without its fence) or ``other`` (a quote, raw HTML, a rule).
Block = tuple[str, int, int, "str | None"]


def blocks(body: str) -> list[Block]:
    """The top-level blocks of ``body`` as markdown-it sees them, each list item a block of its own.

    A body of prose lines, ``- item`` lines, ATX headings and blank lines is read line by line
    (:func:`_simple_blocks`, which :func:`simple_outline` is made of too); any other is parsed.
    ``tests/test_markdown_blocks.py`` holds the two to one answer.
    """
    return _simple_blocks(body) or _parsed_blocks(body)


#: A thematic break made of dashes, which the simple path would take for an item: ``- - -``.
_RULE = re.compile(r"(?:-[ \t]*){3,}")


def _simple_blocks(body: str) -> list[Block] | None:
    """The one line-by-line reading of a body: its blocks, or None where it declines (:func:`simple_outline`)."""
    if may_hold_code(body) or "\r" in body or "\x0b" in body or "\x0c" in body:
        return None
    found: list[Block] = []
    start = None  # the first line of the paragraph being read
    previous = "blank"
    lines = body.split("\n")
    for n, line in enumerate(lines):
        first = line[:1]
        if first.isascii() and first.isalpha():  # most lines: one test, not three regular expressions
            kind = "prose"
        elif not line.strip(" \t"):
            kind = "blank"
        elif first == "-" and _SIMPLE_ITEM.match(line):
            if _RULE.fullmatch(line):
                return None  # ``- - -`` is a thematic break
            kind = "item"
        elif first == "#":
            if _SIMPLE_HEADING.fullmatch(line) is None:
                return None
            kind = "heading"
        elif _SIMPLE_PROSE.match(line) and not _SIMPLE_ORDERED.match(line):
            kind = "prose"
        else:
            return None
        if (kind == "item" and previous == "prose") or (kind == "prose" and previous == "item"):
            return None  # markdown-it's lazy continuation, and a list that interrupts a paragraph
        if kind != "prose" and start is not None:
            found.append(("paragraph", start, n, None))
            start = None
        if kind == "prose" and start is None:
            start = n
        elif kind in ("heading", "item"):
            found.append((kind, n, n + 1, None))
        previous = kind
    if start is not None:
        end = len(lines)
        while end > start and not lines[end - 1].strip(" \t"):
            end -= 1
        found.append(("paragraph", start, end, None))
    return found


_BLOCK_KINDS = {"paragraph_open": "paragraph", "heading_open": "heading", "fence": "code", "code_block": "code"}


def _parsed_blocks(body: str) -> list[Block]:
    found: list[Block] = []
    in_list = False
    lines = body.split("\n")

    def end_of(start: int, end: int) -> int:  # a list item's map takes in the blank line after it
        while end > start + 1 and not lines[end - 1].strip(" \t"):
            end -= 1
        return end

    for tok in _block_tokens(body):
        if tok.type in ("bullet_list_open", "ordered_list_open") and tok.level == 0:
            in_list = True
        elif tok.type in ("bullet_list_close", "ordered_list_close") and tok.level == 0:
            in_list = False
        elif tok.map is None:
            continue
        elif in_list and tok.type == "list_item_open" and tok.level == 1:
            found.append(("item", tok.map[0], end_of(*tok.map), None))
        elif tok.level == 0 and not tok.type.endswith("_close"):
            kind = _BLOCK_KINDS.get(tok.type, "other")
            found.append((kind, tok.map[0], end_of(*tok.map), tok.content if kind == "code" else None))
    return found


def may_hold_code(body: str) -> bool:
    """Whether ``body`` holds a fence, a tag, or a line indented by four spaces or a tab: text that may
    start code or raw HTML. Without any, a body has no code lines, and link scanning need not parse it.

    Substring tests, not a regex: an alternation tries each branch at every position
    (``tests/test_code_lines_shortcut.py`` holds it to the regex it replaced).
    """
    return ("<" in body or "```" in body or "~~~" in body or "\n    " in body or "\n\t" in body
            or body.startswith(("    ", "\t")))


def code_lines(body: str) -> set[int]:
    """Lines of ``body`` inside code or raw HTML (parses only when there may be some)."""
    return outline(body).code if may_hold_code(body) else set()


def renamed_target(target: str, rename: Mapping[str, str]) -> str | None:
    """The new name of a link's ``target`` (a wikilink's inside before any ``|``, an edge's target), or None when
    ``rename`` names no record it points at. The one rule for a ``[[link]]`` and an edge alike.

    A target is looked up as written, then without the spaces around it (``[[ a ]]``), then, as a link to a
    heading or a block (``[[a#Setup]]``), by the name before its first ``#``.
    """
    new = rename.get(target)
    if new is None:
        target = target.strip()
        new = rename.get(target)
    if new is None and "#" in target:
        # A link to a part of a record, a heading or a block (``[[name#Setup]]``, ``[[name#^b1]]``): the record's
        # new name, the part as written. (Asked after the whole: a name may hold a ``#``, ``[[C#]]``.)
        page, _, part = target.partition("#")
        new = rename.get(page.strip()) if page.strip() else None
        if new is not None:
            new = f"{new}#{part}"
    return new


def renamed_file(target: str, rename: Mapping[str, str]) -> str | None:
    """The new spelling of a sibling file link's ``target`` (``name.md``, ``./name.md``, ``name.md#part``): the
    same form with the record's new name, or None when ``rename`` names no record it points at. The one rule for a
    ``(name.md)`` link and an edge written as a file name alike (``superseded_by: name.md``)."""
    target = target.strip()
    dot = "./" if target.startswith("./") else ""
    name, hash_, part = target[len(dot):].partition("#")
    new = _renamed_file_name(name, rename)
    return None if new is None else f"{dot}{new}{hash_}{part}"


def _renamed_file_name(name: str, rename: Mapping[str, str]) -> str | None:
    """``name.md``'s new file name, or None: :func:`renamed_file` of a bare file name (a body link's, found by
    :func:`md_links` without its ``./`` and ``#part``), asked directly in a body's loop."""
    new = rename.get(name[:-3]) if name.endswith(".md") and len(name) > 3 else None
    return None if new is None else f"{new}.md"


def renamed_link_target(target: str, rename: Mapping[str, str], *, file_links: bool = False) -> str | None:
    """The new name of a link target written on its own (an edge's), by the rule :func:`rewrite_links` follows in a
    body: as a ``[[link]]``'s (:func:`renamed_target`), then (``file_links``) as a ``(file.md)`` link's
    (:func:`renamed_file`), keeping the form written. None when ``rename`` names no record it points at."""
    new = renamed_target(target, rename)
    if new is None and file_links and ".md" in target:
        new = renamed_file(target, rename)
    return new


def rewrite_links(body: str, rename: dict[str, str], *, file_links: bool = False) -> tuple[str, list[str]]:
    """``body`` with every wikilink whose target ``rename`` names pointed at its new name
    (:func:`renamed_target`), and (``file_links``) every sibling ``(old.md)`` link at ``(new.md)``; outside code
    blocks and inline code spans. Returns the new body and one line per link changed.
    """
    if not rename or ("[[" not in body and not (file_links and ".md" in body)):
        return body, []
    changed: list[str] = []

    def wiki(m: Found) -> str:
        target = m.group("target")
        new = renamed_target(target, rename)
        if target not in rename:
            target = target.strip()  # as it was looked up: the name, not the spaces around it
        if new is None or new == target:
            return m.group(0)
        changed.append(f"[[{target}]] → [[{new}]]")
        return f"[[{new}{m.group('rest') or ''}]]"

    def md(m: Found) -> str:
        target = m.group("target")
        new = _renamed_file_name(target, rename)
        if new is None or new == target:
            return m.group(0)
        changed.append(f"({target}) → ({new})")
        close = ")" if m.group("head").startswith("](") else ""  # (a definition's line ends with its title)
        return f"{m.group('head')}{m.group('dot') or ''}{new}{m.group('tail') or ''}{m.group('title') or ''}{close}"

    def prose(text: str, line_start: bool = True) -> str:
        if "[[" in text:
            text = substitute(wikilinks, wiki, text)
        if not (file_links and ".md" in text):
            return text
        text = substitute(md_links, md, text)
        return substitute(md_definitions, md, text) if line_start else text

    if "`" not in body and not may_hold_code(body):
        # No code span, no code block: every line is prose, and no link spans lines.
        text = prose(body)
        return (text if changed else body), changed  # unchanged, the very string: a native shares its source's
    code = code_lines(body)

    def line_(text: str) -> str:
        if "[[" not in text and not (file_links and ".md" in text):
            return text
        if "`" not in text:
            return prose(text)
        out, pos = [], 0
        for start, end in code_spans(text):
            out.append(prose(text[pos:start], pos == 0))
            out.append(text[start:end])
            pos = end
        out.append(prose(text[pos:], pos == 0))
        return "".join(out)

    lines = body.split("\n")
    text = "\n".join(line if i in code else line_(line) for i, line in enumerate(lines))
    return (text if changed else body), changed


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
        found.extend(m.group("target")[:-3] for m in md_definitions(line))
    return found


# --- relation lines ----------------------------------------------------------------------

#: A relation bullet: ``- works at → [[Mengram]] — since 2024``: a line of a memfmt entity's ``## Relations``, and of
#: the ``**Relations:**`` block memconv shows an entity's relations in elsewhere. Use :func:`relation`.
RELATION = re.compile(r"^- (?P<verb>.*?) (?P<arrow>→|←) \[\[(?P<link>[^\]]+)\]\](?P<rest>.*)$")
#: Where a relation's arrow may be: `` → [[``; and the relation from there on.
_ARROW = re.compile(r" (?:→|←) \[\[")
_RELATION_FROM = re.compile(r" (?P<arrow>→|←) \[\[(?P<link>[^\]]+)\]\](?P<rest>.*)$")


class Relation:
    """A relation bullet's parts, as ``RELATION.match`` gives them (``group(name)``)."""

    __slots__ = ("parts",)

    def __init__(self, **parts: str):
        self.parts = parts

    def group(self, name: str) -> str:
        return self.parts[name]


def relation(line: str) -> Relation | None:
    """``RELATION.match(line)`` for one line, in linear time (the regex is quadratic on `` → [[x`` repeated).

    The verb ends at the first arrow whose ``[[`` is closed by ``]]`` at the next
    ``]``: every arrow before that ``]`` shares it, so it is found once.
    """
    if not line.startswith("- ") or "\n" in line:
        return None
    pos, close = 2, -1
    while (arrow := _ARROW.search(line, pos)) is not None:
        start = arrow.end()
        if close < start:
            close = line.find("]", start)
            if close < 0:
                return None
        if close > start and line.startswith("]]", close):
            m = _RELATION_FROM.match(line, arrow.start())
            if m is not None:
                return Relation(verb=line[2:arrow.start()], arrow=m.group("arrow"), link=m.group("link"),
                                rest=m.group("rest"))
        pos = arrow.start() + 1
    return None


def relation_edge(line: str) -> Edge | None:
    """The edge a relation line says: ``- works at → [[Acme]] — since 2019``, ``- mentors ← [[Bo]]`` (``[[stem|Real
    name]]``: the alias is the name). None: the line says no relation. One rule for the lines of a memfmt entity's
    ``## Relations`` and for the ``**Relations:**`` block memconv shows an entity's relations in elsewhere
    (``converters.readable``), which is read home by it."""
    match = relation(line)
    if match is None:
        return None
    link = match.group("link")
    target = link.split("|", 1)[1] if "|" in link else link
    rest = match.group("rest")
    note = rest[len(_NOTE_DASH):].strip() if rest.startswith(_NOTE_DASH) else None
    return Edge(type=match.group("verb").strip(), target=target.strip(), note=note or None,
                direction="in" if match.group("arrow") == "←" else "out")


#: What comes before a relation's note.
_NOTE_DASH = " — "
