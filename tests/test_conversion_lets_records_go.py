"""A conversion handed the store lets each source record go once converted (issue 12: bounded memory).

The command line hands its store over (``pipeline.plan(..., release=True)``): the source store and the
converted one are then never both held whole. The output and the report must be the same bytes as when
the caller keeps its store, which the library does by default.
"""

from __future__ import annotations

import gc
import json
import weakref
from dataclasses import asdict

import pytest

from memconv import pipeline
from memconv.model import Record
from memconv.converters.read_back import ReadBack
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN
from .convert_helpers import DIALECTS, golden_inputs


def _plan(store, target: str, release: bool) -> tuple[dict[str, bytes], str]:
    report = Report(command="convert", input="<memory>")
    files = pipeline.plan(store, target, report, release=release, jobs=1).files
    return files, json.dumps(asdict(report), sort_keys=True, default=str)


@pytest.mark.parametrize("source,name", golden_inputs())
def test_a_released_store_gives_the_same_bytes_and_report(source, name):
    root = GOLDEN / source / name / "input"
    for target in DIALECTS:
        if target == source:
            continue
        kept = pipeline.read(root, source)
        count = len(kept.records)
        assert _plan(pipeline.read(root, source), target, True) == _plan(kept, target, False), target
        assert len(kept.records) == count  # the library's default leaves the caller's store whole


@pytest.mark.parametrize("source", DIALECTS)
def test_each_record_is_let_go_once_converted(source, tmp_path, monkeypatch):
    # Verified by dropping `natives[i] = (None, native)` from converters/forward.py: at the last record
    # read back all 120 sources were still alive; and by dropping the clearing of the caller's list in
    # converters.run: the caller's store kept every record.
    bench_module("generators").make(source, tmp_path / "in", 120)
    target = "memfmt" if source != "memfmt" else "memoir"
    alive: list[int] = []
    laid_out: list[int] = []  # live sources that still hold their file's layout
    take = ReadBack.take

    def counting(self, i: int):
        gc.collect()
        alive.append(sum(ref() is not None for ref in sources))
        laid_out.append(sum(ref() is not None and ref().layout is not None for ref in sources))
        return take(self, i)

    for release in (False, True):
        store = pipeline.read(tmp_path / "in", source)
        sources = [weakref.ref(r.source) for r in store.records]
        alive.clear()
        laid_out.clear()
        monkeypatch.setattr(ReadBack, "take", counting)
        pipeline.plan(store, target, Report(command="convert", input="x"), release=release, jobs=1)
        monkeypatch.undo()
        gc.collect()
        left = sum(ref() is not None for ref in sources)
        if not release:
            assert set(alive) == {len(sources)} and left == len(sources)
            assert laid_out[0] == len(sources)
            continue
        assert store.records == []
        # When record i is read back, the records converted before it are gone; the ones after it, and
        # those kept as notes (rendered when the notes are written), are still held.
        notes = len(sources) - len(alive)
        assert alive == [notes + len(alive) - i for i in range(len(alive))], alive
        assert left == 0  # nothing outlives the plan
        # Once every native record is made, only the records kept as notes keep their layout (verified by
        # dropping `record.source.layout = None` from forward(): every source kept it).
        assert laid_out[0] == notes


#: A Claude store whose index has an inline bullet ("Foo bar") whose link would be the real entry's own.
_CLASH = {
    "MEMORY.md": "# Memory Index\n\n- [Foo bar](reference_foo-bar.md) — the real one\n- Foo bar\n",
    "reference_foo-bar.md": "---\nname: Foo bar\ndescription: the real one\ntype: reference\n---\n\n"
                            "Real body. See also [[reference_foo-bar]].\n",
}


@pytest.mark.parametrize("target", ["memoir", "memspec", "memfmt"])
def test_an_inline_bullet_never_takes_the_link_of_a_record_let_go(tmp_path, target):
    # Verified with the links listed from store.records after release had emptied it (as before): the
    # bullet took reference_foo-bar, and the real entry's [[reference_foo-bar]] was renamed to the bullet's file.
    for path, text in _CLASH.items():
        (tmp_path / path).write_text(text)
    assert _plan(pipeline.read(tmp_path, "claude"), target, True) == _plan(pipeline.read(tmp_path, "claude"), target, False)


def test_an_entry_linking_itself_still_does_beside_a_bullet_of_its_name(tmp_path):
    from click.testing import CliRunner

    from memconv.cli import main

    from .conftest import tree

    (tmp_path / "in").mkdir()
    for path, text in _CLASH.items():
        (tmp_path / "in" / path).write_text(text)
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "in"), str(tmp_path / "m")]).exit_code == 0
    entry = (tmp_path / "m" / "memory" / "fact_foo-bar.md").read_text()
    assert "the real one" in entry and "[[fact_foo-bar]]" in entry, "its link names its own new file"
    back = runner.invoke(main, ["convert", "--to", "claude", str(tmp_path / "m"), str(tmp_path / "c")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "c") == {p: t.encode() for p, t in _CLASH.items()}, "and comes home byte for byte"


@pytest.mark.parametrize("target", ["memoir", "memspec", "memfmt"])
def test_a_carried_index_lets_its_lines_go(tmp_path, target):
    # A claude MEMORY.md travels in the store note, as its model and its bytes: handed the store, the
    # conversion lets go of how its lines were written (a tuple and a string per line, to the end of the
    # run), with the same output (test_a_released_store_gives_the_same_bytes_and_report).
    bench_module("generators").make("claude", tmp_path / "in", 30)
    for release in (False, True):
        store = pipeline.read(tmp_path / "in", "claude")
        index = store.indexes[0]
        assert index.source.layout is not None
        files = pipeline.plan(store, target, Report(command="convert", input="x"), release=release, jobs=1).files
        assert any(b"MEMORY.md" in data for path, data in files.items() if "store" in path)
        assert (index.source.layout is None) == release


@pytest.mark.parametrize("source", DIALECTS)
def test_a_converted_record_is_held_packed_until_its_read_back(source, tmp_path, monkeypatch):
    # Verified by appending the record itself, not Packed(record), in converters/forward.py: when the first record
    # was read back, every one of the 120 source records was alive.
    bench_module("generators").make(source, tmp_path / "in", 120)
    target = "memfmt" if source != "memfmt" else "memoir"
    store = pipeline.read(tmp_path / "in", source)
    sources = {id(r.source) for r in store.records}
    held: list[int] = []
    take = ReadBack.take

    def counting(self, i: int):
        if not held:
            gc.collect()
            held.append(sum(type(o) is Record and o.source is not None and id(o.source) in sources
                            for o in gc.get_objects()))
        return take(self, i)

    monkeypatch.setattr(ReadBack, "take", counting)
    report = Report(command="convert", input="x")
    pipeline.plan(store, target, report, release=True, jobs=1).drain()
    notes = sum(f.target_kind == "note" for f in report.files)
    # Alive then: the records kept as notes (written last), and the one being read back, just unpacked.
    assert held == [notes + 1]
