"""A kept note (``.memconv/notes/<record>.markdown``) changed in IN since an import, not in EXISTING, is IN's.

A record the target cannot mark as it stands (memoir's superseded ``decision_redis-cache``, into a Claude folder)
is kept as a note memconv writes, a file no record owns. The import record knew records only: a note IN changed
(its [[link]] rewritten after IN renamed ``decision_local-db-choice``) had two copies and no date to order them,
a conflict, exit 6, though nobody edited EXISTING. Now the import record holds each note's digests too, and the
note changed on one side only takes that side's copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memoir" / "canonical" / "input"
NOTE = Path(".memconv") / "notes" / "decision_redis-cache.markdown"


def _run(*args: str) -> int:
    result = CliRunner().invoke(main, [*args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _imported_and_renamed(tmp_path: Path) -> tuple[Path, Path]:
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(GOLDEN, src)
    assert _run("memoir-to-claude", "-q", str(src), str(existing)) == 0
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    memory = src / "memory"
    (memory / "decision_local-db-choice.md").rename(memory / "decision_local-db.md")
    for p in memory.glob("*.md"):
        p.write_text(p.read_text().replace("[[decision_local-db-choice]]", "[[decision_local-db]]"))
    return src, existing


def test_a_note_whose_link_changed_in_in_is_taken_without_a_conflict(tmp_path):
    src, existing = _imported_and_renamed(tmp_path)
    # Watched fail before the fix: exit 6, decision_redis-cache.conflict-….markdown kept beside the note.
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert "[[decision_local-db]]" in (existing / NOTE).read_text()
    assert not list((existing / ".memconv" / "notes").glob("*conflict*"))
    settled = _files(existing)
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert _files(existing) == settled


def test_a_note_edited_in_existing_only_stays_as_existing_holds_it(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(GOLDEN, src)
    assert _run("memoir-to-claude", "-q", str(src), str(existing)) == 0
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    note = existing / NOTE
    note.write_text(note.read_text().replace("Kept for the record", "Kept here for the record"))
    mine = _files(existing)
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert _files(existing) == mine
