"""A body shown as a memfmt entity's facts, one fact edited there, keeps the blocks of its other facts at home.

memfmt shows a memoir or Claude memory's body as facts, one per block: a list's items each a fact, a code block's
lines each a fact as inline code (docs/conversion.md, "Facts from a body's blocks"). Read home, the facts are a
paragraph each. With the body as it was in the carry, that is no matter; but one fact edited there, the body came
home a paragraph a fact: the list's markers and the fence were gone, though the user edited neither.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv.converters import transforms

from .convert_helpers import convert_dir

BODY = ("We deploy with care.\n\n- tag first\n- then build\n\n```sh\nmake release\nmake tag\n```\n\n"
        "Ask ops when unsure.\n")
MEMOIR = "---\ntype: fact\nname: Deploy rules\ndescription: How we deploy\n---\n\n" + BODY
CLAUDE = "---\nname: Deploy rules\ndescription: How we deploy\ntype: reference\n---\n\n" + BODY


def _home(tmp_path: Path, dialect: str, path: str, text: str, old: str, new: str) -> str:
    (tmp_path / "in" / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "in" / path).write_text(text)
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "memfmt")
    [entity] = (out / "memory" / "entities").glob("*.md")
    shown = entity.read_text()
    assert shown.count(old) == 1
    entity.write_text(shown.replace(old, new))
    return (convert_dir(out, dialect, tmp_path / "back") / path).read_text()


@pytest.mark.parametrize(("dialect", "path", "text"), [
    ("memoir", "memory/fact_deploy.md", MEMOIR),
    ("claude", "reference_deploy.md", CLAUDE),
], ids=["memoir", "claude"])
def test_an_edited_fact_leaves_the_list_and_the_fence_as_they_were(tmp_path, dialect, path, text):
    # Watched fail before: "tag first", "then build", "`make release`" and "`make tag`" came home paragraphs.
    back = _home(tmp_path, dialect, path, text, "- Ask ops when unsure.\n", "- Ask ops when unsure, always.\n")
    assert back == text.replace("Ask ops when unsure.", "Ask ops when unsure, always.")


def test_an_edited_item_and_code_line_come_home_as_paragraphs_the_rest_as_it_was(tmp_path):
    back = _home(tmp_path, "memoir", "memory/fact_deploy.md", MEMOIR, "- `make tag`\n", "- `make tag --sign`\n")
    # The fence is not whole any more: its lines are paragraphs, as read; the list before it is as it was.
    assert back == MEMOIR.replace("```sh\nmake release\nmake tag\n```", "`make release`\n\n`make tag --sign`")


@pytest.mark.parametrize(("old", "new"), [("- then build\n", "- then build twice\n"),
                                          ("- tag first\n", "- tag first, signed\n")], ids=["last", "first"])
def test_an_edited_list_item_comes_home_an_item_of_its_list(tmp_path, old, new):
    # Watched fail before: the edited item came home a paragraph, cutting its list in two.
    back = _home(tmp_path, "memoir", "memory/fact_deploy.md", MEMOIR, old, new)
    assert back == MEMOIR.replace(old, new)


WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=6)
LINE = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
BLOCK = st.one_of(
    LINE.map(lambda line: line.capitalize() + "."),  # a paragraph
    st.lists(LINE, min_size=1, max_size=3).map(lambda items: "\n".join(f"- {i}" for i in items)),  # a list
    st.lists(LINE, min_size=1, max_size=3).map(lambda code: "```\n" + "\n".join(code) + "\n```"))  # a fence


@settings(max_examples=200, deadline=None)
@given(st.lists(BLOCK, min_size=1, max_size=5), st.data())
def test_what_comes_home_says_the_facts_as_edited(blocks, data):
    # Whatever was edited, the body that comes home reads as the facts the entity holds now: no word lost, none
    # added, none moved; only the unedited blocks keep their markdown.
    before = "\n\n".join(blocks) + "\n"
    facts = transforms.facts_of(before)
    edited = list(facts)
    at = data.draw(st.integers(0, len(edited) - 1))
    change = data.draw(st.sampled_from(["edit", "delete", "insert", "none"]))
    new = data.draw(LINE).capitalize() + " now."
    if change == "edit":
        edited[at] = new
    elif change == "delete":
        del edited[at]
    elif change == "insert":
        edited.insert(at, new)
    assume(edited)
    back = transforms.blocks_back(transforms.join_paragraphs(edited), before)
    assert transforms.facts_of(back) == edited
    if change == "none":
        assert back == before


MARKDOWN = st.text(alphabet="ab -*#`>1.)[]_", min_size=1, max_size=10).map(str.strip).filter(bool)


@settings(max_examples=300, deadline=None)
@given(st.lists(BLOCK, min_size=1, max_size=5), st.data())
def test_an_item_edited_to_say_markdown_still_reads_as_edited(blocks, data):
    # An edited item is written under its marker only where the line still reads as the fact memfmt holds: "# a",
    # "- b" or "1. c" under "- " would be a heading or a list of its own there, and another fact.
    before = "\n\n".join(blocks) + "\n"
    edited = transforms.facts_of(before)
    for _ in range(data.draw(st.integers(1, 3))):
        edited[data.draw(st.integers(0, len(edited) - 1))] = data.draw(st.one_of(MARKDOWN, LINE))
    assume(transforms.facts_of(transforms.join_paragraphs(edited)) == edited)  # facts as memfmt's reader gives them
    back = transforms.blocks_back(transforms.join_paragraphs(edited), before)
    assert transforms.facts_of(back) == edited


def test_an_item_edited_to_a_rule_stays_a_paragraph():
    # "- ---" is a thematic break, not an item saying "---": under its marker the item would read as another fact.
    back = transforms.blocks_back("---\n\nb\n", "- a\n- b\n")
    assert transforms.facts_of(back) == ["---", "b"]
    assert transforms.blocks_back("c\n\nb\n", "- a\n- b\n") == "- c\n- b\n"
