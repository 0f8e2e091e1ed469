"""The per-file entry points the converter uses agree with the whole-store ones.

The read-back reads each rendered file with the target's ``read_file``, not by
writing a folder and reading it with ``read``; the claude index is computed
from each record's type word without rendering its frontmatter. Both must give
exactly what the whole-store path gives, on every golden store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv import dialects
from memconv.dialects.claude import entries as claude_entries
from memconv.model import meaning

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
STORES = sorted(p for d in ("memoir", "claude", "memspec", "memfmt") for p in (GOLDEN / d).iterdir() if p.is_dir())


def _input(store: Path) -> Path:
    return store / "input"


@pytest.mark.parametrize("store", STORES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_read_file_gives_the_records_read_gives(store):
    # Verified by making memoir's read_file ignore the layout in meta (always flat): memoir stores fail.
    dialect = store.parent.name
    module = dialects.get(dialect)
    whole = module.read(_input(store))
    one_by_one = {}
    for record in whole.records:
        raw = record.source.raw
        again = module.read_file(record.source.path, raw, whole.meta)
        assert again is not None, record.source.path
        one_by_one[record.source.path] = again
    for record in whole.records:
        again = one_by_one[record.source.path]
        assert meaning(again) == meaning(record)
        assert again.source.path == record.source.path and again.source.raw == record.source.raw
    for foreign in whole.foreign:
        assert module.read_file(foreign.path, foreign.raw, whole.meta) is None, foreign.path


@pytest.mark.parametrize("store", [s for s in STORES if s.parent.name in ("claude", "memoir")],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claude_type_word_is_the_one_frontmatter_pairs_writes(store):
    # Verified by returning "project" from written_type for every kind: the memoir stores fail.
    from memconv.dialects.claude import written_type
    from memconv.model import clone

    records = dialects.get(store.parent.name).read(_input(store)).records
    for record in records + [clone(r) for r in records]:
        if record.opaque:
            continue
        source = record.source
        layout = source.layout if source is not None and source.dialect == "claude" else None
        pairs = claude_entries.frontmatter_pairs(record, layout)
        word = pairs.get("type") if "type" in pairs else pairs["metadata"]["type"]
        assert written_type(record) == word


from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from memconv.converters import carry as carrying  # noqa: E402
from memconv.model import Edge, Lifecycle  # noqa: E402

_atoms = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from([0.0, -0.0, 1.0, float("nan")]),
                   st.sampled_from(["", "a", "1"]))
_values = st.recursive(_atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
    st.builds(Edge, st.sampled_from(["supersedes", "depends_on"]), st.sampled_from(["x", "y"])),
    st.builds(Lifecycle, st.sampled_from(["active", "done"]), st.sampled_from([None, "2026-01-01"]))), max_leaves=6)


@settings(max_examples=400, deadline=None)
@given(_values, _values)
@example({"a": 1, "b": 2}, {"b": 2, "a": 1})
@example([0.0], [-0.0])
@example([1], [True])
@example([Edge("x", "y")], [Edge("x", "y")])
@example(float("nan"), float("nan"))
def test_carry_tells_values_apart_as_their_repr_does(a, b):
    # Verified by comparing dict values without their key order: {"a": 1, "b": 2} vs {"b": 2, "a": 1} fails.
    # (the one value is never different from itself, NaN included, as before)
    assert (not carrying._same(a, b)) == (a is not b and (type(a) is not type(b) or a != b or repr(a) != repr(b)))
