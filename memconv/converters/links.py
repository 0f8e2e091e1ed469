"""Wikilinks in bodies: find them and rename them, never inside code.

Link names differ between dialects (memoir ``fact_x``, memfmt ``X``, memspec
``ms_…``), so a conversion renames every ``[[link]]`` in every body. Code
blocks are found with markdown-it-py, not with a regex, so a ``[[x]]`` inside a
fence or an indented block is left as written; inline code spans are skipped
on the lines that remain.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

#: ``[[target]]`` or ``[[target|label]]``; group 1 is the target, group 2 the ``|label`` part.
WIKILINK = re.compile(r"\[\[([^\[\]|\n]+?)(\|[^\[\]\n]*)?\]\]")
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

_md = MarkdownIt("commonmark")


#: Anything that could open a code block or raw HTML: a fence, an indented line, a tag.
_MAYBE_BLOCK = re.compile(r"```|~~~|^(?: {4}|\t)|<", re.M)


def _code_lines(body: str) -> set[int]:
    if not _MAYBE_BLOCK.search(body):
        return set()  # no fence, no indented block, no HTML: markdown-it would find no code
    lines: set[int] = set()
    for token in _md.parse(body):
        if token.type in ("fence", "code_block", "html_block") and token.map:
            lines.update(range(token.map[0], token.map[1]))
    return lines


def rewrite(body: str, rename: dict[str, str]) -> str:
    """``body`` with every wikilink whose target is in ``rename`` pointed at its new name."""
    if "[[" not in body or not rename:
        return body

    def link(m: re.Match[str]) -> str:
        target = m.group(1)
        new = rename.get(target)
        return m.group(0) if new is None else f"[[{new}{m.group(2) or ''}]]"

    if "`" not in body and not _MAYBE_BLOCK.search(body):
        # No code span, no code block: every line is prose, and a wikilink never spans lines.
        return WIKILINK.sub(link, body)
    code = _code_lines(body)

    def line_(text: str) -> str:
        if "[[" not in text:
            return text
        if "`" not in text:
            return WIKILINK.sub(link, text)
        out, pos = [], 0
        for start, end in code_spans(text):
            out.append(WIKILINK.sub(link, text[pos:start]))
            out.append(text[start:end])
            pos = end
        out.append(WIKILINK.sub(link, text[pos:]))
        return "".join(out)

    lines = body.split("\n")
    return "\n".join(line if i in code else line_(line) for i, line in enumerate(lines))
