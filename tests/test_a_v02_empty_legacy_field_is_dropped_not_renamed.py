"""An empty v0.2 ``corrects``, ``corrected_by``, ``correction_reason`` or ``decay_after`` is dropped, not renamed.

Before (forty-sixth session, found by a hunt): ``corrects:`` and ``corrected_by:`` with no value (YAML null) became
``supersedes: [null]`` and ``superseded_by: null``, ``decay_after:`` became ``check_by: null``, and a
``supersede_reason`` was backfilled for a record nothing superseded. memspec's schema refuses every one of those, so
memspec 0.7.2's loader skipped the migrated record ("supersedes.0: expected string, received null") while migrate
said exit 0 and nothing. A null holds nothing (as in memoir's session ladder): the key is dropped and the report
says so, and the record gets what it would without it (memspec's default review window for ``check_by``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.cli import main
from memconv.migrations.memspec import Draft, climb

from .conftest import write_files
from .reference_tools import memspec_load, needs_memspec

ID = "ms_01KNH5F5209RFZEDKNQS6AEYMB"


def _climb(**fields) -> Draft:
    values = {"id": ID, "type": "fact", "state": "active", "created": "2026-01-10T09:00:00Z", "source": "therin",
              "tags": [], **fields}
    draft, start, _ = climb(Draft(values, f"memory/facts/{ID}.md"))
    assert start == "v0.2"
    return draft


@pytest.mark.parametrize("old, new", [("corrects", "supersedes"), ("corrected_by", "superseded_by"),
                                      ("correction_reason", "supersede_reason"), ("decay_after", "check_by")])
def test_an_empty_legacy_field_is_dropped_and_said(old, new):
    draft = _climb(**{old: None})
    assert old not in draft.values
    assert draft.values.get(new, "absent") not in (None, [None]), f"an empty {old} does not become an empty {new}"
    assert any(line.startswith(f"{old} dropped") for line in draft.changes), draft.changes


def test_no_reason_is_backfilled_for_a_record_nothing_superseded():
    draft = _climb(corrected_by=None)
    assert "supersede_reason" not in draft.values and "superseded_by" not in draft.values


def test_a_value_still_moves():
    draft = _climb(corrects="ms_01KNPA8K20CQYH98HJJFXC440W", decay_after=None)
    assert draft.values["supersedes"] == ["ms_01KNPA8K20CQYH98HJJFXC440W"]
    assert draft.values["check_by"] == "2026-04-10T09:00:00.000Z", "memspec's default window, as with no key"


@needs_memspec
def test_memspec_loads_what_migrate_writes(tmp_path: Path, runner):
    path = f".memspec/memory/facts/{ID}.md"
    write_files(tmp_path / "in", {path: (
        f"---\nid: {ID}\ntype: fact\nstate: active\ncreated: 2026-01-10T09:00:00Z\nsource: therin\ntags: []\n"
        "decay_after: 2026-07-01T10:00:00Z\ncorrects:\ncorrected_by:\ncorrection_reason:\n---\n\n# Nulls\n").encode()})
    result = runner.invoke(main, ["migrate", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    load = memspec_load(tmp_path / "out")
    assert not load.problems, load.problems
    assert [item["id"] for item in load.items] == [ID], "memspec shows the migrated record"
