"""A frontmatter key holding ``: `` is written quoted, so the entry is read back instead of quarantined.

memconv's writers took any key that *started* like a name as plain: ``"a: b"`` was written
``a: b: colon key``, which no YAML reader accepts, and the read-back quarantined the whole entry
(exit 3). Found by converting stores with odd keys and reading them with memoir-cli's parser.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memconv import frontmatter
from memconv.cli import main

from .conftest import tree

ENTRY = "---\nname: Note\ndescription: a note\ntype: reference\n\"a: b\": colon key\n---\n\nBody.\n"


@pytest.mark.parametrize("key", ["a: b", "a:b", "x #y", "k:"])
def test_a_key_yaml_would_not_read_back_is_quoted(key):
    # Verified with _top_key_text's old test (_FAST_KEY.match(key + ":")): "a: b" was written plain.
    block = "\n".join(frontmatter.render_block(key, "v"))
    assert frontmatter.load_yaml(block) == {key: "v"}


def test_an_entry_with_such_a_key_converts_and_comes_home(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "MEMORY.md").write_text("# Memory Index\n\n- [Note](reference_note.md) — a note\n")
    (tmp_path / "in" / "reference_note.md").write_text(ENTRY)
    runner = CliRunner()
    there = runner.invoke(main, ["convert", "--from", "claude", "--to", "memoir", str(tmp_path / "in"), str(tmp_path / "m")])
    assert there.exit_code == 0, there.output
    back = runner.invoke(main, ["convert", "--to", "claude", str(tmp_path / "m"), str(tmp_path / "c")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "c")["reference_note.md"] == ENTRY.encode()
