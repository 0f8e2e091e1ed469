"""A file whose bytes are not UTF-8 text (or hold a NUL) is diffed as git's binary patch, which ``git apply`` applies.

docs/cli.md: ``--diff`` printed whole is a patch that ``git apply`` turns OUT into what the run writes. A quarantined
memory holding the byte ``\\xff`` or a kept ``blob.bin`` was diffed as escape text (the four characters ``\\xff``):
``git apply`` took the patch and wrote wrong bytes. Such a file is now git's ``GIT binary patch`` (a full ``index``
line, ``literal`` hunks of zlib-deflated, base85 bytes), as ``git diff --binary`` prints it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memconv import preview
from memconv.pipeline import git_diff

ROOT = Path(__file__).resolve().parents[1]
BAD = b"---\nname: x\ntype: user\n---\nbad \xff\xfe byte\n"
BLOB = b"\x00\x01binary\xff"
SPREAD = bytes(i * i * 7919 % 251 for i in range(3000))  # deflates to many base85 lines, short and long

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="no git here")


def _memconv(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", *map(str, args)], capture_output=True, cwd=ROOT,
                          timeout=120)


def _git(folder: Path, *args, data: bytes | None = None) -> bytes:
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(folder.parent))  # never the repository memconv sits in
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], input=data, cwd=folder,
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(folder).parts}


def _applied(start: Path | dict[str, bytes], patch: bytes, folder: Path) -> dict[str, bytes]:
    if isinstance(start, Path):
        shutil.copytree(start, folder) if start.exists() else folder.mkdir()
    else:
        folder.mkdir()
        _write(folder, start)
    _git(folder, "apply", "-p1", "-", data=patch)
    return _tree(folder)


@needs_git
@pytest.mark.parametrize("target", ["memoir", "memspec", "memfmt"])
def test_a_quarantined_memory_and_a_kept_binary_file_are_applied_byte_for_byte(tmp_path, target):
    store = tmp_path / "in"
    shutil.copytree(ROOT / "golden" / "claude" / "mixed-project" / "input", store)
    (store / "user_bad.md").write_bytes(BAD)
    (store / "blob.bin").write_bytes(BLOB)
    out, real = tmp_path / "out", tmp_path / "real"
    diff = _memconv("convert", "--to", target, "-q", store, out, "--diff")
    assert diff.returncode == 3 and not out.exists(), diff.stderr.decode()
    assert b"\nGIT binary patch\n" in diff.stdout and b"\\xff" not in diff.stdout
    assert _memconv("convert", "--to", target, "-q", store, real).returncode == 3
    applied = _applied(out, diff.stdout, tmp_path / "applied")
    assert BLOB in applied.values() and any(BAD in data for data in applied.values())
    assert applied == _tree(real)


@needs_git
def test_a_binary_file_added_changed_deleted_or_moved_and_text_with_other_line_ends_apply_as_written(tmp_path):
    before = {"changed.bin": BLOB, "gone.md": BAD, "old/moved.bin": b"\xff" * 300 + b"\x00",
              "crlf.md": b"a\r\nb\r\n", "bom.md": b"\xef\xbb\xbfx\n", "end.md": b"x\n",
              "text-then-binary.md": b"plain\n", "binary-then-text.md": b"\xfe\n"}
    after = {"changed.bin": b"\x00\x02binary changed\xff", "new.bin": bytes(range(256)) * 40,
             "new/moved.bin": b"\xff" * 299 + b"\x00", "crlf.md": b"a\nb\r\n", "bom.md": b"x\n", "end.md": b"x",
             "text-then-binary.md": b"plain\xff\n", "binary-then-text.md": b"\n"}
    patch = "".join(entry["diff"] for entry in preview.changes(before, after))
    assert "bytes differ" not in patch
    assert _applied(before, patch.encode(), tmp_path / "applied") == after


@needs_git
def test_the_binary_patch_is_the_one_git_prints(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _write(repo, {"blob.bin": BLOB, "gone.bin": b"\x00" + BAD})  # (git calls a file binary by its NUL)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "start")
    _write(repo, {"blob.bin": b"\x00\x02binary changed\xff", "new.bin": SPREAD})
    (repo / "gone.bin").unlink()
    _git(repo, "add", "-A")
    theirs = _git(repo, "-c", "core.compression=1", "diff", "--cached", "--binary", "--no-renames").decode()
    ours = (git_diff("blob.bin", BLOB, b"\x00\x02binary changed\xff") + git_diff("gone.bin", b"\x00" + BAD, None)
            + git_diff("new.bin", None, SPREAD))
    assert ours == theirs
