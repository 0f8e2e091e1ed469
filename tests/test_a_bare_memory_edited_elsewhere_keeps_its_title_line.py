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


def _there(tmp_path: Path, target: str) -> CliRunner:
    """The Claude folder (its index and the bare memory) converted to ``target``, in ``tmp_path / "there"``."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "MEMORY.md").write_text(INDEX)
    (src / "deploy_notes.md").write_text(BARE)
    runner = CliRunner()
    there = runner.invoke(main, ["convert", "--to", target, str(src), str(tmp_path / "there")])
    assert there.exit_code == 0, there.output
    return runner


def _edited_there_and_back(tmp_path: Path, target: str, old: str, new: str, *more: tuple[str, str]) -> str:
    runner = _there(tmp_path, target)
    shown = [p for p in (tmp_path / "there").rglob("*.md") if "kestrel." in p.read_text() and ".memconv" not in p.parts]
    assert len(shown) == 1
    # The shown text only, not the carried copy in the frontmatter: a line that is the sentence, or a fact of it.
    lines = shown[0].read_text().split("\n")
    for old, new in ((old, new), *more):
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


@pytest.mark.parametrize("target", ["memfmt", "memspec"])
def test_its_title_edited_in_the_target_comes_home_as_its_title_line(tmp_path, target):
    # The target shows the # Title line as the memory's name (memfmt's entity name, memspec's title line). Watched
    # fail without the title's digest in the carry: the file came home with "# Deploy notes", and no report of it.
    back = _edited_there_and_back(tmp_path, target, "# Deploy notes", "# Deploy rules")
    assert back == BARE.replace("# Deploy notes", "# Deploy rules")


@pytest.mark.parametrize("target", ["memfmt", "memspec"])
def test_its_title_and_a_sentence_edited_in_the_target_both_come_home(tmp_path, target):
    back = _edited_there_and_back(tmp_path, target, "# Deploy notes", "# Deploy rules",
                                  ("The staging box is called kestrel.", "The staging box is called osprey."))
    assert back == BARE.replace("# Deploy notes", "# Deploy rules").replace("kestrel", "osprey")


@pytest.mark.parametrize("target", ["memfmt", "memspec", "memoir"])
def test_unedited_it_comes_home_byte_for_byte(tmp_path, target):
    runner = _there(tmp_path, target)
    back = runner.invoke(main, ["convert", "--from", target, "--to", "claude", str(tmp_path / "there"),
                                str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert "edited in" not in back.output
    assert (tmp_path / "back" / "deploy_notes.md").read_bytes() == BARE.encode()
    assert (tmp_path / "back" / "MEMORY.md").read_bytes() == INDEX.encode()


@pytest.mark.parametrize("target", ["memfmt", "memspec"])
def test_a_bare_memoir_entry_s_title_edited_in_the_target_comes_home_too(tmp_path, target):
    # One rule for every bare file named by its first line: memoir's legacy entries too.
    src = tmp_path / "in" / "memory"
    src.mkdir(parents=True)
    (src / "release-checklist.md").write_text("# Release checklist\n\n- bump version\n- tag\n")
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--from", "memoir", "--to", target, str(tmp_path / "in"),
                                str(tmp_path / "there")]).exit_code == 0
    [shown] = [p for p in (tmp_path / "there").rglob("*.md")
               if ".memconv" not in p.parts and "\n# Release checklist\n" in "\n" + p.read_text()]
    shown.write_text(shown.read_text().replace("# Release checklist\n", "# Release steps\n"))
    back = runner.invoke(main, ["convert", "--from", target, "--to", "memoir", str(tmp_path / "there"),
                                str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert (tmp_path / "back" / "memory" / "release-checklist.md").read_text() == \
        "# Release steps\n\n- bump version\n- tag\n"
