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
from functools import lru_cache

from ...markdown import outline

#: A bold label opening a line: ``**How to apply:** text`` or ``**Why**: text``.
_LABEL = re.compile(r"^\*\*(?P<label>[^*\n]{1,40}?):?\*\*:?[ \t]*")


#: The labels Claude Code writes in feedback and project entries.
HOW_TO_APPLY = "how to apply"
WHY = "why"


def first_title(body: str) -> str | None:
    """The text of the first level-1 heading (``# Title``), outside code."""
    if "#" not in body:
        return None
    for _, level, text in outline(body).headings:
        if level == 1:
            return text
    return None


@lru_cache(maxsize=1024)
def section(body: str, label: str) -> str | None:
    """The text of the ``**Label:**`` section of ``body``, or None if it has none.

    Remembered for the last thousand bodies asked: a record's file read back soon after its render asks
    again of an equal body. Not for more: each body remembered is held, and a run that lets each record go
    once written held 65,536 of them to its end (about 40 MB of a 100,000-entry ``migrate --from claude``),
    while the writer's second ask, a whole store after the reader's, missed anyway once a store passed that
    many lessons; asked again, a section takes about 10 µs (docs/performance.md, "(thirty-eighth)").

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
