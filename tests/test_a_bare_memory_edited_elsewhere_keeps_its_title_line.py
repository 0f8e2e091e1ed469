"""A legacy bare Claude memory (no frontmatter) is named by its ``# Title`` line, which memfmt and memspec
show as the memory's name, not in its text. A sentence of it edited there came home without the line:
the edited text won, and the name was only in the title, which a bare file has no place for."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main

BARE = "# Deploy notes\n\nWe deploy on Tuesdays only.\n\nThe staging box is called kestrel.\n"
INDEX = "# Memory Index\n\n- [Deploy notes](deploy_notes.md) — how we deploy\n"


def _edited_there_and_back(tmp_path: Path, target: str, old: str, new: str) -> str:
    src = tmp_path / "in"
    src.mkdir()
    (src / "MEMORY.md").write_text(INDEX)
    (src / "deploy_notes.md").write_text(BARE)
    runner = CliRunner()
    there = runner.invoke(main, ["convert", "--to", target, str(src), str(tmp_path / "there")])
    assert there.exit_code == 0, there.output
    shown = [p for p in (tmp_path / "there").rglob("*.md") if "kestrel." in p.read_text() and ".memconv" not in p.parts]
    assert len(shown) == 1
    # The shown text only, not the carried copy in the frontmatter: a line that is the sentence, or a fact of it.
    lines = shown[0].read_text().split("\n")
    hits = [i for i, line in enumerate(lines) if line.removeprefix("- ") == old]
    assert len(hits) == 1, lines
    lines[hits[0]] = lines[hits[0]].replace(old, new)
    shown[0].write_text("\n".join(lines))
    back = runner.invoke(main, ["convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert "edited in" in back.output
    return (tmp_path / "back" / "deploy_notes.md").read_text()


@pytest.mark.parametrize("target", ["memfmt", "memspec"])
def test_a_sentence_edited_in_the_target_comes_home_under_its_title_line(tmp_path, target):
    # Watched fail without transforms.heading_back: "We deploy on Tuesdays only.\n\nThe staging box is called osprey.\n".
    back = _edited_there_and_back(tmp_path, target, "The staging box is called kestrel.",
                                  "The staging box is called osprey.")
    assert back == BARE.replace("kestrel", "osprey")


def test_the_first_sentence_edited_in_memfmt_comes_home_under_its_title_line(tmp_path):
    back = _edited_there_and_back(tmp_path, "memfmt", "We deploy on Tuesdays only.", "We deploy on Wednesdays only.")
    assert back == BARE.replace("Tuesdays", "Wednesdays")
