"""A file's report holds its lists of names as the one empty tuple until something is said of the file: a run holds
one report per file to its end, and five new empty lists each held ``migrate --from claude`` 35 MB higher at 100,000
files (docs/performance.md, "(thirty-first)"). The JSON report lists them as lists, as before."""

from __future__ import annotations

import json

from memconv.cli import main
from memconv.report import FileReport, Report

from .bench_support import bench_module

LISTS = ("native", "carried", "dropped", "warnings", "changes")


def test_a_file_report_holds_no_list_until_something_is_said():
    # Watched fail with the lists back to field(default_factory=list): each report made five lists of its own.
    a, b = FileReport("a.md"), FileReport("b.md")
    for name in LISTS:
        assert getattr(a, name) == () and getattr(a, name) is getattr(b, name)
    a.warn("one")
    a.warn("two")
    assert a.warnings == ["one", "two"] and b.warnings == ()


def test_the_json_report_gives_every_list_as_a_list():
    # Watched fail with to_dict left to asdict: a program given the report as a dict found tuples.
    report = Report(command="convert", input="in")
    report.files.append(FileReport("a.md", carried=("x",)))
    [file] = report.to_dict()["files"]
    assert {name: file[name] for name in LISTS} == {"native": [], "carried": ["x"], "dropped": [], "warnings": [],
                                                   "changes": []}


def test_a_run_within_claude_reports_every_file(tmp_path, runner):
    src = bench_module("generators").make("claude", tmp_path / "claude", 30)
    result = runner.invoke(main, ["migrate", "--from", "claude", "--json", str(src), str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert len(files) >= 30 and all(isinstance(f[name], list) for f in files for name in LISTS)
