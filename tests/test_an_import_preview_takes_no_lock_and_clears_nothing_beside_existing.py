"""``--into --diff`` and ``--into --check`` write and modify nothing beside EXISTING, as ``--dry-run`` does.

docs/cli.md: ``--diff`` and ``--check`` write nothing. ``convert --into`` took EXISTING's lock for them (it
checked ``--dry-run`` alone), so a preview created and deleted ``.EXISTING.memconv-lock`` beside EXISTING, removed
the temporary folders killed runs had left there, and exited 4 ("another memconv … is rewriting it now") while
another run held the lock, where ``--dry-run`` exited 0. ``upgrade --in-place`` already took no lock for any
preview (``previewing``); both now use the same rule.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from memconv import lock
from memconv.cli import main

from .conftest import GOLDEN

MEMOIR = GOLDEN / "memoir" / "canonical" / "input"
PREVIEWS = ["--dry-run", "--diff", "--check"]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _existing(runner, tmp_path):
    existing = tmp_path / "existing"
    assert runner.invoke(main, ["memoir-to-memfmt", str(MEMOIR), str(existing), "-q"]).exit_code == 0
    return existing


def _preview(runner, existing, flag):
    return runner.invoke(main, ["memoir-to-memfmt", flag, str(MEMOIR), "--into", str(existing)])


@pytest.mark.parametrize("flag", PREVIEWS)
def test_an_import_preview_leaves_the_folder_beside_existing_as_it_was(runner, tmp_path, flag):
    existing = _existing(runner, tmp_path)
    stale = tmp_path / f".existing.memconv-new-{_dead_pid()}-abc123"
    stale.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    result = _preview(runner, existing, flag)
    assert result.exit_code == (1 if flag == "--check" else 0), result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "no lock file made, no stale folder cleared"
    assert stale.is_dir()


@pytest.mark.parametrize("flag", PREVIEWS)
def test_an_import_preview_runs_while_another_run_holds_the_lock(runner, tmp_path, flag):
    existing = _existing(runner, tmp_path)
    with lock.held(existing):
        result = _preview(runner, existing, flag)
    assert result.exit_code == (1 if flag == "--check" else 0), result.stderr
    assert "is rewriting it now" not in result.stderr


def test_the_import_itself_still_takes_the_lock(runner, tmp_path):
    existing = _existing(runner, tmp_path)
    with lock.held(existing):
        result = runner.invoke(main, ["memoir-to-memfmt", str(MEMOIR), "--into", str(existing)])
    assert result.exit_code == 4 and "is rewriting it now" in result.stderr


@pytest.mark.parametrize("flag", PREVIEWS)
def test_an_upgrade_in_place_preview_leaves_the_folder_beside_in_as_it_was(runner, tmp_path, flag):
    root = tmp_path / "claude"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", root)
    stale = tmp_path / f".claude.memconv-new-{_dead_pid()}-abc123"
    stale.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    result = runner.invoke(main, ["upgrade", "--in-place", flag, str(root)])
    assert result.exit_code == (1 if flag == "--check" else 0), result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert stale.is_dir()
    with lock.held(root):
        assert runner.invoke(main, ["upgrade", "--in-place", flag, str(root)]).exit_code == result.exit_code
