"""``upgrade --in-place --diff``/``--check``/``--dry-run`` name a symbolic link the run re-points after a rename.

docs/cli.md: ``--diff`` printed whole is a patch ``git apply`` turns the folder into what the run writes. A link
to a file the upgrade renames follows its file (``upgrade._links``): the run re-points ``alias.md`` from
``feedback_integration-tests.md`` to ``lesson_integration-tests.md``. The previews left it out: applied, the
diff left ``alias.md`` naming a file that is gone, and ``--dry-run`` did not list it. The link is now compared as
git compares one, by its text.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import GOLDEN

ROOT = Path(__file__).resolve().parents[1]


def _upgrade(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", "upgrade", "--in-place", *map(str, args)],
                          capture_output=True, cwd=ROOT, timeout=120)


def _store(tmp_path: Path, name: str) -> Path:
    store = tmp_path / name
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", store)
    os.symlink("feedback_integration-tests.md", store / "alias.md")
    return store


def _tree(folder: Path) -> dict[str, bytes | str]:
    return {p.name: os.readlink(p) if p.is_symlink() else p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_diff_re_points_the_link_as_the_run_does(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("no git here")
    previewed, upgraded = _store(tmp_path, "previewed"), _store(tmp_path, "upgraded")
    diff = _upgrade("--diff", "-q", previewed)
    assert diff.returncode == 0
    assert b"-feedback_integration-tests.md\n\\ No newline at end of file\n+lesson_integration-tests.md\n" \
        in diff.stdout
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(tmp_path))  # never the repository memconv sits in
    applied = subprocess.run(["git", "apply", "-p1", "-"], input=diff.stdout, cwd=previewed, capture_output=True,
                             env=env, timeout=60)
    assert applied.returncode == 0, applied.stderr.decode()
    assert _upgrade("-q", upgraded).returncode == 0
    assert os.readlink(upgraded / "alias.md") == "lesson_integration-tests.md"
    assert _tree(previewed) == _tree(upgraded)


def test_check_and_dry_run_name_the_link(tmp_path):
    store = _store(tmp_path, "store")
    check = _upgrade("--check", "--json", store)
    assert check.returncode == 1
    assert b'"path": "alias.md"' in check.stdout
    dry = _upgrade("--dry-run", "-v", store)
    assert dry.returncode == 0
    assert f"would write {store / 'alias.md'}".encode() in dry.stderr
