"""OUT is written all or nothing, never over a non-empty folder by accident, and IN is never written."""

from __future__ import annotations

import pytest

from memconv import fs
from memconv.cli import main
from memconv.errors import OutputError

from .conftest import GOLDEN, tree

SRC = GOLDEN / "memoir" / "canonical" / "input"


def _convert(runner, out, *extra):
    return runner.invoke(main, ["convert", "--to", "memoir", *extra, str(SRC), str(out)])


def test_non_empty_out_is_refused_without_force(runner, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = _convert(runner, out)
    assert result.exit_code == 4 and "not empty" in result.stderr
    assert tree(out) == {"keep.txt": b"mine"}, "a refused run touches nothing"
    forced = _convert(runner, out, "--force")
    assert forced.exit_code == 4 and "keep.txt" in forced.stderr, "--force never deletes a file memconv did not write"
    assert tree(out) == {"keep.txt": b"mine"}
    (out / "keep.txt").unlink()
    assert _convert(runner, out).exit_code == 0, "an empty OUT is fine"
    assert _convert(runner, out, "--force").exit_code == 0, "--force replaces what memconv wrote"
    assert tree(out) == tree(SRC), "--force replaces OUT whole"


def test_dry_run_writes_nothing_and_lists_the_plan(runner, tmp_path):
    out = tmp_path / "out"
    result = _convert(runner, out, "--dry-run", "--json")
    assert result.exit_code == 0
    assert not out.exists() and list(tmp_path.iterdir()) == [], "a dry run leaves no trace"
    assert "would write" in result.stderr and '"dry_run": true' in result.stdout


def test_out_inside_in_is_refused(runner, tmp_path):
    result = runner.invoke(main, ["convert", "--to", "memoir", str(SRC), str(SRC / "out")])
    assert result.exit_code == 2 and "inside the input" in result.stderr
    assert not (SRC / "out").exists()


def test_a_run_that_fails_midway_leaves_no_half_written_store(tmp_path, monkeypatch):
    # Verified by removing the cleanup in write_tree: the temporary folder is left and this fails.
    calls = {"n": 0}
    real = fs._write_one

    def dying_write(full, data):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full")
        return real(full, data)

    monkeypatch.setattr(fs, "_write_one", dying_write)
    with pytest.raises(OSError):
        fs.write_tree({"a.md": b"a", "b.md": b"b", "c.md": b"c"}, tmp_path / "out")
    assert list(tmp_path.iterdir()) == [], "neither OUT nor the temporary folder is left behind"


def test_a_failed_run_into_a_deep_new_out_leaves_no_folder_it_made(tmp_path, monkeypatch):
    # Verified by taking the removal out of fs.parents_made: a/b/c stay behind and this fails.
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "mine.txt").write_text("kept")

    def failing_write(full, data):
        raise OSError("disk full")

    monkeypatch.setattr(fs, "_write_one", failing_write)
    with pytest.raises(OSError):
        fs.write_tree({"x.md": b"x"}, tmp_path / "a" / "b" / "c" / "out")
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert left == ["a", "a/mine.txt"], "the folders the run made are gone, the ones it found stay"


def test_a_deep_new_out_is_made_when_the_run_succeeds(tmp_path):
    fs.write_tree({"x.md": b"x"}, tmp_path / "a" / "b" / "out", with_manifest=False)
    assert tree(tmp_path) == {"a/b/out/x.md": b"x"}


@pytest.mark.parametrize("path", ["../escape.md", "/etc/passwd", "a/../../b", "", "a\\..\\b"])
def test_paths_outside_out_are_refused(path):
    with pytest.raises(OutputError):
        fs.safe_relpath(path)
