"""A record renamed in IN since an import is that record, not a new one, on the next import into the same EXISTING.

The mirror of ``test_a_memory_renamed_in_existing_is_not_imported_again_beside_it``. The import record keeps, per
IN, the digest of each record's file as converted from IN (``in``). A person who renames an entry in IN (memoir's
``fact_staging-endpoints.md`` moved to ``fact_staging-apis.md``, its [[links]] with it) converts to the same bytes
under another name. Before the fix the next import wrote ``reference_staging-apis.md`` beside
``reference_staging-endpoints.md``, linked both in MEMORY.md, exit 0, "1 added": two copies of one memory.
"""

from __future__ import annotations

from .import_into import (assert_edit_lands_in_the_old_memory, claude_in_memoir_existing, files_of,
                          golden_imported_once, rename_entry, run)


def test_an_entry_renamed_in_memoir_in_is_not_imported_beside_the_old_one(tmp_path):
    src, existing = golden_imported_once(tmp_path)
    memory = src / "memory"
    rename_entry(memory, "fact_staging-endpoints", "fact_staging-apis")
    before = files_of(existing)
    # Watched fail before the fix: reference_staging-apis.md written beside reference_staging-endpoints.md.
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert not (existing / "reference_staging-apis.md").exists()
    after = files_of(existing)
    assert {p: b for p, b in after.items() if p != ".memconv/imports.json"} == \
        {p: b for p, b in before.items() if p != ".memconv/imports.json"}
    assert (existing / "MEMORY.md").read_text().count("Staging API endpoints") == 1
    # An edit made in IN since lands in EXISTING's copy, still one memory, and again on the import after.
    renamed = memory / "fact_staging-apis.md"
    renamed.write_text(renamed.read_text().replace("60 req/min", "120 req/min"))
    assert_edit_lands_in_the_old_memory(src, existing)


def test_a_memory_renamed_in_claude_in_is_not_imported_beside_the_old_one(tmp_path):
    """The same from a Claude folder into a memoir store (watched fail before the fix)."""
    src, existing, entry = claude_in_memoir_existing(tmp_path)
    index = src / "MEMORY.md"

    def again() -> int:
        return run("claude-to-memoir", "-q", str(src), "--into", str(existing))

    assert again() == 0
    entry.rename(src / "user_commit-rules.md")
    index.write_text(index.read_text().replace("(user_commit-style.md)", "(user_commit-rules.md)"))
    before = {p.name: p.read_bytes() for p in (existing / "memory").iterdir()}
    assert again() == 0
    assert {p.name: p.read_bytes() for p in (existing / "memory").iterdir()} == before
    renamed = src / "user_commit-rules.md"
    renamed.write_text(renamed.read_text().replace("Use imperative mood.", "Use imperative mood, 50 at most."))
    assert again() == 0
    assert sorted(p.name for p in (existing / "memory").iterdir()) == ["fact_role.md", "preference_commit-style.md"]
    assert "50 at most" in (existing / "memory" / "preference_commit-style.md").read_text()
