"""A name with a line break reaches memspec and memfmt as one line, as their own readers take a title.

Both formats hold a record's name as its ``# `` line. A memoir name written ``"first line\\nsecond
line"`` became ``# first line`` and a paragraph ``second line``: memspec's loader and the memfmt
library read the title "first line", and a name holding ``## Steps`` gave memfmt a section nobody
wrote. Found by loading memconv's output with each tool. The exact name rides in the carry.
"""

from __future__ import annotations

import memfmt
import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree
from .reference_tools import memspec_load, needs_memspec

NAMES = {"first line\nsecond line": "first line second line", "carriage\rreturn": "carriage return",
         "line\u2028separator": "line separator", "Lesson\n## Steps": "Lesson ## Steps"}


def _store(root):
    (root / "memory").mkdir(parents=True)
    for n, name in enumerate(NAMES):
        quoted = name.replace("\n", "\\n").replace("\r", "\\r").replace("\u2028", "\\u2028")
        (root / "memory" / f"fact_name-{n}.md").write_text(f'---\ntype: fact\nname: "{quoted}"\ndescription: d\n---\n\nB.\n')
    return root


def _convert(tmp_path, target):
    src = _store(tmp_path / "in")
    result = CliRunner().invoke(main, ["convert", "--to", target, str(src), str(tmp_path / target)])
    assert result.exit_code == 0, result.output
    back = CliRunner().invoke(main, ["convert", "--to", "memoir", str(tmp_path / target), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert {p: b for p, b in tree(tmp_path / "back").items() if p.startswith("memory/")} == tree(src), \
        "every name comes home exactly"
    return tmp_path / target


def test_memfmt_reads_each_name_whole(tmp_path):
    # Verified without memfmt's ONE_LINE_FIELDS and the one-line title link: memfmt read "first line".
    out = _convert(tmp_path, "memfmt")
    assert sorted(e.name for e in memfmt.load(out / "memory").entities) == sorted(NAMES.values())


@needs_memspec
def test_memspec_reads_each_name_whole(tmp_path):
    # Verified without memspec's ONE_LINE_FIELDS: its loader read the title "first line".
    out = _convert(tmp_path, "memspec")
    load = memspec_load(out)
    assert load.problems == []
    assert sorted(i["title"] for i in load.items) == sorted(NAMES.values())
