"""The shortcut that lets link scanning skip markdown-it says "may hold code" exactly when the
regex it replaced found a fence, a tag or an indented line."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv.markdown import may_hold_code

#: What the shortcut replaced (a regex alternation, tried at every position of every body).
MAYBE_CODE = re.compile(r"```|~~~|<|(?:^|\n)(?: {4}|\t)")


@settings(max_examples=2000)
@given(st.text(alphabet=st.sampled_from(list("`~< \t\na"))))
def test_the_shortcut_says_what_the_regex_said(body):
    assert may_hold_code(body) == bool(MAYBE_CODE.search(body))


def test_markdown_it_is_imported_only_for_a_body_that_may_hold_code(tmp_path):
    # Its import and set-up were a fifth of memconv's start-up. Verified by importing it at the top of
    # memconv/markdown.py again: fails with "True".
    import subprocess
    import sys

    from .bench_support import bench_module

    store = bench_module("generators").make("claude", tmp_path / "in", 30)  # prose, lists, `inline code`
    script = ("import sys\nfrom memconv.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print('markdown_it' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script, "claude-to-memspec", str(store), str(tmp_path / "out"),
                           "-q", "--jobs", "1"], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr
    from memconv.markdown import code_lines

    assert code_lines("text\n\n```\ncode\n```\n") == {2, 3, 4}, "a fenced body is still parsed"
