"""One path guard for every path memconv writes: the final write, both scratch folders, quarantine."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memconv import converters, dialects, fs, pipeline
from memconv.cli import main
from memconv.dialects import memoir
from memconv.errors import OutputError
from memconv.model import Quarantined, Store
from memconv.report import Report

BAD = ["", ".", "..", "/etc/passwd", "../x.md", "a/../../b", "a/./b", "a//b", "a/", "C:/x.md", "c:x.md",
       "a\\..\\b", "a\x00b", "a\nb.md", "a\x1bb", "x" * 256, "d/" + "é" * 128, "bad\udcff.md"]
GOOD = ["a.md", "memory/x y.md", "x" * 255, "é" * 127, "ab:c.md", "日本語/メモ.md", "a\x7fb.md", ".memconv/quarantine/a.md"]


@pytest.mark.parametrize("path", BAD)
def test_unsafe_paths_are_refused(path):
    # Verified by dropping the 255-byte rule, then the drive rule: the long and C: cases fail.
    with pytest.raises(OutputError):
        fs.safe_relpath(path)


@pytest.mark.parametrize("path", GOOD)
def test_safe_paths_pass(path):
    assert fs.safe_relpath(path) == path


def test_a_path_through_a_link_out_of_the_folder_is_refused(tmp_path):
    # Verified by skipping the realpath check in write_files: the file lands in `outside`.
    folder, outside = tmp_path / "folder", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (folder / "link").symlink_to(outside)
    with pytest.raises(OutputError):
        fs.safe_relpath("link/x.md", folder)
    with pytest.raises(OutputError):
        fs.write_files(folder, {"link/x.md": b"escape"})
    assert list(outside.iterdir()) == []


def test_write_files_never_overwrites_and_says_which_paths_collide(tmp_path):
    with pytest.raises(OutputError, match="collide"):
        fs.write_files(tmp_path, {"a": b"file", "a/b.md": b"under a file"})


_part = (st.sampled_from(["..", ".", "", "a\\b", "C:", "x" * 256, "nul\x00", "tab\t"])
         | st.text(st.characters(exclude_categories=("Cs",), exclude_characters="/"), min_size=1, max_size=12))


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(st.lists(_part, min_size=1, max_size=4).map("/".join))
def test_whatever_the_guard_accepts_stays_inside_the_folder(tmp_path_factory, path):
    assume(fs.path_problem(path) is None)
    folder = tmp_path_factory.mktemp("w")
    fs.write_files(folder, {path: b"x"})
    written = [p for p in folder.rglob("*") if p.is_file()]
    assert [p.relative_to(folder).as_posix() for p in written] == [path]
    assert all(len(part.encode()) <= 255 and part not in ("..", ".") for part in path.split("/"))


def test_check_via_writes_its_scratch_through_the_guard(tmp_path, monkeypatch):
    # Verified by restoring the hand-written loop in check_via: ../escape.md is written beside the scratch.
    root = tmp_path / "in"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "a.md").write_bytes(b"---\ntype: fact\nname: A\n---\nbody\n")
    real_plan = pipeline.plan

    def hostile(store, target, report, **kw):
        result = real_plan(store, target, report, **kw)
        if target == "claude":
            result.files["../../escape.md"] = b"pwned"
        return result

    monkeypatch.setattr(pipeline, "plan", hostile)
    with pytest.raises(OutputError):
        pipeline.check_via(root, "memoir", "claude", Report(command="check", input=str(root)))
    assert not any(p.name == "escape.md" for d in (tmp_path, *fs.scratch_dirs()) for p in Path(d).iterdir())


def test_a_conversion_writes_no_file_before_out(tmp_path, monkeypatch):
    # The read-back reads the target's rendering in memory: no scratch folder, no file of any
    # kind, so nothing for the path guard to stop. Verified by bringing back the scratch-folder
    # read-back (fs.write_files + module.read): every write fails here.
    root = tmp_path / "in"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "fact_a.md").write_text("---\ntype: fact\ndescription: A\n---\nSee [[fact_b]].\n")
    (root / "memory" / "fact_b.md").write_text("---\ntype: fact\ndescription: B\n---\nB.\n")

    def no_write(full, data):
        raise AssertionError(f"wrote {full}")

    monkeypatch.setattr(fs, "_write_one", no_write)
    store = memoir.read(root)
    for target in ("claude", "memspec", "memfmt"):
        assert converters.run(store, target).store.records


def test_quarantine_never_overwrites_and_never_leaves_out():
    # Verified by writing files[f"{QUARANTINE_DIR}/{q.path}"] directly: the note of IN is overwritten.
    store = Store(dialect="memoir", quarantined=[Quarantined("a.md", b"bad", "broken"),
                                                 Quarantined("../../etc/x", b"evil", "broken")])
    files = {".memconv/quarantine/a.md": b"a file of IN that was already there"}
    report = Report(command="convert", input="in")
    pipeline._quarantine(store, files, report, target="memoir")
    assert files[".memconv/quarantine/a.md"] == b"a file of IN that was already there"
    assert files[".memconv/quarantine/a-2.md"] == b"bad"
    assert [q["kept_at"] for q in report.quarantined] == [".memconv/quarantine/a-2.md", None]
    assert not any(".." in p for p in files)
    assert report.exit_code == 3


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])  # most drawn paths are refused
@given(st.lists(_part, min_size=1, max_size=4).map("/".join))
def test_a_path_the_guard_accepts_is_already_normal(path):
    # safe_relpath gives back the path it is given: normalising it (PurePosixPath, 7 µs a file written) changed
    # nothing the guard lets through. Verified by letting "a//b" through path_problem: PurePosixPath gives "a/b".
    assume(fs.path_problem(path) is None)
    assert fs.safe_relpath(path) == str(PurePosixPath(path)) == path


@pytest.mark.parametrize("crafted", ["../escape.md", "/tmp/escape.md", "entities/a\x00b.md"])
def test_a_memfmt_write_refuses_a_crafted_path_before_its_first_file(tmp_path, crafted):
    # An unedited memfmt record keeps its source's path; a path that did not come from a read (a record built in
    # code, a crafted carry's) is checked with the whole plan, before any file is rendered (memfmt._safe), so a
    # write stops with nothing given. Verified by letting _safe give the plan back unchecked: the call returns.
    from memconv.dialects import memfmt

    root = tmp_path / "in"
    (root / "entities").mkdir(parents=True)
    (root / "entities" / "Redis.md").write_text("---\nmemfmt_type: entity\n---\n# Redis\n\n## Facts\n- A cache.\n")
    store = memfmt.read(root)
    [record] = store.records
    assert list(memfmt.iter_write(store)), "read as it is, it is written"
    record.source.path = crafted
    with pytest.raises(OutputError, match="refusing to write"):
        memfmt.iter_write(store)  # at the call, where the plan is made


@pytest.mark.parametrize("folder", ["memory", ".memspec", "memory/procedures"])
def test_detection_counts_no_folder_reached_through_a_link(tmp_path, folder):
    # Watched fail before the fix: a memory/ linked from outside IN made it "memspec (version current)", exit 0,
    # while the listing refused the same link (docs/cli.md: a link out of IN is refused, detection included).
    outside = tmp_path / "outside"
    (outside / "memory" / "procedures").mkdir(parents=True)
    (outside / "memory" / "facts").mkdir()
    (outside / ".memspec" / "memory" / "facts").mkdir(parents=True)
    store = tmp_path / "in"
    (store / folder).parent.mkdir(parents=True, exist_ok=True)
    (store / folder).symlink_to(outside / folder, target_is_directory=True)
    assert dialects.detect_all(store) == []
    result = CliRunner().invoke(main, ["detect", str(store)])
    assert result.exit_code == 4, result.output
    assert not fs.is_folder(store, folder) and fs.is_folder(outside, folder)


@pytest.mark.parametrize("dialect, name", [("memoir", "session.json"), ("memspec", "config.yaml")])
def test_detection_counts_no_file_reached_through_a_link_out(tmp_path, dialect, name):
    # A file a detection looks up by name counts only where the listing would read it: a link out of IN is refused
    # there, so it is no evidence here either (a crafted IN could otherwise learn what exists outside it).
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / name).write_text('{"version": "0.1.2"}\n' if name == "session.json" else "prefix: M\n")
    store = tmp_path / "in"
    (store / "archive").mkdir(parents=True)
    (store / "note.md").write_text("---\nname: note\ndescription: a note\ntype: fact\n---\nBody.\n")
    (store / name).symlink_to(outside / name)
    assert not fs.is_file(store, name) and fs.is_file(outside, name)
    (store / "inside.txt").write_text("x")
    (store / "linked.txt").symlink_to(store / "inside.txt")
    assert fs.is_file(store, "linked.txt"), "a link to a file inside IN is read as that file by the listing"
    if dialect == "memoir":
        from memconv.dialects import memoir
        assert memoir._layout(store) == "flat"
    else:
        from memconv.dialects import memspec
        assert memspec._prefix(store) is None
