"""The js-yaml line folding visits only the breaks where it cuts, and cuts where the loop over
every break (js-yaml's ``foldLine``, as memconv first wrote it) cut."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv.dialects.memspec.jsyaml import _fold_line_text

_BREAK = re.compile(r" (?=[^ ])")


def _fold_every_break(line: str, width: int) -> str:
    """The loop the fold replaced: every break visited, in order."""
    if not line or line[0] == " ":
        return line
    out: list[str] = []
    start = curr = 0
    for match in _BREAK.finditer(line):
        nxt = match.start()
        if nxt - start > width:
            end = curr if curr > start else nxt
            out.append("\n" + line[start:end])
            start = end + 1
        curr = nxt
    out.append("\n")
    if len(line) - start > width and curr > start:
        out.append(line[start:curr] + "\n" + line[curr + 1:])
    else:
        out.append(line[start:])
    return "".join(out)[1:]


#: Words of any length, single and repeated spaces: long words force cuts at the next break.
_line = st.lists(st.one_of(st.text("ab", min_size=1, max_size=12), st.sampled_from([" ", " ", "  ", "   "])),
                 max_size=40).map("".join)


@settings(max_examples=3000)
@given(_line, st.integers(1, 20))
def test_the_fold_cuts_where_the_loop_over_every_break_cut(line, width):
    assert _fold_line_text(line, width) == _fold_every_break(line, width)


def test_a_long_json_carry_folds_as_before():
    line = ('{"v":1,"from":"memoir","fields":{"link":"next_action_review-index-6497","description":"A generated '
            'next_action for the benchmark","body":"Paragraph one of record 6497: the review runs before the '
            'index, and `make rollout` checks it."}}')
    for width in (40, 76, 80):
        assert _fold_line_text(line, width) == _fold_every_break(line, width)
