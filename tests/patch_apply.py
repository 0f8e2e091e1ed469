"""Applying a printed ``--diff`` with ``git apply`` or ``patch``, to compare with what the run writes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


def whole_tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` as relative POSIX path → bytes, memconv's own files included."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def applied(tool: str, out: Path, patch: bytes, tmp_path: Path) -> dict[str, bytes]:
    """``patch`` applied by ``tool`` (``git`` or ``patch``) to a copy of ``out`` (an empty folder where there is
    none), asserted to succeed: the copy's :func:`whole_tree`."""
    copy = tmp_path / f"applied-{tool}"
    if out.exists():
        shutil.copytree(out, copy)
    else:
        copy.mkdir()
    command = ["git", "apply", "-p1", "-"] if tool == "git" else ["patch", "-s", "-p1"]
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(tmp_path))  # never the repository memconv sits in
    done = subprocess.run(command, input=patch, cwd=copy, capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return whole_tree(copy)
