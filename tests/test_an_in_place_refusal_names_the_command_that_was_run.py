"""What stops an in-place write (a FIFO in the folder, which can be neither backed up nor kept) says what to do
in words that fit the command that was run.

``convert … --into EXISTING`` shares the backup and the swap of ``upgrade --in-place``
(``upgrade.backed_up_and_replaced``), and its refusal of a FIFO in EXISTING told the user to "upgrade into a new
folder (memconv upgrade IN OUT)": a command for Claude Code memory, which neither IN nor EXISTING need be.
"""
import os
import shutil

import pytest

from memconv.cli import main

from .conftest import GOLDEN


def _tree(root):
    return sorted((p, os.lstat(os.path.join(d, p)).st_mode) for d, dirs, files in os.walk(root)
                  for p in dirs + files)


@pytest.mark.parametrize("args", [
    ["memoir-to-claude", str(GOLDEN / "memoir" / "canonical" / "input"), "--into", "{x}"],
    ["upgrade", "--in-place", "{x}"],
])
def test_a_fifo_in_the_folder_is_refused_in_the_words_of_the_command(runner, tmp_path, args):
    existing = tmp_path / "x"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", existing)
    (existing / "feedback_integration-tests.md").write_text(
        "---\nname: Run tests\ndescription: legacy\ntype: feedback\n---\n\nRun them.\n")  # an upgrade has work
    os.mkfifo(existing / "pipe.md")
    before = _tree(existing)
    given = [a.format(x=existing) for a in args]
    result = runner.invoke(main, given)
    assert result.exit_code == 4, result.output
    assert f"{existing / 'pipe.md'}: a FIFO" in result.output, result.output
    if "--into" in given:
        assert "upgrade" not in result.output, "an import is not told to run an upgrade: " + result.output
    assert "give OUT" in result.output, "the message says the way that needs no in-place write: " + result.output
    assert _tree(existing) == before, "nothing in the folder changed"
    assert sorted(os.listdir(tmp_path)) == ["x"], "no backup or temporary folder is left beside it"
