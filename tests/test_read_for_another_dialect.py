"""On the command line, a store read for a conversion into another dialect is read without its files' layouts
(how each file's lines were written: a third of a read record, and a line for each link of a Claude index), and
each file's bytes are left on disk as soon as its record is read (docs/performance.md, "(twelfth)" and
"(thirty-first)"). Only the source's own writer reads a layout, and it
writes nothing in such a conversion; what the conversion asks of one (whether a Claude feedback memory's trigger
was derived from its description) is kept. The files and the report are the ones a store read whole gives."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memconv import dialects, pipeline
from memconv.cli import _for_conversion, main
from memconv.converters.restore import _withdraw
from memconv.converters.carry import Carry
from memconv.converters.forward import unformatted, unformatted_index
from memconv.model import Record, Store

from .bench_support import bench_module
from .claude_support import frontmatter
from .conftest import GOLDEN
from .convert_helpers import golden_inputs, planned

TARGETS = ("memoir", "claude", "memspec", "memfmt")
CASES = [(d, n, t) for d, n in golden_inputs() for t in TARGETS if t != d]


def _converted(root: Path, source: str, target: str, *, read_for) -> tuple[dict[str, bytes], dict]:
    return planned(root, source, target, _for_conversion(source, target) if read_for else {})


@pytest.mark.parametrize("source, name, target", CASES)
def test_golden_stores_give_the_same_files_and_report(source, name, target):
    root = GOLDEN / source / name / "input"
    assert _converted(root, source, target, read_for=True) == _converted(root, source, target, read_for=False)


@pytest.mark.parametrize("source", ["memoir", "claude", "memspec", "memfmt"])
def test_a_generated_store_gives_the_same_files_and_report(tmp_path, source):
    root = tmp_path / source
    bench_module("generators").make(source, root, 120)
    for target in TARGETS:
        if target != source:
            assert _converted(root, source, target, read_for=True) == \
                _converted(root, source, target, read_for=False)


@pytest.mark.parametrize("source", ["memoir", "claude", "memspec"])
def test_each_record_is_done_before_the_next_is_read_and_its_bytes_are_left_on_disk(tmp_path, source):
    root = tmp_path / source
    bench_module("generators").make(source, root, 30)
    seen = []

    def each(record):
        if seen:  # the record before: its bytes on disk (read again when asked for) before this one was read
            before = seen[-1].source
            assert before.raw_in_memory is None and before.has_raw
        unformatted(record)
        seen.append(record)

    store = pipeline.read(root, source, each=each)
    assert len(seen) == len(store.records) >= 30
    assert all(a is b for a, b in zip(seen, store.records)), "the records, in the order read"
    whole = dialects.get(source).read(root)
    assert [r.link for r in store.records] == [r.link for r in whole.records]


def test_a_store_read_once_whole_has_each_record_done_before_the_next_is_read(tmp_path, monkeypatch):
    # memfmt reads its store whole for another dialect (READS_TWICE_TO_STREAM), and its read_each lets each record's
    # layout go as it is read: 18 MB less at the read's end at 100,000 entries. Watched fail with pipeline.read
    # reading such a store with read and each done after: every record read before the first was done.
    root = tmp_path / "memfmt"
    bench_module("generators").make("memfmt", root, 30)
    module = dialects.get("memfmt")
    made, seen = [], []
    memory_file = module._memory_file

    def counted(*args, **kwargs):
        made.append(None)
        return memory_file(*args, **kwargs)

    monkeypatch.setattr(module, "_memory_file", counted)

    def each(record):
        assert len(made) == len(seen) + 1, "done as it is read, before the next"
        unformatted(record)
        seen.append(record)

    store = pipeline.read(root, "memfmt", each=each)
    assert len(seen) == len(store.records) >= 30 and all(a is b for a, b in zip(seen, store.records))
    assert all(r.source.layout is None and r.source.raw_in_memory is None and r.source.has_raw for r in seen)


def test_a_record_keeps_no_layout_but_the_fields_its_reader_derived(tmp_path):
    (tmp_path / "feedback_tests.md").write_bytes(
        b"---\nname: Run tests first\ndescription: Before saying done\ntype: feedback\n---\n\nAlways.\n")
    (tmp_path / "reference_docs.md").write_bytes(
        b"---\nname: Docs\ndescription: Where the docs are\ntype: reference\n---\n\nIn docs/.\n")
    store = pipeline.read(tmp_path, "claude", each=unformatted)
    layouts = {r.link: r.source.layout for r in store.records}
    assert "trigger" in layouts["feedback_tests"].derived
    assert not hasattr(layouts["feedback_tests"], "frontmatter"), "nothing else of the layout is kept"
    assert layouts["reference_docs"] is None or not hasattr(layouts["reference_docs"], "frontmatter")


def test_on_the_command_line_a_derived_trigger_still_rides_as_derived(tmp_path, runner):
    # Watched fail with unformatted() letting the whole layout go: the carry lost "derived", and an edit of the
    # trigger in memfmt came home as a trigger key the file never had.
    src = tmp_path / "claude"
    src.mkdir()
    (src / "feedback_tests.md").write_bytes(
        b"---\nname: Run tests first\ndescription: Before saying done\ntype: feedback\n---\n\nAlways run them.\n")
    out = tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memfmt", str(src), str(out), "-q"])
    assert result.exit_code == 0, result.output
    [carried] = [frontmatter(p.read_bytes())["memconv"] for p in out.rglob("*.md")
                 if ".memconv" not in p.parts and b"memconv:" in p.read_bytes()]
    assert Carry.loads(carried).payload.get("derived") == ["trigger"]


@pytest.mark.parametrize("command", [["memoir-to-claude"], ["convert", "--to", "memspec"]])
def test_the_command_line_reads_for_the_target(tmp_path, runner, monkeypatch, command):
    # Watched fail with the command line reading as before (no record given to unformatted).
    forward = sys.modules["memconv.converters.forward"]  # the module (the package names its function ``forward``)
    done = []
    monkeypatch.setattr(forward, "unformatted", lambda record: done.append(record.link))
    src = tmp_path / "memoir"
    bench_module("generators").make("memoir", src, 20)
    result = runner.invoke(main, [*command, str(src), str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert len(done) >= 20


def test_a_store_its_dialect_reads_twice_to_stream_is_read_once(tmp_path, monkeypatch):
    # memfmt's iter_read reads the store twice; a conversion holds the store anyway. Watched fail without memfmt's
    # READS_TWICE_TO_STREAM: memfmt → memoir at 100,000 entries took 6.6 s more CPU and 32 MB more.
    root = tmp_path / "memfmt"
    bench_module("generators").make("memfmt", root, 20)
    module = dialects.get("memfmt")

    def twice(root):
        raise AssertionError("read twice")

    monkeypatch.setattr(module, "iter_read", twice)
    monkeypatch.setattr(dialects, "_declarations", (None, {}))  # the declarations, looked up again
    seen = []
    store = pipeline.read(root, "memfmt", each=seen.append)
    assert seen == store.records and len(seen) >= 20


def test_a_claude_index_read_for_another_dialect_is_let_go_of_its_layout_as_it_is_read(tmp_path):
    # Watched fail with pipeline.read not giving the indexes to each_index: the layout (a line for each of 30 links)
    # and the bytes were held to the read's end, its peak (docs/performance.md, "(thirty-first)").
    root = tmp_path / "claude"
    bench_module("generators").make("claude", root, 30)
    read, when = [], []

    def each(record):
        unformatted(record)
        read.append(record)

    def each_index(index):
        unformatted_index(index, "memoir")
        when.append(len(read))

    store = pipeline.read(root, "claude", each=each, each_index=each_index)
    [index] = store.indexes
    assert when == [1], "done as the first memory after it is read, not at the read's end"
    assert index.source.layout is None and index.source.raw_in_memory is None and index.source.has_raw
    assert index.source.raw == (root / "MEMORY.md").read_bytes()
    assert sum(len(s.links) for s in index.sections) >= 30, "its links stay: the note shows them"


def test_an_index_the_target_writes_keeps_its_layout(tmp_path):
    # Watched fail with unformatted_index letting every index's layout go.
    root = GOLDEN / "claude" / "canonical" / "input"
    for target, kept in (("claude", True), ("memoir", False), ("memspec", False), ("memfmt", False)):
        [index] = dialects.get("claude").read(root).indexes
        unformatted_index(index, target)
        assert (index.source.layout is not None) is kept, target


def test_bullets_are_withdrawn_from_an_index_read_without_its_layout_as_from_one_read_with_it():
    # Watched fail with _withdraw not reading the layout again from the index's bytes: the index came back whole.
    root = GOLDEN / "claude" / "inline-only" / "input"
    marks = [{"path": "MEMORY.md", "section": "Conventions", "n": 1}, {"path": "MEMORY.md", "section": None, "n": 0}]
    home = Store(dialect="claude", records=[Record(kind="fact", link="x", title="x", body="x")])
    [whole] = dialects.get("claude").read(root).indexes
    [let_go] = dialects.get("claude").read(root).indexes
    unformatted_index(let_go, "memoir")
    assert let_go.source.layout is None
    withdrawn, again = _withdraw(whole, marks, home), _withdraw(let_go, marks, home)
    assert withdrawn.source.raw == again.source.raw != whole.source.raw
    assert b"under 60 characters" not in again.source.raw and b"User prefers Tailwind" not in again.source.raw
    assert [(s.heading, s.inline) for s in withdrawn.sections] == [(s.heading, s.inline) for s in again.sections]
