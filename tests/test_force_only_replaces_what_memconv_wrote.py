"""IN and OUT never overlap, and --force replaces only an OUT that is empty or that memconv wrote."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from memconv import fs
from memconv.cli import main
from memconv.errors import OutputError

from .conftest import tree




def _convert(runner, src, out, *extra):
    return runner.invoke(main, ["convert", "--to", "claude", *extra, str(src), str(out)])


@pytest.mark.parametrize("where", ["same", "out-in-in", "in-in-out", "link-to-in"])
def test_overlapping_in_and_out_are_a_usage_error_and_in_survives(runner, store, tmp_path, where):
    # Verified by dropping the "OUT holds IN" test in _guard_in_out: in-in-out exits 0 and IN is deleted.
    before = tree(store)
    out = {"same": store, "out-in-in": store / "memory" / "out", "in-in-out": tmp_path,
           "link-to-in": tmp_path / "link"}[where]
    if where == "link-to-in":
        out.symlink_to(store)
    result = _convert(runner, store, out, "--force", "--json")
    assert result.exit_code == 2, result.stderr
    assert json.loads(result.stdout)["error"]["kind"] == "usage"
    assert tree(store) == before and "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [["", "out"], ["IN", ""]])
def test_an_empty_argument_is_a_usage_error(runner, store, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    args = [str(store) if a == "IN" else a for a in args]
    result = runner.invoke(main, ["convert", "--to", "memspec", "--json", *args])
    assert result.exit_code == 2 and "empty path" in result.stderr
    assert json.loads(result.stdout)["exit_code"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"], "nothing was written"


def test_the_manifest_lists_every_file_with_its_checksum_and_no_date(runner, store, tmp_path):
    out = tmp_path / "out"
    assert _convert(runner, store, out).exit_code == 0
    raw = (out / ".memconv" / "manifest.json").read_bytes()
    listed = json.loads(raw)["files"]
    assert set(listed) == set(tree(out)), "every file memconv wrote, and only those"
    assert all(len(v) == 64 for v in listed.values())
    again = tmp_path / "again"
    assert _convert(runner, store, again).exit_code == 0
    assert (again / ".memconv" / "manifest.json").read_bytes() == raw, "same input, same manifest"


def test_force_refuses_a_git_repository_and_names_what_it_holds(runner, store, tmp_path):
    # Verified by letting check_out and _swap accept any folder under --force: .git is deleted.
    out = tmp_path / "out"
    out.mkdir()
    subprocess.run(["git", "init", "-q", str(out)], check=True)
    (out / "mine.txt").write_text("my notes")
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    result = _convert(runner, store, out, "--force", "--json")
    assert result.exit_code == 4
    assert ".git/" in result.stderr and "mine.txt" in result.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before


def test_force_replaces_its_own_output_but_not_an_edited_or_added_file(runner, store, tmp_path):
    out = tmp_path / "out"
    assert _convert(runner, store, out).exit_code == 0
    assert _convert(runner, store, out, "--force").exit_code == 0, "memconv's own output is replaced"
    (out / "MEMORY.md").write_bytes(b"edited by hand\n")
    edited = _convert(runner, store, out, "--force")
    assert edited.exit_code == 4 and "MEMORY.md (changed since memconv wrote it)" in edited.stderr
    assert (out / "MEMORY.md").read_bytes() == b"edited by hand\n"
    (out / "MEMORY.md").unlink()
    (out / "new.md").write_bytes(b"mine")
    added = _convert(runner, store, out, "--force")
    assert added.exit_code == 4 and "new.md" in added.stderr and (out / "new.md").exists()


def _long_memory(store, size: int) -> None:
    """A memory of about ``size`` bytes whose body links another: in memfmt its text is shown as facts and, the
    link named otherwise there, carried whole beside them: its file is about twice its size."""
    paragraph = "the staging runbook says so, see [[decision_local-db-choice]] " * 6
    (store / "memory" / "fact_long.md").write_text(
        "---\ntype: fact\nname: A long memory\n---\n\n" + "\n\n".join([paragraph] * (size // len(paragraph))) + "\n")


def test_force_replaces_its_own_file_larger_than_the_size_limit_and_says_so(runner, store, tmp_path):
    # Verified by hashing OUT's files with read_bytes again in fs._compare_entry: the second run exits 4,
    # "(changed since memconv wrote it)".
    _long_memory(store, 150_000)
    out = tmp_path / "out"
    first = runner.invoke(main, ["memoir-to-memfmt", "--max-file-size", "200K", "--json", str(store), str(out)])
    assert first.exit_code == 0, first.stderr
    written = max(p.stat().st_size for p in out.rglob("*.md"))
    assert written > 200 * 1024, "the test needs a file written over the limit"
    [said] = [n for n in json.loads(first.stdout)["notices"] if n["kind"] == "over-the-size-limit"]
    needed = f"--max-file-size {-(-written // (1 << 20))}M"
    assert said["message"].endswith(needed), said
    again = runner.invoke(main, ["memoir-to-memfmt", "--max-file-size", "200K", "--force", str(store), str(out)])
    assert again.exit_code == 0, again.stderr
    check = runner.invoke(main, ["memoir-to-memfmt", *needed.split(), "--check", str(store), str(out)])
    assert check.exit_code == 0, "with the limit the warning gives, OUT is read again whole"


def test_out_is_checked_again_just_before_the_swap(runner, store, tmp_path, monkeypatch):
    # Verified by not checking the moved-aside OUT in _swap: the file written meanwhile is deleted.
    out = tmp_path / "out"
    assert _convert(runner, store, out).exit_code == 0
    real_stage = fs.stage

    def meanwhile(files, beside):
        (out / "written-meanwhile.txt").write_text("a user's file")
        return real_stage(files, beside)

    monkeypatch.setattr(fs, "stage", meanwhile)
    result = _convert(runner, store, out, "--force")
    assert result.exit_code == 4 and "written-meanwhile.txt" in result.stderr
    assert (out / "written-meanwhile.txt").read_text() == "a user's file"
    assert (out / ".memconv" / "manifest.json").exists(), "the old OUT is back where it was"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"], "no temporary folder left"


def test_a_failed_swap_puts_the_old_out_back(store, tmp_path, monkeypatch):
    # Verified by removing the rename back in _swap: OUT is missing after the failure.
    out = tmp_path / "out"
    fs.write_tree({"a.md": b"old"}, out)
    real_rename = os.rename

    def failing(src, dst):
        if ".memconv-new-" in str(src):
            raise OSError(5, "Input/output error")
        return real_rename(src, dst)

    monkeypatch.setattr(fs.os, "rename", failing)
    with pytest.raises(OSError):
        fs.write_tree({"a.md": b"new"}, out, force=True)
    assert tree(out) == {"a.md": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


def test_force_keeps_the_mode_of_out_and_a_new_out_honours_the_umask(runner, store, tmp_path):
    # Verified by leaving mkdtemp's 0700: both modes come out 0o700.
    out = tmp_path / "out"
    old = os.umask(0o027)
    try:
        assert _convert(runner, store, out).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o750
    os.chmod(out, 0o755)
    assert _convert(runner, store, out, "--force").exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o755


def test_a_symlinked_out_stays_a_link(runner, store, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "out"
    link.symlink_to(real)
    assert _convert(runner, store, link).exit_code == 0
    assert link.is_symlink() and (real / "MEMORY.md").is_file()
    assert _convert(runner, store, link, "--force").exit_code == 0
    assert link.is_symlink() and (real / "MEMORY.md").is_file()


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_next_run_clears_what_killed_runs_left_and_puts_an_old_out_back(runner, store, tmp_path):
    # Verified by making sweep_stale a no-op: the stale folders stay and this fails.
    dead = _dead_pid()
    stale_new = tmp_path / f".out.memconv-new-{dead}-abc123"
    stale_new.mkdir()
    (stale_new / "half.md").write_text("half")
    stale_old = tmp_path / f".prev.memconv-old-{dead}-xyz789"
    (stale_old / "old").mkdir(parents=True)
    (stale_old / "old" / "kept.md").write_text("the previous output")
    live = tmp_path / f".out.memconv-new-{os.getpid()}-live00"
    live.mkdir()
    scratch = fs.scratch_dirs()[0]
    stale_scratch = os.path.join(scratch, f"memconv-readback-{dead}-s7ale0")
    os.mkdir(stale_scratch)
    assert _convert(runner, store, tmp_path / "out").exit_code == 0
    assert not stale_new.exists() and not os.path.exists(stale_scratch)
    assert (tmp_path / "prev" / "kept.md").read_text() == "the previous output", "a swapped-out OUT is put back"
    assert live.exists(), "a folder of a live run is left alone"


def test_check_out_refuses_a_file_and_a_dangling_link(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for out in ("f", "dangling"):
        with pytest.raises(OutputError):
            fs.check_out(tmp_path / out, force=True)


@pytest.mark.parametrize("target", ["memoir", "claude", "memspec", "memfmt"])
def test_the_cli_writes_exactly_what_the_pipeline_plans(runner, store, tmp_path, target):
    # Verified by confining the read-back scratch to IN (as a first version did): the read-back
    # finds nothing and the CLI output differs from the plan (memfmt: exit 4).
    from memconv import pipeline
    from memconv.report import Report

    planned = pipeline.plan(pipeline.read(store, "memoir"), target, Report(command="t", input="")).files
    out = tmp_path / "out"
    result = _convert_to(runner, store, out, target)
    assert result.exit_code == 0, result.stderr
    assert tree(out) == planned


def _convert_to(runner, src, out, target):
    return runner.invoke(main, ["convert", "--from", "memoir", "--to", target, str(src), str(out)])


def test_check_compares_its_own_file_larger_than_the_size_limit_by_its_hash(runner, store, tmp_path):
    # Verified by leaving out preview._same_file: the fresh OUT is called stale (exit 1), its long file
    # "not a file memconv can read".
    _long_memory(store, 150_000)
    out = tmp_path / "out"
    limit = ["--max-file-size", "200K"]
    assert runner.invoke(main, ["memoir-to-memfmt", *limit, str(store), str(out)]).exit_code == 0
    [long] = [p for p in out.rglob("*.md") if p.stat().st_size > 200 * 1024]
    fresh = runner.invoke(main, ["memoir-to-memfmt", *limit, "--check", str(store), str(out)])
    assert fresh.exit_code == 0, fresh.output
    long.write_bytes(long.read_bytes().replace(b"staging runbook", b"staging handbook", 1))
    stale = runner.invoke(main, ["memoir-to-memfmt", *limit, "--check", "--diff", str(store), str(out)])
    assert stale.exit_code == 1
    name = long.relative_to(out).as_posix()
    assert name not in stale.stdout and f"would change: {name} (modified; not in the patch: " in stale.stderr \
        and "over the size limit" in stale.stderr, stale.output  # no patch holds it (docs/cli.md)
