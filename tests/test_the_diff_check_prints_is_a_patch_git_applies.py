"""``memconv check``'s diff, printed whole, is a patch ``git apply`` turns IN into what a write-back gives.

docs/cli.md: each file of a diff opens with git's ``diff --git`` line, with ``new file mode 100644`` or
``deleted file mode 100644`` for a file added or deleted. ``preview.changes`` (every writing command's
``--diff``) had it; ``check`` printed ``file_diff`` bare, so an empty file it would delete or add was
``--- a/x +++ /dev/null @@ an empty file deleted @@`` alone, which ``git apply`` refused ("No valid patches in
input"). Both now take the one rule, ``pipeline.git_diff``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memconv.pipeline import git_diff

from .conftest import GOLDEN

ROOT = Path(__file__).resolve().parents[1]


def _check(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", "check", "-q", *map(str, args)], capture_output=True,
                          cwd=ROOT, timeout=120)


def test_an_empty_file_check_would_delete_is_deleted_by_git_apply(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("no git here")
    store = tmp_path / "store"
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", store)
    empty = store / ".memspec" / "memory" / "facts" / "empty.md"
    empty.write_bytes(b"")  # no frontmatter: quarantined, and a write-back leaves it out
    done = _check(store)
    assert done.returncode == 1
    assert b"diff --git a/.memspec/memory/facts/empty.md b/.memspec/memory/facts/empty.md\n" \
           b"deleted file mode 100644\n" in done.stdout
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(tmp_path))  # never the repository memconv sits in
    applied = subprocess.run(["git", "apply", "-p1", "-"], input=done.stdout, cwd=store, capture_output=True,
                             env=env, timeout=60)
    assert applied.returncode == 0, applied.stderr.decode()
    assert not empty.exists()


def test_each_file_opens_with_gits_line_and_its_mode_when_added_or_deleted():
    assert git_diff("x.md", None, b"") == \
        "diff --git a/x.md b/x.md\nnew file mode 100644\nindex 0000000..e69de29\n"
    assert git_diff("x.md", b"", None) == "diff --git a/x.md b/x.md\ndeleted file mode 100644\nindex e69de29..0000000\n"
    assert git_diff("x.md", b"a\n", b"b\n").startswith("diff --git a/x.md b/x.md\n--- a/x.md\n+++ b/x.md\n")
