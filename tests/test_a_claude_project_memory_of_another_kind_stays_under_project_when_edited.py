"""A Claude ``type: project`` memory of another kind (``memconv: {kind: goal}``) stays under ``## Project``.

Its file was not in the writer's layout (a quoted name), so the way there carried a format patch, and an edit there
brought it home rebuilt in that layout. The Claude writer's type word was then the kind's own word (``goal``), not the
``project`` it is without a layout, so ``MEMORY.md`` listed the memory under ``## Other`` (forty-sixth session).
"""

from __future__ import annotations

from .conftest import tree, write_files
from .convert_helpers import convert_quietly

GOAL = b"---\ntype: project\nname: \"Retry release\"\ndescription: A goal\nmemconv:\n  kind: goal\n---\n\n" \
       b"Ship the retry release.\n"
INDEX = "# Memory Index\n\n## Project\n- [Retry release](project_retry.md) \u2014 A goal\n".encode()


def test_an_edited_project_memory_of_another_kind_comes_home_under_project(runner, tmp_path):
    write_files(tmp_path / "c", {"project_retry.md": GOAL, "MEMORY.md": INDEX})
    convert_quietly(runner, "claude", "memoir", tmp_path / "c", tmp_path / "m")
    away = tmp_path / "m" / "memory" / "goal_retry.md"
    text = away.read_text(encoding="utf-8")
    assert "format" in text and "ops" in text, "its layout travels as a format patch: " + text
    away.write_text(text.replace("description: A goal\n", "description: A goal, edited\n"), encoding="utf-8")
    convert_quietly(runner, "memoir", "claude", tmp_path / "m", tmp_path / "back")
    back = tree(tmp_path / "back")
    assert back["project_retry.md"] == GOAL.replace(b"A goal", b"A goal, edited"), back["project_retry.md"]
    assert back["MEMORY.md"] == INDEX.replace(b"A goal", b"A goal, edited"), \
        "a project memory is listed under ## Project whether or not its file kept a layout"
