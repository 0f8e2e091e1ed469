"""The memoir spec §5.4 invariants, as properties over generated session documents and entry sets.

* no silent loss: every identity of A ∪ B is in merge(A, B), live, parked, done or hidden;
* merge(A, B) and merge(B, A) are the same bytes;
* merge(C, C) == C for a merged (canonical) C, and re-merging C with either side changes nothing;
* suppression is monotone: hidden stays hidden, a completion is never undone by a stale replica.
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memconv.dialects.memoir.entries import read_entry
from memconv.dialects.memoir.session import read_session
from memconv.merge import merge
from memconv.merge.identity import instant, item_key, text_hash
from memconv.model import Store

#: Examples per property: few by default so the suite stays fast; set MEMCONV_MERGE_EXAMPLES=2000
#: for a long run (docs/merge.md).
EXAMPLES = int(os.environ.get("MEMCONV_MERGE_EXAMPLES", "25"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TEXTS = ["Ship v1", "ship v1 ", "Fix the flaky test", "Use PG", "use pg", "Hire", "Write docs"]
DATES = [None, "2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00Z", "garbage"]
EXTRA = st.dictionaries(st.sampled_from(["machine_id", "why", "priority"]), st.sampled_from(["m1", "m2", 3]),
                        max_size=2)


def _item(field: str, tombstones: bool = False):
    @st.composite
    def build(draw):
        item = {"text": draw(st.sampled_from(TEXTS))}
        date = draw(st.sampled_from(DATES))
        if date is not None:
            item[field] = date
        item.update(draw(EXTRA))
        if tombstones and draw(st.booleans()):
            item["hidden"] = True
            item["hidden_at"] = draw(st.sampled_from(DATES[1:4]))
            if draw(st.booleans()):
                item["text_hash"] = text_hash(item["text"])
                item["text"] = "[purged]"
                item.pop("why", None)
        return item
    return build()


def _unique(items):
    """One copy per identity within one list (as a writer of one replica keeps it)."""
    seen, out = set(), []
    for item in items:
        if item_key(item) not in seen:
            seen.add(item_key(item))
            out.append(item)
    return out


@st.composite
def documents(draw):
    def lst(field, tombstones=False, max_size=5):
        return _unique(draw(st.lists(_item(field, tombstones), max_size=max_size)))

    doc = {"version": 1, "created_at": draw(st.sampled_from(DATES[1:4])),
           "updated_at": draw(st.sampled_from(DATES[1:4])),
           "machines": draw(st.dictionaries(st.sampled_from(["u1", "u2"]), st.fixed_dictionaries(
               {"label": st.sampled_from(["a", "b"]), "last_seen": st.sampled_from(DATES[1:4])}), max_size=2)),
           "current": {"goals": lst("set_on"), "next_actions": lst("added", max_size=9),
                       "open_questions": lst("asked"), "decisions": lst("date", tombstones=True)},
           "history": draw(st.lists(st.fixed_dictionaries({"date": st.sampled_from(DATES[1:4]),
                                                           "summary": st.sampled_from(["s", "t"])}), max_size=3))}
    current = doc["current"]
    if draw(st.booleans()):
        current["parked_actions"] = [dict(i, parked_at="2026-01-15T00:00:00Z") for i in lst("added")
                                     if item_key(i) not in {item_key(j) for j in current["next_actions"]}]
        if current["next_actions"] and draw(st.booleans()):
            # A hand-edited replica holding one action both live and parked.
            current["parked_actions"].append(dict(current["next_actions"][0], parked_at="2026-01-20T00:00:00Z",
                                                  machine_id=draw(st.sampled_from(["m1", "m3"]))))
    if draw(st.booleans()):
        current["goals"].append({"note": draw(st.sampled_from(["no text", "none"]))})
    for name in ("completed_actions", "completed_goals"):
        if draw(st.booleans()):
            current[name] = [{"text": i["text"], "done_at": i.get("done_at", "2026-02-01T00:00:00.000Z")}
                             for i in lst("done_at")]
    if draw(st.booleans()):
        doc["x_unknown"] = draw(st.sampled_from(["one", "two"]))
    return doc


ENTRY_BODIES = ["alpha\n", "beta\n"]


@st.composite
def entry_sets(draw):
    files = {}
    for link in draw(st.lists(st.sampled_from(["a", "b", "c"]), unique=True, max_size=3)):
        kind = draw(st.sampled_from(["fact", "decision", "next_action"]))
        lines = ["---", f"type: {kind}", f"name: {link}", "description: d"]
        if kind == "next_action":
            lines.append("added: 2026-01-01T00:00:00Z")
            if draw(st.booleans()):
                lines.append(f"done_at: {draw(st.sampled_from(['2025-12-01T00:00:00Z', '2026-02-01T00:00:00Z']))}")
        if kind == "decision" and draw(st.booleans()):
            lines += ["hidden: true", "hidden_at: 2026-01-05T00:00:00Z"]
        updated = draw(st.sampled_from([None, "2026-01-01", "2026-02-01"]))
        if updated:
            lines.append(f"updated: {updated}")
        files[f"memory/{link}.md"] = ("\n".join(lines) + "\n---\n" + draw(st.sampled_from(ENTRY_BODIES))).encode()
    return files


def store_of(document: dict | None, files: dict[str, bytes]) -> Store:
    store = Store(dialect="memoir", meta={"layout": "nested"})
    if document is not None:
        store.working_set, _ = read_session(json.dumps(document, indent=2).encode())
    for path, raw in files.items():
        store.records.append(read_entry(raw, path, path[len("memory/"):-3]))
    return store


def store_from_files(files: dict[str, bytes]) -> Store:
    """A merged output, read back as memoir reads it."""
    doc = json.loads(files["session.json"]) if "session.json" in files else None
    store = store_of(doc, {p: b for p, b in files.items() if p.startswith("memory/")})
    if doc is not None:
        store.working_set, _ = read_session(files["session.json"])
    from memconv.model import ForeignFile
    store.foreign = [ForeignFile(p, b) for p, b in files.items() if p != "session.json" and not p.startswith("memory/")]
    return store


@SETTINGS
@given(documents(), documents(), entry_sets(), entry_sets())
def test_merge_is_commutative_byte_for_byte(da, db, ea, eb):
    assert merge(store_of(da, ea), store_of(db, eb)).files == merge(store_of(db, eb), store_of(da, ea)).files


@SETTINGS
@given(documents(), documents(), entry_sets(), entry_sets())
def test_re_merging_the_result_with_itself_or_either_side_changes_nothing(da, db, ea, eb):
    merged = merge(store_of(da, ea), store_of(db, eb)).files
    for other in (merged, None, "a", "b"):
        side = store_from_files(merged) if other is merged else \
            store_of(da, ea) if other == "a" else store_of(db, eb) if other == "b" else store_from_files(merged)
        again = merge(store_from_files(merged), side)
        assert again.files == merged
        assert not [o for o in again.outcomes if o.status == "conflict" and not o.already_kept]


def _identities(doc: dict) -> dict[str, set[str]]:
    cur = doc["current"]
    fam = {"goals": ["goals", "completed_goals"], "next": ["next_actions", "parked_actions", "completed_actions"],
           "open_questions": ["open_questions"], "decisions": ["decisions"]}
    return {name: {item_key(i) for key in keys for i in cur.get(key, [])} for name, keys in fam.items()}


@SETTINGS
@given(documents(), documents())
def test_no_identity_is_lost(da, db):
    out = json.loads(merge(store_of(da, {}), store_of(db, {})).files["session.json"])
    have, want_a, want_b = _identities(out), _identities(da), _identities(db)
    for family in have:
        assert want_a[family] | want_b[family] <= have[family], family
    rows = {(r["date"], r["summary"]) for r in out["history"]}
    assert {(r["date"], r["summary"]) for r in da["history"] + db["history"]} <= rows
    assert set(da["machines"]) | set(db["machines"]) == set(out["machines"])


@SETTINGS
@given(documents(), documents(), documents())
def test_suppression_is_monotone(da, db, stale):
    once = json.loads(merge(store_of(da, {}), store_of(db, {})).files["session.json"])
    twice = json.loads(merge(store_of(once, {}), store_of(stale, {})).files["session.json"])
    hidden = {item_key(d) for d in once["current"]["decisions"] if d.get("hidden") is True}
    assert hidden <= {item_key(d) for d in twice["current"]["decisions"] if d.get("hidden") is True}
    done = {item_key(t): instant(t.get("done_at")) for t in twice["current"].get("completed_actions", [])}
    for item in twice["current"]["next_actions"] + twice["current"].get("parked_actions", []):
        if item_key(item) in done:
            assert instant(item.get("added")) > done[item_key(item)], "only a re-add after done_at is open"


@SETTINGS
@given(documents())
def test_merging_a_merged_document_with_itself_is_a_no_op(da):
    canonical = merge(store_of(da, {}), store_of(da, {})).files
    assume("session.json" in canonical)
    assert merge(store_from_files(canonical), store_from_files(canonical)).files == canonical


@SETTINGS
@given(entry_sets(), entry_sets())
def test_no_entry_is_lost_and_only_an_older_copy_gives_way(ea, eb):
    out = merge(store_of(None, ea), store_of(None, eb)).files
    assert set(ea) | set(eb) <= set(out), "every link name of A and B is in the merge"
    bodies = {p: b.split(b"\n---\n", 1)[1] for p, b in out.items()}
    for path in set(ea) & set(eb):
        for mine, theirs in ((ea[path], eb[path]), (eb[path], ea[path])):
            mine_r, theirs_r = (read_entry(x, path, path[7:-3]) for x in (mine, theirs))
            newer = instant(theirs_r.updated) > instant(mine_r.updated)
            body = mine.split(b"\n---\n", 1)[1]
            kept = any(p.startswith(path[:-3]) and b == body for p, b in bodies.items())
            assert kept or newer, f"{path}: a copy is only replaced by a strictly newer one"
