"""A block memconv wrote under a label of its own for a field the target has no key for (``**Preconditions:**``,
``**Relations:**``, ``**Extensions:**``, a line each), deleted whole in the target, takes the field out at home, as a
deleted labelled line does (tests/test_a_deleted_labelled_line_empties_its_field.py), and the report names it.

Before (2026-12-05, twenty-fourth session; found by deleting each block of every golden conversion): the field came
home from the carry, so what the target's user deleted was back.
"""

from __future__ import annotations

import re

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


def test_deleted_preconditions_take_the_procedures_preconditions_out(runner, tmp_path):
    there = _memoir_of_full_memfmt(runner, tmp_path)
    _cut(there / "memory" / "lesson_deploy-to-railway.md", "Preconditions")
    said, home = _memfmt_home(runner, there, tmp_path)
    assert re.search(r"edited in memoir: [^\n]*\bpreconditions\b", said), said
    procedure = (home / "procedures" / "deploy to Railway.md").read_text(encoding="utf-8")
    assert "Preconditions" not in procedure and "tests pass" not in procedure
    assert "1. push to main — the webhook does the rest" in procedure  # its steps as they were


def test_deleted_relations_take_the_entitys_relations_out(runner, tmp_path):
    there = _memoir_of_full_memfmt(runner, tmp_path)
    _cut(there / "memory" / "fact_ali.md", "Relations")
    said, home = _memfmt_home(runner, there, tmp_path)
    assert re.search(r"edited in memoir: [^\n]*\bedges\b", said), said
    ali = (home / "entities" / "Ali.md").read_text(encoding="utf-8")
    assert "## Relations" not in ali and "[[Mengram]]" not in ali
    assert "- based in Tokyo" in ali and "entity_type: person" in ali


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
