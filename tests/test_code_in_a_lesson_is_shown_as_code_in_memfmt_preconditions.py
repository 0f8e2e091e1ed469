"""A lesson's code is shown as code, unrenamed, in a memfmt procedure's preconditions, and comes home as it was.

A Claude feedback memory (or a memoir lesson) becomes a memfmt procedure whose preconditions are made of its body
line by line (docs/conversion.md). A fenced or indented code block's lines became plain preconditions
(``- ```md``, ``- **Why:** not a real why``), and a ``[[feedback_other]]`` inside the code was renamed
``[[Other rule]]``: links inside code are not links, and code is never touched. Each line of code is now a
precondition as inline code (as an entity's facts show code), which the link renaming leaves as written.
The memfmt library is the judge of what memfmt reads.
"""

from __future__ import annotations

import memfmt
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree
from .memfmt_oracle import validate

BODY = ("Keep examples verbatim, see [[feedback_other]].\n\n"
        "```md\nSee [[feedback_other]] here.\n\n**Why:** not a real why\n```\n\n"
        "    indented [[feedback_other]] code\n\n"
        "- item one\n- item two\n\n"
        "**Why:** the docs showed it.\n")


def _store(root):
    root.mkdir()
    (root / "feedback_code.md").write_text("---\nname: Quote code\ndescription: Show code as written\n"
                                           "type: feedback\n---\n\n" + BODY)
    (root / "feedback_other.md").write_text("---\nname: Other rule\ndescription: Another rule\ntype: feedback\n"
                                            "---\n\nDo the other thing.\n")
    return root


def _procedure(out):
    return next(p for p in memfmt.load(out / "memory").procedures if p.name == "Quote code")


def test_code_lines_are_preconditions_as_code_with_their_links_as_written(tmp_path):
    src = _store(tmp_path / "in")
    result = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", "memfmt", str(src),
                                       str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert validate(tmp_path / "out" / "memory")[0] == 0
    preconditions = _procedure(tmp_path / "out").preconditions
    assert preconditions == [
        "Keep examples verbatim, see [[Other rule]].",  # prose: renamed
        "```` ```md ````",
        "`See [[feedback_other]] here.`",
        "`**Why:** not a real why`",
        "```` ``` ````",
        "`indented [[feedback_other]] code`",  # an indented block (under a list it would be the item's paragraph)
        "**Why:** the docs showed it.",
    ]
    assert [s.action for s in _procedure(tmp_path / "out").steps] == ["item one", "item two"]
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--from", "memfmt", "--to", "claude", str(tmp_path / "out"),
                                str(tmp_path / "back")]).exit_code == 0
    back = tree(tmp_path / "back")
    assert {p: back.get(p) for p in tree(src)} == tree(src)


def test_a_code_line_edited_in_memfmt_comes_home_in_its_code_block(tmp_path):
    src = _store(tmp_path / "in")
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--from", "claude", "--to", "memfmt", str(src),
                                str(tmp_path / "out")]).exit_code == 0
    [path] = (tmp_path / "out" / "memory" / "procedures").glob("Quote code*.md")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- `See [[feedback_other]] here.`", "- `See [[feedback_other]] there.`"),
                    encoding="utf-8")
    result = runner.invoke(main, ["convert", "--from", "memfmt", "--to", "claude", str(tmp_path / "out"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    body = (tmp_path / "back" / "feedback_code.md").read_text(encoding="utf-8")
    assert "```md\nSee [[feedback_other]] there.\n\n**Why:** not a real why\n```" in body
