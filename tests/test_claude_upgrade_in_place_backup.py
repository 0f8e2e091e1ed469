"""`memconv upgrade --in-place` backs up every original first, and never leaves a half-written folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv import fs
from memconv import upgrade as upgrading
from memconv.cli import main

from .claude_support import GOLDEN, tree


def _copy(tmp_path: Path, store: str = "mixed-project") -> Path:
    root = tmp_path / "memory"
    shutil.copytree(GOLDEN / store / "input", root)
    return root


def _backups(root: Path) -> list[Path]:
    return sorted(root.parent.glob(f"{root.name}.memconv-backup-*"))


def test_in_place_leaves_a_complete_backup_and_a_flat_memoir_store(tmp_path):
    # Verified by making backup() create an empty folder instead of a copy: fails (the copy
    # check raises, exit 1).
    root = _copy(tmp_path)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    original = tree(root)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(root), "--json"])
    assert result.exit_code == 0, result.output
    [backup] = _backups(root)
    assert tree(backup) == original, "the backup holds every original byte"
    assert (backup / ".git" / "HEAD").is_file() and (root / ".git" / "HEAD").is_file(), ".git stays"
    after = tree(root)
    assert "lesson_testing.md" in after and "feedback_testing.md" not in after, "entries stay where Claude Code loads them"
    assert "MEMORY.md" in after and "(lesson_testing.md)" in after["MEMORY.md"].decode()
    report = json.loads(result.stdout)
    assert any(str(backup) in w for w in report["warnings"]), "the report says where the backup is"


def test_in_place_twice_changes_nothing_and_makes_no_second_backup(tmp_path):
    root = _copy(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["upgrade", "--in-place", str(root)]).exit_code == 0
    once = tree(root)
    result = runner.invoke(main, ["upgrade", "--in-place", str(root)])
    assert result.exit_code == 0
    assert tree(root) == once, "upgrading an upgraded folder changes nothing"
    assert len(_backups(root)) == 1
    assert "already upgraded" in result.stderr


def test_a_run_killed_while_writing_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    # Verified by building the new folder inside IN rather than beside it: fails, IN is half
    # rewritten (and then removed by the cleanup).
    root = _copy(tmp_path)
    original = tree(root)
    calls = {"n": 0}
    real = fs._write_one

    def dying(full, data):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt("killed")
        return real(full, data)

    monkeypatch.setattr(fs, "_write_one", dying)
    with pytest.raises(KeyboardInterrupt):
        upgrading.replace_in_place({f"f{i}.md": b"x" for i in range(10)}, root)
    monkeypatch.undo()
    assert tree(root) == original, "no file of IN is touched until the new folder is complete"
    assert [p.name for p in tmp_path.iterdir()] == ["memory"], "the half-built folder is cleaned up"


def test_dry_run_in_place_writes_nothing_and_makes_no_backup(tmp_path):
    root = _copy(tmp_path)
    original = tree(root)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", "--dry-run", str(root)])
    assert result.exit_code == 0
    assert tree(root) == original and not _backups(root)
    assert "would write" in result.stderr


def test_upgrade_to_out_never_touches_in_and_refuses_a_non_empty_out(tmp_path):
    src = _copy(tmp_path)
    original = tree(src)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    runner = CliRunner()
    refused = runner.invoke(main, ["upgrade", str(src), str(out)])
    assert refused.exit_code != 0 and "not empty" in refused.stderr
    forced = runner.invoke(main, ["upgrade", str(src), str(out), "--force"])
    assert forced.exit_code == 4 and "keep.txt" in forced.stderr, "--force keeps a file memconv did not write"
    (out / "keep.txt").unlink()
    assert runner.invoke(main, ["upgrade", str(src), str(out)]).exit_code == 0
    assert runner.invoke(main, ["upgrade", str(src), str(out), "--force"]).exit_code == 0
    assert tree(src) == original
    assert (out / "memory" / "lesson_testing.md").is_file()


def test_in_place_and_out_together_is_a_usage_error(tmp_path):
    src = _copy(tmp_path)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", str(src), str(tmp_path / "o")])
    assert result.exit_code != 0 and "either OUT or --in-place" in result.stderr


def test_json_report_lists_changes_opaque_and_not_canonical_per_file(tmp_path):
    src = _copy(tmp_path)
    result = CliRunner().invoke(main, ["upgrade", str(src), str(tmp_path / "out"), "--json"])
    files = {f["source"]: f for f in json.loads(result.stdout)["files"]}
    assert "type: feedback → lesson" in files["feedback_testing.md"]["changes"]
    assert files["project_wire.md"]["status"] == "opaque"
    commits = files["feedback_commits.md"]
    assert commits["status"] == "opaque"
    assert any("**How to apply:**" in w for w in commits["warnings"]), "says why it could not become canonical"


def test_in_place_of_the_current_folder_names_the_backup_after_it(tmp_path, monkeypatch):
    # IN given as ".": its name was "", so the backup was a hidden ".memconv-backup-…" and its temporary
    # folder "..memconv-backup-<pid>-…", which no later run would sweep. Verified by naming it in_path.name.
    root = _copy(tmp_path)
    original = tree(root)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["upgrade", "--in-place", ".", "--json"])
    assert result.exit_code == 0, result.output
    [backup] = _backups(root)
    assert tree(backup) == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory", backup.name]
