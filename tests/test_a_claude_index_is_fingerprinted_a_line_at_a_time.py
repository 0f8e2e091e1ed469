"""A Claude index's fingerprint tells whether the index was changed since it was read (its writer then renders it,
else gives back its bytes). It is made a line at a time: the ``repr`` of a whole 100,000-line index and its bytes
took 30 MB at once (docs/performance.md, "(thirty-sixth)")."""

from __future__ import annotations

import dataclasses
import tracemalloc

from memconv.dialects.claude.index import index_fingerprint, read_index, write_index
from memconv.model import IndexLink, IndexSection

RAW = ("# Memory\n\n- [One](one.md) — the first\n- stays inline\n\n## Later\n\n- [Two](two.md)\n").encode()


def _read():
    return read_index(RAW, "MEMORY.md", {"one.md", "two.md"})


def test_an_unchanged_index_is_given_back_as_read():
    assert write_index(_read()) == RAW


def test_every_change_of_what_an_index_says_changes_its_fingerprint():
    changes = [
        lambda i: setattr(i, "title", "Memories"),
        lambda i: i.extra.update(note="x"),
        lambda i: setattr(i.sections[0], "heading", "First"),
        lambda i: i.sections[0].inline.append("one more"),
        lambda i: setattr(i.sections[0].links[0], "hook", "the very first"),
        lambda i: setattr(i.sections[1].links[0], "title", "Deux"),
        lambda i: i.sections[1].links.append(IndexLink(title="Three", target="three.md")),
        # A link moved from one section to the next: the same lines, counted in other sections.
        lambda i: i.sections[1].links.insert(0, i.sections[0].links.pop()),
        lambda i: i.sections.append(IndexSection(heading=None)),
    ]
    before = index_fingerprint(_read())
    for change in changes:
        index = _read()
        change(index)
        assert index_fingerprint(index) != before, change


def test_an_edited_line_is_written_as_edited():
    index = _read()
    index.sections[0].links[0].hook = "the very first"
    assert write_index(index) == RAW.replace("the first".encode(), "the very first".encode())


def test_a_long_index_is_fingerprinted_without_its_whole_repr():
    links = [IndexLink(title=f"Memory number {n}", target=f"memory-{n}.md", hook="what it is about " * 3)
             for n in range(20_000)]
    index = dataclasses.replace(_read(), sections=[IndexSection(heading=None, links=links)])
    tracemalloc.start()
    try:
        index_fingerprint(index)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The whole repr was over 2.5 MB here, twice (the string and its bytes).
    assert peak < 100_000, peak
