"""On the command line, a conversion into a dialect that splices writes each file as soon as it is spliced: the
read-back of the next record waits for it (docs/performance.md, "written as made"). The files and the report are
the ones a conversion done whole before its write gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memconv import dialects, pipeline
from memconv.cli import main
from memconv.converters import read_back
from memconv.errors import ReadError
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN, tree
from .convert_helpers import golden_inputs

#: The dialects that splice (memspec, memoir, claude), each with the golden stores of the others.
SPLICING = ("memspec", "memoir", "claude")
INTO = [(target, d, n) for target in SPLICING for d, n in golden_inputs() if d != target]


def _plan(root: Path, source: str, *, lazy: bool, target: str = "memspec") -> pipeline.Plan:
    store = pipeline.read(root, source)
    return pipeline.plan(store, target, Report(command="convert", input=str(root)), jobs=1, release=True,
                         lazy=lazy)


def _whole(plan: pipeline.Plan) -> tuple[dict[str, bytes], dict]:
    files = dict(plan.iter_files())
    return files, plan.report.to_dict()


@pytest.mark.parametrize("target, source, name", INTO)
def test_golden_stores_give_the_same_files_and_report_written_as_made(target, source, name):
    root = GOLDEN / source / name / "input"
    assert _whole(_plan(root, source, lazy=True, target=target)) == _whole(_plan(root, source, lazy=False,
                                                                                 target=target))


@pytest.fixture
def events(monkeypatch):
    """What happened, in order: ("back", i) as record i is read back, ("file", path) as a file is given."""
    said: list[tuple[str, object]] = []
    take = read_back.ReadBack.take

    def taking(self, i):
        said.append(("back", i))
        return take(self, i)

    monkeypatch.setattr(read_back.ReadBack, "take", taking)
    return said


@pytest.mark.parametrize("source, target, batch", [("claude", "memspec", 1), ("memoir", "memspec", 7),
                                                   ("memfmt", "memspec", 256), ("memspec", "memoir", 5),
                                                   ("memoir", "claude", 3), ("memfmt", "claude", 1)])
def test_no_more_than_a_batch_of_records_is_read_back_ahead_of_the_files(source, target, batch, events,
                                                                         monkeypatch, tmp_path):
    monkeypatch.setattr(pipeline, "_PULLED", batch)
    root = bench_module("generators").make(source, tmp_path / source, 40)
    plan = _plan(root, source, lazy=True, target=target)
    assert not [e for e in events if e[0] == "back"], "nothing is read back before the files are asked for"
    assert plan.report.files == [], "the report is whole once the files are written"
    files = {}
    for path, data in plan.iter_files():
        backs = sum(e[0] == "back" for e in events)
        assert backs <= len(files) + batch, f"{backs} records read back before the file after {len(files)}"
        events.append(("file", path))
        files[path] = data
    # Every record is read back, but a memspec store's archived records, which are notes elsewhere.
    assert sum(e[0] == "back" for e in events) >= (35 if source == "memspec" else 40)
    assert len(plan.report.files) >= 40
    assert (files, plan.report.to_dict()) == _whole(_plan(root, source, lazy=False, target=target))


def test_a_record_refused_once_the_write_began_is_converted_again_whole(monkeypatch, tmp_path, runner):
    """A file memspec's reader refuses on read-back sets its record aside; met once the write has begun, the
    command starts again with the whole store held, and writes what a conversion done whole writes."""
    module = dialects.get("memspec")
    read_file = module.read_file

    def refusing(path, raw, meta):
        if b"number 11\n" in raw:
            raise ReadError(path, "refused for this test")
        return read_file(path, raw, meta)

    monkeypatch.setattr(module, "read_file", refusing)
    root = bench_module("generators").make("claude", tmp_path / "claude", 30)
    made = runner.invoke(main, ["convert", "--to", "memspec", str(root), str(tmp_path / "made"), "--json"])
    # --fail-on-loss asks for the report before the write: the conversion is done whole first.
    whole = runner.invoke(main, ["convert", "--to", "memspec", str(root), str(tmp_path / "whole"), "--json",
                                 "--fail-on-loss"])
    assert made.exit_code == whole.exit_code == 3, made.output  # 3: a file was quarantined
    assert tree(tmp_path / "made") == tree(tmp_path / "whole")
    assert ".memspec/.memconv/quarantine/reference_latency-rollout-11.md.kept" in tree(tmp_path / "made")
    report, expected = json.loads(made.stdout), json.loads(whole.stdout)
    for doc in (report, expected):
        doc.pop("output"), doc.pop("seconds", None), doc.pop("elapsed", None)
    assert report == expected


def test_a_record_wears_its_read_back_marker_only_while_it_is_read_back(monkeypatch, tmp_path):
    """Into a dialect that splices, a record is marked for the read-back as its writer renders it, and unmarked
    when it is read back: a few records wear a marker at a time, not the whole store."""
    worn: list[int] = []
    most = [0]
    mark, unmark = read_back.ReadBack._mark, read_back.ReadBack._unmark

    def marking(self, i):
        mark(self, i)
        worn.append(i)
        most[0] = max(most[0], len(self._marked))

    def unmarking(self, i):
        unmark(self, i)
        most[0] = max(most[0], len(self._marked))

    monkeypatch.setattr(read_back.ReadBack, "_mark", marking)
    monkeypatch.setattr(read_back.ReadBack, "_unmark", unmarking)
    root = bench_module("generators").make("claude", tmp_path / "claude", 40)
    _whole(_plan(root, "claude", lazy=False))
    assert sorted(worn) == list(range(40)) and most[0] <= 2


def test_a_claude_index_is_made_once_every_memory_is_written(monkeypatch, tmp_path):
    """Into Claude, the MEMORY.md pages are made after the last memory's file, from what each record the
    conversion let go still holds (its link, name, description, type): never beside the store being read."""
    claude = dialects.get("claude")
    pages = claude._pages
    made_after: list[int] = []
    given: list[str] = []

    def counting(*args, **kwargs):
        made_after.append(len(given))
        return pages(*args, **kwargs)

    monkeypatch.setattr(claude, "_pages", counting)
    root = bench_module("generators").make("memspec", tmp_path / "memspec", 40)
    plan = _plan(root, "memspec", lazy=True, target="claude")
    for path, _ in plan.iter_files():
        given.append(path)
    memories = [p for p in given if not p.startswith((".memconv/", "MEMORY"))]
    assert len(memories) >= 35
    # The final write's pages come after every memory (the read-back's, for the records only, before them).
    assert made_after[-1] == len(memories)
    whole = _whole(_plan(root, "memspec", lazy=False, target="claude"))[0]
    assert b"Paragraph one of record 39" in whole["MEMORY.md"]  # a description, kept when its record was let go
    assert list(whole) == given
