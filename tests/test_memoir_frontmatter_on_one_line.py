"""Text from another dialect reaches a memoir entry's frontmatter on one line, as memoir-cli reads it.

The memoir spec keeps frontmatter to a YAML subset that its tools read without a YAML engine (no
block scalars; the description "one line"), and memoir-cli's parser strips quotes but reads no
escapes: a Claude description of two lines, written ``"first line\\nsecond line"``, showed the
literal ``\\n`` in memoir's lists and search (``recall`` saw the token ``nsecond``). Each such field is
now written on one line; the exact text rides in the carry and comes home byte for byte.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree
from .reference_tools import MEMOIR_VALIDATE, needs_memoir, run_node

ENTRY = ("---\nname: Deploy windows\ndescription: |\n  Senior backend engineer.\n  New to the frontend.\n"
         "type: feedback\nowner: \"first line\\nsecond line\"\n---\n\n"
         "Deploy on Tuesdays.\n\n**Why:** Fridays bite.\n\n**How to apply:** Check the calendar\nbefore tagging.\n")

_PARSE = r"""
const [module, file] = process.argv.slice(1);
const { parseFrontmatter } = await import(module);
const { readFileSync } = await import('fs');
console.log(JSON.stringify(parseFrontmatter(readFileSync(file, 'utf8')).fields));
"""


def _convert(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "MEMORY.md").write_text("# Memory Index\n\n- [Deploy windows](feedback_deploy.md)\n")
    (tmp_path / "in" / "feedback_deploy.md").write_text(ENTRY)
    result = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", "memoir",
                                       str(tmp_path / "in"), str(tmp_path / "m")])
    assert result.exit_code == 0, result.output
    [entry] = (tmp_path / "m" / "memory").glob("*.md")
    return entry


@needs_memoir
def test_memoir_cli_reads_each_field_on_one_line_with_every_word(tmp_path):
    # Verified with ONE_LINE_FIELDS left out of the memoir dialect: memoir-cli read
    # 'Senior backend engineer.\nNew to the frontend.\n' with a literal backslash-n.
    entry = _convert(tmp_path)
    done = run_node(["--input-type=module", "-e", _PARSE, str(MEMOIR_VALIDATE), str(entry)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    fields = json.loads(done.stdout)
    assert fields["description"] == "Senior backend engineer. New to the frontend."
    assert fields["owner"] == "first line second line"
    assert fields["how_to_apply"] == "Check the calendar before tagging."


def test_the_exact_text_comes_home(tmp_path):
    _convert(tmp_path)
    back = CliRunner().invoke(main, ["convert", "--to", "claude", str(tmp_path / "m"), str(tmp_path / "c")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "c")["feedback_deploy.md"] == ENTRY.encode()
