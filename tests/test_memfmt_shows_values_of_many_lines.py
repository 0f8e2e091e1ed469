"""A frontmatter value of several lines reaches memfmt on one line: the memfmt library reads every word.

memfmt reads frontmatter line by line; its own serialiser writes a value with a
newline as a quoted scalar broken over lines, and its parser keeps the first line
only (``note: "line1``). memconv's memfmt writer puts such a value on one line;
the exact text rides in the carry, and the way back gives the source's bytes.
"""

from __future__ import annotations

import memfmt
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree

ENTRY = (
    "---\n"
    "type: fact\n"
    "name: Release checklist\n"
    "note: |\n"
    "  freeze the branch\n"
    "  tag the release\n"
    "steps:\n"
    "  - \"build the wheel\\nthen sign it\"\n"
    "  - upload\n"
    "cr: \"first half\\rsecond half\"\n"
    "---\n"
    "What a release needs.\n"
)


def test_a_value_of_several_lines_is_shown_whole_by_memfmt_and_comes_back_exactly(tmp_path):
    # Verified by removing the one-line step from memfmt/syntax.py's scalar: memfmt reads
    # note as '"freeze the branch' and the steps' first item as '"build the wheel'.
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "fact_release-checklist.md").write_text(ENTRY)
    runner = CliRunner()
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", "memfmt",
                                  str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    [entity] = memfmt.load(tmp_path / "out").entities
    assert entity.extra["note"] == "freeze the branch tag the release"
    assert entity.extra["steps"] == ["build the wheel then sign it", "upload"]
    assert entity.extra["cr"] == "first half second half"
    back = runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "out"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "back")["memory/fact_release-checklist.md"] == ENTRY.encode()
