"""A memory renamed in EXISTING since an import is that memory, not a new one, on the next import of the same IN.

``--into`` keeps, per IN, the digest of the file each record's import left in EXISTING (``.memconv/imports.json``).
A person who renames that file (``mv user_commit-style.md user_commit-rules.md`` in a Claude folder, and its index
line) keeps its bytes. Before the fix the next import of the same IN, unchanged, wrote ``user_commit-style.md``
again beside it and linked it in MEMORY.md: two copies of one memory, exit 0, with a backup; an edit made in IN
since went to the new copy, and the renamed one stayed as it was.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv.cli import main

from .import_into import ENTRY, claude_in_memoir_existing, import_into, imported_once


def _backups(existing):
    return sorted(existing.parent.glob(existing.name + ".memconv-backup-*"))


def test_a_memory_renamed_in_existing_is_not_imported_again_beside_it(tmp_path):
    src, existing, entry = imported_once(tmp_path)
    # Renamed by hand in Claude's folder, the index line with it.
    (existing / "user_commit-style.md").rename(existing / "user_commit-rules.md")
    index = existing / "MEMORY.md"
    index.write_text(index.read_text().replace("(user_commit-style.md)", "(user_commit-rules.md)"))
    before = {p.name: p.read_bytes() for p in existing.iterdir() if p.is_file()}
    # Watched fail before the fix: user_commit-style.md written again beside the renamed file.
    assert import_into(src, existing) == 0
    assert not (existing / "user_commit-style.md").exists()
    assert {p.name: p.read_bytes() for p in existing.iterdir() if p.is_file()} == before
    assert len(_backups(existing)) == 1, "nothing to change: no backup"
    # An edit made in IN since lands in the renamed file, still one memory.
    entry.write_text(ENTRY.replace("Use imperative mood.", "Use imperative mood, 50 characters at most."))
    assert import_into(src, existing) == 0
    assert not (existing / "user_commit-style.md").exists()
    assert "50 characters at most" in (existing / "user_commit-rules.md").read_text()
    assert index.read_text().count("Commit style") == 1
    assert import_into(src, existing) == 0
    assert len(_backups(existing)) == 2


def test_an_entry_renamed_in_an_existing_memoir_store_is_not_imported_again_beside_it(tmp_path):
    """The same into memoir, which has no index: the import record's pairing alone (watched fail before it)."""
    src, existing, entry = claude_in_memoir_existing(tmp_path)

    def run() -> int:
        return CliRunner().invoke(main, ["claude-to-memoir", "-q", str(src), "--into", str(existing)]).exit_code

    assert run() == 0
    (existing / "memory" / "preference_commit-style.md").rename(existing / "memory" / "preference_commit-rules.md")
    before = {p.name: p.read_bytes() for p in (existing / "memory").iterdir()}
    assert run() == 0
    assert {p.name: p.read_bytes() for p in (existing / "memory").iterdir()} == before
    entry.write_text(entry.read_text().replace("Use imperative mood.", "Use imperative mood, 50 at most."))
    assert run() == 0
    assert sorted(p.name for p in (existing / "memory").iterdir()) == ["fact_role.md", "preference_commit-rules.md"]
    assert "50 at most" in (existing / "memory" / "preference_commit-rules.md").read_text()
