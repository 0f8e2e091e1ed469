"""memoir spec §5 for entry files and other files: union by link name, newest wins, conflicts kept beside."""

from __future__ import annotations

import pytest

from memconv.merge import MergeRefused, merge
from memconv.model import Store

from .memoir_rules import entry_errors
from .merge_helpers import entry, merge_trees, read_store


def outcome(result, identity):
    found = [o for o in result.outcomes if o.identity == identity]
    assert len(found) == 1
    return found[0]


def test_an_entry_on_one_side_is_added_byte_for_byte(tmp_path):
    raw = entry(name="Only A", body="keep   my  spacing\n")
    one, two = merge_trees(tmp_path, {"memory/x.md": raw}, {"memory/y.md": entry(name="Y")})
    assert one.files == two.files
    assert one.files["memory/x.md"] == raw.encode()
    assert (outcome(one, "x").status, outcome(one, "x").won) == ("added", "A")


def test_an_identical_entry_is_unchanged(tmp_path):
    raw = entry()
    one, _ = merge_trees(tmp_path, {"memory/x.md": raw}, {"memory/x.md": raw})
    assert outcome(one, "x").status == "unchanged" and one.files == {"memory/x.md": raw.encode()}


def test_the_entry_with_the_newer_updated_wins(tmp_path):
    old = entry(body="old\n", created="2026-01-09", updated="2026-01-01")
    new = entry(body="new\n", created="2026-01-01", updated="2026-02-01")
    one, two = merge_trees(tmp_path, {"memory/x.md": old}, {"memory/x.md": new})
    assert one.files == two.files == {"memory/x.md": new.encode()}
    assert (outcome(one, "x").status, outcome(one, "x").won) == ("updated", "B")
    assert "newer updated" in outcome(one, "x").why


def test_created_is_the_fallback_when_neither_has_updated(tmp_path):
    old, new = entry(body="old\n", created="2026-01-01"), entry(body="new\n", created="2026-03-01")
    one, _ = merge_trees(tmp_path, {"memory/x.md": new}, {"memory/x.md": old})
    assert one.files["memory/x.md"] == new.encode() and outcome(one, "x").won == "A"


def test_different_entries_with_the_same_date_are_a_conflict_kept_side_by_side(tmp_path):
    a, b = entry(body="from A\n", updated="2026-01-01"), entry(body="from B\n", updated="2026-01-01")
    one, two = merge_trees(tmp_path, {"memory/x.md": a}, {"memory/x.md": b})
    assert one.files == two.files, "the same winner whichever store is named first"
    found = outcome(one, "x")
    assert found.status == "conflict" and found.conflict_copy.startswith("memory/x.conflict-")
    kept, other = one.files["memory/x.md"], one.files[found.conflict_copy]
    assert {kept.split(b"---\n")[-1], other.split(b"---\n")[-1]} == {b"from A\n", b"from B\n"}
    assert b"name: X (conflict copy)" in other
    assert entry_errors(other, found.conflict_copy) == [], "memoir accepts the conflict copy"


def test_a_difference_in_formatting_only_is_not_a_conflict(tmp_path):
    a = entry(updated="2026-01-01")
    b = a.replace("name: X", "name: 'X'")
    one, _ = merge_trees(tmp_path, {"memory/x.md": a}, {"memory/x.md": b})
    assert outcome(one, "x").status == "updated" and len(one.files) == 1


def test_done_at_of_a_completed_next_action_sticks_to_a_newer_copy_added_before_it(tmp_path):
    done = entry("next_action", added="2026-01-01T00:00:00Z", done_at="2026-02-01T00:00:00Z",
                 updated="2026-02-01")
    edited = entry("next_action", body="edited\n", added="2026-01-01T00:00:00Z", updated="2026-03-01")
    one, two = merge_trees(tmp_path, {"memory/x.md": done}, {"memory/x.md": edited})
    assert one.files == two.files
    assert b"done_at: 2026-02-01T00:00:00Z" in one.files["memory/x.md"] and b"edited" in one.files["memory/x.md"]
    assert "done_at inherited from A" in outcome(one, "x").why


def test_a_next_action_re_added_after_done_at_stays_open(tmp_path):
    done = entry("next_action", added="2026-01-01T00:00:00Z", done_at="2026-02-01T00:00:00Z",
                 updated="2026-02-01")
    again = entry("next_action", added="2026-03-01T00:00:00Z", updated="2026-03-01")
    one, _ = merge_trees(tmp_path, {"memory/x.md": done}, {"memory/x.md": again})
    assert one.files["memory/x.md"] == again.encode()


def test_hidden_on_a_decision_entry_is_sticky(tmp_path):
    hidden = entry("decision", hidden="true", hidden_at="2026-01-05T00:00:00Z", updated="2026-01-01")
    newer = entry("decision", body="edited\n", updated="2026-04-01")
    one, _ = merge_trees(tmp_path, {"memory/x.md": newer}, {"memory/x.md": hidden})
    assert b"hidden: true" in one.files["memory/x.md"] and b"edited" in one.files["memory/x.md"]


def test_foreign_files_union_and_different_bytes_keep_both(tmp_path):
    one, two = merge_trees(tmp_path, {"memory/x.md": entry(), "notes/a.txt": "A", "README": "same"},
                           {"memory/x.md": entry(), "notes/a.txt": "B", "other.txt": "o", "README": "same"})
    assert one.files == two.files
    found = outcome(one, "notes/a.txt")
    assert found.status == "conflict" and found.conflict_copy.startswith("notes/a.conflict-")
    assert {one.files["notes/a.txt"], one.files[found.conflict_copy]} == {b"A", b"B"}
    assert one.files["README"] == b"same" and one.files["other.txt"] == b"o"


def test_a_quarantined_file_is_kept_under_memconv_quarantine(tmp_path):
    one, _ = merge_trees(tmp_path, {"session.json": "{not json"}, {"memory/x.md": entry()})
    assert one.files[".memconv/quarantine/session.json"] == b"{not json"
    assert [q["side"] for q in one.quarantined] == ["A"]


def test_a_flat_and_a_nested_store_merge_into_memory(tmp_path):
    one, two = merge_trees(tmp_path, {"x.md": entry(name="flat")}, {"memory/y.md": entry(name="nested")})
    assert one.files == two.files and sorted(one.files) == ["memory/x.md", "memory/y.md"]


def test_merging_result_with_a_side_again_changes_nothing_and_is_no_new_conflict(tmp_path):
    a = {"memory/x.md": entry(body="A\n", updated="2026-01-01"), "f.txt": "1"}
    b = {"memory/x.md": entry(body="B\n", updated="2026-01-01"), "f.txt": "2"}
    one, _ = merge_trees(tmp_path, a, b)
    for side in (a, b):
        again, _ = merge_trees(tmp_path / str(id(side)), {p: v for p, v in one.files.items()}, side)
        assert again.files == one.files
        assert not [o for o in again.outcomes if o.status == "conflict" and not o.already_kept]


def test_stores_of_two_dialects_or_of_another_dialect_are_refused():
    with pytest.raises(MergeRefused):
        merge(Store(dialect="memoir"), Store(dialect="claude"))
    with pytest.raises(MergeRefused, match="no merge rules"):
        merge(Store(dialect="mem0"), Store(dialect="mem0"))


def test_a_session_json_only_one_store_has_is_kept_as_it_stands_and_each_item_listed(tmp_path):
    import json

    from .merge_helpers import doc

    raw = json.dumps(doc(next_actions=[{"text": f"n{i}", "added": "2026-01-01"} for i in range(10)]))
    one, two = merge_trees(tmp_path, {"session.json": raw}, {"memory/x.md": entry()})
    assert one.files == two.files and one.files["session.json"] == raw.encode()
    listed = [o for o in one.outcomes if o.kind == "session"]
    assert len(listed) == 10 and {(o.status, o.won) for o in listed} == {("added", "A")}


def test_merge_changes_nothing_in_the_stores_it_is_given(tmp_path):
    from memconv.model import fingerprint

    a = read_store(tmp_path / "a", {"memory/x.md": entry("decision", body="A\n", hidden="true",
                                                         hidden_at="2026-01-02", updated="2026-01-01")})
    b = read_store(tmp_path / "b", {"memory/x.md": entry("decision", body="B\n", updated="2026-01-01")})
    before = [(repr(r), r.source.raw) for r in a.records + b.records]
    merge(a, b)
    assert [(repr(r), r.source.raw) for r in a.records + b.records] == before
    assert all(fingerprint(r) == r.source.fingerprint for r in a.records + b.records)
