"""A record renamed *and* edited in IN before one import is that record, not a new one beside the old.

The sequel of ``test_a_record_renamed_in_in_is_not_imported_beside_the_old_one``: there the renamed file converts
to the bytes the last import brought (the import record's ``in``) and pairs by them. Renamed and edited, it converts
to other bytes; before the fix the import wrote ``reference_staging-apis.md`` beside
``reference_staging-endpoints.md``, both linked in MEMORY.md, exit 0, "1 added": the edit in a second copy, the old
text kept as current. Now the record pairs with EXISTING's copy of the old name by its kind and title, and the edit
is an edit (IN's copy wins where EXISTING's did not change); edited on both sides, it is a conflict as usual.
"""

from __future__ import annotations

import re

from click.testing import CliRunner

from memconv.cli import main

from .import_into import (assert_edit_lands_in_the_old_memory, claude_in_memoir_existing, golden_imported_once,
                          rename_entry, run)


def test_an_entry_renamed_and_edited_in_memoir_in_updates_the_old_one(tmp_path):
    src, existing = golden_imported_once(tmp_path)
    rename_entry(src / "memory", "fact_staging-endpoints", "fact_staging-apis",
                 lambda text: text.replace("60 req/min", "120 req/min"))
    # Watched fail before the fix: reference_staging-apis.md written beside reference_staging-endpoints.md.
    assert_edit_lands_in_the_old_memory(src, existing)


def test_a_memory_renamed_and_edited_in_claude_in_updates_the_old_one(tmp_path):
    """The same from a Claude folder into a memoir store; the report says it (watched fail before the fix)."""
    src, existing, entry = claude_in_memoir_existing(tmp_path)
    index = src / "MEMORY.md"
    args = ("claude-to-memoir", str(src), "--into", str(existing))
    assert run(*args) == 0
    (src / "user_commit-rules.md").write_text(entry.read_text().replace("mood.", "mood, 50 at most."))
    entry.unlink()
    index.write_text(index.read_text().replace("(user_commit-style.md)", "(user_commit-rules.md)"))
    result = CliRunner().invoke(main, [*args, "-v"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (existing / "memory").iterdir()) == ["fact_role.md", "preference_commit-style.md"]
    assert "50 at most" in (existing / "memory" / "preference_commit-style.md").read_text()
    assert "renamed in IN since its last import; EXISTING's name kept" in result.output
    assert "changed in IN since its last import, not in EXISTING" in result.output


def test_renamed_and_edited_in_in_and_edited_in_existing_is_a_conflict(tmp_path):
    src, existing, entry = claude_in_memoir_existing(tmp_path)
    assert run("claude-to-memoir", "-q", str(src), "--into", str(existing)) == 0
    mine = existing / "memory" / "preference_commit-style.md"
    mine.write_text(mine.read_text().replace("mood.", "mood, always."))
    (src / "user_commit-rules.md").write_text(entry.read_text().replace("mood.", "mood, 50 at most."))
    entry.unlink()
    index = src / "MEMORY.md"
    index.write_text(index.read_text().replace("(user_commit-style.md)", "(user_commit-rules.md)"))
    assert run("claude-to-memoir", "-q", str(src), "--into", str(existing)) == 6  # a conflict: both kept
    assert "always" in mine.read_text()
    copies = [p for p in (existing / "memory").iterdir() if p.name.startswith("preference_")]
    assert len(copies) == 2 and any("50 at most" in p.read_text() for p in copies if p != mine), copies


def test_a_record_renamed_with_another_title_stays_its_own(tmp_path):
    """No name, no bytes, no title in common: nothing says it is the same record, so it is added beside the old."""
    src, existing, entry = claude_in_memoir_existing(tmp_path)
    assert run("claude-to-memoir", "-q", str(src), "--into", str(existing)) == 0
    (src / "user_commit-rules.md").write_text(entry.read_text().replace("Commit style", "Commit rules"))
    entry.unlink()
    index = src / "MEMORY.md"
    index.write_text(index.read_text().replace("(user_commit-style.md)", "(user_commit-rules.md)"))
    assert run("claude-to-memoir", "-q", str(src), "--into", str(existing)) == 0
    copies = sorted(p.name for p in (existing / "memory").glob("preference_*"))
    assert copies == ["preference_commit-rules.md", "preference_commit-style.md"]


def test_a_claim_renamed_in_memoir_in_is_not_paired_by_its_title_into_memspec(tmp_path):
    """A memspec claim's id, made from the name, is in its file: paired by the title, the renamed claim's file held
    EXISTING's id and never IN's copy, so the next edit in IN was one on both sides, a conflict (watched fail:
    exit 6 at the edit after the rename). The rename stays a claim of its own, as before."""
    src, existing = golden_imported_once(tmp_path, "memspec")
    renamed = src / "memory" / "preference_commit-rules.md"
    (src / "memory" / "preference_commit-style.md").rename(renamed)
    for subject in ("Add a retry", "Add the retry"):
        assert run("memoir-to-memspec", "-q", str(src), "--into", str(existing)) == 0
        renamed.write_text(re.sub(r'\("Add[^"]*"', f'("{subject}"', renamed.read_text()))
    assert run("memoir-to-memspec", "-q", str(src), "--into", str(existing)) == 0
    claims = [p.read_text() for p in (existing / ".memspec").rglob("ms_*.md")]
    assert sum('"Add the retry"' in c for c in claims) == 1
    assert not any("conflict" in p.name for p in (existing / ".memspec").rglob("*.md"))
