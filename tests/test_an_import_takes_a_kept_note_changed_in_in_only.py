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

from .import_into import GOLDEN_MEMOIR, files_of, golden_imported_once, rename_entry, run

NOTE = Path(".memconv") / "notes" / "decision_redis-cache.markdown"


def _imported_and_renamed(tmp_path: Path) -> tuple[Path, Path]:
    src, existing = golden_imported_once(tmp_path)
    rename_entry(src / "memory", "decision_local-db-choice", "decision_local-db")
    return src, existing


def test_a_note_whose_link_changed_in_in_is_taken_without_a_conflict(tmp_path):
    src, existing = _imported_and_renamed(tmp_path)
    # Watched fail before the fix: exit 6, decision_redis-cache.conflict-….markdown kept beside the note.
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert "[[decision_local-db]]" in (existing / NOTE).read_text()
    assert not list((existing / ".memconv" / "notes").glob("*conflict*"))
    settled = files_of(existing)
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert files_of(existing) == settled


def test_a_note_edited_in_existing_only_stays_as_existing_holds_it(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(GOLDEN_MEMOIR, src)
    assert run("memoir-to-claude", "-q", str(src), str(existing)) == 0
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    note = existing / NOTE
    note.write_text(note.read_text().replace("Kept for the record", "Kept here for the record"))
    mine = files_of(existing)
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert files_of(existing) == mine
