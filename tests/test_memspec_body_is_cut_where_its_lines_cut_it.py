"""A memspec record's text after its frontmatter is cut into its ``# Title`` head, its body and its title at places
found in the text (a 50 MB body cut into lines was a list of its lines and two more copies): the same cut as its
lines give."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv.dialects.memspec import records

_TITLE = re.compile(r"^#[ \t]+(\S.*)$")


def _cut_by_lines(rest: str):
    """The cut as it was made line by line: the first line off, the blank lines after it stripped."""
    first, newline, after = rest.partition("\n")
    match = _TITLE.match(first)
    if match:
        body = after.lstrip("\n")
        return first + newline + after[: len(after) - len(body)], body, match.group(1).strip()
    for line in rest.split("\n"):
        match = _TITLE.match(line)
        if match:
            return None, rest, match.group(1).strip()
    return None, rest, None


@settings(max_examples=500)
@given(st.lists(st.sampled_from(["# Title", "#\tTab title ", "#  ", "# ", "#x", "text", "", " # not", "\r",
                                 "# a\r", "para one"]), max_size=6), st.booleans())
def test_the_body_is_cut_where_its_lines_cut_it(lines, final_newline):
    # Verified by stripping any whitespace after a leading title (``\s*`` for the blank lines): it fails.
    rest = "\n".join(lines) + ("\n" if final_newline else "")
    assert records._split_body(rest) == _cut_by_lines(rest)


def _canonical_by_copies(title: str, body: str) -> str:
    """memspec's body as it was made: trimmed, its first line cut off when it repeats the title, joined."""
    content = body.strip()
    first, _, rest = content.partition("\n")
    if _TITLE.match(first) and _TITLE.match(first).group(1).strip() == title:
        content = rest.strip()
    return "\n".join([f"# {title}", "", content]).rstrip() + "\n"


@settings(max_examples=500)
@given(st.sampled_from(["Title", "Other", "T ", "x"]),
       st.lists(st.sampled_from(["# Title", "#  Title ", "# Other", "text", "", " ", "\t", "\u3000", "\r", "para"]),
                max_size=6), st.integers(min_value=0, max_value=5000))
def test_memspec_s_body_is_made_as_its_copies_made_it(title, lines, padding):
    # Verified by giving up after one tail of whitespace (no loop in text.end_of_text): 4096 spaces and more fail.
    from memconv.model import Record

    body = "\n".join(lines) + " " * padding * (len(lines) % 2)
    record = Record(kind="fact", link="x", title=title, body=body)
    assert records._canonical_body(record) == _canonical_by_copies(title, body)
