"""A Claude feedback memory's blank description is no trigger: memoir fills the trigger as a missing one
(docs/claude.md).

The Claude reader takes a feedback memory's description for its trigger. ``description: ""`` gave a blank trigger,
which ``fill_required`` (filling a name and a description when blank, a lesson's trigger only when missing) left,
so the memoir lesson was written ``trigger: ""``: ``memoir validate`` refused it ("lesson missing required field:
trigger"), exit 0, nothing said.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv.cli import main
from memconv.frontmatter import split

from .conftest import tree, write_files
from .reference_tools import memoir_validate, needs_memoir

FILES = {
    "MEMORY.md": b"- [Tabs](feedback_tabs.md)\n",
    "feedback_tabs.md": b"---\nname: Tabs\ndescription: \"\"\ntype: feedback\n---\n\nIndent with tabs.\n",
    "feedback_blank.md": b"---\nname: Blank\ndescription: '  '\ntype: feedback\n---\n",
}


def _converted(tmp_path):
    write_files(tmp_path / "in", FILES)
    done = CliRunner().invoke(main, ["claude-to-memoir", str(tmp_path / "in"), str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    return tmp_path / "out"


def test_the_lesson_has_a_trigger_and_a_how_to_apply(tmp_path):
    # Watched fail before the fix: `trigger: ""` and `trigger: '  '` (how_to_apply was filled).
    out = _converted(tmp_path)
    for entry in sorted((out / "memory").glob("lesson_*.md")):
        values = split(entry.read_text(), str(entry))[0].values
        assert values["trigger"].strip() and values["how_to_apply"].strip(), entry.name


@needs_memoir
def test_memoir_validate_takes_the_lessons(tmp_path):
    verdict = memoir_validate(_converted(tmp_path))
    assert verdict.ok and verdict.checked == 2, verdict.output


def test_the_memories_come_home_as_written(tmp_path):
    out = _converted(tmp_path)
    done = CliRunner().invoke(main, ["memoir-to-claude", str(out), str(tmp_path / "home")])
    assert done.exit_code == 0, done.output
    assert {p: b for p, b in tree(tmp_path / "home").items() if not p.startswith(".memconv/")} == FILES
