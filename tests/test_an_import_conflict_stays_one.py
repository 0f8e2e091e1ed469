"""A record an import left in conflict is not taken for agreed by the next import.

``--into`` keeps, per IN, the digest of each record as it was imported and as it was left (``.memconv/imports.json``),
so that the next import tells an edit made in IN from one made in EXISTING. A conflict (both edited) leaves
EXISTING's copy in place and IN's beside it. Before the fix that import recorded EXISTING's edited copy as the
agreed one: the next import, IN edited again, took EXISTING's copy for unchanged and replaced it, exit 0, with no
conflict and nothing dropped said; the edit made in EXISTING was only in the backup.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv.cli import main

ENTRY = "---\ntype: preference\nname: Commit style\ndescription: imperative mood\nscope: global\n" \
        "created: 2026-04-02\n---\n\nUse imperative mood.\n"


def _import(src, existing) -> int:
    return CliRunner().invoke(main, ["memoir-to-claude", "-q", str(src), "--into", str(existing)]).exit_code


def _edit(path, old, new):
    path.write_text(path.read_text().replace(old, new))


def test_an_edit_in_existing_left_in_conflict_survives_the_next_import(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    (src / "memory").mkdir(parents=True)
    existing.mkdir()
    entry = src / "memory" / "preference_commit-style.md"
    entry.write_text(ENTRY)
    (existing / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Role](user_role.md) — backend engineer\n")
    (existing / "user_role.md").write_text("---\nname: Role\ndescription: backend engineer\ntype: user\n---\n\nGo.\n")
    assert _import(src, existing) == 0
    _edit(existing / "user_commit-style.md", "Use imperative mood.", "Use imperative mood. EDITED HERE.")
    _edit(entry, "Use imperative mood.", "Use imperative mood. EDITED IN IN, ONCE.")
    assert _import(src, existing) == 6  # a conflict: both kept
    _edit(entry, "ONCE", "TWICE")
    # Watched fail before the fix: exit 0, and EDITED HERE gone from EXISTING.
    assert _import(src, existing) == 6
    assert "EDITED HERE" in (existing / "user_commit-style.md").read_text()
    assert any("TWICE" in p.read_text() for p in existing.glob("user_commit-style.conflict-*.md"))
    assert _import(src, existing) == 0  # nothing new: the conflict is kept, not made again
