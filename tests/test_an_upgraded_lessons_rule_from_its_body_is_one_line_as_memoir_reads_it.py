"""An upgraded lesson's ``how_to_apply`` (and ``trigger``), made from the legacy file, is one line memoir-cli reads.

``memconv upgrade`` makes a legacy ``feedback`` memory's ``how_to_apply`` from its ``**How to apply:**``
section. A section of several lines (a list below the label, a wrapped paragraph) was written
``how_to_apply: "- run the smoke tests\\n- check the dashboard"``: memoir-cli's parser strips quotes but
reads no escapes, so memoir showed the rule with a literal ``\\n`` between its steps, exit 0 and nothing
said. A conversion into memoir has written such text on one line since 2026-12-02 (docs/memoir.md,
"Frontmatter text on one line"); the upgrade now does too, for the keys it adds. The body keeps the section
as written, so no word is lost; the file's own keys are kept as the person wrote them.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv.cli import main

from .claude_support import ran_on_one_feedback_memory
from .reference_tools import memoir_frontmatter, needs_memoir

LESSON = ("---\nname: Deploy checks\ndescription: \"Before deploying\\nto prod\"\nmetadata:\n  type: feedback\n"
          "  node_type: memory\n---\nWe broke prod twice.\n\n**How to apply:**\n- run the smoke tests\n"
          "- check the dashboard\n\n**Why:** Two outages in May.\n")


def _upgrade(tmp_path):
    out = ran_on_one_feedback_memory(tmp_path, "Deploy checks", LESSON, ["upgrade"], "out")
    return out / "memory" / "lesson_deploy.md"


def test_the_rule_and_trigger_the_upgrade_adds_are_written_on_one_line(tmp_path):
    text = _upgrade(tmp_path).read_text()
    assert "how_to_apply: \"- run the smoke tests - check the dashboard\"\n" in text
    assert "trigger: Before deploying to prod\n" in text
    # The person's own key and the body stay as written.
    assert "description: \"Before deploying\\nto prod\"\n" in text
    assert text.endswith("**How to apply:**\n- run the smoke tests\n- check the dashboard\n\n"
                         "**Why:** Two outages in May.\n")


@needs_memoir
def test_memoir_cli_reads_the_rule_with_every_word_and_no_escape(tmp_path):
    fields = memoir_frontmatter(_upgrade(tmp_path), tmp_path)
    assert fields["how_to_apply"] == "- run the smoke tests - check the dashboard"
    assert fields["trigger"] == "Before deploying to prod"


def test_upgrading_the_result_again_changes_nothing(tmp_path):
    entry = _upgrade(tmp_path)
    before = entry.read_bytes()
    again = CliRunner().invoke(main, ["upgrade", str(tmp_path / "out"), str(tmp_path / "again")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again" / "memory" / "lesson_deploy.md").read_bytes() == before
