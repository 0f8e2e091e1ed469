"""A memory that arrives in a Claude folder with a hand-written index is linked from it.

Claude Code finds a memory through ``MEMORY.md``. A Claude store converted to memoir and back gets
its hand-written index restored as it was; a memory added in memoir came home as a file the index
did not name, so Claude never read it (nor an inline bullet edited in memoir, which comes home as an
entry of its own). Such a memory is now linked under its type's section, with a warning; a memory
home again is left as the index has it.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN, tree

MIXED = GOLDEN / "claude" / "mixed-project" / "input"
INLINE_ONLY = GOLDEN / "claude" / "inline-only" / "input"


def _run(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_memory_added_in_memoir_is_linked_from_the_hand_written_index(tmp_path):
    # Watched fail without Occasion.arrived reaching the claude writer: MEMORY.md came home as it was.
    _run("convert", "--from", "claude", "--to", "memoir", str(MIXED), str(tmp_path / "there"))
    (tmp_path / "there" / "memory" / "fact_new.md").write_text(
        "---\ntype: fact\nname: New fact\ndescription: Added in memoir\n---\n\nThe new body.\n")
    back = _run("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    before = (MIXED / "MEMORY.md").read_text()
    after = (tmp_path / "back" / "MEMORY.md").read_text()
    line = "- [New fact](reference_new.md) — Added in memoir\n"
    assert after.replace(line, "") == before and line in after.partition("## Reference")[2]
    assert any("reference_new.md: linked from MEMORY.md" in w for w in back["warnings"])
    files = tree(tmp_path / "back")
    assert all(files[p] == data for p, data in tree(MIXED).items() if p != "MEMORY.md"), \
        "every other file comes home as it was: a memory home again is not linked anew"


def test_an_inline_bullet_edited_in_memoir_is_linked_as_the_entry_it_becomes(tmp_path):
    _run("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "there"))
    entry = tmp_path / "there" / "memory" / "fact_user-prefers-tailwind-css.md"
    entry.write_text(entry.read_text().replace("User prefers Tailwind CSS", "User prefers Tailwind CSS v4"))
    _run("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    index = (tmp_path / "back" / "MEMORY.md").read_text()
    assert "- User prefers Tailwind CSS\n" in index, "the bullet as it was"
    assert "(reference_user-prefers-tailwind-css.md)" in index and "Tailwind CSS v4" in index
