"""A paragraph a person adds to MEMORY.md comes home, though every memory of the Claude folder came from another
dialect (each wears a carry): as the index's own words, a record home's tools show, as it does from memoir. Before,
the index was taken for the rendering memconv wrote, dropped, and the report said nothing."""

from __future__ import annotations

import sys

import pytest

from .conftest import GOLDEN, ROOT, tree
from .convert_helpers import convert_dir, index_edited_in_claude

sys.path.insert(0, str(ROOT))
from benchmarks.generators import make  # noqa: E402

NOTE = "Hand note: ping Ana."


def _away_and_back(runner, tmp_path, home: str, name: str, edit) -> dict[str, bytes]:
    return tree(index_edited_in_claude(runner, GOLDEN / home / name / "input", home, tmp_path, edit))


@pytest.mark.parametrize("home,name", [("memspec", "canonical"), ("memfmt", "full")])
def test_a_paragraph_added_in_claude_is_a_record_home(runner, tmp_path, home, name):
    came = _away_and_back(runner, tmp_path, home, name, lambda text: text + f"\n{NOTE}\n")
    words = [p for p, b in came.items() if ".memconv" not in p.split("/") and NOTE.encode() in b]
    assert len(words) == 1, sorted(came)
    assert b"own words" in came[words[0]]


@pytest.mark.parametrize("home,name", [("memspec", "canonical"), ("memfmt", "full")])
def test_the_index_unedited_brings_nothing_home(runner, tmp_path, home, name):
    came = _away_and_back(runner, tmp_path, home, name, lambda text: text)
    assert not any(b"own words" in b for b in came.values())


@pytest.mark.parametrize("home", ["memspec", "memfmt"])
def test_a_split_index_unedited_brings_nothing_home(tmp_path, home):
    # Its pages' titles (`# Memory Index (page 2 of 2)`) are no words of their own: no page is carried.
    make(home, tmp_path / "in", 300)
    away = convert_dir(tmp_path / "in", "claude", tmp_path / "away")
    assert (away / "MEMORY-2.md").is_file()
    back = convert_dir(away, home, tmp_path / "back")
    assert not any(b"own words" in b for p, b in tree(back).items() if ".memconv" not in p.split("/"))
