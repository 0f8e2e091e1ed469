"""A relation line added to, or taken out of, the ``**Relations:**`` block an entity shows in Claude or memoir is an
edge of the entity home again.

A memfmt entity converted to Claude (or memoir) shows its relations in its memory's body, under ``**Relations:**``,
a dashed line each (``readable.show``). A line added there in the same form (``- works with → [[reference_bo]]``)
came home to memfmt as broken facts: ``- **Relations:**`` and one fact of all the block's lines joined
(``- - works at → [[Ops]] — since 2024 - mentors ← [[Bo]] - works with → [[Bo]]``), and the entity's
``## Relations`` had no new line; a line taken out there came home the same way, the edge still in ``## Relations``.
The block is now read by memfmt's own rule for a relation line (``markdown.relation_edge``); a line of it that says no
relation comes home as a fact, and the report says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import memfmt
import pytest

from memconv.cli import main

ALI = ("---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ali\n\n## Facts\n\n- leads the night shift\n"
       "- hired in 2023\n\n## Relations\n\n- works at → [[Ops]] — since 2024\n- mentors ← [[Bo]]\n")
OPS = "---\nmemfmt_type: entity\nentity_type: team\n---\n\n# Ops\n\n## Facts\n\n- keeps the lights on\n"
BO = "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Bo\n\n## Facts\n\n- new on the team\n"
#: Where each target holds Ali, and the link it gives Bo.
THERE = {"claude": ("reference_ali.md", "reference_bo"), "memoir": ("memory/fact_ali.md", "fact_bo")}


def _there(runner, tmp_path: Path, target: str) -> tuple[Path, Path]:
    home = tmp_path / "in"
    (home / "memory" / "entities").mkdir(parents=True)
    for name, text in (("Ali", ALI), ("Ops", OPS), ("Bo", BO)):
        (home / "memory" / "entities" / f"{name}.md").write_text(text, encoding="utf-8")
    result = runner.invoke(main, [f"memfmt-to-{target}", str(home), str(tmp_path / target)])
    assert result.exit_code == 0, result.output
    return home, tmp_path / target / THERE[target][0]


def _home(runner, tmp_path: Path, target: str) -> tuple[str, list[str], memfmt.Memory]:
    result = runner.invoke(main, [f"{target}-to-memfmt", "--json", "--fail-on-loss", str(tmp_path / target),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    warnings = json.loads(result.stdout)["warnings"]
    text = (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text(encoding="utf-8")
    return text, warnings, memfmt.load(str(tmp_path / "back" / "memory"))


def _ali(memory: memfmt.Memory):
    return next(e for e in memory.entities if e.name == "Ali")


@pytest.mark.parametrize("target, gap", [("claude", "\n"), ("memoir", "\n"), ("claude", "\n\n")],
                         ids=["claude", "memoir", "claude-after-a-blank-line"])
def test_a_relation_line_added_in_the_block_is_a_relation_home(runner, tmp_path, target, gap):
    # After a blank line, the line is still an item of the block's list, as markdown reads it.
    _, there = _there(runner, tmp_path, target)
    bo = THERE[target][1]
    text = there.read_text(encoding="utf-8")
    shown = f"- mentors ← [[{bo}]]"
    assert "**Relations:**\n\n- works at → [[" in text and text.rstrip("\n").endswith(shown)
    there.write_text(text.replace(shown, f"{shown}{gap}- works with → [[{bo}]] — on call"), encoding="utf-8")
    home, warnings, memory = _home(runner, tmp_path, target)
    assert home == ALI + "- works with → [[Bo]] — on call\n"
    assert [(r.type, r.target, r.direction, r.detail) for r in _ali(memory).relations] == [
        ("works at", "Ops", "outgoing", "since 2024"), ("mentors", "Bo", "incoming", None),
        ("works with", "Bo", "outgoing", "on call")]
    assert _ali(memory).facts == ["leads the night shift", "hired in 2023"]
    assert any(f"edited in {target}: edges" in w for w in warnings), warnings


@pytest.mark.parametrize("target", ["claude", "memoir"])
def test_a_relation_line_taken_out_of_the_block_is_no_relation_home(runner, tmp_path, target):
    _, there = _there(runner, tmp_path, target)
    text = there.read_text(encoding="utf-8")
    there.write_text(text.replace(f"\n- mentors ← [[{THERE[target][1]}]]", ""), encoding="utf-8")
    home, warnings, memory = _home(runner, tmp_path, target)
    assert home == ALI.replace("- mentors ← [[Bo]]\n", "")
    assert [r.target for r in _ali(memory).relations] == ["Ops"]
    assert any(f"edited in {target}: edges" in w for w in warnings), warnings


def test_a_line_of_the_block_that_says_no_relation_comes_home_as_a_fact(runner, tmp_path):
    _, there = _there(runner, tmp_path, "claude")
    text = there.read_text(encoding="utf-8")
    there.write_text(text.replace("- mentors ← [[reference_bo]]", "- mentors ← [[reference_bo]]\n- pairs with Bo"),
                     encoding="utf-8")
    home, warnings, memory = _home(runner, tmp_path, "claude")
    assert home == ALI.replace("- hired in 2023\n", "- hired in 2023\n- pairs with Bo\n")
    assert [r.type for r in _ali(memory).relations] == ["works at", "mentors"]
    assert any("pairs with Bo" in w and "no relation" in w for w in warnings), warnings


def test_the_block_as_shown_comes_home_as_it_was(runner, tmp_path):
    # Another line edited (a fact), the block left alone: the relations are as they were, not edited.
    home, there = _there(runner, tmp_path, "claude")
    text = there.read_text(encoding="utf-8")
    there.write_text(text.replace("**Relations:**", "Plays chess.\n\n**Relations:**"), encoding="utf-8")
    back, warnings, _ = _home(runner, tmp_path, "claude")
    assert back == ALI.replace("- hired in 2023\n", "- hired in 2023\n- Plays chess.\n")
    assert not any("edges" in w for w in warnings), warnings
