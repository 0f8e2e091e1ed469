"""A Claude memory carried from memoir keeps its links through a third dialect: memoir → claude → memfmt (or
memspec) → claude gives the Claude folder back byte for byte, its links naming the Claude files they name."""

from __future__ import annotations

import pytest

from .conftest import tree, write_files
from .convert_helpers import convert_quietly

# The lesson's body differs in Claude (its **How to apply:** line), so it carries memoir's body, which names the goal
# as memoir does; the goal carries nothing of memoir's (it is Claude's own there, `project_retry-release`).
LESSON = b"---\ntype: lesson\nname: The backup token note\ndescription: A lesson\ntrigger: before a deploy\n" \
         b"how_to_apply: run the smoke tests first\ncreated: 2026-04-12\n---\n\nParagraph one.\n\n" \
         b"- second point, see [[goal_retry-release]]\n\n**Why:** measured.\n"
GOAL = b"---\ntype: goal\nname: The retry release note\ndescription: A goal\nset_on: 2026-11-15\n" \
       b"created: 2026-11-15\n---\n\nParagraph one, see [[lesson_backup-token]].\n"


@pytest.mark.parametrize("third", ["memfmt", "memspec"])
def test_claude_through_a_third_dialect_comes_back_byte_for_byte(runner, tmp_path, third):
    write_files(tmp_path / "in", {"memory/lesson_backup-token.md": LESSON, "memory/goal_retry-release.md": GOAL})
    convert_quietly(runner, "memoir", "claude", tmp_path / "in", tmp_path / "c")
    claude = tree(tmp_path / "c")
    assert b"see [[project_retry-release]]" in claude["feedback_backup-token.md"]
    convert_quietly(runner, "claude", third, tmp_path / "c", tmp_path / "away")
    # The third dialect's files name the goal as it does, not as memoir does.
    shown = [line for data in tree(tmp_path / "away").values() for line in data.splitlines()
             if line.startswith(b"- second point")]  # (its carry holds memoir's body, named as there)
    assert shown and not [line for line in shown if b"goal_retry-release" in line], shown
    convert_quietly(runner, third, "claude", tmp_path / "away", tmp_path / "cc")
    back = tree(tmp_path / "cc")
    assert back["feedback_backup-token.md"] == claude["feedback_backup-token.md"]
    assert {p: b for p, b in back.items() if not p.startswith(".memconv") and "working-set" not in p} \
        == {p: b for p, b in claude.items() if not p.startswith(".memconv") and "working-set" not in p}
