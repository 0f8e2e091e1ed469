"""A record renamed in IN since an import is that record, not a new one, on the next import into the same EXISTING.

The mirror of ``test_a_memory_renamed_in_existing_is_not_imported_again_beside_it``. The import record keeps, per
IN, the digest of each record's file as converted from IN (``in``). A person who renames an entry in IN (memoir's
``fact_staging-endpoints.md`` moved to ``fact_staging-apis.md``, its [[links]] with it) converts to the same bytes
under another name. Before the fix the next import wrote ``reference_staging-apis.md`` beside
``reference_staging-endpoints.md``, linked both in MEMORY.md, exit 0, "1 added": two copies of one memory.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main

from .import_into import claude_in_memoir_existing

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memoir" / "canonical" / "input"


def _run(*args: str) -> int:
    result = CliRunner().invoke(main, [*args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_an_entry_renamed_in_memoir_in_is_not_imported_beside_the_old_one(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(GOLDEN, src)
    assert _run("memoir-to-claude", "-q", str(src), str(existing)) == 0
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    memory = src / "memory"
    (memory / "fact_staging-endpoints.md").rename(memory / "fact_staging-apis.md")
    for p in memory.glob("*.md"):
        p.write_text(p.read_text().replace("[[fact_staging-endpoints]]", "[[fact_staging-apis]]"))
    before = _files(existing)
    # Watched fail before the fix: reference_staging-apis.md written beside reference_staging-endpoints.md.
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert not (existing / "reference_staging-apis.md").exists()
    after = _files(existing)
    assert {p: b for p, b in after.items() if p != ".memconv/imports.json"} == \
        {p: b for p, b in before.items() if p != ".memconv/imports.json"}
    assert (existing / "MEMORY.md").read_text().count("Staging API endpoints") == 1
    # An edit made in IN since lands in EXISTING's copy, still one memory, and again on the import after.
    renamed = memory / "fact_staging-apis.md"
    renamed.write_text(renamed.read_text().replace("60 req/min", "120 req/min"))
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert not (existing / "reference_staging-apis.md").exists()
    assert "120 req/min" in (existing / "reference_staging-endpoints.md").read_text()
    assert (existing / "MEMORY.md").read_text().count("Staging API endpoints") == 1
    settled = _files(existing)
    assert _run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert _files(existing) == settled


def test_a_memory_renamed_in_claude_in_is_not_imported_beside_the_old_one(tmp_path):
    """The same from a Claude folder into a memoir store (watched fail before the fix)."""
    src, existing, entry = claude_in_memoir_existing(tmp_path)
    index = src / "MEMORY.md"

    def run() -> int:
        return _run("claude-to-memoir", "-q", str(src), "--into", str(existing))

    assert run() == 0
    entry.rename(src / "user_commit-rules.md")
    index.write_text(index.read_text().replace("(user_commit-style.md)", "(user_commit-rules.md)"))
    before = {p.name: p.read_bytes() for p in (existing / "memory").iterdir()}
    assert run() == 0
    assert {p.name: p.read_bytes() for p in (existing / "memory").iterdir()} == before
    renamed = src / "user_commit-rules.md"
    renamed.write_text(renamed.read_text().replace("Use imperative mood.", "Use imperative mood, 50 at most."))
    assert run() == 0
    assert sorted(p.name for p in (existing / "memory").iterdir()) == ["fact_role.md", "preference_commit-style.md"]
    assert "50 at most" in (existing / "memory" / "preference_commit-style.md").read_text()
