"""The merge invariants for claude, memspec and memfmt, as properties over stores edited at random.

Each example starts from a golden store of the dialect and makes two replicas
of it: each keeps, drops or edits every record its own way (dates, text, state,
ext, facts, counters), and may add a record of its own. Then, for C = merge(A, B):

* no silent loss: every identity of A ∪ B is in C (memfmt: every fact of either copy too);
* merge(A, B) and merge(B, A) are the same bytes;
* merge(C, C) == C, and merging C again with A or with B changes nothing and reports no new conflict;
* suppression is monotone (memspec): a record superseded or retired on either side is not active in C.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from memconv import dialects
from memconv.merge import merge
from memconv.merge import claude as merge_claude
from memconv.merge import memfmt as merge_memfmt
from memconv.model import Edge, Lifecycle, Store, clone

from .conftest import GOLDEN, write_files

EXAMPLES = int(os.environ.get("MEMCONV_MERGE_EXAMPLES", "12"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

BASES = {
    "claude": GOLDEN / "claude" / "canonical" / "input",
    "memspec": GOLDEN / "memspec" / "newer-scope-probes" / "input",
    "memfmt": GOLDEN / "memfmt" / "full" / "input",
}
DATES = {"claude": [None, "2026-01-01", "2026-02-01"],
         "memspec": ["2026-04-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z"],
         "memfmt": [None, "2026-01-01", "2026-02-01"]}
TEXTS = ["first words", "second words"]


def _edit(dialect: str, record, op: str, value: int, ids: list[str]):
    r = clone(record, keep_source=True)
    date = DATES[dialect][value % len(DATES[dialect])]
    if op == "text":
        r.body = TEXTS[value % 2] + "\n"
    elif op == "date":
        if dialect == "memspec":
            r.last_verified = date
        elif dialect == "claude" and r.opaque:
            r.body = TEXTS[value % 2] + "\n"
        else:
            r.updated = date
    elif op == "state" and dialect == "memspec":
        if value % 2 and len(ids) > 1:
            target = next(i for i in ids if i != r.link)
            r.lifecycle = Lifecycle("superseded", None, "replaced")
            r.edges = [e for e in r.edges if e.type != "superseded_by"] + [Edge("superseded_by", target)]
        else:
            r.lifecycle = Lifecycle("retired", None, r.lifecycle.reason)
    elif op == "ext" and dialect == "memspec":
        r.ext = {**(r.ext or {}), f"k{value % 2}": TEXTS[value % 2]}
    elif op == "facts" and dialect == "memfmt" and r.kind == "entity":
        r.facts = [*(r.facts or []), TEXTS[value % 2]]
    elif op == "count" and dialect == "memfmt" and r.kind == "procedure":
        r.successes = (r.successes or 0) + 1 + value % 2
    else:
        return record
    return r


OPS = ["keep", "keep", "drop", "text", "date", "state", "ext", "facts", "count"]


def replica(dialect: str, base: Store, draw) -> Store:
    ids = [r.link for r in base.records]
    out = Store(dialect=dialect, meta=dict(base.meta), indexes=base.indexes, foreign=base.foreign)
    for record in base.records:
        op = draw(st.sampled_from(OPS))
        if op == "drop" and record.kind != "profile":
            continue
        if op == "drop":
            op = "keep"
        out.records.append(record if op == "keep" else _edit(dialect, record, op, draw(st.integers(0, 3)), ids))
    return out


def on_disk(dialect: str, store: Store, root: Path) -> Store:
    write_files(root, dialects.get(dialect).write(store))
    return dialects.get(dialect).read(root)


def identities(dialect: str, store: Store) -> set[str]:
    if dialect == "memfmt":
        return {merge_memfmt.RULES.identity(r) for r in store.records}
    return {r.link for r in store.records}


def _check(dialect: str, tmp: Path, draw) -> None:
    base = dialects.get(dialect).read(BASES[dialect])
    a = on_disk(dialect, replica(dialect, base, draw), tmp / "a")
    b = on_disk(dialect, replica(dialect, base, draw), tmp / "b")
    one, two = merge(a, b), merge(b, a)
    assert one.files == two.files, "merge(A, B) and merge(B, A) are the same bytes"
    write_files(tmp / "c", one.files)
    c = dialects.get(dialect).read(tmp / "c")
    # No silent loss.
    assert identities(dialect, a) | identities(dialect, b) <= identities(dialect, c)
    if dialect == "memfmt":
        facts = {merge_memfmt.RULES.identity(r): set(r.facts or ()) for r in c.records}
        for side in (a, b):
            for r in side.records:
                assert set(r.facts or ()) <= facts[merge_memfmt.RULES.identity(r)]
                if r.successes is not None:
                    kept = next(x for x in c.records if merge_memfmt.RULES.identity(x) == merge_memfmt.RULES.identity(r))
                    assert kept.successes >= r.successes
    if dialect == "memspec":
        state = {r.link: r.lifecycle.state for r in c.records}
        for side in (a, b):
            for r in side.records:
                if r.lifecycle.state != "active":
                    assert state[r.link] != "active", f"{r.link} was {r.lifecycle.state}, merge revived it"
        # Chains agree: superseded_by Y ⇒ Y supersedes it.
        by_id = {r.link: r for r in c.records}
        for r in c.records:
            for e in r.edges:
                if e.type == "superseded_by" and e.target in by_id:
                    assert any(x.type == "supersedes" and x.target == r.link for x in by_id[e.target].edges)
    if dialect == "claude":
        linked = merge_claude._parse(c.indexes)[1]
        targets = {item[1] for _, _, items in linked for item in items if item[0] == "link"}
        assert {r.source.path for r in c.records} <= targets, "MEMORY.md links every kept file"
    # Idempotent, and a fixed point with either side.
    again = merge(c, c)
    assert again.files == one.files and not [o for o in again.outcomes if o.status == "conflict"]
    for side in (a, b):
        result = merge(c, side)
        assert result.files == one.files
        assert not [o for o in result.outcomes if o.status == "conflict" and not o.already_kept]


@SETTINGS
@given(st.data())
def test_claude_merge_properties(tmp_path_factory, data):
    _check("claude", tmp_path_factory.mktemp("claude"), data.draw)


@SETTINGS
@given(st.data())
def test_memspec_merge_properties(tmp_path_factory, data):
    _check("memspec", tmp_path_factory.mktemp("memspec"), data.draw)


@SETTINGS
@given(st.data())
def test_memfmt_merge_properties(tmp_path_factory, data):
    _check("memfmt", tmp_path_factory.mktemp("memfmt"), data.draw)
