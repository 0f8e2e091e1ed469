"""`--into` a flat memoir store (entries in the folder itself, no `memory/`, no `session.json`) with an IN that
brings a working set: refused, exit 2, nothing written.

A memoir folder holding `session.json` is a nested store, its entries in `memory/` (docs/memoir.md, "Layout").
The import wrote the entries flat, as EXISTING keeps them, and IN's `session.json` beside them, exit 0: the store
was then read as a nested one with no entry at all, the user's own entries included, and the next import of the
same IN wrote every entry a second time under `memory/` ("10 added").
"""

from __future__ import annotations

import shutil

from memconv import dialects
from memconv.cli import main

from .conftest import GOLDEN, tree
from .convert_helpers import convert_dir

FACT = b"---\ntype: fact\nname: X fact\ndescription: a flat fact\ncreated: 2026-01-01\n---\n\nBody of x.\n"


def _claude_with_a_working_set(runner, tmp_path):
    """A Claude folder converted from a memoir store: its working set comes home as session.json."""
    return convert_dir(GOLDEN / "memoir" / "canonical" / "input", "claude", tmp_path / "claude")


def test_an_in_bringing_a_session_into_a_flat_store_is_refused(runner, tmp_path):
    claude = _claude_with_a_working_set(runner, tmp_path)
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "fact_x.md").write_bytes(FACT)
    before = tree(flat)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(flat)])
    assert result.exit_code == 2, result.output
    assert "session.json" in result.output and "flat" in result.output
    assert tree(flat) == before, "nothing written"
    assert not list(tmp_path.glob("flat.memconv-backup-*")), "no backup: nothing to change"
    store = dialects.get("memoir").read(flat)
    assert [r.link for r in store.records] == ["fact_x"] and store.meta["layout"] == "flat"


def test_the_same_in_goes_into_a_nested_store(runner, tmp_path):
    claude = _claude_with_a_working_set(runner, tmp_path)
    nested = tmp_path / "nested"
    (nested / "memory").mkdir(parents=True)
    (nested / "memory" / "fact_x.md").write_bytes(FACT)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(nested)])
    assert result.exit_code == 0, result.output
    store = dialects.get("memoir").read(nested)
    assert store.working_set is not None and "fact_x" in {r.link for r in store.records}


def test_an_in_with_no_session_still_goes_into_a_flat_store(runner, tmp_path):
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "fact_x.md").write_bytes(FACT)
    claude = tmp_path / "claude"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", claude)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(flat)])
    assert result.exit_code == 0, result.output
    assert not (flat / "session.json").exists() and not (flat / "memory").exists()
