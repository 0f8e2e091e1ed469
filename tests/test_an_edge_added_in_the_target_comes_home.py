"""An edge the target adds to a record converted from memoir or claude comes home, in its body.

memspec's ``relate`` (``supports: [ms_…]``) on a claim converted from a memoir decision was lost on the way back
with "0 dropped": the record comes home from its carry, and memoir's writer has no key for the edge. It is now
written into the body as ``show`` writes relations (``**Relations:**``), and the report says the edit won.
"""

from __future__ import annotations

import json

import pytest

from memconv.cli import main

from .conftest import GOLDEN, changed_files


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
    back, changed = changed_files(tmp_path / "back", inp)
    assert len(changed) == 1, changed
    assert "**Relations:**" in back[changed[0]].decode() and "- supports → [[" in back[changed[0]].decode()
    assert "edges" in result.stdout


def test_a_relation_added_in_memfmt_comes_home_named_by_its_home_link(runner, tmp_path):
    # A ## Relations line added with memfmt's syntax to an entity converted from a memoir fact, naming another
    # record by its memfmt name: it comes home as a relation line naming the memoir link, and the report says
    # the edit won. (Checked by hand before; broken once by leaving out readable.fold_in_relations in restore:
    # the file came home as it was, 0 dropped.)
    inp = GOLDEN / "memoir" / "canonical" / "input"
    assert runner.invoke(main, ["memoir-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    entity = tmp_path / "mf" / "memory" / "entities" / "Staging API endpoints.md"
    assert (tmp_path / "mf" / "memory" / "entities" / "Ship v1 of the importer.md").is_file()
    with entity.open("a", encoding="utf-8") as file:
        file.write("\n## Relations\n\n- depends_on → [[Ship v1 of the importer]]\n- reviewed by ← [[Commit message style]]\n")
    result = runner.invoke(main, ["memfmt-to-memoir", "--json", "--fail-on-loss", str(tmp_path / "mf"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, changed = changed_files(tmp_path / "back", inp)
    assert changed == ["memory/fact_staging-endpoints.md"]
    assert back[changed[0]].decode().endswith(
        "\n\n**Relations:**\n\n- depends_on → [[goal_importer-v1]]\n- reviewed by ← [[preference_commit-style]]\n")
    assert any("edited in memfmt: edges" in w for w in json.loads(result.stdout)["warnings"])
