"""memoir spec §5 on session.json, one rule per test, on small hand-written documents."""

from __future__ import annotations

import hashlib

from memconv.merge.identity import text_hash
from memconv.merge.session import LIVE_NEXT_ACTIONS, merge_documents

from .merge_helpers import doc, merged, texts

T = "2026-03-0{}T10:00:00.000Z".format


def test_union_keeps_every_identity_from_both_sides():
    a = doc(goals=[{"text": "Ship v1", "set_on": T(1)}], open_questions=[{"text": "Why?", "asked": T(1)}])
    b = doc(goals=[{"text": "Hire", "set_on": T(2)}], decisions=[{"text": "Use PG", "date": T(2)}])
    out = merged(a, b)["current"]
    assert sorted(texts(out["goals"])) == ["Hire", "Ship v1"]
    assert texts(out["open_questions"]) == ["Why?"]
    assert texts(out["decisions"]) == ["Use PG"]


def test_identity_is_the_trimmed_lower_cased_text():
    a = doc(goals=[{"text": "  Ship V1 ", "set_on": T(1)}])
    b = doc(goals=[{"text": "ship v1", "set_on": T(2)}])
    assert merged(a, b)["current"]["goals"] == [{"text": "ship v1", "set_on": T(2)}]


def test_newest_copy_wins_wholesale_by_the_lists_date_field():
    for name, field in (("goals", "set_on"), ("open_questions", "asked"), ("decisions", "date"),
                        ("next_actions", "added")):
        old = {"text": "Same", field: T(1), "machine_id": "m-old", "note": "old"}
        new = {"text": "same", field: T(2), "machine_id": "m-new"}
        out = merged(doc(**{name: [old]}), doc(**{name: [new]}))["current"][name]
        assert out == [new], f"{name}: the copy with the newer {field} wins, every key of it"


def test_a_missing_or_unparseable_date_loses_to_any_real_date():
    dated = {"text": "x", "asked": "1999-01-01T00:00:00Z"}
    for undated in ({"text": "x", "note": "no date"}, {"text": "x", "asked": "last tuesday"}):
        assert merged(doc(open_questions=[undated]), doc(open_questions=[dated]))["current"]["open_questions"] \
            == [dated]


def test_hidden_is_sticky_even_when_the_hidden_copy_is_older():
    hidden = {"text": "Use SQLite", "date": T(1), "hidden": True, "hidden_at": T(5)}
    newer = {"text": "use sqlite", "date": T(3), "why": "simple"}
    out = merged(doc(decisions=[hidden]), doc(decisions=[newer]))["current"]["decisions"]
    assert out == [{"text": "use sqlite", "date": T(3), "why": "simple", "hidden": True, "hidden_at": T(5)}], \
        "the date winner inherits hidden and the hidden copy's hidden_at"


def test_a_stale_replica_never_resurrects_a_hidden_decision():
    hidden = doc(decisions=[{"text": "Junk", "date": T(2), "hidden": True, "hidden_at": T(4)}])
    stale = doc(decisions=[{"text": "Junk", "date": T(2)}])
    once = merged(hidden, stale)
    assert merged(once, stale)["current"]["decisions"][0]["hidden"] is True


def test_purged_tombstone_matches_by_hash_and_wins_over_a_newer_copy():
    secret = "Password is hunter2"
    digest = hashlib.sha256(secret.strip().lower().encode()).hexdigest()
    assert text_hash(secret) == digest, "text_hash is memoir-cli's: sha256 of trim().toLowerCase()"
    purged = {"text": "[purged]", "text_hash": digest, "date": T(1), "hidden": True, "hidden_at": T(2)}
    live = {"text": secret, "date": T(6), "why": "ops said so"}
    result = merge_documents(doc(decisions=[purged]), doc(decisions=[live]))
    assert result.document["current"]["decisions"] == [purged]
    assert "hunter2" not in repr(result.document) and not result.conflicts, "the purged text never returns"


def test_completed_action_suppresses_a_copy_added_before_its_done_at():
    a = doc(next_actions=[{"text": "Fix the flaky test", "added": T(1)}])
    b = doc(completed_actions=[{"text": "fix the flaky test", "done_at": T(3)}])
    out = merged(a, b)["current"]
    assert out["next_actions"] == []
    assert texts(out["completed_actions"]) == ["fix the flaky test"], "the tombstone stays"


def test_an_action_re_added_after_its_done_at_survives():
    a = doc(next_actions=[{"text": "Fix the flaky test", "added": T(5)}])
    b = doc(completed_actions=[{"text": "Fix the flaky test", "done_at": T(3)}])
    assert texts(merged(a, b)["current"]["next_actions"]) == ["Fix the flaky test"]


def test_completed_goals_suppress_goals_set_before_their_done_at():
    a = doc(goals=[{"text": "Old goal", "set_on": T(1)}, {"text": "Again", "set_on": T(6)}])
    b = doc(completed_goals=[{"text": "old goal", "done_at": T(2)}, {"text": "again", "done_at": T(3)}])
    assert texts(merged(a, b)["current"]["goals"]) == ["Again"]


def test_completed_tombstones_union_keeping_the_newest_done_at():
    a = doc(completed_actions=[{"text": "Deploy", "done_at": T(2)}, {"text": "Test", "done_at": T(1)}])
    b = doc(completed_actions=[{"text": "deploy", "done_at": T(4)}])
    out = merged(a, b)["current"]["completed_actions"]
    assert out == [{"text": "deploy", "done_at": T(4)}, {"text": "Test", "done_at": T(1)}]


def test_live_and_parked_actions_are_pooled_then_re_split_newest_live():
    a = doc(next_actions=[{"text": f"a{i}", "added": f"2026-04-{i + 10}T00:00:00Z"} for i in range(6)],
            parked_actions=[{"text": "old", "added": "2026-01-01T00:00:00Z", "parked_at": "2026-02-01T00:00:00Z"}])
    b = doc(next_actions=[{"text": f"b{i}", "added": f"2026-05-{i + 10}T00:00:00Z"} for i in range(6)])
    out = merged(a, b)["current"]
    assert len(out["next_actions"]) == LIVE_NEXT_ACTIONS == 8
    assert texts(out["next_actions"]) == [f"b{i}" for i in range(5, -1, -1)] + ["a5", "a4"]
    assert texts(out["parked_actions"]) == ["a3", "a2", "a1", "a0", "old"], "rotated into parked, never dropped"
    assert out["parked_actions"][-1]["parked_at"] == "2026-02-01T00:00:00Z", "an existing parked_at is kept"
    assert out["parked_actions"][0]["parked_at"] == "2026-06-01T00:00:00.000Z", \
        "a newly parked action is stamped with the merged updated_at (the clock is never read)"


def test_a_parked_action_that_becomes_live_drops_parked_at():
    a = doc(parked_actions=[{"text": "p", "added": T(1), "parked_at": T(2)}])
    out = merged(a, doc())["current"]
    assert out["next_actions"] == [{"text": "p", "added": T(1)}] and out["parked_actions"] == []


def test_a_parked_copy_and_a_live_copy_of_one_action_are_one_action():
    a = doc(next_actions=[{"text": "p", "added": T(1)}])
    b = doc(parked_actions=[{"text": "p", "added": T(1), "parked_at": T(2)}])
    result = merge_documents(a, b)
    assert len(result.document["current"]["next_actions"]) == 1 and not result.conflicts


def test_a_completed_parked_action_is_suppressed_too():
    a = doc(parked_actions=[{"text": "p", "added": T(1), "parked_at": T(2)}])
    b = doc(completed_actions=[{"text": "p", "done_at": T(3)}])
    out = merged(a, b)["current"]
    assert out["next_actions"] == [] and out["parked_actions"] == []


def test_no_cap_drops_anything_but_a_long_list_is_warned_about():
    a = doc(goals=[{"text": f"g{i}", "set_on": T(1)} for i in range(3)])
    b = doc(goals=[{"text": f"h{i}", "set_on": T(2)} for i in range(3)])
    result = merge_documents(a, b)
    assert len(result.document["current"]["goals"]) == 6
    assert any("current.goals holds 6 items" in w for w in result.warnings)


def test_machines_merge_per_uuid_keeping_the_newer_last_seen():
    a = doc(machines={"u1": {"label": "old-name", "last_seen": T(1)}, "u2": {"label": "b", "last_seen": T(5)}})
    b = doc(machines={"u1": {"label": "new-name", "last_seen": T(3)}, "u3": {"label": "c", "last_seen": T(1)}})
    out = merged(a, b)["machines"]
    assert out == {"u1": {"label": "new-name", "last_seen": T(3)}, "u2": {"label": "b", "last_seen": T(5)},
                   "u3": {"label": "c", "last_seen": T(1)}}


def test_history_unions_dedups_by_date_machine_summary_newest_first():
    row1 = {"date": T(1), "machine_id": "m", "summary": "one", "files_touched": []}
    row2 = {"date": T(2), "machine_id": "m", "summary": "two", "files_touched": []}
    row3 = {"date": T(3), "machine_id": "n", "summary": "three", "files_touched": []}
    out = merged(doc(history=[row2, row1]), doc(history=[row3, row1]))["history"]
    assert out == [row3, row2, row1]


def test_history_rows_of_one_session_id_are_one_row_the_newest():
    early = {"date": T(1), "machine_id": "m", "summary": "half", "session_id": "s1"}
    late = {"date": T(2), "machine_id": "m", "summary": "done", "session_id": "s1"}
    assert merged(doc(history=[early]), doc(history=[late]))["history"] == [late]


def test_created_at_takes_the_earlier_updated_at_the_later():
    out = merged(doc(created=T(1), updated=T(4)), doc(created=T(2), updated=T(5)))
    assert (out["created_at"], out["updated_at"]) == (T(1), T(5))


def test_unknown_keys_pass_through_at_every_level():
    a = doc(goals=[{"text": "g", "set_on": T(1), "priority": 2}])
    a["sync"] = {"remote": "x"}
    a["current"]["focus"] = "perf"
    b = doc(questions_v2=[1])
    b["current"]["retired_goals"] = ["r"]
    out = merged(a, b)
    assert out["sync"] == {"remote": "x"}
    assert out["current"]["focus"] == "perf" and out["current"]["retired_goals"] == ["r"]
    assert out["current"]["questions_v2"] == [1]
    assert out["current"]["goals"][0]["priority"] == 2


def test_an_unknown_key_with_two_values_keeps_one_and_the_other_as_a_conflict_copy():
    a, b = doc(), doc()
    a["current"]["focus"] = "perf"
    b["current"]["focus"] = "docs"
    result = merge_documents(a, b)
    kept = result.document["current"]["focus"]
    assert [c.value for c in result.conflicts] == [{"perf", "docs"}.difference({kept}).pop()]
    assert [o.status for o in result.outcomes if o.identity == "current.focus"] == ["conflict"]


def test_copies_with_the_same_date_and_different_content_are_a_conflict():
    a = doc(decisions=[{"text": "Use PG", "date": T(1), "why": "joins"}])
    b = doc(decisions=[{"text": "Use PG", "date": T(1), "why": "team knows it"}])
    one, two = merge_documents(a, b), merge_documents(b, a)
    assert one.document == two.document
    assert len(one.conflicts) == 1 and one.conflicts[0].file() == two.conflicts[0].file()
    kept = one.document["current"]["decisions"][0]["why"]
    assert {kept, one.conflicts[0].value["why"]} == {"joins", "team knows it"}, "both copies are kept"


def test_an_item_with_no_text_is_kept_not_dropped():
    odd = {"note": "hand-edited, no text"}
    assert odd in merged(doc(goals=[odd]), doc())["current"]["goals"]


def test_a_list_of_the_wrong_shape_passes_through_as_an_unknown_value():
    a = doc()
    a["current"]["goals"] = "not a list"
    assert merged(a, doc(goals=[{"text": "g"}]))["current"]["goals"] in ("not a list", [{"text": "g"}])


def test_merging_a_document_with_itself_changes_nothing():
    a = doc(goals=[{"text": "g", "set_on": T(1)}], decisions=[{"text": "d", "date": T(2)}],
            completed_actions=[{"text": "x", "done_at": T(1)}], history=[{"date": T(1), "summary": "s"}])
    assert merged(a, a) == a


def test_an_action_added_at_the_very_moment_of_done_at_is_done():
    a = doc(next_actions=[{"text": "x", "added": T(3)}])
    b = doc(completed_actions=[{"text": "x", "done_at": T(3)}])
    assert merged(a, b)["current"]["next_actions"] == [], "suppressed unless added is LATER than done_at"


def test_a_tombstone_purged_by_memoir_cli_matches_its_original_text():
    # Written by memoir-cli 3.12: `memoir forget "hunter2" --purge --yes` on a decision whose text was
    # "  Straße Password Is Hunter2 " (casefold would turn ß into ss and miss this hash).
    purged = {"text": "[purged]", "date": "2026-01-01T00:00:00.000Z", "hidden": True,
              "hidden_at": "2026-11-30T19:55:36.940Z",
              "text_hash": "5735ca4d9be33f64ee3ed1e073e8a599cc82d8632588f45f1e1d6389f8a20a83"}
    stale = {"text": "straße password is hunter2", "date": "2026-05-01T00:00:00.000Z"}
    out = merged(doc(decisions=[stale]), doc(decisions=[purged]))["current"]["decisions"]
    assert out == [purged]


def test_created_at_and_updated_at_never_take_a_date_that_does_not_parse():
    out = merged(doc(created="garbage", updated="garbage"), doc(created=T(2), updated=T(1)))
    assert (out["created_at"], out["updated_at"]) == (T(2), T(1))


def test_a_lone_surrogate_in_a_text_is_hashed_as_javascript_does():
    from memconv.merge.identity import text_hash as th

    assert th("\ud800 x") == hashlib.sha256("\ufffd x".encode()).hexdigest()


def test_a_text_hash_on_a_live_decision_is_not_its_identity():
    odd = {"text": "Use PG", "text_hash": text_hash("something else"), "date": T(1)}
    other = {"text": "something else", "date": T(2)}
    assert len(merged(doc(decisions=[odd]), doc(decisions=[other]))["current"]["decisions"]) == 2
