"""An upgrade renames a memory's links wherever MEMORY.md writes them, not only on its `- [Title](file.md)` lines.

Claude Code loads MEMORY.md; a paragraph, a numbered list or a table of it that names `feedback_no_mocks.md`
pointed at nothing once the upgrade named the file `lesson_no-mocks.md` (and an inline bullet's link, now the
body of a fact entry, too), with no warning and exit 0. A link in a code block is code, and stays as written.
"""

from __future__ import annotations

from memconv import upgrade as upgrading
from memconv.report import Report

from .claude_support import upgraded, write

LESSON = b"---\nname: No mocks\ndescription: never mock the db\ntype: feedback\n---\n**How to apply:** a real db.\n"
ROLE = b"---\nname: Role\ndescription: senior dev\ntype: user\n---\nAna.\n"
INDEX = (b"# Memory Index\n\nRead [No mocks](feedback_no_mocks.md) first, and [[user_role]].\n\n"
         b"## Feedback\n- [No mocks](feedback_no_mocks.md) \xe2\x80\x94 never mock the db\n"
         b"1. [Role](user_role.md) \xe2\x80\x94 in a numbered list\n"
         b"- Ana is senior, see [role](user_role.md)\n\n"
         b"| a | b |\n|---|---|\n| [t](./user_role.md#why) | x |\n\n"
         b"```\n[kept](user_role.md)\n```\n")


def _upgraded(tmp_path, shape="nested"):
    return upgraded({"MEMORY.md": INDEX, "feedback_no_mocks.md": LESSON, "user_role.md": ROLE}, tmp_path / "in", shape)


def test_every_link_of_memory_md_follows_the_rename(tmp_path):
    files = _upgraded(tmp_path)
    index = files["memory/MEMORY.md"].decode("utf-8")
    assert index.splitlines()[2] == "Read [No mocks](lesson_no-mocks.md) first, and [[preference_role]].", index
    assert "1. [Role](preference_role.md) — in a numbered list\n" in index
    assert "| [t](./preference_role.md#why) | x |\n" in index
    assert "```\n[kept](user_role.md)\n```\n" in index, "code is code"
    assert "feedback_no_mocks" not in index and "(user_role" not in index.replace("[kept](user_role.md)", "")


def test_an_inline_bullets_link_follows_the_rename_into_its_fact(tmp_path):
    files = _upgraded(tmp_path)
    (fact,) = [data for path, data in files.items() if path.startswith("memory/fact_")]
    assert b"see [role](preference_role.md)\n" in fact, fact


def test_a_second_upgrade_changes_nothing(tmp_path):
    once = _upgraded(tmp_path, "flat")
    write(once, tmp_path / "again")
    report = Report(command="upgrade", input="again")
    assert upgrading.plan(tmp_path / "again", report, "flat").files == once


def test_an_index_whose_only_link_is_in_a_paragraph_is_written_again(tmp_path):
    # Its link lines are all as read (there are none), so the index was its own bytes again.
    write({"MEMORY.md": b"# Memory Index\n\nAll we know: [No mocks](feedback_no_mocks.md).\n",
           "feedback_no_mocks.md": LESSON}, tmp_path / "in")
    report = Report(command="upgrade", input="in")
    files = upgrading.plan(tmp_path / "in", report, "flat").files
    assert files["MEMORY.md"] == b"# Memory Index\n\nAll we know: [No mocks](lesson_no-mocks.md).\n"
    (index,) = [f for f in report.files if f.source == "MEMORY.md"]
    assert index.status == "converted"
    assert index.changes == ["line 3: link (feedback_no_mocks.md) → (lesson_no-mocks.md)"]
