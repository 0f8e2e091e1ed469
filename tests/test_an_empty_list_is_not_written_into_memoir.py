"""An empty list (memspec's ``tags: []``) is not written into a memoir entry: the format's frontmatter has no form
for it, and memoir-cli's own list edit made it a tag.

memoir's frontmatter is a YAML subset (spec §3.1: ``key: value``, ``- item`` lists, one level of mapping). memoir-cli
3.12's parser reads ``tags: []`` as the text ``[]``; its MCP ``save`` with tags (``withFrontmatterLists``) merges the
tags it read with the new ones, so a memspec decision converted into memoir and given the tag ``release`` there had
``tags: ["[]", "release"]``, and the way home gave memspec a ``[]`` tag no one wrote, exit 0, nothing said. Such a key
is now left out of the memoir file (docs/memoir.md); the carry still brings the record home byte for byte.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv import frontmatter as fmx
from memconv.cli import main

from .conftest import tree
from .memspec_decision import DECISION_ID, memspec_decision_store
from .reference_tools import memoir_frontmatter, memoir_with_lists, needs_memoir


def _converted(tmp_path):
    store = memspec_decision_store(tmp_path, "depends_on: []\n")
    done = CliRunner().invoke(main, ["convert", "--to", "memoir", str(store), str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    [entry] = (tmp_path / "out" / "memory").glob("decision_*.md")
    return store, entry


def _home(tmp_path, name: str):
    done = CliRunner().invoke(main, ["convert", "--to", "memspec", str(tmp_path / "out"), str(tmp_path / name)])
    assert done.exit_code == 0, done.output
    return (tmp_path / name / ".memspec" / "memory" / "decisions" / f"{DECISION_ID}.md").read_text()


def test_no_key_of_the_entry_says_an_empty_list(tmp_path):
    # Watched fail before the fix: the entry had `tags: []` and `depends_on: []`.
    _, entry = _converted(tmp_path)
    head = fmx.split(entry.read_text(), str(entry))[0]
    assert [k for k, v in head.values.items() if v in ([], {})] == []


def test_the_record_still_comes_home_byte_for_byte(tmp_path):
    store, _ = _converted(tmp_path)
    _home(tmp_path, "home")
    home = {p: b for p, b in tree(tmp_path / "home").items() if not p.endswith("/.gitkeep")}
    assert {p: b for p, b in home.items() if not p.startswith(".memspec/.memconv/")} == tree(store)


@needs_memoir
def test_a_tag_memoir_cli_adds_is_the_only_tag_home(tmp_path):
    # Watched fail before the fix: memoir-cli wrote `tags:\n  - "[]"\n  - "release"`, and memspec got both tags.
    _, entry = _converted(tmp_path)
    assert "tags" not in memoir_frontmatter(entry, tmp_path), "memoir-cli reads no tag"
    entry.write_text(memoir_with_lists(entry, {"tags": ["release"]}, tmp_path))
    assert memoir_frontmatter(entry, tmp_path)["tags"] == ["release"]
    assert fmx.split(_home(tmp_path, "home"), "decision")[0].values["tags"] == ["release"]


def test_a_memoir_entry_saying_an_empty_list_comes_home_through_claude_as_written(tmp_path):
    """memoir-cli reads a Claude folder too: Claude's writer leaves an empty list out as memoir's does, carried. Its
    memoir home then gives the entry back as written; with ``aliases: []`` kept in the Claude file (no carry), the
    way home read it as Claude's own and left it out of memoir (found by test_conversion_of_hostile_memoir_stores)."""
    entry = b'---\ntype: fact\nname: "0"\ndescription: "0"\naliases: []\ntags: []\n---\n\nSee [[fact_0]].\n'
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "fact_0.md").write_bytes(entry)
    for args in (["memoir-to-claude", "in", "claude"], ["claude-to-memoir", "claude", "back"]):
        done = CliRunner().invoke(main, [args[0], str(tmp_path / args[1]), str(tmp_path / args[2])])
        assert done.exit_code == 0, done.output
    lines = (tmp_path / "claude" / "reference_0.md").read_bytes().splitlines()
    assert b"aliases: []" not in lines and b"tags: []" not in lines, lines
    assert (tmp_path / "back" / "memory" / "fact_0.md").read_bytes() == entry
