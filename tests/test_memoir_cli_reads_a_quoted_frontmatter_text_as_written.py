"""A frontmatter text holding ``"`` or ``\\`` reaches memoir-cli as its source wrote it.

memoir-cli 3.12's frontmatter parser (``parseScalar`` in ``src/commands/validate.js``) strips a
value's outer quotes, double or single, and reads no escapes. A memspec decision titled
``Use "Postgres": not MySQL`` was written ``name: "Use \\"Postgres\\": not MySQL"``, and memoir's
lists, ``why`` and ``recall`` showed and searched the backslashes. Such a text is now written
single-quoted when it holds no ``'`` (a single-quoted scalar has no escape but ``''``): YAML and
memoir-cli then read the same characters. memconv's carry stays double-quoted (docs/memoir.md).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memconv import frontmatter as fmx
from memconv.cli import main

from .memspec_decision import memspec_decision_store
from .reference_tools import memoir_frontmatter, memoir_with_lists, needs_memoir

TITLE = 'Use "Postgres": not MySQL \\ nor C:\\db'
TAG = 'db "core": v2'


def _memoir_entry(tmp_path):
    store = memspec_decision_store(tmp_path, "")
    [decision] = (store / ".memspec" / "memory" / "decisions").glob("*.md")
    text = decision.read_text(encoding="utf-8")
    tags = f"tags: {json.dumps([TAG])}"  # no ' in the source: the carry of its layout holds none either
    decision.write_text(text.replace("tags: []", tags).replace("# Use Postgres", f"# {TITLE}"), encoding="utf-8")
    done = CliRunner().invoke(main, ["convert", "--to", "memoir", str(store), str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    [entry] = (tmp_path / "out" / "memory").glob("decision_*.md")
    return entry


@needs_memoir
def test_memoir_cli_reads_the_decisions_title_and_tag_as_memspec_wrote_them(tmp_path):
    # Verified with _scalar_text's single-quoted branch taken out: memoir-cli read the name as
    # `Use \"Postgres\": not MySQL \\ nor C:\\db`, every quote and backslash escaped.
    fields = memoir_frontmatter(_memoir_entry(tmp_path), tmp_path)
    assert fields["name"] == TITLE, "memoir-cli shows the title the memspec user wrote, no escapes"
    assert fields["tags"] == [TAG]


@needs_memoir
def test_a_tag_survives_memoir_cli_adding_one(tmp_path):
    # memoir-cli writes each tag it read again as JSON: read with its escapes, `"db \"core\": v2"` came back
    # from its edit as `db \"core\": v2` (verified with the single-quoted branch taken out).
    entry = _memoir_entry(tmp_path)
    edited = memoir_with_lists(entry, {"tags": ["pg"]}, tmp_path)
    assert fmx.split(edited, str(entry))[0].values["tags"] == [TAG, "pg"], "memoir-cli's own edit keeps the tag"


def test_the_entry_says_the_title_single_quoted_and_keeps_the_carry_double_quoted(tmp_path):
    head = _memoir_entry(tmp_path).read_text(encoding="utf-8").split("\n---\n")[0]
    assert f"name: '{TITLE}'" in head.splitlines()
    [carry] = [line for line in head.splitlines() if line.startswith("memconv: ")]
    assert "'" not in carry
    assert carry.startswith('memconv: "{'), "the carry is memconv's JSON, one form whatever it holds"


@pytest.mark.parametrize("text", [TITLE, TAG, '"quoted"', "path: C:\\temp", 'tab\tand "quote"', 'tab\tonly', ' "pad" ',
                                  "#\\", 'it\'s "x": y', 'line\n"two"', 'bell\x07 "x"', 'nel\x85 "x"'])
def test_every_quoted_text_reads_back_exactly_in_yaml(text):
    written = fmx.scalar(text)
    assert fmx.load_yaml(f"k: {written}") == {"k": text}
    assert fmx.split(f"---\nk: {written}\n---\n", "x.md")[0].values == {"k": text}, "the fast path agrees"
    if "'" in text or "\n" in text or any(c in text for c in "\x07\x85"):
        assert written.startswith('"'), "a text single quotes cannot say as memoir-cli reads it stays escaped"
    else:
        assert written == f"'{text}'", "memoir-cli strips the quotes and reads exactly the text"
