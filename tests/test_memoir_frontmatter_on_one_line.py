"""Text from another dialect reaches a memoir entry's frontmatter on one line, as memoir-cli reads it.

The memoir spec keeps frontmatter to a YAML subset that its tools read without a YAML engine (no
block scalars; the description "one line"), and memoir-cli's parser strips quotes but reads no
escapes: a Claude description of two lines, written ``"first line\\nsecond line"``, showed the
literal ``\\n`` in memoir's lists and search (``recall`` saw the token ``nsecond``). Each such field is
now written on one line; the exact text rides in the carry and comes home byte for byte.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv.cli import main

from .claude_support import ran_on_one_feedback_memory
from .conftest import tree
from .reference_tools import memoir_frontmatter, needs_memoir

ENTRY = ("---\nname: Deploy windows\ndescription: |\n  Senior backend engineer.\n  New to the frontend.\n"
         "type: feedback\nowner: \"first line\\nsecond line\"\n---\n\n"
         "Deploy on Tuesdays.\n\n**Why:** Fridays bite.\n\n**How to apply:** Check the calendar\nbefore tagging.\n")


def _convert(tmp_path):
    command = ["convert", "--from", "claude", "--to", "memoir"]
    out = ran_on_one_feedback_memory(tmp_path, "Deploy windows", ENTRY, command, "m")
    [entry] = (out / "memory").glob("*.md")
    return entry


@needs_memoir
def test_memoir_cli_reads_each_field_on_one_line_with_every_word(tmp_path):
    # Verified with ONE_LINE_FIELDS left out of the memoir dialect: memoir-cli read
    # 'Senior backend engineer.\nNew to the frontend.\n' with a literal backslash-n.
    fields = memoir_frontmatter(_convert(tmp_path), tmp_path)
    assert fields["description"] == "Senior backend engineer. New to the frontend."
    assert fields["owner"] == "first line second line"
    assert fields["how_to_apply"] == "Check the calendar before tagging."


def test_the_exact_text_comes_home(tmp_path):
    _convert(tmp_path)
    back = CliRunner().invoke(main, ["convert", "--to", "claude", str(tmp_path / "m"), str(tmp_path / "c")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "c")["feedback_deploy.md"] == ENTRY.encode()
