"""A memoir preference imported ``--into`` an existing Claude folder, the import run again and again."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main

ENTRY = "---\ntype: preference\nname: Commit style\ndescription: imperative mood\nscope: global\n" \
        "created: 2026-04-02\n---\n\nUse imperative mood.\n"


def import_into(src: Path, existing: Path) -> int:
    """``memoir-to-claude -q SRC --into EXISTING``: its exit code."""
    return CliRunner().invoke(main, ["memoir-to-claude", "-q", str(src), "--into", str(existing)]).exit_code


def imported_once(tmp_path: Path) -> tuple[Path, Path, Path]:
    """IN (``tmp_path/in``) holding :data:`ENTRY`, imported into EXISTING (``tmp_path/existing``, a Claude folder
    holding one other memory), asserted to exit 0: (IN, EXISTING, the entry's file in IN)."""
    src, existing = tmp_path / "in", tmp_path / "existing"
    (src / "memory").mkdir(parents=True)
    existing.mkdir()
    entry = src / "memory" / "preference_commit-style.md"
    entry.write_text(ENTRY)
    (existing / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Role](user_role.md) — backend engineer\n")
    (existing / "user_role.md").write_text("---\nname: Role\ndescription: backend engineer\ntype: user\n---\n\nGo.\n")
    assert import_into(src, existing) == 0
    return src, existing, entry


def claude_in_memoir_existing(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A Claude IN (``tmp_path/in``: one user memory and its index line) and a memoir EXISTING
    (``tmp_path/existing``, holding one other entry), nothing imported yet: (IN, EXISTING, the memory's file)."""
    src, existing = tmp_path / "in", tmp_path / "existing"
    src.mkdir()
    (existing / "memory").mkdir(parents=True)
    entry = src / "user_commit-style.md"
    entry.write_text("---\nname: Commit style\ndescription: imperative mood\ntype: user\n---\n\nUse imperative mood.\n")
    (src / "MEMORY.md").write_text("# Memory Index\n\n## User\n"
                                   "- [Commit style](user_commit-style.md) — imperative mood\n")
    (existing / "memory" / "fact_role.md").write_text("---\ntype: fact\nname: Role\ndescription: backend engineer\n"
                                                      "scope: global\ncreated: 2026-04-02\n---\n\nGo.\n")
    return src, existing, entry
