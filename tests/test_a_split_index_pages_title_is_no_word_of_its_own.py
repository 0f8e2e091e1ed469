"""The title memconv gives a page of a split MEMORY.md (``# Memory Index (page 2 of 3)``) is no word of the index's
own, as ``# Memory Index`` is not: every split index has one, and it says nothing of the store. Before, each page
held it as its words, and a page carried home became a record saying only that title."""

from __future__ import annotations

import sys

from memconv.dialects.claude import index

from .conftest import ROOT
from .convert_helpers import convert_dir

sys.path.insert(0, str(ROOT))
from benchmarks.generators import make  # noqa: E402


def test_a_generated_page_holds_no_words(tmp_path):
    make("memoir", tmp_path / "in", 300)
    out = convert_dir(tmp_path / "in", "claude", tmp_path / "away")
    files = {p.name for p in out.iterdir()}
    pages = sorted(p for p in files if index.PAGE_FILE.match(p))
    assert pages, sorted(files)
    for page in ["MEMORY.md", *pages]:
        read = index.read_index((out / page).read_bytes(), page, files)
        assert read.words == "", (page, read.words)


def test_a_title_of_its_own_is_still_words():
    read = index.read_index(b"# Memory Index (page 2 of 3), mine\n\n- [A](a.md)\n", "MEMORY.md", {"a.md"})
    assert read.words == "# Memory Index (page 2 of 3), mine"
    assert index.generated_heading("# Memory Index (page 12 of 40)")
