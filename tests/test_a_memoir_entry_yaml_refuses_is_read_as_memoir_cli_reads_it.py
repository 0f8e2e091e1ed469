"""A memoir entry whose frontmatter YAML refuses, but memoir-cli 3.12 reads, is converted as memoir-cli reads it.

memoir-cli reads frontmatter line by line (``parseFrontmatter`` in ``src/commands/validate.js``: ``key: value``,
outer quotes stripped, no escapes). ``name: Use Postgres: not MySQL``, ``name: @alice owns it`` or a tab-indented
line are entries to it, shown by ``validate`` and ``recall``; memconv's YAML reader refused them and quarantined
the file, so a conversion lost the entry from the target's view (docs/memoir.md, forty-seventh session).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memconv import frontmatter as fmx
from memconv.cli import main
from memconv.dialects import memoir
from memconv.errors import ReadError

from .reference_tools import memoir_frontmatter, needs_memoir

HEAD = "type: fact\ndescription: d\ncreated: 2026-05-14\n"
#: Frontmatter lines YAML refuses, and the name memoir-cli reads from them.
CASES = {
    "colon": ("name: Use Postgres: not MySQL\n", "Use Postgres: not MySQL"),
    "at": ("name: @alice owns it\n", "@alice owns it"),
    "backtick": ("name: `make` runs it\n", "`make` runs it"),
    "bracket": ("name: [draft] the plan\n", "[draft] the plan"),
    "brace": ("name: {x} the plan\n", "{x} the plan"),
    "quote": ('name: "a" b\n', '"a" b'),
    "tab": ("\tnote: tabbed\nname: Tabbed\n", "Tabbed"),
    "key colon": ("name: n\nsee: a: b: c\n", "n"),
    "flow list": ("name: n\ntags: [a, b\n", "n"),
}


def _entry(tmp_path, lines: str):
    (tmp_path / "s" / "memory").mkdir(parents=True)
    entry = tmp_path / "s" / "memory" / "fact_odd.md"
    entry.write_text(f"---\n{HEAD}{lines}---\n\nThe body.\n", encoding="utf-8")
    return entry


@pytest.mark.parametrize("case", list(CASES))
def test_the_entry_is_read_with_a_warning_not_quarantined(tmp_path, case):
    # Verified without the fallback: each was quarantined, "frontmatter is not valid YAML", exit 1.
    lines, name = CASES[case]
    _entry(tmp_path, lines)
    store = memoir.read(tmp_path / "s")
    assert not store.quarantined
    [record] = store.records
    assert record.title == name
    assert any("memory/fact_odd.md" in w and "memoir-cli" in w for w in store.warnings), store.warnings
    done = CliRunner().invoke(main, ["check", str(tmp_path / "s")])
    assert done.exit_code == 0, done.output


@needs_memoir
@pytest.mark.parametrize("case", list(CASES))
def test_memconv_reads_what_memoir_cli_reads(tmp_path, case):
    entry = _entry(tmp_path, CASES[case][0])
    fields = memoir_frontmatter(entry, tmp_path)
    fm, _ = fmx.split(entry.read_text(encoding="utf-8"), "e.md", lines=fmx.memoir_cli_values)
    assert fm.values == {k: (None if v == "" else v) for k, v in fields.items()}


def test_the_other_keys_and_lists_are_read_as_memoir_cli_reads_them():
    lines = ["type: fact", "name: x: y", "# a comment", "tags:", "  - 'a'", "  - 017", "origin:", "  tool: t",
             "description:", "hidden: false", "name: last: wins", "- stray", "\tindented: skipped"]
    assert fmx.memoir_cli_values(lines) == {
        "type": "fact", "name": "last: wins", "tags": ["a", 17], "origin": {"tool": "t"}, "description": None,
        "hidden": False}


def test_the_entry_reaches_claude_as_memoir_cli_reads_it_and_comes_home_byte_for_byte(tmp_path):
    entry = _entry(tmp_path, CASES["colon"][0])
    runner = CliRunner()
    done = runner.invoke(main, ["memoir-to-claude", str(tmp_path / "s"), str(tmp_path / "c")])
    assert done.exit_code == 0, done.output
    [claude] = (tmp_path / "c").glob("*_odd.md")
    assert fmx.split(claude.read_text(encoding="utf-8"), "c.md")[0].values["name"] == "Use Postgres: not MySQL"
    home = runner.invoke(main, ["claude-to-memoir", str(tmp_path / "c"), str(tmp_path / "m")])
    assert home.exit_code == 0, home.output
    assert (tmp_path / "m" / "memory" / "fact_odd.md").read_bytes() == entry.read_bytes()


def test_an_edited_entry_is_written_in_canonical_form_that_yaml_reads(tmp_path):
    _entry(tmp_path, CASES["colon"][0])
    store = memoir.read(tmp_path / "s")
    store.records[0].description = "edited"
    written = memoir.write(store)["memory/fact_odd.md"].decode()
    values = fmx.split(written, "e.md")[0].values
    assert values["name"] == "Use Postgres: not MySQL" and values["description"] == "edited"


def test_without_the_line_reader_the_block_is_still_refused_and_bounds_still_hold():
    with pytest.raises(ReadError, match="not valid YAML"):
        fmx.split("---\nname: a: b\n---\n", "c.md")
    with pytest.raises(ReadError, match="refused"):
        fmx.split("---\nname: !!binary eA==\n---\n", "e.md", lines=fmx.memoir_cli_values)
