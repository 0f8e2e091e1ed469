"""A body's blocks (memconv.markdown.blocks), and the facts a memfmt entity is given from them.

A memoir or Claude body went into memfmt's facts collapsed at blank lines only: a list became one fact of
dashes (``- - first - second``) and a fenced block one line of code run together. memfmt shows and searches
the facts, so each block is a fact now, each list item one, each code line one (docs/conversion.md, "Facts
from a body's blocks"). The memfmt library itself is the judge of what its user sees.
"""

from __future__ import annotations

from pathlib import Path

import memfmt
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv import pipeline
from memconv.converters.transforms import facts_of
from memconv.markdown import _parsed_blocks, _simple_blocks, blocks
from memconv.report import Report

from .markdown_lines import line


@settings(max_examples=400, deadline=None)
@given(st.lists(line, max_size=12), st.booleans())
def test_the_simple_reading_is_markdown_its_reading(lines, final_newline):
    body = "\n".join(lines) + ("\n" if final_newline else "")
    simple = _simple_blocks(body)
    assume(simple is not None)
    assert simple == _parsed_blocks(body)


def test_plain_bodies_are_read_without_markdown_it():
    """Prose, ``- item`` lists, headings and blank lines (what the agents write) take the simple path."""
    body = "Paragraph one.\nmore\n\n- first point\n- second, see [[x]]\n\n## Heading\n\n**Why:** measured.\n"
    assert _simple_blocks(body) == [("paragraph", 0, 2, None), ("item", 3, 4, None), ("item", 4, 5, None),
                                    ("heading", 6, 7, None), ("paragraph", 8, 9, None)]


def test_each_item_and_each_code_line_is_a_fact():
    body = ("Run these in order:\n\n```bash\nmake clean\nmake release VERSION=2\n\n```\n\n"
            "- then tag it\n- then push,\n  then wait\n\n1. one\n2. two\n\nIntro:\n* a\n\nNow:\n\n"
            "    indented `code`\n\n> a quote\n> more\n")
    assert facts_of(body) == ["Run these in order:", "`make clean`", "`make release VERSION=2`", "then tag it",
                              "then push, then wait", "one", "two", "Intro:", "a", "Now:", "`` indented `code` ``",
                              "> a quote > more"]
    assert [kind for kind, *_ in blocks(body)] == ["paragraph", "code", "item", "item", "item", "item",
                                                    "paragraph", "item", "paragraph", "code", "other"]


def test_a_code_line_with_backticks_stays_one_code_span():
    assert facts_of("```\n`tick` and ``two``\n```\n") == ["``` `tick` and ``two`` ```"]


def test_memfmt_shows_a_list_and_a_fence_as_facts(tmp_path: Path):
    """The judge: memfmt's own reader, on what memconv wrote from a memoir fact."""
    store = tmp_path / "in" / "memory"
    store.mkdir(parents=True)
    (store / "fact_build.md").write_text(
        "---\ntype: fact\nname: How to build the release\ndescription: The build needs two commands\n"
        "created: 2026-05-02\n---\n\nRun these in order:\n\n```bash\nmake clean\nmake release VERSION=2\n```\n\n"
        "- then tag it\n- then push\n", encoding="utf-8")
    out = tmp_path / "out"
    plan = pipeline.plan(pipeline.read(tmp_path / "in", "memoir"), "memfmt", Report(command="convert", input="in"))
    for path, data in plan.iter_files():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_bytes(data)
    (entity,) = memfmt.load(str(out)).entities
    assert entity.facts == ["The build needs two commands", "Run these in order:", "`make clean`",
                            "`make release VERSION=2`", "then tag it", "then push"]
    # and the way back gives the file as it was (the body is carried)
    back = pipeline.plan(pipeline.read(out, "memfmt"), "memoir", Report(command="convert", input="in")).files
    assert back["memory/fact_build.md"] == (store / "fact_build.md").read_bytes()


def test_an_item_with_nothing_after_its_marker_is_a_fact_of_its_marker():
    """A body "-" (a fact "-" written as a paragraph) is an empty list item to markdown: its text is kept."""
    assert facts_of("-\n") == ["-"]
    assert facts_of("- a\n-\n- b\n") == ["a", "-", "b"]
    assert facts_of("1.\n") == ["1."]
