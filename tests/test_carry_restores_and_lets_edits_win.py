"""The carry puts back what a target could not say, and steps aside for a native edit."""

from __future__ import annotations

import copy

import pytest

from memconv.converters.carry import Carry, apply, difference
from memconv.model import Edge, Lifecycle, Record, meaning


def _original() -> Record:
    return Record(kind="decision", link="decision_db", title="Use SQLite", body="Long\nbody\n", why="deps",
                  lifecycle=Lifecycle("superseded"), edges=[Edge("superseded_by", "decision_pg")],
                  extra={"b": 1, "a": [2]})


def _lossy_rendering(r: Record) -> Record:
    """What a target that collapses bodies and knows no edges or lifecycle would give back."""
    back = copy.deepcopy(r)
    back.body = r.body.replace("\n", " ").strip() + "\n"
    back.edges, back.lifecycle = [], Lifecycle()
    back.extra = {"a": [2], "b": 1}
    return back


def test_applying_the_difference_gives_the_original_back():
    original = _original()
    returned = _lossy_rendering(original)
    carry = Carry.loads(difference(original, returned, "memoir").dumps())
    assert sorted(carry.fields) == ["body", "edges", "lifecycle"], "only what did not come back is carried"
    done = apply(returned, carry)
    assert meaning(returned) == meaning(original)
    assert list(returned.extra) == ["b", "a"], "unknown keys come back in their source order"
    assert done.overridden == []


def test_a_field_edited_in_the_target_wins_and_is_reported():
    original = _original()
    returned = _lossy_rendering(original)
    carry = Carry.loads(difference(original, returned, "memoir").dumps())
    returned.body = "Rewritten by hand\n"
    done = apply(returned, carry)
    # Verified by dropping the digest check in apply(): the carried body overwrites the edit and this fails.
    assert returned.body == "Rewritten by hand\n", "the native edit wins"
    assert done.overridden == ["body"], "and the dropped carried copy is named"
    assert returned.edges == original.edges, "fields nobody edited are still restored"


def test_a_carry_from_a_newer_memconv_is_refused():
    with pytest.raises(ValueError, match="version 2"):
        Carry.loads('{"v": 2, "from": "memoir"}')
