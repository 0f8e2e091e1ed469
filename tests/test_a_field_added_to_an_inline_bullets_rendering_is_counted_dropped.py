"""A field added in the target to the rendering of an inline ``MEMORY.md`` bullet, its words unchanged, is counted
dropped on the way home.

An inline bullet of a Claude index is a memfmt entity (or a memoir fact…) there; it comes home as the bullet, from
the index's note, byte for byte. Edges, what memspec's tools add and unknown keys were counted dropped, but every
other field the target has a place for was not: a ``## Knowledge`` entry or an ``entity_type`` written with memfmt's
own library, or ``tags:`` and ``project:`` written by hand in memoir, were lost with "0 dropped", exit 0, and
``--fail-on-loss`` passing. The bullet still comes home as it was; what it has no place for is now counted.
"""

from __future__ import annotations

import json

import memfmt

from memconv.cli import main

from .conftest import GOLDEN, tree

INLINE = GOLDEN / "claude" / "inline-only" / "input"


def _home(runner, tmp_path, target: str) -> dict:
    args = [f"{target}-to-claude", "--json", str(tmp_path / target)]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "back")["MEMORY.md"] == tree(INLINE)["MEMORY.md"]
    failed = runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")])
    assert failed.exit_code == 5, failed.output
    return json.loads(result.stdout)


def test_knowledge_and_a_type_added_with_memfmts_library_are_counted_dropped(runner, tmp_path):
    # Broken once: without restore._held_there the report said 0 dropped and --fail-on-loss exited 0.
    out = tmp_path / "memfmt"
    assert runner.invoke(main, ["claude-to-memfmt", str(INLINE), str(out)]).exit_code == 0
    memory = memfmt.load(out / "memory")
    [entity] = [e for e in memory.entities if "Tailwind" in e.name]
    entity.knowledge.append(memfmt.Knowledge("snippet", "config", "the tailwind config", "npx tailwindcss init"))
    entity.entity_type = "preference"
    memfmt.write_dir(memfmt.serialise(memory, generated="2026-01-01"), out)
    report = _home(runner, tmp_path, "memfmt")
    assert [(f["target"], f["dropped"]) for f in report["files"] if f["dropped"]] == [("MEMORY.md",
                                                                                          ["category", "knowledge"])]
    assert report["counts"]["dropped"] == 2
    assert any("category, knowledge from memfmt" in w for w in report["warnings"]), report["warnings"]


def test_tags_and_a_project_written_by_hand_in_memoir_are_counted_dropped(runner, tmp_path):
    out = tmp_path / "memoir"
    assert runner.invoke(main, ["claude-to-memoir", str(INLINE), str(out)]).exit_code == 0
    [fact] = [p for p in (out / "memory").glob("fact_*.md") if "Tailwind" in p.read_text()]
    fact.write_text(fact.read_text().replace("---\n", "---\ntags: [css]\nproject: web\n", 1))
    report = _home(runner, tmp_path, "memoir")
    assert [(f["target"], f["dropped"]) for f in report["files"] if f["dropped"]] == [("MEMORY.md",
                                                                                          ["project", "tags"])]


def test_an_unedited_rendering_drops_nothing(runner, tmp_path):
    for target in ("memfmt", "memoir", "memspec"):
        out = tmp_path / target
        assert runner.invoke(main, [f"claude-to-{target}", str(INLINE), str(out)]).exit_code == 0
        result = runner.invoke(main, [f"{target}-to-claude", "--json", "--fail-on-loss", str(out),
                                      str(tmp_path / f"back-{target}")])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["counts"]["dropped"] == 0
