"""``--diff`` stays a patch ``git apply`` and ``patch -p1`` apply: an empty file added or deleted is git's header alone,
and a file memconv cannot read (a FIFO, a link out, a file over the size limit) is said on stderr, not in the patch.

docs/cli.md: ``--diff`` printed whole is a patch that turns OUT into what the run writes. An empty file added or
deleted (an empty ``notes.txt`` kept from a Claude folder, memspec's ``archive/.gitkeep``) was ``--- /dev/null`` /
``+++ b/x`` / ``@@ an empty file added @@``, a hunk line no tool knows: GNU ``patch`` asked, at an empty file to
delete, "Assume -R? [n] Apply anyway? [n]" and skipped it (exit 1). git prints such a file as its ``diff --git`` line,
its mode line and ``index 0000000..e69de29``, no hunk at all, which both tools apply. A file memconv cannot read was
``@@ not a file memconv can read (…) @@``: ``git apply`` refused the whole patch ("patch with only garbage", "failed
to read fifo"); no patch can hold such a change, so its entry has no diff and says ``why``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memconv.pipeline import git_diff

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "golden" / "claude" / "mixed-project" / "input"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="no git here")


def _memconv(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", *map(str, args)], capture_output=True, cwd=ROOT,
                          timeout=120, stdin=subprocess.DEVNULL)


def _run(folder: Path, *command, data: bytes | None = None) -> bytes:
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(folder.parent))  # never the repository memconv sits in
    done = subprocess.run(command, input=data, cwd=folder, capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, (done.stdout + done.stderr).decode()
    return done.stdout


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(folder).parts}


def _applied(tool: str, start: Path, patch: bytes, folder: Path) -> dict[str, bytes]:
    shutil.copytree(start, folder, symlinks=True) if start.exists() else folder.mkdir()
    if tool == "git":
        _run(folder, "git", "apply", "--check", "-p1", "-", data=patch)
        _run(folder, "git", "apply", "-p1", "-", data=patch)
    else:
        _run(folder, "patch", "-s", "-p1", data=patch)
    return _tree(folder)


@needs_git
def test_an_empty_file_added_or_deleted_is_the_diff_git_prints(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _run(repo, "git", "init", "-q")
    (repo / "gone.md").write_bytes(b"")
    _run(repo, "git", "add", ".")
    _run(repo, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start")
    (repo / "gone.md").unlink()
    (repo / "new.md").write_bytes(b"")
    _run(repo, "git", "add", "-A")
    theirs = _run(repo, "git", "diff", "--cached", "--no-renames").decode()
    assert git_diff("gone.md", b"", None) + git_diff("new.md", None, b"") == theirs


@pytest.mark.parametrize("tool, target", [("git", "memoir"), ("git", "memspec"), ("git", "memfmt"),
                                          ("patch", "memoir"), ("patch", "memspec"), ("patch", "memfmt")])
def test_an_empty_file_added_then_deleted_applies_as_the_run_writes(tmp_path, tool, target):
    if shutil.which(tool) is None:
        pytest.skip(f"no {tool} here")
    store = tmp_path / "in"
    shutil.copytree(STORE, store)
    (store / "notes.txt").write_bytes(b"")  # kept, empty
    out, real = tmp_path / "out", tmp_path / "real"
    added = _memconv("convert", "--to", target, "-q", store, out, "--diff")
    assert added.returncode == 0 and not out.exists(), added.stderr.decode()
    assert b"@@ an empty file" not in added.stdout and b"index 0000000..e69de29\n" in added.stdout
    assert _memconv("convert", "--to", target, "-q", store, real).returncode == 0
    assert _applied(tool, out, added.stdout, tmp_path / "added") == _tree(real)

    (store / "notes.txt").unlink()  # OUT is memconv's: --force replaces it, and the empty file goes
    deleted = _memconv("convert", "--to", target, "-q", "--force", store, real, "--diff")
    assert deleted.returncode == 0 and b"index e69de29..0000000\n" in deleted.stdout, deleted.stderr.decode()
    applied = _applied(tool, real, deleted.stdout, tmp_path / "deleted")
    assert _memconv("convert", "--to", target, "-q", "--force", store, real).returncode == 0
    assert applied == _tree(real)


@needs_git
def test_a_file_memconv_cannot_read_is_said_on_stderr_and_the_rest_of_the_patch_applies(tmp_path):
    store, out = tmp_path / "in", tmp_path / "out"
    shutil.copytree(STORE, store)
    assert _memconv("convert", "--to", "memoir", "-q", store, out).returncode == 0
    (store / "user_role.md").write_text((store / "user_role.md").read_text() + "\nOne more line.\n")
    os.mkfifo(out / "fifo")
    (out / "linkout").symlink_to("/etc/hostname")
    diff = _memconv("convert", "--to", "memoir", "--force", store, out, "--diff")
    assert diff.returncode == 0, diff.stderr.decode()
    assert b"fifo" not in diff.stdout and b"linkout" not in diff.stdout and b"One more line." in diff.stdout
    said = diff.stderr.decode()
    assert "would change: fifo (deleted; not in the patch: a FIFO" in said, said
    assert "would change: linkout (deleted; not in the patch: a symbolic link" in said, said
    report = json.loads(_memconv("convert", "--to", "memoir", "--force", "--check", "--json", store, out).stdout)
    _run(out, "git", "apply", "--check", "-p1", "-", data=diff.stdout)  # in OUT itself (shutil copies no FIFO)
    _run(out, "git", "apply", "-p1", "-", data=diff.stdout)
    assert b"One more line." in (out / "memory" / "preference_role.md").read_bytes()
    fifo = next(d for d in report["differences"] if d["path"] == "fifo")
    assert fifo["diff"] == "" and fifo["why"].startswith("a FIFO")


def test_a_name_with_a_space_ends_its_header_line_with_a_tab_as_git_writes_it():
    """GNU ``patch`` ends a ``---``/``+++`` name at a space unless a tab follows it (memfmt's ``The deploy.md``)."""
    from memconv.preview import changes

    diff = git_diff("memory/entities/The deploy.md", b"a\n", b"b\n")
    assert "--- a/memory/entities/The deploy.md\t\n+++ b/memory/entities/The deploy.md\t\n" in diff
    [moved] = changes({"old/The x.md": b"a\n"}, {"new/The x.md": b"b\n"})  # moved to another folder, and edited
    assert "--- a/old/The x.md\t\n+++ b/new/The x.md\t\n" in moved["diff"], moved["diff"]
