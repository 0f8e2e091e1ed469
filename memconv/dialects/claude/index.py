"""``MEMORY.md``: the index Claude Code loads, read into the model and written back.

Claude Code loads only the first ~200 lines of ``MEMORY.md``: a ``# `` header,
``## `` sections, and one line per memory, ``- [Title](file.md) — hook``.
Old stores keep memory *in* the index as plain bullets with no file behind
them; those are content, so they are read into ``IndexSection.inline`` and
must reach every output.

Reading keeps the line structure in the source layout, so an unchanged index
comes back byte for byte, and an edited one keeps every line it can. Writing
an index for records that have none generates one grouped by type, and splits
it into linked pages (``MEMORY-2.md``…) rather than let Claude Code silently
stop reading at line 200.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...model import IndexFile, IndexLink, IndexSection, Record, Source
from ...text import decode, encode
from . import body as bodies

NAME = "claude"
PATH = "MEMORY.md"

#: Claude Code reads this many lines of MEMORY.md and no more.
LOADED_LINES = 200
#: Lines a generated index page may have: under the loaded limit, with room to spare.
PAGE_LINES = 190

#: An index page written when MEMORY.md alone would pass the limit: ``MEMORY-2.md``.
PAGE_FILE = re.compile(r"^MEMORY-(?P<n>[2-9]|[1-9][0-9]+)\.md$")
#: A link line: ``- [Staging endpoints](reference_staging.md) — base URLs and auth``.
LINK_LINE = re.compile(
    r"^(?P<bullet>[ \t]*[-*+][ \t]+)\[(?P<title>[^\]\n]*)\]\((?P<dot>\./)?(?P<target>[^)\s:]+\.md)\)"
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
    return repr((index.path, index.title, index.sections, index.extra))


def is_index_path(path: str) -> bool:
    return path == PATH or PAGE_FILE.match(path) is not None


def read_index(raw: bytes, path: str, present: set[str]) -> IndexFile:
    """``MEMORY.md`` bytes → an :class:`IndexFile`; ``present`` are the files in the folder."""
    text, text_layout = decode(raw, path)
    final_newline = text.endswith("\n")
    lines = (text[:-1] if final_newline else text).split("\n")
    code = bodies.outline(text).code
    index = IndexFile(path=path)
    layout = IndexLayout(text=text_layout, final_newline=final_newline)
    section = IndexSection(heading=None)
    index.sections.append(section)
    s = 0
    for n, line in enumerate(lines):
        last = layout.items[-1] if layout.items else None
        if n in code:
            layout.items.append(("text", line))
            continue
        if index.title is None and s == 0 and not section.links and not section.inline \
                and (title := heading_text(line, 1)) is not None and not line.startswith("##"):
            index.title = title
            layout.items.append(("title", line))
            continue
        if (heading := heading_text(line, 2)) is not None:
            section = IndexSection(heading=heading)
            index.sections.append(section)
            s += 1
            layout.items.append(("section", s, line))
            continue
        if m := LINK_LINE.match(line):
            target = m.group("target")
            section.links.append(IndexLink(title=m.group("title"), target=target, hook=m.group("hook"),
                                           resolved=target in present))
            layout.items.append(("link", s, len(section.links) - 1, line))
            continue
        if m := BULLET_LINE.match(line):
            section.inline.append(m.group("text"))
            layout.items.append(("inline", s, len(section.inline) - 1, [line]))
            continue
        if last is not None and last[0] == "inline" and CONTINUATION.match(line):
            section.inline[last[2]] += "\n" + line.strip()
            last[3].append(line)
            continue
        layout.items.append(("text", line))
    if index.sections[0].heading is None and not index.sections[0].links and not index.sections[0].inline \
            and len(index.sections) > 1:
        # No bullets before the first ``## ``: the header has no section of its own.
        index.sections.pop(0)
        layout.items = [_shift(item) for item in layout.items]
    index.source = Source(dialect=NAME, path=path, version="current", raw=raw, layout=layout)
    index.source.fingerprint = index_fingerprint(index)
    return index


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
    """``- [Title](file.md) — hook``, the reference's line format."""
    line = f"- [{link.title}]({link.target})"
    return line + (f" — {link.hook}" if link.hook else "")


def write_index(index: IndexFile) -> bytes:
    """An index back to bytes: its own bytes if unchanged, else its lines with the changes."""
    source = index.source
    layout = source.layout if source is not None and source.dialect == NAME else None
    if layout is not None and source.raw is not None and source.fingerprint == index_fingerprint(index):
        return source.raw
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
                unchanged = (m.group("title"), m.group("target"), m.group("hook")) == (link.title, link.target,
                                                                                        link.hook)
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
    if m.group("hook") is not None and link.hook is not None and m.group("title") == link.title:
        start, end = m.span("target")
        line = line[:start] + link.target + line[end:]
        hs, he = m.span("hook")
        shift = len(link.target) - (end - start)
        return line[:hs + shift] + link.hook + line[he + shift:]
    if m.group("hook") == link.hook and m.group("title") == link.title:
        start, end = m.span("target")
        return line[:start] + link.target + line[end:]
    return m.group("bullet") + link_line(link)[2:]


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


# --- generating an index for records that have none ------------------------------


def generate(entries: list[tuple[str, Record, str | None]], title: str = "Memory Index") -> tuple[list[IndexFile], list[str]]:
    """Index files linking every ``(path, record, claude type)``, grouped by type, paged under the limit.

    Returns the index files (``MEMORY.md`` first) and the warnings to report.
    """
    grouped: dict[str | None, list[IndexLink]] = {}
    for path, record, written_type in sorted(entries, key=lambda e: e[0]):
        hook = record.description or record.trigger
        hook = hook.replace("\n", " ").strip() if hook else None
        link = IndexLink(title=(record.title or record.link).replace("\n", " ").replace("]", ")"), target=path,
                         hook=hook)
        group = written_type if written_type in {key for key, _ in GROUPS} else None
        grouped.setdefault(group, []).append(link)
    sections = [IndexSection(heading=label, links=grouped[key]) for key, label in GROUPS if key in grouped]
    main = IndexFile(path=PATH, title=title, sections=sections)
    if len(_render(main).split("\n")) - 1 < LOADED_LINES:
        return [main], []
    # Too long for Claude Code to read whole: page it.
    flat = [(s.heading, link) for s in sections for link in s.links]
    # Each page: title + blank, at most one heading (+ blank) per group, then its links.
    per_page = PAGE_LINES - 2 - 2 * len(GROUPS)
    count = 2
    while True:
        # MEMORY.md also carries the "More memory" section: a heading and a line per other page.
        first = max(per_page - 2 - (count - 1), 1)
        needed = 1 + -(-max(len(flat) - first, 0) // per_page)
        if needed <= count:
            break
        count = needed
    chunks = [flat[:first]] + [flat[i:i + per_page] for i in range(first, len(flat), per_page)]
    pages: list[IndexFile] = []
    for number, chunk in enumerate(chunks, start=1):
        path = PATH if number == 1 else f"MEMORY-{number}.md"
        page_sections: list[IndexSection] = []
        for heading, link in chunk:
            if not page_sections or page_sections[-1].heading != heading:
                page_sections.append(IndexSection(heading=heading))
            page_sections[-1].links.append(link)
        page_title = title if number == 1 else f"{title} (page {number} of {len(chunks)})"
        pages.append(IndexFile(path=path, title=page_title, sections=page_sections))
    more = IndexSection(heading="More memory")
    for number, page in enumerate(pages[1:], start=2):
        chunk = chunks[number - 1]
        more.links.append(IndexLink(title=f"Memory index, page {number}", target=page.path,
                                    hook=f"{len(chunk)} more entries, from {chunk[0][1].title}"))
    pages[0].sections.append(more)
    warning = (f"MEMORY.md would be {len(flat) + 2 * len(sections) + 2} lines, and Claude Code loads only the "
               f"first {LOADED_LINES}: split into {len(pages)} linked index pages "
               f"({', '.join(p.path for p in pages)})")
    return pages, [warning]
