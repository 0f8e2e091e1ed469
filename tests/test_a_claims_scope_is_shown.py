"""A memspec claim's ``scope`` is shown where the other dialects show a record's text, and an edit of it there wins.

memspec scopes a claim (``scope: team-a``; absent and ``universal`` are different facts there). memoir has a scope
for a preference alone (``global`` or ``project``), claude and memfmt none, so a claim's scope travelled in the carry
only, which no tool of the target shows (principle 1). It is now a labelled line, ``**Scope:** team-a``, as a
decision's ``**Why:**`` is where the target has no key for it, read back as the field when edited there.
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import GOLDEN, tree

SRC = GOLDEN / "memspec" / "canonical" / "input"


@pytest.mark.parametrize("target", ["memoir", "claude", "memfmt"])
def test_the_scope_is_shown_and_the_way_back_is_exact(runner, tmp_path, target):
    out = tmp_path / target
    assert runner.invoke(main, [f"memspec-to-{target}", str(SRC), str(out)]).exit_code == 0
    shown = [data for path, data in tree(out).items() if ".memconv" not in path and "MEMORY" not in path
             and b"Release train" in data]
    assert len(shown) == 1 and b"**Scope:** team-a" in shown[0]
    back = runner.invoke(main, [f"{target}-to-memspec", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    home = tree(tmp_path / "back")
    assert {path: home.get(path) for path in tree(SRC)} == tree(SRC)  # (memspec's writer adds archive/.gitkeep)


def test_an_edit_of_the_scope_in_the_target_wins(runner, tmp_path):
    out = tmp_path / "memoir"
    assert runner.invoke(main, ["memspec-to-memoir", str(SRC), str(out)]).exit_code == 0
    (path,) = [p for p in out.rglob("*.md") if b"**Scope:** team-a" in p.read_bytes()]
    path.write_bytes(path.read_bytes().replace(b"**Scope:** team-a", b"**Scope:** team-b"))
    back = runner.invoke(main, ["memoir-to-memspec", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "scope" in back.stderr and "edited in memoir" in back.stderr
    claims = [data for data in tree(tmp_path / "back").values() if b"Release train" in data]
    assert len(claims) == 1 and b"\nscope: team-b\n" in claims[0] and b"**Scope:**" not in claims[0]
