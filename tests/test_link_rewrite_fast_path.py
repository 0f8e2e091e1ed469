"""links.rewrite's shortcuts (no backtick, no code block) rename exactly what the line-by-line path renames."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memconv.converters import links

RENAME = {"a": "A", "b c": "B", "x": "y"}


def _line_by_line(body: str) -> str:
    """The rewrite before the shortcuts: code lines skipped, code spans skipped on every other line."""
    code = links._code_lines(body)

    def link(m):
        new = RENAME.get(m.group(1))
        return m.group(0) if new is None else f"[[{new}{m.group(2) or ''}]]"

    def line_(text: str) -> str:
        out, pos = [], 0
        for start, end in links.code_spans(text):
            out.append(links.WIKILINK.sub(link, text[pos:start]))
            out.append(text[start:end])
            pos = end
        out.append(links.WIKILINK.sub(link, text[pos:]))
        return "".join(out)

    return "\n".join(line if i in code else line_(line) for i, line in enumerate(body.split("\n")))


_PIECES = st.sampled_from(["[[a]]", "[[b c|label]]", "[[x", "]]", "[[z]]", "`", "``", "```\n", "    ", "\t", "<b>",
                           "\n", "\n\n", " ", "text", "[[", "|", "~~~\n", "- "])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=25).map("".join))
@example("see [[a]] and `[[a]]`")
@example("```\n[[a]]\n```\n[[a]]")
@example("[[a]]\n    [[a]]")
def test_rewrite_renames_what_the_line_by_line_path_renames(body):
    # Verified by letting the no-backtick shortcut run on bodies with code blocks: fenced links are renamed.
    assert links.rewrite(body, RENAME) == _line_by_line(body)
