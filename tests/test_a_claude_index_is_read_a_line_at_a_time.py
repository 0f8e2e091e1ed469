"""A Claude index (`MEMORY.md`) is read a line at a time, each line decoded from the bytes as it is read, and the
folder's own reader leaves its layout (a line for each link) on disk, reading it again from the file's bytes where
an index is written anew or merged (docs/performance.md, "(thirty-eighth)")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv import pipeline
from memconv.dialects import claude
from memconv.dialects.claude import index as claude_index
from memconv.errors import ReadError, StoreError
from memconv.model import LayoutOnDisk

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "claude"
PRESENT = {"a.md", "b.md", "feedback_x.md"}

#: Lines an index holds: a title, headings, links (resolved or not, every separator), bullets and their
#: continuations, text, non-ASCII text, a lone CR, and lines that may start code or raw HTML.
LINES = st.sampled_from([
    "# Memory Index", "# Project memory", "## Feedback", "## User", "## More memory", "## Empty section",
    "- [Role](a.md) — senior engineer", "* [Tests](./b.md): run them", "+ [Gone](gone.md)",
    "- [Ünïcode — title](feedback_x.md) – a hook with ‘quotes’", "- [Esc \\] aped](a.md) - hyphen hook",
    "- [No hook](b.md)", "- [Empty hook](a.md) — ", "  - [Nested](b.md) — indented two",
    "- Inline: the staging DB is reset every Sunday", "- a bullet", "  continued under it", "   and again",
    "", " ", "plain text paragraph", "1. a numbered line", "text with a lone \r inside", "naïve café — words",
    "```text", "```", "    indented four", "\tindented tab", "<details>", "~~~",
])


def _both(raw: bytes) -> None:
    """The index read a line at a time is the index read from its text decoded whole, in every part."""
    fast, broken = claude_index._read(raw, "MEMORY.md", PRESENT, claude_index._BOTH)
    whole, whole_broken = claude_index._read_whole(raw, "MEMORY.md", PRESENT, claude_index._BOTH)
    assert fast == whole  # title, sections, links, inline bullets, words, and the source: layout and fingerprint
    assert fast.words == whole.words
    assert broken == whole_broken == claude_index.broken_links(whole)
    held, held_broken = claude_index.read_index_layout_on_disk(raw, "MEMORY.md", PRESENT)
    assert isinstance(held.source._layout, LayoutOnDisk) and held_broken == broken
    assert (held.title, held.sections, held.words, held.source.fingerprint) == \
        (whole.title, whole.sections, whole.words, whole.source.fingerprint)
    assert held.source.layout == whole.source.layout  # read again from the bytes
    assert held == whole


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(LINES, max_size=14), crlf=st.booleans(), bom=st.booleans(), final=st.booleans())
def test_an_index_read_a_line_at_a_time_is_the_index_read_whole(lines, crlf, bom, final):
    text = ("\r\n" if crlf else "\n").join(lines) + (("\r\n" if crlf else "\n") if final else "")
    _both(("\ufeff" if bom else "").encode() + text.encode("utf-8"))


@pytest.mark.parametrize("raw", [
    b"- [A](a.md) \xe2\x80\x94 hook\r\n\r\n# Title\r",  # a CR that no LF follows stays in the line
    b"# Memory Index\n\n- [A](a.md)\r\n- [B](b.md)\n",  # CRLF and LF mixed: only a CRLF's CR goes
    b"", b"\n", b"\r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n- [A](a.md)", b"- [A](a.md)",
])
def test_edges_of_newlines_and_the_byte_order_mark(raw):
    _both(raw)


@pytest.mark.parametrize("raw,said", [
    (b"# Index\n- [A](a.md) \xff hook\n", "is not valid UTF-8 (byte 0xff at offset 20)"),
    (b"# Index\n- [A](a.md) \xe2\x80\n- [B](b.md)\n", "is not valid UTF-8 (byte 0xe2 at offset 20)"),
    (b"# Index\n- a\x00b\n", "is a binary file"),
])
def test_an_index_that_is_not_text_is_refused_as_a_whole_read_refuses_it(raw, said):
    for read in (claude_index.read_index, claude_index.read_index_layout_on_disk):
        with pytest.raises(ReadError, match=re.escape(said)) as caught:
            read(raw, "MEMORY.md", PRESENT)
        assert caught.value.line == 2 or b"\x00" in raw


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN.iterdir()))
def test_the_folders_reader_leaves_each_index_layout_on_disk(name):
    store = claude.read(GOLDEN / name / "input")
    assert store.indexes
    for idx in store.indexes:
        assert isinstance(idx.source._layout, LayoutOnDisk) and "layout=LayoutOnDisk()" in repr(idx.source)
        raw = (GOLDEN / name / "input" / idx.path).read_bytes()
        assert claude_index.write_index(idx) == raw
        assert isinstance(idx.source._layout, LayoutOnDisk), "an index written as it was read reads nothing again"
        assert idx.source.layout == claude_index.read_index(raw, idx.path, set()).source.layout


@given(lines=st.lists(LINES, max_size=14))
@settings(max_examples=50, deadline=None)
def test_an_index_with_code_or_a_tag_is_read_whole(lines):
    raw = "\n".join(lines).encode()
    assume(any(claude_index.may_hold_code(line) for line in lines))
    with pytest.MonkeyPatch.context() as patch:  # the line-at-a-time read gives way at the first such line
        patch.setattr(claude_index, "_read_whole", lambda *args: ("read whole", []))
        assert claude_index._read(raw, "MEMORY.md", PRESENT, claude_index._BOTH) == ("read whole", [])


def test_an_index_changed_since_its_read_is_never_written_from_other_bytes(tmp_path):
    root = tmp_path / "in"
    root.mkdir()
    for path in ("MEMORY.md", "a.md"):
        (root / path).write_bytes((GOLDEN / "canonical" / "input" / "MEMORY.md").read_bytes() if path == "MEMORY.md"
                                  else b"---\nname: A\ndescription: a\ntype: user\n---\n\nA.\n")
    store = pipeline.read(root, "claude")  # the bytes are left on disk once read
    (root / "MEMORY.md").write_bytes(b"# Memory Index\n\n- [Other](a.md)\n")
    with pytest.raises(StoreError, match="MEMORY.md: changed since memconv read it"):
        store.indexes[0].source.layout


def test_a_run_within_claude_leaves_its_index_on_disk():
    from memconv.report import Report

    root = GOLDEN / "mixed-project" / "input"
    store, plan = pipeline.stream_within(root, "claude", Report("migrate", str(root)))
    files = dict(plan.iter_files())
    assert files["MEMORY.md"] == (root / "MEMORY.md").read_bytes()
    for idx in store.indexes:  # neither its layout nor its bytes held to the end of the run
        assert isinstance(idx.source._layout, LayoutOnDisk) and idx.source.raw_in_memory is None


#: Traced peak of `memconv migrate --from claude` of a generated 2,000-entry store, bytes an entry: about 1,470,
#: against 1,870 with the index's layout held (the text decoded whole is not at this size's peak; at 100,000 entries
#: it was 12 MB of the run's RSS, docs/performance.md).
MIGRATE_PEAK_PER_ENTRY = 1700


def test_a_migrate_within_claude_holds_no_line_of_its_index(runner, tmp_path):
    import tracemalloc

    from memconv.cli import main

    from .bench_support import bench_module

    count = 2000
    store = bench_module("generators").make("claude", tmp_path / "claude", count)
    tracemalloc.start()
    try:
        result = runner.invoke(main, ["migrate", "--from", "claude", str(store), str(tmp_path / "out"), "-q"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.output
    assert peak / count < MIGRATE_PEAK_PER_ENTRY, f"{peak / count:.0f} bytes an entry at the migrate's peak"
