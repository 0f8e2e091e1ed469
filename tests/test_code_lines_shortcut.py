"""The shortcut that lets link scanning skip markdown-it says "may hold code" exactly when the
regex it replaced found a fence, a tag or an indented line."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv.markdown import _may_hold_code

#: What the shortcut replaced (a regex alternation, tried at every position of every body).
MAYBE_CODE = re.compile(r"```|~~~|<|(?:^|\n)(?: {4}|\t)")


@settings(max_examples=2000)
@given(st.text(alphabet=st.sampled_from(list("`~< \t\na"))))
def test_the_shortcut_says_what_the_regex_said(body):
    assert _may_hold_code(body) == bool(MAYBE_CODE.search(body))
