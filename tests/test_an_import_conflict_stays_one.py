"""A record an import left in conflict is not taken for agreed by the next import.

``--into`` keeps, per IN, the digest of each record as it was imported and as it was left (``.memconv/imports.json``),
so that the next import tells an edit made in IN from one made in EXISTING. A conflict (both edited) leaves
EXISTING's copy in place and IN's beside it. Before the fix that import recorded EXISTING's edited copy as the
agreed one: the next import, IN edited again, took EXISTING's copy for unchanged and replaced it, exit 0, with no
conflict and nothing dropped said; the edit made in EXISTING was only in the backup.
"""

from __future__ import annotations

from .import_into import import_into, imported_once


def _edit(path, old, new):
    path.write_text(path.read_text().replace(old, new))


def test_an_edit_in_existing_left_in_conflict_survives_the_next_import(tmp_path):
    src, existing, entry = imported_once(tmp_path)
    _edit(existing / "user_commit-style.md", "Use imperative mood.", "Use imperative mood. EDITED HERE.")
    _edit(entry, "Use imperative mood.", "Use imperative mood. EDITED IN IN, ONCE.")
    assert import_into(src, existing) == 6  # a conflict: both kept
    _edit(entry, "ONCE", "TWICE")
    # Watched fail before the fix: exit 0, and EDITED HERE gone from EXISTING.
    assert import_into(src, existing) == 6
    assert "EDITED HERE" in (existing / "user_commit-style.md").read_text()
    assert any("TWICE" in p.read_text() for p in existing.glob("user_commit-style.conflict-*.md"))
    assert import_into(src, existing) == 0  # nothing new: the conflict is kept, not made again
