"""A memoir preference imported ``--into`` an existing Claude folder, the import run again and again."""

from __future__ import annotations

import shutil
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


#: A memoir store of every kind of entry, the import scenarios' IN.
GOLDEN_MEMOIR = Path(__file__).resolve().parent.parent / "golden" / "memoir" / "canonical" / "input"


def run(*args: str) -> int:
    """``memconv ARGS``' exit code, asserting it ended by an exit, never an exception."""
    result = CliRunner().invoke(main, [*args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code


def files_of(root: Path) -> dict[str, bytes]:
    """Every file under ``root``, by its path there: its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def golden_imported_once(tmp_path: Path, target: str = "claude") -> tuple[Path, Path]:
    """IN, a copy of :data:`GOLDEN_MEMOIR` (``tmp_path/in``), converted to ``target`` as EXISTING
    (``tmp_path/existing``) and imported into it once, both asserted to exit 0: (IN, EXISTING)."""
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(GOLDEN_MEMOIR, src)
    assert run(f"memoir-to-{target}", "-q", str(src), str(existing)) == 0
    assert run(f"memoir-to-{target}", "-q", str(src), "--into", str(existing)) == 0
    return src, existing


def rename_entry(memory: Path, old: str, new: str, edit=lambda text: text) -> None:
    """Rename memoir entry ``old`` to ``new`` in ``memory``, ``edit`` done to its text, and the [[links]] to it
    in every entry with it, as a person does."""
    (memory / f"{new}.md").write_text(edit((memory / f"{old}.md").read_text()))
    (memory / f"{old}.md").unlink()
    for p in memory.glob("*.md"):
        p.write_text(p.read_text().replace(f"[[{old}]]", f"[[{new}]]"))


def assert_edit_lands_in_the_old_memory(src: Path, existing: Path) -> None:
    """``memoir-to-claude --into``, after the golden store's fact_staging-endpoints was renamed
    fact_staging-apis in IN and its 60 req/min made 120: the edit lands in EXISTING's copy of the old name, still
    one memory, and the import after changes nothing."""
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert not (existing / "reference_staging-apis.md").exists()
    assert "120 req/min" in (existing / "reference_staging-endpoints.md").read_text()
    assert (existing / "MEMORY.md").read_text().count("Staging API endpoints") == 1
    settled = files_of(existing)
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert files_of(existing) == settled
