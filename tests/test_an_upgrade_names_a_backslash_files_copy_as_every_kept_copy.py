"""An upgrade keeps the copy of a file whose name holds a ``\\`` as every kept copy is named: ``<name>.md.kept``.

A ``\\`` is a folder separator on Windows, so the claude reader quarantines such a file and the upgrade sets it
aside in ``.memconv/quarantine/`` (the ``\\`` spelled ``%5C``). That one copy was named ``….md``, where every
other file memconv keeps in a Claude folder is ``….md.kept`` (docs/claude.md): an upgrade in place leaves a folder
Claude Code still loads, and memoir-cli ``recall`` handed the agent the broken file; the next upgrade renamed it
``.md.kept`` (an upgrade of the result was not the result); and it was placed without asking what the folder
already kept there. It is now placed by the rule every other kept copy is (``fs.quarantine_path``, ``fs.kept_name``).
"""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from memconv import fs
from memconv import upgrade as upgrading
from memconv.cli import main
from memconv.report import Report

from .claude_support import tree, write
from .reference_tools import MEMOIR_CLI, needs_memoir, run_node

BAD = "reference_a\\b.md"
BAD_TEXT = b"---\nname: Windows paths\ndescription: d\ntype: reference\n---\nThe zebracorn share is at a UNC path.\n"
COPY = ".memconv/quarantine/reference_a%5Cb.md.kept"
FOLDER = {BAD: BAD_TEXT, "reference_b.md": b"---\nname: B\ndescription: d\ntype: reference\n---\nbody\n",
          "MEMORY.md": b"# Memory\n\n- [B](reference_b.md) \xe2\x80\x94 d\n"}


def _upgraded(root):
    report = Report(command="upgrade", input=str(root))
    return upgrading.plan(root, report, "flat").files, report


def test_the_copy_is_named_md_kept_with_its_bytes(tmp_path):
    files, report = _upgraded(write(FOLDER, tmp_path / "in"))
    assert files[COPY] == BAD_TEXT
    assert [p for p in files if p.startswith(fs.KEPT_DIRS) and p.lower().endswith(".md")] == []
    assert [f.target for f in report.files if f.source == BAD] == [COPY]


def test_a_second_upgrade_changes_nothing(tmp_path):
    once, _ = _upgraded(write(FOLDER, tmp_path / "in"))
    assert _upgraded(write(once, tmp_path / "again"))[0] == once


def test_the_copy_never_replaces_one_the_folder_keeps(tmp_path):
    earlier = b"an earlier run's copy\n"
    files, _ = _upgraded(write({**FOLDER, COPY: earlier}, tmp_path / "in"))
    assert files[COPY] == earlier
    assert files[".memconv/quarantine/reference_a%5Cb-2.md.kept"] == BAD_TEXT


@needs_memoir
def test_recall_does_not_hand_the_agent_the_copy_of_a_folder_upgraded_in_place(tmp_path):
    memory = write(FOLDER, tmp_path / "home" / ".claude" / "projects" / "-work-proj" / "memory")
    done = CliRunner().invoke(main, ["upgrade", "--in-place", str(memory)])
    assert done.exit_code == 3, done.output  # 3: a file quarantined
    assert COPY in tree(memory)
    [backup] = memory.parent.glob("memory.memconv-backup-*")
    shutil.rmtree(backup)  # (recall reads it too, originals and all: not this test's point)
    found = run_node([str(MEMOIR_CLI), "recall", "zebracorn"], cwd=tmp_path, home=tmp_path / "home")
    assert found.returncode == 0, found.stderr
    assert ".memconv" not in found.stdout, found.stdout
