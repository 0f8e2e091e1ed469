"""`upgrade --in-place`: a symbolic link to an entry is a second name for it, not a second memory. It is not read
as a record; it stays a link, and follows its entry to the entry's new name, so it never dangles."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .claude_support import GOLDEN

#: A line only feedback_testing.md holds: the file that holds it is that memory.
TESTING = "Integration tests must hit a real database"


def _store(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    shutil.copytree(GOLDEN / "mixed-project" / "input", root)
    return root


def _upgrade(root: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["upgrade", "--in-place", "--json", str(root)])
    assert result.exit_code in (0, 3), result.stderr
    return result.exit_code, json.loads(result.stdout)


def _holding(root: Path, words: str) -> list[str]:
    """The regular files of ``root`` (links not followed) that hold ``words``."""
    return sorted(p.name for p in root.iterdir() if not p.is_symlink() and p.is_file() and words in p.read_text())


@pytest.mark.parametrize("alias", ["testing-alias.md", "lesson_alias.md", "feedback_alias.md"])
def test_a_link_to_a_renamed_entry_follows_it_and_is_no_second_memory(tmp_path, alias):
    # Verified by reading links as entries again (upgrade._links giving none): "testing-alias.md" came back as
    # lesson_testing-alias.md, a second copy of the memory, and the link still named feedback_testing.md, which
    # the upgrade had renamed (a dangling link); lesson_alias.md was overwritten by a dangling link.
    root = _store(tmp_path)
    (root / alias).symlink_to("feedback_testing.md")
    _, report = _upgrade(root)
    assert _holding(root, TESTING) == ["lesson_testing.md"], "one memory, under its new name"
    link = root / alias
    assert link.is_symlink() and os.readlink(link) == "lesson_testing.md"
    assert link.read_text() == (root / "lesson_testing.md").read_text(), "the link reaches the entry"
    dangling = [p.name for p in root.iterdir() if p.is_symlink() and not p.exists()]
    assert dangling == []
    said = [f for f in report["files"] if f["source"] == alias]
    assert len(said) == 1 and said[0]["target"] == alias and said[0]["status"] == "kept", said
    assert any("feedback_testing.md" in c and "lesson_testing.md" in c for c in said[0]["changes"]), said
    assert not any(f["target"] != alias and f["source"] == alias for f in report["files"])


def test_a_link_to_an_entry_that_keeps_its_name_stays_as_it_was(tmp_path):
    root = _store(tmp_path)
    (root / "migrations.md").symlink_to("lesson_migrations.md")
    _, report = _upgrade(root)
    assert os.readlink(root / "migrations.md") == "lesson_migrations.md"
    assert not (root / "lesson_migrations.md").is_symlink()
    copies = [p.name for p in root.iterdir() if "migrations" in p.name]
    assert sorted(copies) == ["lesson_migrations.md", "migrations.md"], copies
    said = [f for f in report["files"] if f["source"] == "migrations.md"]
    assert len(said) == 1 and said[0]["status"] == "kept" and said[0]["target"] == "migrations.md", said


def test_an_upgraded_store_with_a_link_has_nothing_to_change(tmp_path):
    root = _store(tmp_path)
    (root / "testing-alias.md").symlink_to("feedback_testing.md")
    _upgrade(root)
    backups = sorted(p.name for p in tmp_path.iterdir() if ".memconv-backup-" in p.name)
    _, report = _upgrade(root)
    assert "already upgraded: nothing to change, no backup made" in report["warnings"]
    assert sorted(p.name for p in tmp_path.iterdir() if ".memconv-backup-" in p.name) == backups
    assert os.readlink(root / "testing-alias.md") == "lesson_testing.md"


def test_an_absolute_link_stays_absolute(tmp_path):
    root = _store(tmp_path)
    real = os.path.realpath(root)
    (root / "testing-alias.md").symlink_to(os.path.join(real, "feedback_testing.md"))
    _upgrade(root)
    assert os.readlink(root / "testing-alias.md") == os.path.join(real, "lesson_testing.md")
    assert _holding(root, TESTING) == ["lesson_testing.md"]


def test_a_link_keeps_its_name_from_a_renamed_entry(tmp_path):
    # Verified by not reserving the links' names (upgrade_claude.upgrade's ``reserved``): feedback_testing.md was
    # renamed lesson_testing.md, and the link of that name was put back over it: the memory was gone from IN.
    root = _store(tmp_path)
    (root / "lesson_testing.md").symlink_to("lesson_migrations.md")
    _, report = _upgrade(root)
    assert os.readlink(root / "lesson_testing.md") == "lesson_migrations.md"
    moved = {f["source"]: f["target"] for f in report["files"]}
    assert moved["feedback_testing.md"] not in ("feedback_testing.md", "lesson_testing.md")
    assert _holding(root, TESTING) == [moved["feedback_testing.md"]]
