"""A merge conflict copy of a file whose name is near the 255-byte limit is still a name a disk takes.

``<link>.conflict-<hash>.md`` was never cut, so merging two stores each holding a legal 248-byte name stopped with
"refusing to write …: a name in it is longer than 255 bytes" (exit 4). The stem is cut at a whole character
(``fs.fitting``); the hash still tells the copy apart.
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import tree, write_files

_LONG = "é" + "x" * 230  # 232 bytes: with its ".md" under 255, with ".conflict-<8>.md" over it


@pytest.mark.parametrize("dialect, path", [("claude", f"user_{_LONG}.md"), ("memoir", f"memory/fact_{_LONG}.md")])
def test_a_conflict_copy_of_a_long_name_fits(runner, tmp_path, dialect, path):
    # Verified by leaving the stem whole in merge's claude._conflict_copy and memoir's conflict_path: exit 4.
    head = {"claude": "---\nname: N\ndescription: d\ntype: user\n---\n\n",
            "memoir": "---\ntype: fact\nname: N\ndescription: d\ncreated: 2026-01-01\n---\n\n"}[dialect]
    write_files(tmp_path / "a", {path: (head + "one\n").encode()})
    write_files(tmp_path / "b", {path: (head + "two\n").encode()})
    result = runner.invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out")])
    assert result.exit_code == 6, result.output  # a conflict: both kept
    names = [p.rsplit("/", 1)[-1] for p in tree(tmp_path / "out") if p.endswith(".md") and "MEMORY" not in p]
    assert len(names) == 2 and all(len(n.encode()) <= 255 for n in names), names
    assert any(".conflict-" in n for n in names)
