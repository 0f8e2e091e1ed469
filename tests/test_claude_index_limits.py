"""A MEMORY.md memconv writes stays within what Claude Code loads: 200 lines and 25 KB (issue 12 item 9).

Past either limit the index is split into linked pages (``MEMORY-2.md``…),
with a warning; every entry stays linked, every page is reachable from
``MEMORY.md``, and reading the pages back gives the same store.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from memconv import dialects, pipeline
from memconv.dialects import claude
from memconv.dialects.claude import index
from memconv.model import IndexFile, IndexSection, Record, Store
from memconv.report import Report

from .conftest import ROOT, tree, write_files
from .convert_helpers import model
from .reference_tools import memoir_validate, needs_memoir

sys.path.insert(0, str(ROOT))
from benchmarks.generators import make_memoir  # noqa: E402


def _index_files(files: dict[str, bytes]) -> dict[str, str]:
    return {p: raw.decode("utf-8") for p, raw in files.items() if index.is_index_path(p)}


def _links(text: str) -> list[str]:
    return [m.group("target") for line in text.split("\n") if (m := index.LINK_LINE.match(line))]


def assert_within_limits(files: dict[str, bytes]) -> dict[str, str]:
    """Every index page fits Claude Code's limits, and every page is reachable from MEMORY.md."""
    pages = _index_files(files)
    assert "MEMORY.md" in pages
    for path, text in pages.items():
        lines = text.split("\n")[:-1]
        assert len(lines) <= index.LOADED_LINES, f"{path}: {len(lines)} lines, Claude Code loads 200"
        assert len(files[path]) <= index.LOADED_BYTES, f"{path}: {len(files[path])} bytes, Claude Code loads 25 KB"
    reached, todo = set(), ["MEMORY.md"]
    while todo:
        page = todo.pop()
        reached.add(page)
        todo += [t for t in _links(pages[page]) if index.is_index_path(t) and t not in reached]
    assert reached == set(pages), f"pages no link leads to: {sorted(set(pages) - reached)}"
    return pages


def _convert(root: Path, source: str, target: str) -> tuple[dict[str, bytes], Report]:
    report = Report(command="convert", input=str(root))
    planned = pipeline.plan(pipeline.read(root, source), target, report)
    return planned.files, report


@pytest.mark.parametrize("n", [1000, 5000])
def test_a_large_store_gets_linked_pages_within_both_limits_and_reads_back_the_same(tmp_path, n):
    # Verified by making fits() count lines only: fails with "MEMORY.md: … bytes, Claude Code loads 25 KB".
    make_memoir(tmp_path / "memoir", n)
    files, report = _convert(tmp_path / "memoir", "memoir", "claude")
    pages = assert_within_limits(files)
    assert len(pages) > 1
    linked = [t for text in pages.values() for t in _links(text) if not index.is_index_path(t)]
    entries = sorted(p for p in files if claude.is_entry_path(p))
    assert sorted(linked) == entries, "every entry is linked, once"
    assert any("split into" in w and "25 KB" in w for w in report.warnings), "the split is reported"
    # Read back: the pages are indexes, not entries, and the folder writes back as it is.
    write_files(tmp_path / "claude", files)
    again = pipeline.read(tmp_path / "claude", "claude")
    assert len(again.records) == len(entries) and len(again.indexes) == len(pages)
    assert claude.write(again) == {p: b for p, b in files.items() if not p.startswith(".memconv/quarantine/")}


def test_a_paged_index_converts_back_to_the_store_it_came_from(tmp_path, monkeypatch):
    make_memoir(tmp_path / "memoir", 1000)
    files, _ = _convert(tmp_path / "memoir", "memoir", "claude")
    assert len(_index_files(files)) > 1
    write_files(tmp_path / "claude", files)
    # Back to memoir: the store it came from (the pages were only a rendering), and the very
    # bytes the same round trip gives with one unpaged MEMORY.md (so paging loses nothing).
    back, _ = _convert(tmp_path / "claude", "claude", "memoir")
    write_files(tmp_path / "back", back)
    assert model(pipeline.read(tmp_path / "back", "memoir")) == model(pipeline.read(tmp_path / "memoir", "memoir"))
    assert sorted(back) == sorted(tree(tmp_path / "memoir"))
    # The claude folder again from there: the very same pages.
    again, _ = _convert(tmp_path / "back", "memoir", "claude")
    assert _index_files(again) == _index_files(files)
    # A writer that does not page: its pages have no bound (the tables of declarations are made per registry).
    monkeypatch.setattr(index, "fits", lambda lines: True)
    monkeypatch.setattr(claude, "GENERATED_PAGE_BYTES", None)
    dialects.clear_registry()
    try:
        unpaged, _ = _convert(tmp_path / "memoir", "memoir", "claude")
        assert list(_index_files(unpaged)) == ["MEMORY.md"]
        write_files(tmp_path / "unpaged", unpaged)
        assert back == _convert(tmp_path / "unpaged", "claude", "memoir")[0]
    finally:
        monkeypatch.undo()
        dialects.clear_registry()


def test_an_index_larger_than_any_generated_page_is_carried_without_making_them(tmp_path, monkeypatch):
    # A 1,000-link MEMORY.md in one file, as an older writer or a person made it: the writer would page it,
    # so it is carried (its own words kept for the way back), known from its size alone.
    make_memoir(tmp_path / "memoir", 1000)
    monkeypatch.setattr(index, "fits", lambda lines: True)
    files, _ = _convert(tmp_path / "memoir", "memoir", "claude")
    monkeypatch.undo()
    assert len(files["MEMORY.md"]) > claude.GENERATED_PAGE_BYTES
    write_files(tmp_path / "claude", files)
    made = []
    real = claude.generated_index
    monkeypatch.setattr(claude, "generated_index", lambda store: made.append(1) or real(store))
    out, _ = _convert(tmp_path / "claude", "claude", "memoir")
    assert made == []
    assert b'\\"path\\":\\"MEMORY.md\\"' in out[".memconv/notes/store.md"]
    # Every page the writer generates is within the bound the shortcut relies on.
    pages = real(pipeline.read(tmp_path / "claude", "claude"))
    assert len(pages) > 1 and all(len(data) <= claude.GENERATED_PAGE_BYTES for data in pages.values())


def test_an_index_under_200_lines_but_over_25_kb_is_split_too():
    records = [Record(kind="fact", link=f"fact_{i:03d}", title=f"A fact with a long name, number {i} " + "x" * 60,
                      description="why it matters: " + "y" * 120) for i in range(150)]
    store = Store(dialect="memoir", records=records)
    files = claude.write(store)
    whole = sum(len(raw) for p, raw in files.items() if index.is_index_path(p))
    assert whole > index.LOADED_BYTES and len(records) < index.LOADED_LINES, "the case is the byte limit alone"
    pages = assert_within_limits(files)
    assert len(pages) > 1 and any("25 KB" in w for w in store.warnings)


def test_a_store_that_fits_keeps_one_memory_md_and_no_warning():
    records = [Record(kind="fact", link=f"fact_{i:03d}", title=f"Fact {i}", description="d") for i in range(150)]
    store = Store(dialect="memoir", records=records)
    files = claude.write(store)
    assert list(_index_files(files)) == ["MEMORY.md"]
    assert not any("split into" in w for w in store.warnings)


def test_long_names_and_descriptions_are_cut_in_the_index_only():
    record = Record(kind="fact", link="fact_long", title="T" * 5000, description="D" * 30_000)
    store = Store(dialect="memoir", records=[record])
    files = claude.write(store)
    assert_within_limits(files)
    assert len(files["MEMORY.md"]) < 1000
    assert b"D" * 30_000 in files["fact_long.md"], "the entry itself keeps every word"


def test_inline_memory_from_another_index_is_paged_too_and_every_bullet_kept():
    bullets = [f"note number {i}: " + "words " * 20 for i in range(400)]
    other = IndexFile(path="memory/MEMORY.md", sections=[IndexSection(heading="Loose notes", inline=bullets)])
    store = Store(dialect="memfmt", records=[Record(kind="fact", link=f"f{i}", title=f"F {i}") for i in range(50)],
                  indexes=[other])
    files = claude.write(store)
    pages = assert_within_limits(files)
    text = "\n".join(pages.values())
    assert all(f"- {b}" in text for b in bullets), "every inline bullet is in some page"


def test_pages_beyond_what_one_page_can_link_are_chained():
    units = [("## Feedback", [f"- [Entry {i}](feedback_{i}.md) — hook {i}"]) for i in range(20_000)]
    files, warning = index.paginate("# Memory Index", [""], units, spaced=True)
    assert len(files) > index.LINKS_PER_PAGE + 2 and warning
    assert_within_limits(files)
    text = "\n".join(raw.decode() for raw in files.values())
    assert all(f"(feedback_{i}.md)" in text for i in range(0, 20_000, 997))
    assert re.search(r"^# Memory Index \(page 2 of \d+\)$", files["MEMORY-2.md"].decode(), re.M)


def test_one_item_larger_than_a_page_gets_a_page_of_its_own_and_is_reported():
    units = [("## Notes", [f"- line {i}" for i in range(5)]), ("## Notes", [f"  more {i}" for i in range(400)])]
    files, warning = index.paginate("# Memory Index", [""], units, spaced=True)
    assert "still pass the limit" in warning and "kept whole" in warning
    assert sum(raw.count(b"more ") for raw in files.values()) == 400, "no line is cut or dropped"


@needs_memoir
def test_memoir_validate_accepts_a_paged_claude_folder(tmp_path):
    make_memoir(tmp_path / "memoir", 1000)
    files, _ = _convert(tmp_path / "memoir", "memoir", "claude")
    assert len(_index_files(files)) > 1
    write_files(tmp_path / "claude", files)
    verdict = memoir_validate(tmp_path / "claude")
    assert verdict.ok, verdict.output[-3000:]
    assert verdict.checked >= 1000, "memoir validate read the entries and the pages"


def test_the_pages_of_a_split_index_are_rendered_one_at_a_time_as_they_are_asked_for(monkeypatch):
    # Rendered all at once, the 500 pages of a 100,000-memory index were 11 MB of bytes held together at the end of
    # a write (docs/performance.md, "(thirty-fifth)"). Watched fail with paginate giving a dict of every page.
    units = [("## Feedback", (f"- [Entry {i}](feedback_{i}.md) — hook {i}",)) for i in range(2_000)]
    files, warning = index.paginate("# Memory Index", [""], units, spaced=True)
    encoded = []
    real = index._encode_lines
    monkeypatch.setattr(index, "_encode_lines", lambda lines: encoded.append(1) or real(lines))
    assert warning and len(files) > 3 and encoded == []
    pages = []
    for number, (path, data) in enumerate(files.items(), start=1):
        assert len(encoded) == number, "each page rendered as it is asked for, not before"
        pages.append((path, data))
    assert [path for path, _ in pages] == list(files) == ["MEMORY.md"] + [f"MEMORY-{n}.md" for n in
                                                                           range(2, len(files) + 1)]
    assert dict(pages) == {path: files[path] for path in files} == dict(files)
    for absent in ("MEMORY-1.md", "MEMORY-02.md", f"MEMORY-{len(files) + 1}.md", "memory.md", 3):
        assert absent not in files
        with pytest.raises(KeyError):
            files[absent]
    assert_within_limits(dict(pages))
