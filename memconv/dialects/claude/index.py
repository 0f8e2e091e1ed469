"""``MEMORY.md``: the index Claude Code loads, read into the model and written back.

Claude Code loads only the first 200 lines or 25 KB of ``MEMORY.md``: a ``# `` header,
``## `` sections, and one line per memory, ``- [Title](file.md) — hook``.
Old stores keep memory *in* the index as plain bullets with no file behind
them; those are content, so they are read into ``IndexSection.inline`` and
must reach every output.

Reading keeps the line structure in the source layout, so an unchanged index
comes back byte for byte, and an edited one keeps every line it can. Writing
an index for records that have none generates one grouped by type, and
:func:`paginate` (the one rule, ``merge`` uses it too) splits it into linked
topic pages (``MEMORY-2.md``…) rather than let Claude Code silently stop
reading at line 200 or byte 25,000.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Callable, Iterable, Iterator, Sequence

from ...markdown import code_lines, escape_link_text, link_text, may_hold_code, renamed_file
from ...model import IndexFile, IndexLink, IndexSection, LayoutOnDisk, Record, Source
from ...text import TextLayout, decode, decode_lines, encode, flat, printable

NAME = "claude"
PATH = "MEMORY.md"

#: Claude Code reads this many lines of MEMORY.md and no more.
LOADED_LINES = 200
#: Lines a generated index page may have: under the loaded limit, with room to spare.
PAGE_LINES = 190

#: An index page written when MEMORY.md alone would pass the limit: ``MEMORY-2.md``.
PAGE_FILE = re.compile(r"^MEMORY-(?P<n>[2-9]|[1-9][0-9]+)\.md$")
#: A link line: ``- [Staging endpoints](reference_staging.md) — base URLs and auth``; the file may be followed by a
#: ``#part`` and a title, as CommonMark reads a link (``(reference_staging.md#auth "Staging")``: the forty-sixth
#: session, they were read as inline bullets). A ``#`` ends the file name, as in a URL. The destination may be in
#: ``<>``, CommonMark's form for a name with a space: ``(<reference staging.md#auth>)`` (forty-seventh session).
LINK_LINE = re.compile(
    r"^(?P<bullet>[ \t]*[-*+][ \t]+)\[(?P<title>(?:[^\\\[\]\n]|\\[^\n])*)\]\((?P<angle><)?(?P<dot>\./)?"
    r"(?P<target>(?(angle)[^<>\n:#\\]|[^)\s:#])+\.md)(?P<part>#(?(angle)[^<>\n\\]|[^)\s])*)?(?(angle)>)"
    r"(?P<link_title>[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)"
    r"(?:(?P<sep>[ \t]+(?:—|–|-|:)[ \t]*|:[ \t]*)(?P<hook>.*))?$")
#: Any other bullet: ``- User prefers Tailwind CSS``.
BULLET_LINE = re.compile(r"^(?P<bullet>[ \t]*[-*+][ \t]+)(?P<text>.*)$")
#: A continuation of the bullet above: ``  more words``.
CONTINUATION = re.compile(r"^[ \t]{2,}\S")
#: Headings: ``# Memory Index`` / ``## Feedback``.


def heading_text(line: str, level: int) -> str | None:
    """The text of a ``# Title`` (level 1) or ``## Section`` (level 2) line, closing ``#``s dropped; else None.

    What ``^#{level}[ \\t]+(?P<text>.*?)[ \\t#]*$`` gives, in linear time (that
    regex is quadratic on ``## # # # …``).
    """
    if not line.startswith("#" * level) or line[level:level + 1] not in (" ", "\t") or "\n" in line:
        return None
    return line[level:].lstrip(" \t").rstrip(" \t#")


#: How generated indexes group entries, in Claude Code's type order.
GROUPS = (("user", "User"), ("feedback", "Feedback"), ("project", "Project"), ("reference", "Reference"),
          (None, "Other"))
#: The title Claude Code (and :func:`generate`) gives every index.
TITLE = "Memory Index"
#: The title :func:`paginate` gives a page of a split index, after :data:`TITLE`: ``(page 2 of 3)``.
PAGE_OF = re.compile(r" \(page [1-9][0-9]* of [1-9][0-9]*\)")


@dataclass
class IndexLayout:
    """The lines of an index as written: each a literal, or a pointer into the model."""

    #: ``("text", line)``, ``("title", line)``, ``("section", s, line)``,
    #: ``("link", s, i, line)``, ``("inline", s, i, lines)``.
    items: list[tuple] = field(default_factory=list)
    text: object = None
    #: Whether the file ended with a newline.
    final_newline: bool = True


def index_fingerprint(index: IndexFile) -> str:
    """A digest of everything the index says: held for the whole run, so not the text itself (a ``repr`` of every
    link: 1.5 MB for a 10,000-entry index, docs/performance.md). Made a line at a time, never of the whole index's
    ``repr``: that and its bytes took 30 MB at once for 100,000 links (docs/performance.md, "(thirty-sixth)").
    Compared within a run only (:func:`write_index`), never written down."""
    import hashlib

    digest = hashlib.blake2b(digest_size=16)

    def said(value) -> None:
        digest.update(repr(value).encode("utf-8", "surrogatepass"))

    said((index.path, index.title, index.extra, len(index.sections)))
    for section in index.sections:
        said((section.heading, section.inline, len(section.links)))
        for link in section.links:
            said(link)
    return digest.hexdigest()


def is_index_path(path: str) -> bool:
    return path == PATH or PAGE_FILE.match(path) is not None


def read_index(raw: bytes, path: str, present: set[str]) -> IndexFile:
    """``MEMORY.md`` bytes → an :class:`IndexFile`; ``present`` are the files in the folder."""
    return _read(raw, path, present, _BOTH)[0]


def read_index_layout_on_disk(raw: bytes, path: str, present: set[str]) -> tuple[IndexFile, list[tuple[int, str]]]:
    """:func:`read_index`, with its layout left on disk: read again from the file's bytes if it is asked for (an
    index written anew, a merge), never held as read. And ``(line, target)`` of each link to a file not in the
    folder (:func:`broken_links`), said as it is read.

    How the folder's own reader reads an index (:func:`memconv.dialects.claude.iter_read`): the layout is a line
    for each link, and a run within Claude holds the index to its end and writes it back as it was read; read
    whole, the index of 100,000 memories peaked at about 1 KB a link (docs/performance.md, "(thirty-eighth)")."""
    return _read(raw, path, present, _MODEL)


def _layout_again(source: Source) -> IndexLayout:
    """The layout of the index ``source`` read, read again from its bytes (which fail if the file changed since):
    without the model, which the index holds already (made again beside it, it took a merge of two 100,000-link
    stores 27 MB higher)."""
    return _read(source.raw, source.path, set(), _LAYOUT)[0].source.layout


#: What an index read by :func:`read_index_layout_on_disk` holds for its layout.
_LAYOUT_ON_DISK = LayoutOnDisk(_layout_again)
#: What :func:`_read` makes: the model and the layout, the model only (its layout left on disk), the layout only.
_BOTH, _MODEL, _LAYOUT = (True, True), (True, False), (False, True)


def _read(raw: bytes, path: str, present: set[str], made: tuple[bool, bool]) -> tuple[IndexFile, list[tuple[int, str]]]:
    """The index, and its broken links (``(line, target)``); ``made``: whether it holds its model (its title,
    sections, links, words and fingerprint), and whether it holds its layout (else left on disk).

    A line at a time, each decoded from the bytes as it is read and, without the layout, let go once read (what the
    model keeps of it is its own strings): the text is decoded whole only for an index that may hold code or HTML,
    whose code lines are parsed (the decoded text of 30,000 links was 7 MB, docs/performance.md)."""
    lines, text_layout, final_newline = decode_lines(raw, path)
    try:
        return _parsed(lines, raw, path, present, made, text_layout, final_newline, None)
    except _MayHoldCode:
        return _read_whole(raw, path, present, made)


def _read_whole(raw: bytes, path: str, present: set[str], made: tuple[bool, bool]
                ) -> tuple[IndexFile, list[tuple[int, str]]]:
    """:func:`_read` of the text decoded whole, its code lines parsed: for an index that may hold code or HTML."""
    text, text_layout = decode(raw, path)
    final_newline = text.endswith("\n")
    lines = _lines(text, len(text) - 1 if final_newline else len(text))
    return _parsed(lines, raw, path, present, made, text_layout, final_newline, code_lines(text))


class _MayHoldCode(Exception):
    """A line of an index read a line at a time may start code or raw HTML: it is read again, its code parsed."""


def _parsed(lines: Iterable[str], raw: bytes, path: str, present: set[str], made: tuple[bool, bool],
            text_layout: TextLayout, final_newline: bool, code: set[int] | None
            ) -> tuple[IndexFile, list[tuple[int, str]]]:
    """:func:`_read` of the index's ``lines``; ``code``: its code lines, or None while no line may start any."""
    model, keep = made
    index = IndexFile(path=path)
    layout = IndexLayout(text=text_layout, final_newline=final_newline)
    items = layout.items if keep else None
    words = _Words()
    broken: list[tuple[int, str]] = []
    section = IndexSection(heading=None)
    index.sections.append(section)
    s = 0
    last = None  # the item of the line before (held or not): a bullet's continuation joins it
    for n, line in enumerate(lines):
        if code is None and may_hold_code(line):  # (what it says of the text, it says of one of its lines)
            raise _MayHoldCode
        if code is not None and n in code:
            item = ("text", line)
        elif index.title is None and s == 0 and not section.links and not section.inline \
                and (title := heading_text(line, 1)) is not None and not line.startswith("##"):
            index.title = title
            item = ("title", line)
        elif (heading := heading_text(line, 2)) is not None:
            section = IndexSection(heading=heading)
            index.sections.append(section)
            s += 1
            item = ("section", s, line)
        elif m := LINK_LINE.match(line):
            if model:
                target = m.group("target")
                resolved = target in present
                section.links.append(IndexLink(title=link_text(m.group("title")), target=target,
                                               hook=m.group("hook"), resolved=resolved))
                if not resolved:
                    broken.append((n + 1, target))
            else:
                section.links.append(None)  # (counted: a layout item points at its section's n-th link)
            item = ("link", s, len(section.links) - 1, line)
        elif m := BULLET_LINE.match(line):
            section.inline.append(m.group("text"))
            item = ("inline", s, len(section.inline) - 1, [line])
        elif last is not None and last[0] == "inline" and CONTINUATION.match(line):
            section.inline[last[2]] += "\n" + line.strip()
            last[3].append(line)
            continue
        else:
            item = ("text", line)
        last = item
        if model:
            words.add(item)
        if keep:
            items.append(item)
    if index.sections[0].heading is None and not index.sections[0].links and not index.sections[0].inline \
            and len(index.sections) > 1:
        # No bullets before the first ``## ``: the header has no section of its own.
        index.sections.pop(0)
        if keep:
            layout.items = [_shift(item) for item in layout.items]
    index.source = Source(dialect=NAME, path=path, version="current", raw=raw,
                          layout=layout if keep else _LAYOUT_ON_DISK)
    if model:
        index.words = words.text()
        index.source.fingerprint = index_fingerprint(index)
    return index, broken


def _lines(text: str, end: int) -> Iterator[str]:
    """``text[:end].split("\\n")``, a line at a time, without that copy of the text or the list."""
    start = 0
    while (stop := text.find("\n", start, end)) >= 0:
        yield text[start:stop]
        start = stop + 1
    yield text[start:end]


def generated_heading(line: str) -> bool:
    """Whether ``line`` is a title or heading every index may have, saying nothing of its store: the title
    Claude Code gives an index (and memconv a page of it: ``Memory Index (page 2 of 3)``), a type's group, the
    section that links more pages (:func:`generate`)."""
    title = heading_text(line, 1)
    if title is not None:
        return title == TITLE or title.startswith(TITLE) and PAGE_OF.fullmatch(title, len(TITLE)) is not None
    return heading_text(line, 2) in {label for _, label in GROUPS} | {MORE}


def page_title(line: str) -> bool:
    """Whether ``line`` is the title :func:`paginate` gives a page of a split index, whatever the index's own title:
    ``# Memory Index (page 2 of 3)``. Only that line of a page is generated; any other before its first ``## `` is
    someone's words (docs/merge.md)."""
    title = heading_text(line, 1)
    at = title.rfind(" (page ") if title is not None else -1
    return at >= 0 and PAGE_OF.fullmatch(title, at) is not None


class _Words:
    """The index's own words (``IndexFile.words``), gathered an item of its layout at a time: every line that is
    neither a link nor a bullet (its ``# `` title, its ``## `` headings, a paragraph, a numbered list, a fenced
    block, a line under a link), as written, blocks a blank line apart. Claude Code's index is written by hand:
    its title and headings are someone's words, but for those every index may have (:func:`generated_heading`)."""

    __slots__ = ("blocks",)

    def __init__(self) -> None:
        self.blocks: list[list[str]] = [[]]

    def add(self, item: tuple) -> None:
        blocks = self.blocks
        if item[0] in ("title", "section") and generated_heading(item[-1]):
            if blocks[-1]:
                blocks.append([])
        elif item[0] in ("title", "section"):
            if blocks[-1]:
                blocks.append([])
            blocks[-1].append(item[-1])
            blocks.append([])
        elif item[0] == "text" and item[1].strip():
            blocks[-1].append(item[1])
        elif blocks[-1]:
            blocks.append([])

    def text(self) -> str:
        return "\n\n".join("\n".join(block) for block in self.blocks if block)


def broken_links(index: IndexFile) -> list[tuple[int, str]]:
    """``(line, target)`` of every link to a file that is not in the folder (1-based lines)."""
    layout = index.source.layout if index.source is not None and index.source.dialect == NAME else None
    if layout is None:
        return [(0, link.target) for s in index.sections for link in s.links if not link.resolved]
    found, line = [], 0
    for item in layout.items:
        line += 1
        if item[0] == "link":
            link = index.sections[item[1]].links[item[2]]
            if not link.resolved:
                found.append((line, link.target))
        elif item[0] == "inline":
            line += len(item[3]) - 1
    return found


def _shift(item: tuple) -> tuple:
    if item[0] in ("section", "link", "inline"):
        return (item[0], item[1] - 1, *item[2:])
    return item


def link_line(link: IndexLink) -> str:
    """``- [Title](file.md) — hook``, the reference's line format; ``(<file name.md>)`` for a name a bare
    destination cannot hold (:func:`destination`)."""
    line = f"- [{escape_link_text(link.title)}]({destination(link.target)})"
    return line + (f" — {link.hook}" if link.hook else "")


#: A file name CommonMark reads as a bare link destination: no space, no parenthesis, no ``<`` or ``>``.
_BARE = re.compile(r"[^\s()<>]+")


def destination(target: str) -> str:
    """``target`` as a link's destination: as it is, else in ``<>``, CommonMark's form for a name with a space
    (``a b.md`` written bare is no link; :data:`LINK_LINE` reads both, forty-seventh session)."""
    return target if _BARE.fullmatch(target) else f"<{target}>"


def write_index(index: IndexFile) -> bytes:
    """An index back to bytes: its own bytes if unchanged, else its lines with the changes."""
    source = index.source
    ours = source is not None and source.dialect == NAME
    if ours and source.has_layout and source.has_raw and source.fingerprint == index_fingerprint(index):
        return source.raw  # (asked first: a layout left on disk is read again only for an index written anew)
    layout = source.layout if ours else None
    if layout is None:
        return encode(_render(index))
    out: list[str] = []
    done: set[tuple] = set()

    def rest_of(s: int) -> None:
        if s < 0 or s >= len(index.sections):
            return
        section = index.sections[s]
        for i, link in enumerate(section.links):
            if ("link", s, i) not in done:
                out.append(link_line(link))
                done.add(("link", s, i))
        for i, text in enumerate(section.inline):
            if ("inline", s, i) not in done:
                out.extend(_inline_lines(text))
                done.add(("inline", s, i))

    current = 0 if index.sections and index.sections[0].heading is None else -1
    for item in layout.items:
        kind = item[0]
        if kind == "text":
            out.append(item[1])
        elif kind == "title":
            if index.title is not None:
                out.append(item[1] if heading_text(item[1], 1) == index.title else f"# {index.title}")
        elif kind == "section":
            rest_of(current)
            current = item[1]
            if current < len(index.sections):
                heading = index.sections[current].heading
                same = heading_text(item[2], 2) == heading
                out.append(item[2] if same else f"## {heading}")
        elif kind == "link":
            _, s, i, line = item
            if s < len(index.sections) and i < len(index.sections[s].links):
                link = index.sections[s].links[i]
                m = LINK_LINE.match(line)
                unchanged = (link_text(m.group("title")), m.group("target"), m.group("hook")) == (
                    link.title, link.target, link.hook)
                out.append(line if unchanged else _relink(line, m, link))
                done.add(("link", s, i))
        elif kind == "inline":
            _, s, i, lines = item
            if s < len(index.sections) and i < len(index.sections[s].inline):
                text = index.sections[s].inline[i]
                original = BULLET_LINE.match(lines[0]).group("text")
                original += "".join("\n" + line.strip() for line in lines[1:])
                out.extend(lines if original == text else _inline_lines(text))
                done.add(("inline", s, i))
    rest_of(current)
    for s in range(len(index.sections)):
        if s > current:
            out.append(f"## {index.sections[s].heading}")
            rest_of(s)
    return encode("\n".join(out) + ("\n" if layout.final_newline else ""), layout.text)


def _relink(line: str, m: re.Match, link: IndexLink) -> str:
    """``line`` with only the parts of the link that changed replaced."""
    same_title = link_text(m.group("title")) == link.title
    if m.group("hook") is not None and link.hook is not None and same_title:
        start, end, target = _retarget(m, link.target)
        line = line[:start] + target + line[end:]
        hs, he = m.span("hook")
        shift = len(target) - (end - start)
        return line[:hs + shift] + link.hook + line[he + shift:]
    if m.group("hook") == link.hook and same_title:
        start, end, target = _retarget(m, link.target)
        return line[:start] + target + line[end:]
    return m.group("bullet") + link_line(link)[2:]


def _retarget(m: re.Match, target: str) -> tuple[int, int, str]:
    """The span of a link line's file name and what replaces it, ``target``: within the ``<>`` it is written in,
    else bare if it can be, else the destination put in ``<>``, its ``./`` and ``#part`` with it."""
    start, end = m.span("target")
    if m.group("angle") or destination(target) == target:
        return start, end, target
    dot, part = m.group("dot") or "", m.group("part") or ""
    return start - len(dot), end + len(part), destination(dot + target + part)


def relinked_index(index: IndexFile, rename: Mapping[str, str]) -> IndexFile | None:
    """``index`` with each link line to a renamed memory (``rename``: its old link → its new one) linking the new
    name, every other byte as written (:func:`write_index` changes only the target); None when no line links one.

    A merge reads an index by its lines: a record renamed without its index lines left one linking a file that
    is not there (``--into``, a record paired under EXISTING's name: docs/merge.md)."""
    source = index.source
    if source is None or source.dialect != NAME or not source.has_raw \
            or not any(renamed_file(link.target, rename) for s in index.sections for link in s.links):
        return None
    present = set()
    relinked = read_index(source.raw, index.path, set())
    for old, new in zip(index.sections, relinked.sections):
        for was, link in zip(old.links, new.links):
            link.target = renamed_file(was.target, rename) or was.target
            if was.resolved:
                present.add(link.target)
    return read_index_layout_on_disk(write_index(relinked), index.path, present)[0]


def _inline_lines(text: str) -> list[str]:
    first, *rest = text.split("\n")
    return [f"- {first}"] + [f"  {line}" for line in rest]


def _render(index: IndexFile) -> str:
    lines: list[str] = []
    if index.title is not None:
        lines += [f"# {index.title}", ""]
    for section in index.sections:
        if section.heading is not None:
            if lines and lines[-1] != "":
                lines.append("")
            lines.append(f"## {section.heading}")
        lines.extend(link_line(link) for link in section.links)
        for text in section.inline:
            lines.extend(_inline_lines(text))
    return "\n".join(lines) + "\n"


# --- Claude Code's limits: one rule for every index memconv writes -------------------------

#: Claude Code stops loading MEMORY.md past this many bytes (and past LOADED_LINES lines).
LOADED_BYTES = 25_000
#: What one written page may hold in bytes, with room to spare under LOADED_BYTES.
PAGE_BYTES = 24_000
#: Page links one index page holds in its ``More memory`` section; the last page it links holds the next ones.
LINKS_PER_PAGE = 60
#: The section of MEMORY.md (and of a page that hosts more) that links the other pages.
MORE = "More memory"
#: The longest title or hook a generated link line shows: the file holds the rest.
LINK_TEXT = 150

#: One item of an index: its section (the heading line, or ``(heading line, n)`` to keep two sections
#: of one name apart; None before the first heading), and its lines (a generated entry's as UTF-8 bytes).
Unit = tuple["str | tuple[str, int] | None", Sequence["str | bytes"]]
#: The longest hook (in UTF-8 bytes) of a link to a page: what the page's More-memory reserve counts on.
PAGE_HOOK_BYTES = 100


def size(lines: list[str | bytes]) -> int:
    """Bytes of ``lines`` written one per line."""
    return sum(len(_utf8(line)) + 1 for line in lines)


def _utf8(line: str | bytes) -> bytes:
    """A line of an index as written: a generated entry's line is held so already (:func:`entry_line`)."""
    return line if line.__class__ is bytes else line.encode("utf-8", "surrogatepass")


def fits(lines: list[str | bytes]) -> bool:
    """Whether Claude Code loads all of a file of these lines: at most 200 lines and 25 KB."""
    return len(lines) <= LOADED_LINES and size(lines) <= LOADED_BYTES


def page_path(number: int) -> str:
    """``MEMORY.md`` for page 1, ``MEMORY-<n>.md`` after."""
    return PATH if number == 1 else f"MEMORY-{number}.md"


def _render_units(title_line: str, preamble: list[str], units: list[Unit], spaced: bool) -> list[str]:
    """The lines of one page; with ``spaced``, a blank line before each heading that has none."""
    out = [title_line, *preamble]
    current: object = object()
    for heading, lines in units:
        if heading != current:
            if heading is not None:
                if spaced and out and out[-1] != "":
                    out.append("")
                out.append(_line(heading))
            current = heading
        out.extend(lines)
    return out


def _line(heading: str | tuple[str, int]) -> str:
    return heading if isinstance(heading, str) else heading[0]


def _topics(units: list[Unit]) -> str | None:
    """The headings a page holds, as its link's hook: ``Feedback, Project`` (at most PAGE_HOOK_BYTES)."""
    names: list[str] = []
    for heading, _ in units:
        name = heading_text(_line(heading), 2) if heading is not None else None
        if name and name not in names:
            names.append(flat(name))
    return _clip(", ".join(names), PAGE_HOOK_BYTES) if names else None


def _clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-8 bytes (an ellipsis marks the cut)."""
    if len(text.encode("utf-8", "surrogatepass")) <= limit:
        return text
    cut = text.encode("utf-8", "surrogatepass")[:limit - 3].decode("utf-8", "ignore")
    return cut.rstrip() + "…"


def paginate(title_line: str, preamble: list[str], units: list[Unit], *,
             spaced: bool = False) -> tuple[Mapping[str, bytes], str | None]:
    """An index of ``units`` as files Claude Code loads whole: ``MEMORY.md`` alone when it fits, else pages.

    Past 200 lines or 25 KB, the units are split, in order, into linked topic
    pages ``MEMORY-2.md``…: each keeps the headings of what it holds and says
    which page of how many it is, and ``MEMORY.md`` (then every 60th page)
    ends with a ``## More memory`` section linking the next pages, each link
    naming the topics on that page. No line is cut or dropped. Returns the
    files (path → bytes, page order) and the warning to report, None when no
    split was needed. A single unit larger than a page (an inline bullet of
    hundreds of lines) gets a page of its own, and the warning says so.

    The ``preamble`` (the lines before the first ``## ``) is paged as the units are, cut only where a page may
    begin (:func:`_preamble_pieces`): what MEMORY.md cannot hold continues at the top of the next pages, under
    their title, a blank line there only where the preamble has one (the merge joins it back as it was). MEMORY.md
    itself never holds a unit past its limits: one goes to a page of its own.

    Split, the pages are rendered as they are asked for (:class:`Pages`), one at a time: the 500 pages of a
    100,000-memory index were 11 MB of bytes held at once at the end of a write (docs/performance.md,
    "(thirty-fifth)").
    """
    whole = _render_units(title_line, preamble, units, spaced)
    if fits(whole):
        return {PATH: _encode_lines(whole)}, None
    # The preamble is paged as the sections are: a long one pushed MEMORY.md past the limits, every section after
    # it unread by Claude Code (docs/merge.md).
    units = [*((None, piece) for piece in _preamble_pieces(preamble)), *units]
    # A page that links others (MEMORY.md, then every LINKS_PER_PAGE-th page) keeps room for a
    # "More memory" section of LINKS_PER_PAGE links (each at most PAGE_HOOK_BYTES + ~60 bytes),
    # so any number of pages fits the limits; the other pages use all of theirs.
    def limits(number: int) -> tuple[int, int]:
        reserve = 2 + LINKS_PER_PAGE if number % LINKS_PER_PAGE == 1 else 0
        return PAGE_LINES - reserve, PAGE_BYTES - (PAGE_HOOK_BYTES + 60) * reserve

    pages: list[list[Unit]] = [[]]
    limit_lines, limit_bytes = limits(1)
    used_lines, used_bytes = 1, size([title_line])
    current: object = object()
    for heading, lines in units:
        head = [_line(heading)] if heading is not None and heading != current else []
        cost, weight = len(lines) + 2 * len(head), size(lines) + size(head) + len(head)
        # (MEMORY.md is never left empty of what it must link: a unit past its limits goes to a page of its own.)
        if (pages[-1] or len(pages) == 1) and (used_lines + cost > limit_lines or used_bytes + weight > limit_bytes):
            pages.append([])
            limit_lines, limit_bytes = limits(len(pages))
            used_lines, used_bytes = 2, size([title_line]) + 40
            head = [_line(heading)] if heading is not None else []
            cost, weight = len(lines) + 2 * len(head), size(lines) + size(head) + len(head)
        pages[-1].append((heading, lines))
        used_lines += cost
        used_bytes += weight
        current = heading
    title = heading_text(title_line, 1) or TITLE
    # Page 1 links pages 2..61, page 61 links 62..121, and so on.
    hosted: dict[int, list[int]] = {}
    host, n = 1, 2
    while n <= len(pages):
        hosted[host] = list(range(n, min(n + LINKS_PER_PAGE, len(pages) + 1)))
        host, n = hosted[host][-1], hosted[host][-1] + 1

    def page(number: int) -> list[str]:
        """The lines of page ``number``."""
        unit = pages[number - 1]
        if number == 1:
            lines = _render_units(title_line, [], unit, spaced)
        else:
            # Preamble that goes on from the page before with no blank line between is written right under the
            # title: a blank line there would be one more in the preamble joined again (merge/claude.py).
            before = pages[number - 2][-1][1] if pages[number - 2] else ()
            glued = unit and unit[0][0] is None and not (before and not before[-1].strip())
            lines = _render_units(f"# {title} (page {number} of {len(pages)})", [] if glued else [""], unit, spaced)
        if number in hosted:
            if spaced and lines[-1] != "":
                lines.append("")
            lines.append(f"## {MORE}")
            for child in hosted[number]:
                lines.append(link_line(IndexLink(title=f"Memory index, page {child}", target=page_path(child),
                                                 hook=_topics(pages[child - 1]))))
        return lines

    files = Pages(page, len(pages))
    oversized = [page_path(number) for number in range(1, len(pages) + 1) if not fits(page(number))]
    names = list(files)
    listed = ", ".join(names) if len(names) <= 4 else f"{names[0]}, {names[1]} … {names[-1]}"
    warning = (f"MEMORY.md would be {len(whole)} lines ({size(whole)} bytes), and Claude Code loads only the "
               f"first {LOADED_LINES} lines and {LOADED_BYTES // 1000} KB: split into {len(pages)} linked "
               f"index pages ({listed})")
    last = max((number for number, held in enumerate(pages, 1) if any(h is None for h, _ in held)), default=1)
    if last > 1:
        warning += (f"; its text before its first heading ({len(preamble)} lines, {size(preamble)} bytes) is "
                    f"longer than {PATH} holds: it goes on at the top of "
                    f"{page_path(2) if last == 2 else f'{page_path(2)} … {page_path(last)}'}")
    if oversized:
        warning += (f"; {', '.join(oversized)} still pass the limit: each holds one item longer than a page, "
                    "kept whole")
    return files, warning


def _preamble_pieces(preamble: list[str]) -> list[list[str]]:
    """``preamble`` cut where a page may begin: before a line of words that starts no continuation (an indented
    line: a bullet's next line, indented code), is no underline (``---``, ``===``), and is neither in nor just after
    code or raw HTML (a fence cut in two would take in the ``More memory`` links after it)."""
    code = code_lines("\n".join(preamble)) if len(preamble) > 1 else set()
    pieces: list[list[str]] = []
    for n, line in enumerate(preamble):
        if not pieces or (line.strip(" -=") and line[0] not in " \t" and n not in code and n - 1 not in code):
            pieces.append([line])
        else:
            pieces[-1].append(line)
    return pieces


def past_limits(data: bytes) -> str | None:
    """What an index file of ``data`` passes of Claude Code's limits, in words (``258 lines (Claude Code loads only the
    first 200 lines)``), or None when Claude Code loads it whole."""
    count = data.count(b"\n") + (bool(data) and not data.endswith(b"\n"))
    over = []
    if count > LOADED_LINES:
        over.append(f"{count} lines (Claude Code loads only the first {LOADED_LINES} lines)")
    if len(data) > LOADED_BYTES:
        over.append(f"{len(data)} bytes (Claude Code loads only the first {LOADED_BYTES // 1000} KB)")
    return ", ".join(over) or None


class Pages(Mapping):
    """Index pages, path → bytes in page order, each rendered when it is asked for and not kept: a writer
    writes one and lets it go before the next is rendered."""

    __slots__ = ("_page", "_count")

    def __init__(self, page: Callable[[int], list[str]], count: int):
        self._page, self._count = page, count

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        return (page_path(number) for number in range(1, self._count + 1))

    def __getitem__(self, path: str) -> bytes:
        number = _page_number(path)
        if number is None or not 1 <= number <= self._count:
            raise KeyError(path)
        return _encode_lines(self._page(number))


def _page_number(path: str) -> int | None:
    """The number of the page :func:`page_path` names ``path`` (``MEMORY.md``, else :data:`PAGE_FILE`), else None."""
    if path == PATH:
        return 1
    m = PAGE_FILE.fullmatch(path) if isinstance(path, str) else None
    return int(m.group("n")) if m is not None else None


def _encode_lines(lines: list[str | bytes]) -> bytes:
    return b"\n".join(map(_utf8, lines)) + b"\n"


# --- generating an index for records that have none ------------------------------


def generated_link(path: str, record: Record) -> IndexLink:
    """The link line a generated index gives an entry: its name, and its description (else trigger) as hook."""
    hook = record.description or record.trigger
    hook = _clip(_one_line(hook).strip(), LINK_TEXT) if hook else None
    name = record.title or record.link
    return IndexLink(title=_clip(_one_line(name), LINK_TEXT), target=path, hook=hook)


def _one_line(text: str) -> str:
    """A line of MEMORY.md: no line break, no other control character (``text.printable``; a NUL made the whole
    index a binary file, quarantined when read again). The memory's file holds the text as it is."""
    return printable(text)


def generate(entries: Iterable[tuple[str, Record, str | None]], extra: list[IndexSection] = (),
             title: str = TITLE) -> tuple[Mapping[str, bytes], list[str]]:
    """The index files linking every ``(path, record, claude type)``, grouped by type, within Claude Code's limits.

    ``extra`` are sections to keep after the groups (inline memory from another
    dialect's index: content). Returns path → bytes (``MEMORY.md`` first) and
    the warnings to report (see :func:`paginate`). Each entry's line is made as
    it comes (:func:`entry_line`) and the lines sorted by path: ``entries`` may
    make each record as it is asked for (a conversion's store, held packed), and
    sorting the entries would hold them all (docs/performance.md, "(thirty-ninth)").
    """
    lines = [entry_line(path, record, written_type) for path, record, written_type in entries]
    lines.sort(key=lambda line: line[0])
    return generate_from(lines, extra, title)


#: The generated index's line for one entry: (its path, the group it is listed under, the line as UTF-8 bytes).
EntryLine = tuple[str, "str | None", bytes]
_GROUP_KEYS = frozenset(key for key, _ in GROUPS)


def entry_line(path: str, record: Record, written_type: str | None) -> EntryLine:
    """What :func:`generate` keeps of one ``(path, record, claude type)``: a writer given its records one at a time
    keeps this for each, and lets the record go, to the last record's file. The line is held as its UTF-8 bytes:
    as a string, the dash before its hook made every character of it two bytes, 388 bytes a line held to the end of
    a write into Claude (docs/performance.md, "(forty-third)")."""
    return path, written_type if written_type in _GROUP_KEYS else None, \
        link_line(generated_link(path, record)).encode("utf-8", "surrogatepass")


def generate_from(lines: Iterable[EntryLine], extra: list[IndexSection] = (),
                  title: str = TITLE) -> tuple[Mapping[str, bytes], list[str]]:
    """:func:`generate`, from each entry's :func:`entry_line`, given in the order of their paths."""
    # Each record's line is made at once and its link let go; one heading string per group: at 100,000
    # records, a link object and a heading each were about 26 MB at the end of a write (docs/performance.md).
    grouped: dict[str | None, list[str]] = {}
    for _, group, line in lines:
        grouped.setdefault(group, []).append(line)
    units: list[Unit] = []
    for key, label in GROUPS:
        heading = f"## {label}"
        units.extend((heading, (line,)) for line in grouped.pop(key, ()))  # (a list each: 24 bytes more a line)
    for n, section in enumerate(extra):
        # A section of its own even where a group has its heading: the number keeps it apart.
        units.extend(((f"## {section.heading or 'Notes'}", n), _inline_lines(text)) for text in section.inline)
    files, warning = paginate(f"# {title}", [""], units, spaced=True)
    return files, [warning] if warning else []
