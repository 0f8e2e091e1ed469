"""An edit in IN of a record the import wrote as IN's copy and the merge alone completed is taken, not a conflict.

The import record took EXISTING's copy for unchanged only where the import left IN's copy byte for byte (``out`` is
``in``). The merge completes some records from the rest of IN itself: memspec's chains give the decision a
superseded record names its successor ``supersedes``, and a record linking one renamed in IN has the link renamed
to EXISTING's name (``into._adopt``). So the next edit of it in IN was one on both sides: a conflict, exit 6 (memspec:
"same created, different content"; Claude, after a rename: the same), though nobody edited EXISTING. Now the import
record says where the file left is what IN's store alone gives (``"holds": "in"``), and such a file is IN's copy.
"""

from __future__ import annotations

import json
from pathlib import Path

from .import_into import files_of, golden_imported_once, rename_entry, run

WHY = "Zero-dependency install"


def _imported(tmp_path: Path, target: str) -> tuple[Path, Path]:
    return golden_imported_once(tmp_path, target)


def _edit_decision(src: Path) -> None:
    decision = src / "memory" / "decision_local-db-choice.md"
    decision.write_text(decision.read_text().replace(WHY, "A zero-dependency install"))


def _holding(existing: Path, text: str) -> list[str]:
    return sorted(p for p, b in files_of(existing).items() if text.encode() in b and "backup" not in p)


def test_an_edit_in_in_of_a_memspec_decision_its_chain_completes_is_taken(tmp_path):
    src, existing = _imported(tmp_path, "memspec")
    _edit_decision(src)
    # Watched fail before the fix: exit 6, "same created (2026-05-02), different content", a conflict copy.
    assert run("memoir-to-memspec", "-q", str(src), "--into", str(existing)) == 0
    assert _holding(existing, "A zero-dependency install") == \
        [".memspec/memory/decisions/ms_01KQJZR900MZPNKVWXFVXYFJN0.md"]
    assert "supersedes" in (existing / ".memspec/memory/decisions/ms_01KQJZR900MZPNKVWXFVXYFJN0.md").read_text()
    settled = files_of(existing)
    assert run("memoir-to-memspec", "-q", str(src), "--into", str(existing)) == 0
    assert files_of(existing) == settled


def test_a_memspec_decision_whose_link_in_changed_after_a_rename_is_taken(tmp_path):
    """The brief's case: IN renames the fact the decision links, and rewrites the link."""
    src, existing = _imported(tmp_path, "memspec")
    rename_entry(src / "memory", "fact_staging-endpoints", "fact_staging-apis")
    # Watched fail before the fix: exit 6, the decision "same created, different content".
    assert run("memoir-to-memspec", "-q", str(src), "--into", str(existing)) == 0
    assert not [p for p in files_of(existing) if "decisions" in p and "ms_01KQJZR9007C291RNFT8DTQ2GA" in p]


def test_an_edit_in_in_of_a_record_linking_one_renamed_in_in_is_taken(tmp_path):
    src, existing = _imported(tmp_path, "claude")
    rename_entry(src / "memory", "fact_staging-endpoints", "fact_staging-apis")
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    record = json.loads((existing / ".memconv" / "imports.json").read_text())
    assert [v.get("holds") for s in record["from"].values() for k, v in s.items() if k == "project_local-db-choice"] \
        == ["in"]
    _edit_decision(src)
    # Watched fail before the fix: exit 6, project_local-db-choice.md "same created, different content".
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert _holding(existing, "A zero-dependency install") == ["project_local-db-choice.md"]
    assert "[[reference_staging-endpoints]]" in (existing / "project_local-db-choice.md").read_text()
