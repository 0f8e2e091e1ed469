"""The pages of a split MEMORY.md travel together: a hook edited on page 2 in Claude comes home with every page, and
back in Claude the index is the one the person edited, byte for byte. Before, only the edited page was carried, the
unedited MEMORY.md was dropped as a rendering, and on the way back no MEMORY.md was written: its 100 memories were
linked from MEMORY-2.md, past Claude Code's limits. A link to another page (``- [Memory index, page 2](MEMORY-2.md)``)
names no memory and is no word of the index's own."""

from __future__ import annotations

import sys

from .conftest import ROOT, tree
from .convert_helpers import convert_dir

sys.path.insert(0, str(ROOT))
from benchmarks.generators import make  # noqa: E402


def _split(tmp_path):
    make("memoir", tmp_path / "in", 300)
    away = convert_dir(tmp_path / "in", "claude", tmp_path / "away")
    assert (away / "MEMORY-2.md").is_file()
    return away


def test_a_hook_edited_on_page_2_comes_back_with_every_page(tmp_path):
    away = _split(tmp_path)
    page = away / "MEMORY-2.md"
    lines = page.read_text().split("\n")
    at = next(n for n, line in enumerate(lines) if " — " in line and "MEMORY-" not in line)
    lines[at] = lines[at].partition(" — ")[0] + " — Edited hook by hand"
    page.write_text("\n".join(lines))
    home = convert_dir(away, "memoir", tmp_path / "home")
    words = (home / "memory" / "fact_memory-2-words.md").read_text()
    assert "Edited hook by hand" in words and "# Memory Index" not in words
    assert not (home / "memory" / "fact_memory-words.md").exists()
    again = convert_dir(home, "claude", tmp_path / "again")
    skip = ".memconv/"
    assert {p: b for p, b in tree(again).items() if not p.startswith(skip)} \
        == {p: b for p, b in tree(away).items() if not p.startswith(skip)}


def test_a_paragraph_added_to_a_split_index_comes_home_alone(tmp_path):
    away = _split(tmp_path)
    with open(away / "MEMORY.md", "a") as index:
        index.write("\nHand note: ping Ana.\n")
    home = convert_dir(away, "memoir", tmp_path / "home")
    words = (home / "memory" / "fact_memory-words.md").read_text()
    assert "Hand note: ping Ana." in words
    assert "MEMORY-2" not in words and "page 2" not in words, words
