"""A conversion into memspec writes each record from its read-back rendering, the carry spliced in where the
read-back's marker was, and the bytes are the ones rendering the record again gives (docs/performance.md,
"the splice")."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv import dialects, pipeline
from memconv.converters.slots import set_carry, strip_carry
from memconv.dialects import memspec
from memconv.dialects.memspec import jsyaml
from memconv.dialects.memspec.records import write_record
from memconv.model import Store
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN
from .convert_helpers import golden_inputs

SOURCES = [(d, n) for d, n in golden_inputs() if d != "memspec"]


@pytest.fixture
def counted(monkeypatch):
    """How often the final write took a spliced rendering instead of rendering the record."""
    taken = []
    declared = dialects.declaration("memspec", "splice")

    def splice(rendered, marker, carry):
        out = declared(rendered, marker, carry)
        taken.append(out is not None)
        return out

    monkeypatch.setitem(dialects.declarations("splice"), "memspec", splice)
    return taken


def _convert(root: Path, source: str) -> dict[str, bytes]:
    store = pipeline.read(root, source)
    plan = pipeline.plan(store, "memspec", Report(command="convert", input=str(root)), jobs=1, release=True)
    return dict(plan.iter_files())


def _unspliced(root: Path, source: str, monkeypatch) -> dict[str, bytes]:
    with monkeypatch.context() as m:
        m.setitem(dialects.declarations("splice"), "memspec", None)
        return _convert(root, source)


@pytest.mark.parametrize("source, name", SOURCES)
def test_golden_stores_into_memspec_are_the_same_bytes_spliced(source, name, monkeypatch):
    root = GOLDEN / source / name / "input"
    spliced = _convert(root, source)
    assert spliced == _unspliced(root, source, monkeypatch)


@pytest.mark.parametrize("source", ["claude", "memoir", "memfmt"])
def test_a_generated_store_is_spliced_record_by_record(source, counted, monkeypatch, tmp_path):
    root = tmp_path / source
    bench_module("generators").make(source, root, 60)
    spliced = _convert(root, source)
    assert counted and all(counted), "every record of a generated store wears a carry the splice can place"
    assert spliced == _unspliced(root, source, monkeypatch)


def test_a_store_written_under_its_own_folder_is_rendered_anew(monkeypatch):
    """The read-back writes under memspec's default folder; a store that came from memspec keeps its own
    (store facts in the final store only): what the read-back rendered is not what the final write writes."""
    root = GOLDEN / "claude" / "canonical" / "input"

    def convert() -> dict[str, bytes]:
        store = pipeline.read(root, "claude")
        store.meta.update({"memconv.meta_from": "memspec", "prefix": "store/.memspec/"})
        plan = pipeline.plan(store, "memspec", Report(command="convert", input=str(root)), jobs=1)
        return dict(plan.iter_files())

    spliced = convert()
    assert any(path.startswith("store/.memspec/memory/") for path in spliced)
    with monkeypatch.context() as m:
        m.setitem(dialects.declarations("splice"), "memspec", None)
        assert spliced == convert()


def _natives() -> list:
    """Records as a conversion into memspec writes them (built by memconv: no memspec layout)."""
    found = []
    for source, name in SOURCES:
        store = pipeline.read(GOLDEN / source / name / "input", source)
        out, _ = pipeline.convert(store, "memspec")
        found += [r for r in out.records if getattr(r.source, "dialect", None) != "memspec"]
    return found


NATIVES = _natives()
CONTEXT = memspec._context(Store(dialect="memspec"), {}, None)

#: Carries of every shape the emitter writes differently: short and long, quoted, many lines, wide characters.
_carry = st.one_of(
    st.text(max_size=300),
    st.text(st.characters(codec="utf-8"), max_size=120),
    st.lists(st.sampled_from(["{\"v\":1}", "word", " ", "\n", "'", "\"", ": ", "# ", "\t", "é", "𝄞", "-"]),
             max_size=200).map("".join),
)


def _rendered(record, carry: str):
    record = copy.copy(record)
    strip_carry(record)
    set_carry(record, "memspec", carry)
    path, data = write_record(record, CONTEXT)
    return path, data, []


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(NATIVES))), _carry)
def test_the_splice_gives_what_rendering_with_the_carry_gives(i, carry):
    record = NATIVES[i]
    marker = "memconv-probe:7"
    spliced = memspec.splice(_rendered(record, marker), marker, carry)
    assume(spliced is not None)  # it may decline (a carry ending in a blank line), never be wrong
    assert spliced == _rendered(record, carry)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(range(len(NATIVES))), st.text(max_size=40).map(lambda t: json.dumps({"v": 1, "x": t})))
def test_a_json_carry_is_always_spliced(i, carry):
    marker = "memconv-probe:12"
    assert memspec.splice(_rendered(NATIVES[i], marker), marker, carry) == _rendered(NATIVES[i], carry)


def test_a_record_with_fields_beside_the_carry_is_spliced_one_level_deeper():
    nested = [r for r in NATIVES if r.extra]
    assert nested, "a golden store gives a record whose fields ride under ext.memconv.fields"
    marker = "memconv-probe:3"
    probe = _rendered(nested[0], marker)
    assert b"\n    carry: " in probe[1]
    assert memspec.splice(probe, marker, "x" * 200) == _rendered(nested[0], "x" * 200)


def test_a_marker_that_is_also_in_the_body_is_not_spliced():
    record = copy.copy(NATIVES[0])
    marker = "memconv-probe:9"
    record.body = record.body + f"\nkey: {jsyaml.scalar(marker, 2)}\n"  # the line the carry is on, in the body
    assert memspec.splice(_rendered(record, marker), marker, "carry") is None
