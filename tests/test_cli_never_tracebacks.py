"""Every failure is a documented exit status and one line naming the file; JSON with --json; never a traceback."""

from __future__ import annotations

import errno
import json
import os

import pytest

from memconv import fs, pipeline
from memconv.cli import main
from memconv.dialects import memoir






USAGE = [["convert"], ["convert", "--to", "nope", "a", "b"], ["memoir-to-claude", "a"], ["check"],
         ["check", "--bogus", "x"], ["detect"], ["migrate", "a"], ["upgrade"], ["upgrade", "a", "b", "--in-place"],
         ["nosuchcommand"], ["convert", "--to", "claude", "--date", "yesterday", "a", "b"]]


@pytest.mark.parametrize("args", USAGE, ids=lambda a: " ".join(a) or "none")
def test_usage_errors_exit_2_with_a_json_error_object(runner, tmp_path, args):
    # Verified by leaving click's standalone mode on: no JSON is printed and `upgrade a b --in-place` exits 4.
    (tmp_path / "a").mkdir()
    result = runner.invoke(main, [*args, "--json"])
    assert result.exit_code == 2, result.stderr
    doc = json.loads(result.stdout)
    assert doc["exit_code"] == 2 and doc["error"]["kind"] == "usage" and doc["error"]["message"]
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("code, word", [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read-only"),
                                        (errno.EIO, "input/output"), (errno.EACCES, "permissions"),
                                        (errno.ENAMETOOLONG, "too long")])
@pytest.mark.parametrize("where", [".memconv-new-"])  # the read-back writes nothing since it reads in memory
def test_a_disk_fault_while_writing_leaves_no_out_and_says_so(runner, store, tmp_path, monkeypatch, code, word,
                                                              where):
    # Verified by removing the cleanup in stage: the temporary folder is left beside OUT.
    real = fs._write_one

    def failing(full, data):
        if where in full:
            raise OSError(code, os.strerror(code), full)
        real(full, data)

    monkeypatch.setattr(fs, "_write_one", failing)
    result = runner.invoke(main, ["convert", "--to", "memspec", "--json", str(store), str(tmp_path / "out")])
    assert result.exit_code == 4
    doc = json.loads(result.stdout)
    assert doc["error"]["kind"] == "system" and word in doc["error"]["hint"] and doc["error"]["path"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"], "no OUT, no temporary folder"
    assert not any(name.startswith(f"memconv-readback-{os.getpid()}-") for d in fs.scratch_dirs()
                   for name in os.listdir(d)), "no scratch folder"
    assert "Traceback" not in result.stderr


def test_a_file_vanishing_mid_read_names_the_file(runner, store, tmp_path, monkeypatch):
    def vanished(root, path, **kw):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", os.path.join(root, path))

    monkeypatch.setattr(memoir, "read_bytes", vanished)
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", "claude", str(store), str(tmp_path / "out")])
    assert result.exit_code == 4 and "vanished" in result.stderr and str(store) in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("exc, status, word", [(RecursionError("deep"), 4, "nested too deeply"),
                                               (TypeError("oops"), 70, "bug in memconv"),
                                               (KeyboardInterrupt(), 130, "interrupted"),
                                               (fs.Terminated(), 143, "terminated")])
def test_any_exception_maps_to_a_documented_status_never_1(runner, store, tmp_path, monkeypatch, exc, status, word):
    # Verified by re-raising unknown exceptions in _Memconv.main: a traceback and exit 1.
    def broken(*a, **kw):
        raise exc

    monkeypatch.setattr(pipeline, "plan", broken)
    result = runner.invoke(main, ["convert", "--to", "claude", "--json", str(store), str(tmp_path / "out")])
    assert result.exit_code == status and result.exit_code != 1
    assert word in result.stderr and "Traceback" not in result.stderr
    assert json.loads(result.stdout)["exit_code"] == status
    if isinstance(exc, TypeError):
        assert "TypeError" in result.stderr


def test_interrupted_while_writing_leaves_no_out_and_no_temporary_folder(runner, store, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = fs._write_one

    def interrupted(full, data):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        real(full, data)

    monkeypatch.setattr(fs, "_write_one", interrupted)
    result = runner.invoke(main, ["convert", "--to", "memfmt", str(store), str(tmp_path / "out")])
    assert result.exit_code == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_a_store_error_names_the_folder_and_exits_4(runner, tmp_path):
    (tmp_path / "empty").mkdir()
    result = runner.invoke(main, ["check", "--json", str(tmp_path / "empty")])
    assert result.exit_code == 4 and json.loads(result.stdout)["error"]["kind"] == "error"
    assert "empty" in result.stderr
