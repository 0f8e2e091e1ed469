"""A body outline read line by line (memconv.markdown) gives what markdown-it gives, wherever it answers."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv.dialects.claude.body import section
from memconv.markdown import outline, parsed_outline, simple_outline

from .markdown_lines import line


@settings(max_examples=400, deadline=None)
@given(st.lists(line, max_size=12), st.booleans())
def test_simple_outline_is_markdown_its_outline(lines, final_newline):
    body = "\n".join(lines) + ("\n" if final_newline else "")
    simple = simple_outline(body)
    assume(simple is not None)
    assert simple == parsed_outline(body)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Some text here.", "", "- a point", "**Why:** because.", "# Title",
                                 "**How to apply:** run it.", "more text"]), max_size=10))
def test_the_simple_path_answers_for_plain_bodies(lines):
    """Bodies of prose, headings, bullets and labels (what Claude Code writes) are read without markdown-it."""
    body = "\n".join(lines)
    simple = simple_outline(body)
    prose_then_item = any(a in ("Some text here.", "**Why:** because.", "**How to apply:** run it.", "more text")
                          and b == "- a point" for a, b in zip(lines, lines[1:]))
    item_then_prose = any(a == "- a point" and b not in ("", "- a point", "# Title") for a, b in zip(lines, lines[1:]))
    if not (prose_then_item or item_then_prose):
        assert simple is not None
    if simple is not None:
        assert simple == parsed_outline(body)


def test_a_lesson_section_is_the_same_either_way():
    body = "Paragraph one.\n\n- first\n- second\n\n**Why:** measured.\n\n**How to apply:** run the check.\n"
    assert simple_outline(body) is not None and outline(body) == parsed_outline(body)
    assert section(body, "how to apply") == "run the check."
