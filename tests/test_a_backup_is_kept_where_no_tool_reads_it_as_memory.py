"""An in-place write's backup is kept where no tool reads it as memory (docs/claude.md, "Where the backup goes").

memoir-cli's ``recall`` (and ``push``) walk every ``.md`` file under ``~/.claude/projects/``, hidden folders too
(only ``subagents`` and session-id folders are skipped). The backup of ``~/.claude/projects/<slug>/memory`` was made
beside it, ``<slug>/memory.memconv-backup-<time>/``, so recall handed the agent every memory twice, the second under
its old name (``feedback_testing.md`` beside the upgraded ``lesson_testing.md``). A folder there is now backed up
to the same place under ``~/.claude/memconv-backups/``, which no tool reads; one anywhere else stays beside IN.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv import fs
from memconv import upgrade as upgrading
from memconv.cli import main

from .conftest import tree, write_files
from .reference_tools import MEMOIR_CLI, needs_memoir, run_node

SLUG = "-work-proj"
FILES = {
    "MEMORY.md": b"- [Testing](feedback_testing.md) \xe2\x80\x94 use a real database\n",
    "feedback_testing.md": (b"---\nname: Testing\ndescription: integration tests hit a real postgres database\n"
                            b"type: feedback\n---\nNever mock the postgres database.\n\n"
                            b"**Why:** mocks hid a migration bug.\n\n**How to apply:** in tests/.\n"),
}


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    return home


def _upgraded(runner, home: Path) -> tuple[Path, Path]:
    """The Claude Code memory folder of ``SLUG`` under ``home``, upgraded in place, and its backup."""
    memory = home / ".claude" / "projects" / SLUG / "memory"
    write_files(memory, FILES)
    result = runner.invoke(main, ["upgrade", "--in-place", str(memory)])
    assert result.exit_code == 0, result.output
    assert "lesson_testing.md" in tree(memory)
    [kept] = [Path(line.split(" backed up to ", 1)[1]) for line in result.stderr.splitlines()
              if " backed up to " in line]
    return memory, kept


def test_the_backup_of_a_claude_code_memory_folder_is_outside_the_projects_folder(runner, home):
    # Broken before (the backup beside IN): it was ~/.claude/projects/-work-proj/memory.memconv-backup-<time>.
    memory, kept = _upgraded(runner, home)
    assert tree(kept) == FILES, "the backup holds every original byte"
    assert kept.parent == home / ".claude" / "memconv-backups" / SLUG
    assert kept.name.startswith("memory.memconv-backup-")
    projects = home / ".claude" / "projects"
    assert sorted(p.relative_to(projects).as_posix() for p in projects.rglob("*")) == [
        SLUG, f"{SLUG}/memory", f"{SLUG}/memory/MEMORY.md", f"{SLUG}/memory/lesson_testing.md"]


@needs_memoir
def test_recall_hands_the_agent_each_memory_once_after_an_upgrade_in_place(runner, home, tmp_path):
    # Broken before: two hits, the second projects/-work-proj/memory.memconv-backup-…/feedback_testing.md.
    _upgraded(runner, home)
    done = run_node([str(MEMOIR_CLI), "recall", "postgres"], cwd=tmp_path, home=home)
    assert done.returncode == 0, done.stderr
    assert "1 match for" in done.stdout and "lesson_testing.md" in done.stdout, done.stdout
    assert "backup" not in done.stdout and "feedback_testing.md" not in done.stdout, done.stdout


def test_an_import_into_a_claude_code_memory_folder_is_backed_up_outside_it_too(runner, home, tmp_path):
    # Broken before, as above: `--into` shares the backup.
    memory = home / ".claude" / "projects" / SLUG / "memory"
    write_files(memory, FILES)
    write_files(tmp_path / "in", {"MEMORY.md": b"- [Deploys](project_deploys.md) \xe2\x80\x94 friday\n",
                                  "project_deploys.md": b"---\nname: Deploys\ndescription: no deploys on friday\n"
                                                        b"type: project\n---\nNo deploys on friday.\n"})
    result = runner.invoke(main, ["convert", "--from", "claude", "--to", "claude", str(tmp_path / "in"),
                                  "--into", str(memory)])
    assert result.exit_code == 0, result.output
    [kept] = (home / ".claude" / "memconv-backups" / SLUG).iterdir()
    assert tree(kept) == FILES
    assert sorted(p.name for p in (home / ".claude" / "projects" / SLUG).iterdir()) == ["memory"]


def test_a_folder_anywhere_else_is_backed_up_beside_it(home, tmp_path):
    # The rule did not change there: beside IN, under IN's own name, and nothing made under HOME.
    memory = tmp_path / "work" / "memory"
    write_files(memory, FILES)
    kept = upgrading.backup(memory)
    assert kept.parent == tmp_path / "work" and kept.name.startswith("memory.memconv-backup-")
    assert not home.exists()


def test_a_failed_swap_leaves_no_backup_folder_it_made(runner, home, monkeypatch):
    # A failed run leaves no trace: the backup is removed again (IN is as it was), and so are the folders made
    # for it under ~/.claude.
    memory = home / ".claude" / "projects" / SLUG / "memory"
    write_files(memory, FILES)

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(upgrading, "replace_in_place", full_disk)
    result = runner.invoke(main, ["upgrade", "--in-place", str(memory)])
    assert result.exit_code != 0
    assert tree(memory) == FILES
    assert sorted(p.name for p in (home / ".claude").iterdir()) == ["projects"]


def test_a_killed_runs_copy_is_swept_from_the_backup_folder(runner, home):
    # The temporary copy is made where the backup goes, so the next run must look there for what a killed run left.
    memory = home / ".claude" / "projects" / SLUG / "memory"
    write_files(memory, FILES)
    where = home / ".claude" / "memconv-backups" / SLUG
    dead = where / f".memory.memconv-backup-{_dead_pid()}-abc123"
    write_files(dead / "copy", FILES)
    assert upgrading.backup_folder(memory) == where
    result = runner.invoke(main, ["upgrade", "--in-place", str(memory)])
    assert result.exit_code == 0, result.output
    assert not dead.exists()
    assert [p.name.startswith("memory.memconv-backup-") for p in where.iterdir()] == [True]


def _dead_pid() -> int:
    pid = 4_000_000
    while fs._alive(pid):
        pid += 1
    return pid
