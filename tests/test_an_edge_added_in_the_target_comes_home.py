"""An edge the target adds to a record converted from memoir or claude comes home, in its body.

memspec's ``relate`` (``supports: [ms_…]``) on a claim converted from a memoir decision was lost on the way back
with "0 dropped": the record comes home from its carry, and memoir's writer has no key for the edge. It is now
written into the body as ``show`` writes relations (``**Relations:**``), and the report says the edit won.
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import GOLDEN, tree


@pytest.mark.parametrize("home, store", [("memoir", "memoir/canonical"), ("claude", "claude/canonical")])
def test_an_edge_added_in_memspec_comes_home_as_a_relation_line(runner, tmp_path, home, store):
    # Verified by leaving out readable.fold_in_relations in restore: the output is IN again, the edge nowhere.
    inp = GOLDEN / store / "input"
    assert runner.invoke(main, [f"{home}-to-memspec", str(inp), str(tmp_path / "ms")]).exit_code == 0
    claims = sorted((tmp_path / "ms" / ".memspec" / "memory").rglob("ms_*.md"))
    first, other = claims[0], claims[1]
    text = first.read_text()
    assert "\nsupports:" not in text
    first.write_text(text.replace("\ntags:", f"\nsupports:\n  - {other.stem}\ntags:", 1))  # as `memspec relate`
    result = runner.invoke(main, ["memspec-to-" + home, "--json", str(tmp_path / "ms"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, before = tree(tmp_path / "back"), tree(inp)
    changed = [p for p in back if p in before and back[p] != before[p] and not p.startswith(".memconv")]
    assert len(changed) == 1, changed
    assert "**Relations:**" in back[changed[0]].decode() and "- supports → [[" in back[changed[0]].decode()
    assert "edges" in result.stdout
