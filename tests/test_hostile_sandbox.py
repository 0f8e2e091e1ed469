"""Hostile setups, run as a real process in a sandbox folder that is listed before and after.

Whatever the setup: no write outside OUT, IN unchanged, no traceback, no hang,
every odd entry named, and a documented exit status.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import GOLDEN, ROOT

SRC = GOLDEN / "memoir" / "canonical" / "input"


def _snapshot(folder: Path, skip: Path | None = None) -> dict[str, tuple]:
    """Every entry under ``folder`` but ``skip``, links not followed, FIFOs not opened: kind, mode, content."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        if skip is not None:
            dirnames[:] = [d for d in dirnames if Path(dirpath, d) != skip]
        for name in dirnames + filenames:
            full = Path(dirpath, name)
            if skip is not None and full == skip:
                continue
            st = os.lstat(full)
            if stat.S_ISREG(st.st_mode):
                what = hashlib.sha256(full.read_bytes()).hexdigest()
            elif stat.S_ISLNK(st.st_mode):
                what = os.readlink(full)
            else:
                what = None
            out[str(full.relative_to(folder))] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), what)
    return out


def _sandbox(tmp_path: Path) -> Path:
    box = tmp_path / "box"
    root = box / "in"
    shutil.copytree(SRC, root)
    (box / "outside").mkdir()
    (box / "outside" / "secret.md").write_text("---\ntype: fact\nname: S\n---\nSECRET-OUTSIDE\n")
    os.mkfifo(root / "memory" / "fifo.md")
    (root / "memory" / "zero.md").symlink_to("/dev/zero")
    (root / "memory" / "loop.md").symlink_to("loop.md")
    (root / "memory" / "dangling.md").symlink_to("gone.md")
    (root / "memory" / "up").symlink_to("../../outside")
    (root / "memory" / "secret.md").symlink_to(box / "outside" / "secret.md")
    return box


ODD = ["memory/fifo.md", "memory/zero.md", "memory/loop.md", "memory/dangling.md", "memory/up", "memory/secret.md"]


def _memconv(box: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", *args], capture_output=True, text=True, cwd=box,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


CASES = {
    "convert": (["convert", "--to", "memspec", "--json", "in", "out"], 3),
    "convert to claude": (["memoir-to-claude", "--json", "in", "out"], 3),
    "dry run": (["convert", "--to", "memfmt", "--dry-run", "--json", "in", "out"], 3),
    "check": (["check", "--json", "in"], 1),
    "check via": (["check", "--via", "claude", "--json", "in"], 1),
    "migrate": (["migrate", "--json", "in", "out"], 3),
    "OUT inside IN": (["convert", "--to", "memspec", "--json", "--force", "in", "in/memory/out"], 2),
    "IN inside OUT": (["convert", "--to", "memspec", "--json", "--force", "in", "."], 2),
    "same folder": (["convert", "--to", "memspec", "--json", "--force", "in", "in"], 2),
    "empty IN": (["convert", "--to", "memspec", "--json", "", "out"], 2),
    "empty OUT": (["convert", "--to", "memspec", "--json", "--force", "in", ""], 2),
    "usage": (["upgrade", "--json"], 2),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_run_touches_nothing_but_out(tmp_path, case):
    # Verified by letting list_files follow links (os.walk(followlinks=True) + is_file): the run
    # hangs on memory/fifo.md until the timeout.
    args, status = CASES[case]
    box = _sandbox(tmp_path)
    before = _snapshot(box)
    done = _memconv(box, *args)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == status, done.stderr
    doc = json.loads(done.stdout)
    assert doc["exit_code"] == status
    assert _snapshot(box, skip=box / "out") == before, "nothing but OUT was written, IN unchanged"
    if status in (1, 3):
        named = {r["path"] for r in doc["refused"]}
        assert set(ODD) <= named, "every odd entry is named"
    if (box / "out").exists():
        data = b"".join(p.read_bytes() for p in (box / "out").rglob("*") if p.is_file())
        assert b"SECRET-OUTSIDE" not in data


def test_force_into_a_git_repository_keeps_it(tmp_path):
    box = _sandbox(tmp_path)
    (box / "out").mkdir()
    subprocess.run(["git", "init", "-q", str(box / "out")], check=True)
    before = _snapshot(box)
    done = _memconv(box, "convert", "--to", "claude", "--force", "--json", "in", "out")
    assert done.returncode == 4 and ".git/" in done.stderr and "Traceback" not in done.stderr
    assert _snapshot(box) == before
