"""An upgraded memory's own frontmatter text reaches memoir-cli as the person wrote it, escapes and all.

``memconv upgrade`` writes a converted memory over the Claude file's own frontmatter lines, keeping every key
the upgrade does not change as written. A Claude file may say ``name: "Use \\"Postgres\\": not MySQL"``: Claude
Code reads it with YAML, but memoir-cli 3.12 (``parseScalar``) strips the quotes and reads no escape, so memoir
showed and searched ``Use \\"Postgres\\": not MySQL``, exit 0 and nothing said. Such a line is now written anew
as memconv writes any text memoir-cli must read (``frontmatter.scalar``: ``'Use "Postgres": not MySQL'``), in
its place, and the report says so. A line memoir-cli reads right stays as written (``"Deploy checks"``), and so
does a text no quoting says alike to both (``a: it's "x"``: memoir-cli reads ``''`` as two quotes).
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv import frontmatter as fmx
from memconv import upgrade as upgrading
from memconv.cli import main
from memconv.report import Report

from .claude_support import ran_on_one_feedback_memory, write
from .reference_tools import memoir_frontmatter, needs_memoir

NAME = 'Use "Postgres": not MySQL \\ nor C:\\db'
MEMORY = ("---\nname: \"Use \\\"Postgres\\\": not MySQL \\\\ nor C:\\\\db\"\ndescription: \"Deploy checks\"\n"
          "note: \"a: it's \\\"x\\\"\"\nmetadata:\n  type: feedback\n---\nWe broke prod twice.\n\n"
          "**How to apply:** run the smoke tests\n")


def _upgraded(tmp_path, *flags):
    return ran_on_one_feedback_memory(tmp_path, "Deploy", MEMORY, ["upgrade", *flags], "out")


def test_the_misread_line_is_written_as_memoir_cli_reads_it_and_only_it(tmp_path):
    assert fmx.split(MEMORY, "x.md")[0].values["name"] == NAME, "(the memory as Claude Code reads it)"
    text = (_upgraded(tmp_path) / "memory" / "lesson_deploy.md").read_text(encoding="utf-8")
    assert text.startswith(f"---\nname: '{NAME}'\ndescription: \"Deploy checks\"\nnote: \"a: it's \\\"x\\\"\"\n")
    assert fmx.split(text, "x.md")[0].values["name"] == NAME, "YAML reads the same name"


def test_the_report_says_the_line_changed(tmp_path):
    root = write({"MEMORY.md": b"# Memory\n\n- [Deploy](feedback_deploy.md)\n",
                  "feedback_deploy.md": MEMORY.encode()}, tmp_path / "in")
    report = Report(command="upgrade", input=str(root))
    upgrading.plan(root, report)
    [memory] = [f for f in report.files if f.source == "feedback_deploy.md"]
    assert "name: quoted as memoir-cli reads it (it reads no escape)" in memory.changes
    assert not any(c.startswith(("description:", "note:")) for c in memory.changes)


@needs_memoir
def test_memoir_cli_reads_the_name_the_person_wrote(tmp_path):
    # Broken as above: memoir-cli read `Use \"Postgres\": not MySQL \\ nor C:\\db`.
    fields = memoir_frontmatter(_upgraded(tmp_path) / "memory" / "lesson_deploy.md", tmp_path)
    assert fields["name"] == NAME
    assert fields["description"] == "Deploy checks"


def test_upgrading_the_result_again_changes_nothing(tmp_path):
    entry = _upgraded(tmp_path) / "memory" / "lesson_deploy.md"
    again = CliRunner().invoke(main, ["upgrade", str(tmp_path / "out"), str(tmp_path / "again")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again" / "memory" / "lesson_deploy.md").read_bytes() == entry.read_bytes()


def test_memoir_cli_reads_is_its_parse_scalar():
    assert fmx.memoir_cli_reads('name: "a \\"b\\""') == 'a \\"b\\"'
    assert fmx.memoir_cli_reads("name: 'it''s'") == "it''s"
    assert fmx.memoir_cli_reads("n:  '12' ") == 12
    assert fmx.memoir_cli_reads('x: "true"') is True
    assert fmx.memoir_cli_reads("tags:") == ""
    assert fmx.memoir_cli_reads('t: "a: b"') == "a: b"


@needs_memoir
def test_memoir_cli_reads_each_line_as_memoir_cli_reads_says(tmp_path):
    lines = ['a: "x \\"y\\" \\\\ z"', "b: 'it''s'", "c:  '12' ", 'd: "true"', 'e: "a: b"', "f: plain: text", "g: '\"'",
             'h: "', "i: -7", "j: 1.5", 'k: "Deploy checks"']
    entry = tmp_path / "entry.md"
    entry.write_text("---\n" + "\n".join(lines) + "\n---\nbody\n", encoding="utf-8")
    fields = memoir_frontmatter(entry, tmp_path)
    assert {line[0]: fmx.memoir_cli_reads(line) for line in lines} == fields
