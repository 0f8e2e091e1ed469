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

import json

from click.testing import CliRunner

from memconv.cli import main

from .reference_tools import MEMOIR_VALIDATE, needs_memoir, run_node

LESSON = ("---\nname: Deploy checks\ndescription: \"Before deploying\\nto prod\"\nmetadata:\n  type: feedback\n"
          "  node_type: memory\n---\nWe broke prod twice.\n\n**How to apply:**\n- run the smoke tests\n"
          "- check the dashboard\n\n**Why:** Two outages in May.\n")

_PARSE = r"""
const [module, file] = process.argv.slice(1);
const { parseFrontmatter } = await import(module);
const { readFileSync } = await import('fs');
console.log(JSON.stringify(parseFrontmatter(readFileSync(file, 'utf8')).fields));
"""


def _upgrade(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "MEMORY.md").write_text("# Memory Index\n\n- [Deploy checks](feedback_deploy.md)\n")
    (tmp_path / "in" / "feedback_deploy.md").write_text(LESSON)
    result = CliRunner().invoke(main, ["upgrade", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / "memory" / "lesson_deploy.md"


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
    entry = _upgrade(tmp_path)
    done = run_node(["--input-type=module", "-e", _PARSE, str(MEMOIR_VALIDATE), str(entry)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    fields = json.loads(done.stdout)
    assert fields["how_to_apply"] == "- run the smoke tests - check the dashboard"
    assert fields["trigger"] == "Before deploying to prod"


def test_upgrading_the_result_again_changes_nothing(tmp_path):
    entry = _upgrade(tmp_path)
    before = entry.read_bytes()
    again = CliRunner().invoke(main, ["upgrade", str(tmp_path / "out"), str(tmp_path / "again")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again" / "memory" / "lesson_deploy.md").read_bytes() == before
