"""`upgrade --in-place` is locked, verifies its backup before naming it, and keeps what it did not read."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv import lock
from memconv import upgrade as upgrading
from memconv.cli import main
from memconv.errors import OutputError

from .claude_support import GOLDEN


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    shutil.copytree(GOLDEN / "mixed-project" / "input", root)
    return root


def _listing(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``, links not followed: kind and mode (files), target (links)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            rel = os.path.relpath(full, root)
            out[rel] = ("link", os.readlink(full)) if stat.S_ISLNK(st.st_mode) else \
                ("dir" if stat.S_ISDIR(st.st_mode) else "file", stat.S_IMODE(st.st_mode))
    return out


def _backups(root: Path) -> list[Path]:
    return sorted(p for p in root.parent.iterdir() if ".memconv-backup-" in p.name)


def test_in_place_keeps_links_empty_folders_nested_git_and_modes(tmp_path):
    # Verified by going back to stage + copying only top-level VCS folders: the link, the empty
    # folder and sub/.git are lost, and the 0600 file comes back 0644.
    root = _copy(tmp_path)
    (root / "empty").mkdir()
    (root / "sub" / ".git").mkdir(parents=True)
    (root / "sub" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "notes").symlink_to("/etc")
    os.chmod(root / "project_wire.md", 0o600)
    os.chmod(root / "sub", 0o750)
    before = _listing(root)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(root)])
    assert result.exit_code in (0, 3), result.stderr
    after = _listing(root)
    for path in ("empty", "sub", "sub/.git", "sub/.git/HEAD", "notes", "project_wire.md"):
        assert after[path] == before[path], path
    assert "lesson_testing.md" in after


def test_a_symlinked_in_stays_a_link(tmp_path):
    real = _copy(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(real)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(link)])
    assert result.exit_code in (0, 3), result.stderr
    assert link.is_symlink() and (real / "lesson_testing.md").is_file()


def test_a_second_run_while_the_lock_is_held_stops_cleanly(tmp_path):
    # Verified by not taking the lock in the CLI: the second run upgrades IN under the first one.
    root = _copy(tmp_path)
    before = _listing(root)
    with lock.held(root):
        result = CliRunner().invoke(main, ["upgrade", "--in-place", "--json", str(root)])
    assert result.exit_code == 4 and "another memconv" in result.stderr and str(os.getpid()) in result.stderr
    assert "Traceback" not in result.stderr and _listing(root) == before and not _backups(root)
    assert not lock.lock_path(root).exists(), "the lock file goes with the lock"
    assert CliRunner().invoke(main, ["upgrade", "--in-place", str(root)]).exit_code in (0, 3)


def test_a_lock_left_by_a_dead_run_is_no_obstacle(tmp_path):
    root = _copy(tmp_path)
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    lock.lock_path(root).write_text(f"{child.pid}\n")
    assert CliRunner().invoke(main, ["upgrade", "--in-place", str(root)]).exit_code in (0, 3)


def test_a_backup_that_does_not_verify_is_never_named_as_one(tmp_path, monkeypatch):
    # Verified by copying straight to the final name: a folder named like a backup is left behind.
    root = _copy(tmp_path)
    real = upgrading._signature
    monkeypatch.setattr(upgrading, "_signature", lambda p: {} if "copy" in str(p) else real(p))
    with pytest.raises(OutputError, match="does not match"):
        upgrading.backup(root)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"], "no backup, no temporary copy"


def test_a_backup_killed_midway_leaves_nothing_named_as_a_backup(tmp_path, monkeypatch):
    root = _copy(tmp_path)
    calls = {"n": 0}
    real = upgrading._copy_file

    def dying(src, dst):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        real(src, dst)

    monkeypatch.setattr(upgrading, "_copy_file", dying)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(root)])
    assert result.exit_code == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"]


def test_the_backup_time_comes_from_an_injectable_clock(tmp_path):
    root = _copy(tmp_path)
    kept = upgrading.backup(root, clock=lambda: datetime(2020, 1, 2, 3, 4, 5, tzinfo=timezone.utc))
    assert kept.name == "memory.memconv-backup-20200102T030405Z"
    assert _listing(kept) == _listing(root)


def _full_disk_at_the_swap(monkeypatch) -> None:
    """The rename that puts the new folder in place fails, as on a full disk; every other rename works."""
    real_rename = os.rename

    def failing(src, dst):
        if ".memconv-new-" in str(src):
            raise OSError(28, "No space left on device")
        return real_rename(src, dst)

    monkeypatch.setattr(upgrading.os, "rename", failing)


def test_a_failed_swap_leaves_in_as_it_was(tmp_path, monkeypatch):
    root = _copy(tmp_path)
    before = _listing(root)
    _full_disk_at_the_swap(monkeypatch)
    with pytest.raises(OSError):
        upgrading.replace_in_place({"a.md": b"x"}, root)
    assert _listing(root) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"]


def test_a_failed_in_place_upgrade_leaves_no_backup_of_an_in_it_did_not_change(tmp_path, monkeypatch):
    # Verified by not calling _unneeded in backed_up_and_replaced: the backup is left beside IN.
    root = _copy(tmp_path)
    before = _listing(root)
    _full_disk_at_the_swap(monkeypatch)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(root)])
    assert result.exit_code == 4 and "Traceback" not in result.stderr, result.stderr
    assert "backed up" not in result.stderr, "no backup is named that is not there"
    assert _listing(root) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"]


def test_a_backup_of_originals_in_no_longer_holds_is_kept(tmp_path):
    root = _copy(tmp_path)
    kept = upgrading.backup(root)
    (root / "MEMORY.md").write_text("changed\n")
    assert not upgrading._unneeded(kept, root)
    assert kept.is_dir(), "the only sure copy of the originals stays"
    (root / "MEMORY.md").write_bytes((kept / "MEMORY.md").read_bytes())
    assert upgrading._unneeded(kept, root) and not kept.exists()


def test_a_fifo_in_in_stops_an_in_place_upgrade_before_anything_changes(tmp_path):
    root = _copy(tmp_path)
    os.mkfifo(root / "pipe")
    before = _listing(root)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(root)])
    assert result.exit_code == 4 and "FIFO" in result.stderr and "Traceback" not in result.stderr
    assert _listing(root) == before and not _backups(root)


def test_two_concurrent_in_place_runs_lose_nothing_and_leave_only_complete_backups(tmp_path):
    # Verified by not taking the lock in the CLI: both runs swap, and a traceback or a backup
    # of a half-upgraded folder appears.
    root = _copy(tmp_path)
    for i in range(300):
        (root / f"feedback_rule{i}.md").write_text(
            f"---\nname: Rule {i}\ndescription: rule {i}\ntype: feedback\n---\nDo thing {i}.\n\n"
            f"**Why:** reason {i}.\n**How to apply:** always.\n")
    original = _listing(root)
    contents = {p: (root / p).read_bytes() for p, kind in original.items() if kind[0] == "file"}
    runs = [subprocess.Popen([sys.executable, "-m", "memconv", "upgrade", "--in-place", str(root)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(r.wait(timeout=120), r.stderr.read()) for r in runs]
    for code, err in results:
        assert "Traceback" not in err
        assert code in (0, 3) or (code == 4 and "another memconv" in err), err
    assert any(code in (0, 3) for code, _ in results)
    for backup in _backups(root):
        if "already" in backup.name:
            continue
        assert {p: (backup / p).read_bytes() for p in contents} == contents, "every backup is whole and original"
    assert (root / "lesson_rule299.md").is_file() or (root / "feedback_rule299.md").is_file()
    assert not any(".memconv-new-" in p.name or ".memconv-old-" in p.name for p in tmp_path.iterdir())
