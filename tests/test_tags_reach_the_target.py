"""Tags are text a person wrote, and the target's tools show them.

A memoir entry may write ``tags: [2024, deploy, true]``: YAML reads a number and a boolean, so the
memoir reader keeps the list as written (in ``extra``). Converted, it rode in memspec's
``ext.memconv`` while memspec showed ``tags: []``; and memfmt, which has no tags, had a record's
tags only in the carry. They are now text in memspec (``'2024'``) and a labelled line in memfmt
(``**Tags:** 2024, deploy, true``); the exact list comes home.
"""

from __future__ import annotations

import memfmt
import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree
from .reference_tools import memspec, memspec_load, needs_memspec

ENTRY = ("---\ntype: fact\nname: Deploy window\ndescription: When we may deploy\ntags: [2024, deploy, true]\n---\n\n"
         "Tuesdays only.\n")


def _convert(tmp_path, target: str):
    src = tmp_path / "in" / "memory"
    src.mkdir(parents=True)
    (src / "fact_deploy.md").write_text(ENTRY)
    result = CliRunner().invoke(main, ["convert", "--from", "memoir", "--to", target, str(tmp_path / "in"),
                                       str(tmp_path / target)])
    assert result.exit_code == 0, result.output
    return tmp_path / target


@needs_memspec
def test_memspec_shows_and_finds_tags_that_yaml_reads_as_a_number(tmp_path):
    # Watched fail without tags_as_text: memspec's search found nothing for 2024 (tags: []).
    out = _convert(tmp_path, "memspec")
    assert memspec_load(out).problems == []
    found = memspec(out, "search", "2024")
    assert "Deploy window" in found.stdout and "tags: 2024, deploy, true" in found.stdout


def test_memfmt_shows_tags_as_a_fact(tmp_path):
    # Watched fail without the **Tags:** line of readable.show: the entity's facts held no tag.
    out = _convert(tmp_path, "memfmt")
    [entity] = memfmt.load(out / "memory").entities
    assert "**Tags:** 2024, deploy, true" in entity.facts


@pytest.mark.parametrize("target", ["memspec", "memfmt", "claude"])
def test_the_tags_come_home_as_written(tmp_path, target):
    out = _convert(tmp_path, target)
    result = CliRunner().invoke(main, ["convert", "--to", "memoir", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "back")["memory/fact_deploy.md"] == ENTRY.encode()


def _memfmt_there_and_back(tmp_path, entry: str, edit) -> str:
    src = tmp_path / "src" / "memory"
    src.mkdir(parents=True)
    (src / "fact_x.md").write_text(entry)
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--from", "memoir", "--to", "memfmt", str(tmp_path / "src"),
                                str(tmp_path / "mf")]).exit_code == 0
    [entity] = (tmp_path / "mf" / "memory" / "entities").glob("*.md")
    entity.write_text(edit(entity.read_text()))
    result = runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    return (tmp_path / "back" / "memory" / "fact_x.md").read_text()


def test_a_fact_added_in_memfmt_does_not_bring_the_tags_line_home(tmp_path):
    # Watched fail without tags_as_text in readable.unshow: '**Tags:** 2024, true, deploy' came home in the body.
    back = _memfmt_there_and_back(tmp_path, ENTRY, lambda t: t.replace("- Tuesdays only.\n",
                                                                       "- Tuesdays only.\n- And Thursdays.\n"))
    assert back == ENTRY.replace("Tuesdays only.\n", "Tuesdays only.\n\nAnd Thursdays.\n")


def test_the_tags_line_edited_in_memfmt_edits_the_tags(tmp_path):
    # Watched fail without reading the edited line: the tags stayed, and the line came home in the body.
    entry = "---\ntype: fact\nname: Plain\ndescription: plain one\ntags: [alpha, beta]\n---\n\nBody one.\n"
    back = _memfmt_there_and_back(tmp_path, entry, lambda t: t.replace("**Tags:** alpha, beta",
                                                                       "**Tags:** alpha, beta, gamma"))
    assert "gamma" in back.partition("\n---\n")[0] and "Tags" not in back
