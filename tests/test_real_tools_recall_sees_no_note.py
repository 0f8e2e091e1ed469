"""memoir-cli's ``recall`` never hands the agent a note of a Claude Code memory folder memconv wrote.

``recall`` reads every ``.md`` file under ``~/.claude/projects/*/memory/``, hidden folders too (unlike ``memoir
validate``). A note holds a record the target cannot show as live (a hidden decision, a superseded one), so named
``.md`` it was recalled first, as live memory. A Claude target's notes end in ``.markdown`` (its ``NOTE_SUFFIX``,
docs/claude.md). Found by running ``recall`` on the golden memoir store converted to claude.
"""

from __future__ import annotations

import shutil

from memconv.cli import main

from .conftest import GOLDEN, tree
from .reference_tools import MEMOIR_CLI, needs_memoir, run_node


def _converted(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(main, ["memoir-to-claude", str(GOLDEN / "memoir" / "canonical" / "input"), str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_a_claude_output_has_no_note_named_md(runner, tmp_path):
    # Verified by declaring NOTE_SUFFIX ".md" for claude: the five notes are .md files.
    notes = [p for p in tree(_converted(runner, tmp_path)) if p.startswith(".memconv/notes/")]
    assert notes and all(p.endswith(".markdown") for p in notes), notes


@needs_memoir
def test_recall_does_not_hand_the_agent_a_hidden_or_superseded_decision(runner, tmp_path):
    # Verified as above: recall's top hit for "pilot client" is .memconv/notes/decision_client-name.md.
    home = tmp_path / "home"
    shutil.copytree(_converted(runner, tmp_path), home / ".claude" / "projects" / "-work-proj" / "memory")
    for words, not_live in (("pilot client", "Tombstoned"), ("redis cache", "decision_redis-cache")):
        done = run_node([str(MEMOIR_CLI), "recall", words], cwd=tmp_path, home=home)
        assert done.returncode == 0, done.stderr
        assert ".memconv" not in done.stdout and not_live not in done.stdout, done.stdout
