"""A block memconv wrote under a label of its own for a field the target has no key for (``**Preconditions:**``,
``**Relations:**``, ``**Extensions:**``, a line each), deleted whole in the target, takes the field out at home, as a
deleted labelled line does (tests/test_a_deleted_labelled_line_empties_its_field.py), and the report names it.

Before (2026-12-05, twenty-fourth session; found by deleting each block of every golden conversion): the field came
home from the carry, so what the target's user deleted was back.
"""

from __future__ import annotations

import re

import pytest

from memconv.cli import main

from .conftest import GOLDEN


def _memoir_of_full_memfmt(runner, tmp_path):
    there = tmp_path / "memoir"
    assert runner.invoke(main, ["memfmt-to-memoir", str(GOLDEN / "memfmt" / "full" / "input"), str(there)]
                         ).exit_code == 0
    return there


def _cut(path, label: str) -> None:
    """The block under ``label`` taken out of ``path``: its label, the blank line and its lines."""
    text = path.read_text(encoding="utf-8")
    cut = re.sub(rf"\n\*\*{label}:\*\*\n\n(?:(?:- |\d+\. )[^\n]*\n)+", "\n", text)
    assert cut != text
    path.write_text(cut, encoding="utf-8")


def _memfmt_home(runner, there, tmp_path):
    back = runner.invoke(main, ["memoir-to-memfmt", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    return back.stderr, tmp_path / "back" / "memory"


@pytest.mark.parametrize(("entry", "label", "field", "home_file", "gone", "kept"), [
    ("lesson_deploy-to-railway.md", "Preconditions", "preconditions", "procedures/deploy to Railway.md",
     ("Preconditions", "tests pass"), ("1. push to main — the webhook does the rest",)),  # its steps as they were
    ("fact_ali.md", "Relations", "edges", "entities/Ali.md", ("## Relations", "[[Mengram]]"),
     ("- based in Tokyo", "entity_type: person")),
], ids=["preconditions", "relations"])
def test_a_deleted_block_takes_its_field_out(runner, tmp_path, entry, label, field, home_file, gone, kept):
    there = _memoir_of_full_memfmt(runner, tmp_path)
    _cut(there / "memory" / entry, label)
    said, home = _memfmt_home(runner, there, tmp_path)
    assert re.search(rf"edited in memoir: [^\n]*\b{field}\b", said), said
    text = (home / home_file).read_text(encoding="utf-8")
    assert not [g for g in gone if g in text] and all(k in text for k in kept), text


def test_a_block_left_in_place_keeps_its_field(runner, tmp_path):
    # Another line edited: the block is there as written, and the field comes home as it was.
    there = _memoir_of_full_memfmt(runner, tmp_path)
    lesson = there / "memory" / "lesson_deploy-to-railway.md"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        "**Last failure:** the pool refused the fourth client", "**Last failure:** the pool refused the fifth client"),
        encoding="utf-8")
    said, home = _memfmt_home(runner, there, tmp_path)
    procedure = (home / "procedures" / "deploy to Railway.md").read_text(encoding="utf-8")
    assert "- tests pass\n- pool_max is set\n" in procedure and "the fifth client" in procedure
