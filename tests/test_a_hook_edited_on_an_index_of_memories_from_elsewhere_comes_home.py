"""A hook a person edits in Claude on a link line of MEMORY.md (``- [Title](file.md) — hook``) comes home, though every
memory of the folder came from another dialect (each wears a carry): the link line its memory does not say is the
index's own words, which travel in the store note and come home as the record "MEMORY.md's own words", as from memoir.
Before, such an index was taken for the rendering memconv wrote: the edit was dropped, the report said "0 dropped"
and exit 0 (memspec and memfmt; docs/claude.md, "an index that says words of its own travels")."""

from __future__ import annotations

import json
import re
import shutil

import memfmt
import pytest

from memconv.cli import main

from .conftest import GOLDEN, tree
from .convert_helpers import convert_dir, index_edited_in_claude
from .reference_tools import memspec, needs_memspec

HOOK = "Hand-edited hook: ask Ana first"
STORES = [("memspec", "canonical"), ("memfmt", "full"), ("memoir", "canonical")]


def _edit_last_hook(text: str) -> str:
    """MEMORY.md with the hook of its last link line replaced by :data:`HOOK`."""
    lines = text.split("\n")
    n = max(i for i, line in enumerate(lines) if re.match(r"- \[.*\]\(.*\.md\) — ", line))
    lines[n] = lines[n].partition(" — ")[0] + f" — {HOOK}"
    return "\n".join(lines)


def _shown(folder) -> dict[str, bytes]:
    return {p: b for p, b in tree(folder).items() if ".memconv" not in p.split("/")}


@pytest.mark.parametrize("home,name", STORES)
def test_an_edited_hook_comes_home_as_the_index_s_own_words(runner, tmp_path, home, name):
    back = index_edited_in_claude(runner, GOLDEN / home / name / "input", home, tmp_path, _edit_last_hook)
    holding = [p for p, b in _shown(back).items() if HOOK.encode() in b]
    assert len(holding) == 1, sorted(_shown(back))
    assert b"own words" in _shown(back)[holding[0]]


@pytest.mark.parametrize("home,name", STORES)
def test_converted_to_claude_again_the_index_is_the_one_the_person_wrote(runner, tmp_path, home, name):
    back = index_edited_in_claude(runner, GOLDEN / home / name / "input", home, tmp_path, _edit_last_hook)
    again = convert_dir(back, "claude", tmp_path / "again")
    assert (again / "MEMORY.md").read_bytes() == (tmp_path / "away" / "MEMORY.md").read_bytes()


@pytest.mark.parametrize("home,name", STORES)
def test_the_report_says_the_index_travels(runner, tmp_path, home, name):
    index_edited_in_claude(runner, GOLDEN / home / name / "input", home, tmp_path, _edit_last_hook)
    result = runner.invoke(main, [f"claude-to-{home}", "--json", str(tmp_path / "away"), str(tmp_path / "again")])
    assert result.exit_code == 0, result.output
    warnings = " ".join(json.loads(result.stdout)["warnings"])
    assert "index file(s) carried" in warnings


def test_memfmt_shows_the_edited_hook(runner, tmp_path):
    back = index_edited_in_claude(runner, GOLDEN / "memfmt" / "full" / "input", "memfmt", tmp_path, _edit_last_hook)
    entities = {e.name: e for e in memfmt.load(back / "memory").entities}
    assert any(HOOK in fact for fact in entities["MEMORY.md's own words"].facts)


@needs_memspec
def test_memspec_finds_the_edited_hook(runner, tmp_path):
    back = index_edited_in_claude(runner, GOLDEN / "memspec" / "canonical" / "input", "memspec", tmp_path,
                                  _edit_last_hook)
    found = memspec(back, "search", "Ana")
    assert found.returncode == 0, found.stderr
    assert "MEMORY.md's own words" in found.stdout


#: A memory's text that is its description in Claude, in each home's golden store.
DESCRIBED = {"memspec": ("canonical", "Line endings are the repository's business."),
             "memfmt": ("full", "prefers Rust for memory safety")}


@pytest.mark.parametrize("home", ["memspec", "memfmt"])
def test_a_hook_cut_short_unedited_brings_nothing_home(tmp_path, home):
    # A description longer than a link line holds is cut there, an ellipsis marking the cut: still the memory's.
    name, said = DESCRIBED[home]
    shutil.copytree(GOLDEN / home / name / "input", tmp_path / "in")
    [path] = [p for p in (tmp_path / "in").rglob("*.md") if said in p.read_text()]
    path.write_text(path.read_text().replace(said, said + ", and" + " it is described at length" * 8))
    away = convert_dir(tmp_path / "in", "claude", tmp_path / "away")
    assert "…" in (away / "MEMORY.md").read_text()
    back = convert_dir(away, home, tmp_path / "back")
    assert not any(b"own words" in b for b in _shown(back).values())
