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
#: An inline code span: `` `code` `` or ``` ``code`` ```.
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")

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
    code = _code_lines(body)

    def link(m: re.Match[str]) -> str:
        target = m.group(1)
        new = rename.get(target)
        return m.group(0) if new is None else f"[[{new}{m.group(2) or ''}]]"

    def line_(text: str) -> str:
        if "[[" not in text:
            return text
        out, pos = [], 0
        for span in CODE_SPAN.finditer(text):
            out.append(WIKILINK.sub(link, text[pos:span.start()]))
            out.append(span.group(0))
            pos = span.end()
        out.append(WIKILINK.sub(link, text[pos:]))
        return "".join(out)

    lines = body.split("\n")
    return "\n".join(line if i in code else line_(line) for i, line in enumerate(lines))
