"""`upgrade --in-place`: a file the upgrade renames keeps the mode of the file it came from, as one that keeps its
name does (a private memory stays private under its new name)."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main

from .claude_support import GOLDEN


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _store(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    shutil.copytree(GOLDEN / "mixed-project" / "input", root)
    return root


def test_a_renamed_file_keeps_the_mode_of_the_file_it_came_from(tmp_path):
    # Verified by taking out the chmod of a renamed file in upgrade._carry_over: lesson_testing.md came back 0644
    # (the umask's), not the 0600 of feedback_testing.md.
    root = _store(tmp_path)
    os.chmod(root / "feedback_testing.md", 0o600)
    os.chmod(root / "reference_staging.md", 0o640)
    os.chmod(root / "project_wire.md", 0o400)  # kept under its own name: kept its mode before the fix too
    result = CliRunner().invoke(main, ["upgrade", "--in-place", "--json", str(root)])
    assert result.exit_code in (0, 3), result.stderr
    moved = {f["source"]: f["target"] for f in json.loads(result.stdout)["files"]}
    assert moved["feedback_testing.md"] == "lesson_testing.md"
    assert moved["reference_staging.md"] != "reference_staging.md"
    assert not (root / "feedback_testing.md").exists()
    assert _mode(root / "lesson_testing.md") == 0o600
    assert _mode(root / moved["reference_staging.md"]) == 0o640
    assert _mode(root / "project_wire.md") == 0o400


def test_a_file_the_upgrade_made_from_no_file_has_the_umasks_mode(tmp_path):
    # The renamed file's mode comes from its own original only: a fact made of an index's inline bullet has no
    # original, and does not take the index's mode.
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text("# Memory Index\n\n- The staging DB is reset every Sunday\n")
    os.chmod(root / "MEMORY.md", 0o600)
    umask = os.umask(0o022)
    try:
        result = CliRunner().invoke(main, ["upgrade", "--in-place", "--json", str(root)])
    finally:
        os.umask(umask)
    assert result.exit_code in (0, 3), result.stderr
    made = [f["target"] for f in json.loads(result.stdout)["files"] if f.get("source_kind") == "inline"]
    assert made and all(_mode(root / path) == 0o644 for path in made), made
    assert _mode(root / "MEMORY.md") == 0o600
