"""A run within a dialect that reads and writes one record at a time (memoir: ``migrate``, ``check``) holds
one record at a time, and gives the same files, in the same order, and the same report as the run that
reads the whole store first (issue 12: memory growing sublinearly where the dialects allow).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memconv import pipeline
from memconv.cli import main as cli
from memconv.dialects import memoir
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN, tree
from .convert_helpers import golden_inputs

CANONICAL = GOLDEN / "memoir" / "canonical" / "input"


def _whole(root: Path, dialect: str, date: str | None = None) -> tuple[list[tuple[str, bytes]], Report]:
    report = Report(command="migrate", input=str(root))
    files = list(pipeline.plan(pipeline.read(root, dialect), dialect, report, date=date, jobs=1).iter_files())
    return files, report


def _streamed(root: Path, dialect: str, date: str | None = None) -> tuple[list[tuple[str, bytes]], Report]:
    report = Report(command="migrate", input=str(root))
    _, plan = pipeline.stream_within(root, dialect, report, date=date)
    return list(plan.iter_files()), report


def _said(report: Report) -> dict:
    """Everything the report says, as the JSON a user gets (no time taken)."""
    said = json.loads(report.to_json())
    said.pop("elapsed_seconds", None)
    return said


def _awkward_store(root: Path) -> Path:
    """A memoir store with everything the reader sets aside or says: a foreign file, a file it quarantines,
    a legacy (opaque) entry, two entries one file apart only in case, an old session.json, a link out."""
    shutil.copytree(GOLDEN / "memoir" / "messy" / "input", root)
    shutil.copy(GOLDEN / "memoir" / "legacy-session" / "input" / "session.json", root / "session.json")
    entry = (CANONICAL / "memory" / "fact_staging-endpoints.md").read_bytes()
    (root / "memory" / "fact_staging-endpoints.md").write_bytes(entry)
    (root / "memory" / "FACT_staging-endpoints.md").write_bytes(entry)
    (root / "memory" / "fact_broken.md").write_bytes(b"---\ntype: fact\ntitle: [unclosed\n---\nbody\n")
    (root / "memory" / "fact_not-utf8.md").write_bytes(b"---\ntype: fact\n---\n\xff\xfe\n")
    (root / "README.md").write_text("not memory\n")
    outside = root.parent / "outside.md"
    outside.write_text("elsewhere\n")
    os.symlink(outside, root / "memory" / "fact_elsewhere.md")
    return root


def test_memoir_streams():
    assert pipeline.streams("memoir")
    assert not pipeline.streams("claude"), "a Claude MEMORY.md is written from every record"


@pytest.mark.parametrize("name", [n for d, n in golden_inputs() if d == "memoir"])
def test_golden_memoir_stores_stream_to_the_same_files_and_report(name):
    root = GOLDEN / "memoir" / name / "input"
    files, report = _whole(root, "memoir")
    streamed, streamed_report = _streamed(root, "memoir")
    assert streamed == files, f"{name}: the same files in the same order"
    assert _said(streamed_report) == _said(report)


def test_an_awkward_store_streams_to_the_same_files_and_report(tmp_path):
    root = _awkward_store(tmp_path / "in")
    files, report = _whole(root, "memoir", date="2031-05-06")
    streamed, streamed_report = _streamed(root, "memoir", date="2031-05-06")
    said = _said(report)
    assert said["quarantined"] and said["refused"] and said["migrations"], "the store exercises every list"
    assert any("case" in w for w in said["warnings"]), "and the case clash"
    assert streamed == files
    assert _said(streamed_report) == said


def test_a_generated_store_streams_to_the_same_files_and_report(tmp_path):
    root = bench_module("generators").make("memoir", tmp_path / "in", 300)
    files, report = _whole(root, "memoir")
    streamed, streamed_report = _streamed(root, "memoir")
    assert len(files) > 300 and streamed == files
    assert _said(streamed_report) == _said(report)


def test_each_entry_is_written_before_the_next_is_read(tmp_path, monkeypatch):
    """What bounds the memory: the stream reads a file only when the one before it has been written."""
    root = bench_module("generators").make("memoir", tmp_path / "in", 50)
    read: list[str] = []
    real = memoir.read_bytes

    def noting(root, path, **kw):
        read.append(path)
        return real(root, path, **kw)

    monkeypatch.setattr(memoir, "read_bytes", noting)
    _, plan = pipeline.stream_within(root, "memoir", Report(command="migrate", input=str(root)))
    entries = 0
    for path, _ in plan.iter_files():
        if path.startswith("memory/"):
            entries += 1
            assert read.count(path) == 1 and read[-1] == path, f"{path} was read just before it was written"
            assert sum(p.startswith("memory/") for p in read) == entries, "no entry read ahead"
    assert entries == 50


def test_a_streamed_plan_is_read_once(tmp_path):
    _, plan = pipeline.stream_within(CANONICAL, "memoir", Report(command="migrate", input=str(CANONICAL)))
    plan.drain()
    with pytest.raises(RuntimeError, match="read once"):
        plan.drain()


def test_check_streams_and_says_what_the_whole_check_says(tmp_path, monkeypatch):
    root = _awkward_store(tmp_path / "in")
    streamed = _said(pipeline.check(root, "memoir", Report(command="check", input=str(root))))
    monkeypatch.setattr(pipeline, "streams", lambda dialect: False)
    whole = _said(pipeline.check(root, "memoir", Report(command="check", input=str(root))))
    assert streamed == whole and whole["differences"] and whole["exit_code"] == 1


def test_migrate_through_the_cli_writes_what_the_whole_run_plans(tmp_path, runner):
    root = _awkward_store(tmp_path / "in")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["migrate", "--from", "memoir", str(root), str(out), "--json"])
    assert result.exit_code == 3, result.output  # quarantined files
    files, report = _whole(root, "memoir")
    written = tree(out)
    written.pop(".memconv/manifest.json", None)
    assert written == dict(files)
    assert json.loads(result.stdout)["files"] == _said(report)["files"]
