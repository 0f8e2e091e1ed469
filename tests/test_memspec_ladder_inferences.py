"""The memspec ladder maps legacy values as FORMATS.md §3 says, lists every inference, and never guesses."""

from __future__ import annotations

import copy

import pytest

from memconv.migrations import TooNew, Unreadable
from memconv.migrations.memspec import Draft, check, climb, generation
from memconv.migrations.memspec.v02_to_v04 import PREDATES_REASON, infer_source_kind

ID = "ms_01KN9E9020H7RQQBNT58TJ7XAD"


def legacy(**fields):
    values = {"id": ID, "type": "fact", "state": "active", "confidence": 0.5, "created": "2026-04-04T10:30:00Z",
              "source": "claude-code", "tags": [], "decay_after": "2030-01-01T00:00:00Z"}
    values.update(fields)
    return {k: v for k, v in values.items() if v is not None}


@pytest.mark.parametrize("old, new", [("captured", "active"), ("corrected", "superseded"),
                                      ("decayed", "retired"), ("archived", "retired")])
def test_legacy_states_map_to_current_ones(old, new):
    draft, start, _ = climb(Draft(legacy(state=old), f"memory/facts/{ID}.md"))
    assert start == "v0.2"
    assert draft.values["state"] == new
    assert f"state {old} → {new}" in draft.changes, "each inference is listed for a person to check"


def test_renames_and_legacy_confidence():
    values = legacy(corrects="ms_01KNEK2E20Y2BCJCPQP05QECMA", corrected_by="ms_01KNPA8K20CQYH98HJJFXC440W",
                    correction_reason="wrong", ext={"code_anchors": [{"file": "a.ts", "sha": "0" * 40}]})
    draft, _, steps = climb(Draft(values, f"memory/facts/{ID}.md"))
    v = draft.values
    assert len(steps) == 2, "v0.2 climbs two steps: → v0.3/v0.4 → current"
    assert v["check_by"] == "2030-01-01T00:00:00Z" and "decay_after" not in v
    assert v["supersedes"] == ["ms_01KNEK2E20Y2BCJCPQP05QECMA"], "corrects (a string) becomes a list"
    assert v["superseded_by"] == "ms_01KNPA8K20CQYH98HJJFXC440W"
    assert v["supersede_reason"] == "wrong"
    assert v["anchors"] == [{"file": "a.ts", "sha": "0" * 40}]
    assert v["ext"] == {"legacy_confidence": 0.5}, "code_anchors leaves ext; confidence is kept for archaeology"
    assert "confidence" not in v
    assert list(v)[:4] == ["id", "kind", "type", "state"], "kind is placed where memspec writes it"


def test_reason_backfill_only_for_superseded_records_without_one():
    draft, _, _ = climb(Draft(legacy(state="corrected"), f"archive/{ID}.md"))
    assert draft.values["supersede_reason"] == PREDATES_REASON
    draft, _, _ = climb(Draft(legacy(state="decayed"), f"archive/{ID}.md"))
    assert "supersede_reason" not in draft.values, "a retired record was not replaced: no reason to backfill"


@pytest.mark.parametrize("source, kind", [("human:ana", "operator"), ("siim", "operator"), ("User", "operator"),
                                          ("brownfield-import", "import"), ("migration-2026", "import"),
                                          ("claude-fable", "import"), ("claude-code", "agent"), ("", "agent")])
def test_source_kind_inference(source, kind):
    assert infer_source_kind(source) == kind


def test_configured_operator_names_are_operators():
    draft, _, _ = climb(Draft(legacy(source="ana"), f"memory/facts/{ID}.md", operators=("ana",)))
    assert draft.values["source_kind"] == "operator"
    assert draft.path == f"memory/operator/facts/{ID}.md", "operator-tier claims relocate (v0.4 segregation)"


@pytest.mark.parametrize("fields, witness", [
    ({"anchors": [{"file": "a", "sha": "b"}], "last_verified": "2026-04-04"}, "anchor"),
    ({"anchors": [{"file": "a", "sha": "b"}]}, "assertion"),
    ({"ext": {"last_verification": {"at": "2026-04-04", "evidence": "ran it"}}}, "evidence"),
    ({"source": "human:ana"}, "operator"),
    ({}, "assertion"),
])
def test_verified_with_inference(fields, witness):
    draft, _, _ = climb(Draft(legacy(**fields), f"memory/facts/{ID}.md"))
    assert draft.values["verified_with"] == witness


def test_values_memspec_would_drop_are_kept_under_ext():
    draft, _, _ = climb(Draft(legacy(check_by="2031-01-01T00:00:00Z"), f"memory/facts/{ID}.md"))
    assert draft.values["check_by"] == "2031-01-01T00:00:00Z", "the current field wins"
    assert draft.values["ext"]["legacy_decay_after"] == "2030-01-01T00:00:00Z", "the legacy value is not lost"


def test_unknown_keys_pass_through_in_order():
    draft, _, _ = climb(Draft(legacy(reviewer="bob", zeta=1), f"memory/facts/{ID}.md"))
    keys = list(draft.values)
    assert keys.index("reviewer") < keys.index("zeta")


def test_missing_decay_after_gets_default_review_window():
    draft, _, _ = climb(Draft(legacy(type="decision", decay_after=None), f"memory/decisions/{ID}.md"))
    assert draft.values["check_by"] == "2026-10-01T10:30:00.000Z", "decision: created + 180 days"
    assert any(n.startswith("check_by:") for n in draft.changes)


def test_observations_keep_their_dated_folder_and_captured_claims_leave_it():
    obs = legacy(kind="observation", type=None, expires="2026-04-11T10:30:00Z")
    draft, _, _ = climb(Draft(obs, f"observations/2026-04-04/{ID}.md"))
    assert draft.path == f"observations/2026-04-04/{ID}.md"
    draft, _, _ = climb(Draft(legacy(state="captured"), f"observations/2026-04-04/{ID}.md"))
    assert draft.path == f"memory/facts/{ID}.md"


def test_steps_are_pure():
    values = legacy(state="corrected", ext={"code_anchors": [{"file": "a", "sha": "b"}]})
    before = copy.deepcopy(values)
    climb(Draft(values, f"archive/{ID}.md"))
    assert values == before, "a ladder step never mutates its input"


def test_current_records_are_not_touched():
    values = {"id": ID, "kind": "claim", "type": "fact", "state": "active", "created": "2026-04-04",
              "source": "x", "tags": [], "check_by": "never"}
    assert generation(values) == "current"
    draft, start, steps = climb(Draft(values, f"memory/facts/{ID}.md"))
    assert (start, steps, draft.changes) == ("current", [], ())


@pytest.mark.parametrize("values, problem", [
    ({"type": "fact", "state": "active"}, Unreadable),
    ({"id": "ms_short", "type": "fact", "state": "active"}, Unreadable),
    ({"id": ID, "type": "fact", "state": "frozen"}, Unreadable),
    ({"id": ID, "type": "fact"}, Unreadable),
    ({"id": ID, "kind": "claim", "state": "active"}, Unreadable),
    ({"id": ID, "type": "fact", "state": "active", "verified_with": "oracle"}, TooNew),
    ({"id": ID, "kind": "dream", "state": "active"}, TooNew),
    ({"id": ID, "type": "rule", "state": "active"}, TooNew),
    ({"id": ID, "type": "fact", "state": "active", "source_kind": "robot"}, TooNew),
])
def test_files_that_cannot_be_read_honestly_are_refused(values, problem):
    # Verified by removing the verified_with check from check(): the 'oracle' case fails with DID NOT RAISE.
    with pytest.raises(problem):
        check(values)
