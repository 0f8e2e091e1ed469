"""A Claude index holding an inline bullet (``- Always run ruff``) beside its links, converted to another dialect and
back unedited, comes back without a warning that "the record of the words written in it is not in <dialect> any
more": the index has no words of its own, and no such record was ever made. Before, the index came back from the
store note with its links resolved against the other dialect's file names (``lesson_commit-style.md``), so every link,
and a split index's link to its next page, was taken for a line with no memory behind it, that is for words."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree

MEMORY = ("# Memory Index\n\n## Feedback\n- [Commit style](feedback_commit-style.md) — How commits are written\n"
          "- Always run ruff before committing\n")
ENTRY = "---\nname: Commit style\ndescription: How commits are written\ntype: feedback\n---\n\nUse imperative mood.\n"


def _convert(source, target, out):
    result = CliRunner().invoke(main, ["convert", "--json", "--jobs", "1", "--to", target, str(source), str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("away", ["memoir", "memspec", "memfmt"])
def test_an_inline_bullet_brought_back_says_no_words_were_deleted(tmp_path, away):
    store = tmp_path / "in"
    store.mkdir()
    (store / "MEMORY.md").write_text(MEMORY)
    (store / "feedback_commit-style.md").write_text(ENTRY)
    _convert(store, away, tmp_path / "away")
    report = _convert(tmp_path / "away", "claude", tmp_path / "back")
    said = [w for w in report["warnings"] if "words written in it" in w]
    assert said == [], said
    back = tree(tmp_path / "back")
    assert {p: b for p, b in back.items() if not p.startswith(".memconv/")} == tree(store)


def test_a_split_index_page_with_an_inline_bullet_says_no_words_were_deleted(tmp_path):
    store = tmp_path / "in"
    store.mkdir()
    (store / "MEMORY.md").write_text(MEMORY + "\n## More memory\n- [Memory index, page 2](MEMORY-2.md) — Project\n")
    (store / "MEMORY-2.md").write_text("# Memory Index (page 2 of 2)\n\n## Project\n- Ship on Fridays only\n"
                                       "- [Commit style](feedback_commit-style.md) — How commits are written\n")
    (store / "feedback_commit-style.md").write_text(ENTRY)
    _convert(store, "memoir", tmp_path / "away")
    report = _convert(tmp_path / "away", "claude", tmp_path / "back")
    said = [w for w in report["warnings"] if "words written in it" in w]
    assert said == [], said


def test_words_whose_record_was_deleted_are_still_said(tmp_path):
    store = tmp_path / "in"
    store.mkdir()
    (store / "MEMORY.md").write_text(MEMORY.replace("— How commits are written", "— Edited hook"))
    (store / "feedback_commit-style.md").write_text(ENTRY)
    _convert(store, "memoir", tmp_path / "away")
    (tmp_path / "away" / "memory" / "fact_memory-words.md").unlink()
    report = _convert(tmp_path / "away", "claude", tmp_path / "back")
    assert any(w.startswith("MEMORY.md: the record of the words written in it") for w in report["warnings"])


def test_memories_memoir_holds_exactly_leave_no_words_behind(tmp_path):
    """(forty-sixth session) A memory that memoir says exactly wears no carry: it comes home under the link
    Claude's naming gives it (``user_style``), not memoir's (``preference_style``), and the index's link to it
    is that memory's, not a word of the index's own."""
    store = tmp_path / "in"
    store.mkdir()
    (store / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Style](user_style.md) — Prefers tabs\n"
                                     "- User prefers Tailwind CSS\n")
    (store / "user_style.md").write_text("---\nname: Style\ndescription: Prefers tabs\ntype: user\n---\n\nTabs.\n")
    _convert(store, "memoir", tmp_path / "away")
    assert "memconv" not in (tmp_path / "away" / "memory" / "preference_style.md").read_text(), \
        "the case asked for: a memory memoir holds exactly, with no carry"
    report = _convert(tmp_path / "away", "claude", tmp_path / "back")
    said = [w for w in report["warnings"] if "words written in it" in w]
    assert said == [], "an unedited index has no words of its own to have lost: " + repr(said)
    back = tree(tmp_path / "back")
    assert {p: b for p, b in back.items() if not p.startswith(".memconv/")} == tree(store)
