"""A v0.2 value the ladder keeps under ``ext.legacy_*`` never overwrites a value already there.

The step keeps what memspec's migrator would drop (a ``decay_after`` beside a different ``check_by``, a second
copy of the anchors, a second confidence) under ``ext.legacy_<key>``. When the record's ``ext`` already held that
key (an earlier hand migration, another tool), the old value was overwritten: only the new one was left, the
report said "kept as ext.legacy_decay_after" and 0 dropped. memspec's own migrator names only
``ext.legacy_confidence`` and, finding it set, keeps it and drops the top-level value without a word. Now the
value already there keeps its key and the new one goes under the first free ``<key>_2``, ``<key>_3``…, which the
report names; an equal value is not written twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.cli import main
from memconv.frontmatter import load_yaml
from memconv.migrations.memspec import Draft, climb

from .conftest import write_files

ID = "ms_01KNH5F5209RFZEDKNQS6AEYMB"
SHA = "3b18e512dba79e4c8300dd08aeb37f8e728b8dad"


def _climb(**fields) -> Draft:
    values = {"id": ID, "type": "fact", "state": "captured", "created": "2026-01-10T09:00:00Z", "source": "therin",
              **fields}
    draft, start, _ = climb(Draft(values, f"memory/facts/{ID}.md"))
    assert start == "v0.2"
    return draft


@pytest.mark.parametrize("fields, kept, key", [
    ({"decay_after": "2030-01-01", "check_by": "2029-01-01"}, "2030-01-01", "legacy_decay_after"),
    ({"correction_reason": "new words", "supersede_reason": "other"}, "new words", "legacy_correction_reason"),
    ({"corrected_by": "ms_01KNPA8K20CQYH98HJJFXC440W", "superseded_by": "ms_01KNEK2E20Y2BCJCPQP05QECMA"},
     "ms_01KNPA8K20CQYH98HJJFXC440W", "legacy_corrected_by"),
    ({"confidence": 0.9}, 0.9, "legacy_confidence"),
])
def test_the_value_there_keeps_its_key_and_the_new_one_gets_a_free_one_the_report_names(fields, kept, key):
    draft = _climb(**fields, ext={key: "there before", "note": 1})
    ext = draft.values["ext"]
    assert ext[key] == "there before", "the value already in ext is not overwritten"
    [new] = [k for k in ext if k not in (key, "note")]
    assert ext[new] == kept, "the migrated value is kept too"
    assert new.startswith(key) and any(f"ext.{new}" in line for line in draft.changes), draft.changes


def test_a_second_top_level_confidence_key_is_not_overwritten_either():
    draft = _climb(confidence=0.9, ext={"legacy_confidence": 0.5, "legacy_confidence_top_level": 0.7})
    ext = draft.values["ext"]
    assert (ext["legacy_confidence"], ext["legacy_confidence_top_level"]) == (0.5, 0.7)
    assert ext["legacy_confidence_top_level_2"] == 0.9


def test_differing_anchors_do_not_overwrite_legacy_code_anchors():
    mine = [{"file": "a.ts", "sha": SHA}]
    draft = _climb(decay_after="2030-01-01", anchors=[{"file": "b.ts", "sha": SHA}],
                   ext={"code_anchors": mine, "legacy_code_anchors": "there before"})
    ext = draft.values["ext"]
    assert ext["legacy_code_anchors"] == "there before" and ext["legacy_code_anchors_2"] == mine


def test_taken_suffixes_are_skipped_and_an_equal_value_is_not_written_twice():
    draft = _climb(decay_after="2030-01-01", check_by="2029-01-01",
                   ext={"legacy_decay_after": "2020-01-01", "legacy_decay_after_2": "2021-01-01"})
    assert draft.values["ext"]["legacy_decay_after_3"] == "2030-01-01"
    draft = _climb(decay_after="2030-01-01", check_by="2029-01-01", ext={"legacy_decay_after": "2030-01-01"})
    assert draft.values["ext"] == {"legacy_decay_after": "2030-01-01"}
    assert any("same as ext.legacy_decay_after" in line for line in draft.changes), draft.changes


def test_migrate_keeps_both_dates_and_says_where(tmp_path: Path, runner):
    # Watched fail before the fix: only 2030 was left, the report said kept as ext.legacy_decay_after.
    path = f".memspec/memory/facts/{ID}.md"
    write_files(tmp_path / "in", {path: (
        f"---\nid: {ID}\ntype: fact\nstate: captured\ncreated: 2026-01-10T09:00:00Z\nsource: therin\n"
        "decay_after: 2030-01-01T00:00:00Z\ncheck_by: 2029-01-01T00:00:00Z\next:\n"
        "  legacy_decay_after: 2020-01-01\n---\n\n# Something to check\n").encode()})
    result = runner.invoke(main, ["migrate", "-v", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    ext = load_yaml((tmp_path / "out" / path).read_text().split("---\n")[1])["ext"]
    assert str(ext["legacy_decay_after"]) == "2020-01-01"
    assert ext["legacy_decay_after_2"] == "2030-01-01T00:00:00Z"
    assert "kept as ext.legacy_decay_after_2" in result.output
