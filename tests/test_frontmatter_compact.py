"""A frontmatter block read from a file keeps its text once and cuts it into chunks when asked
(issue 12, item 1: a compact in-memory form for held records; docs/performance.md)."""

from __future__ import annotations

import copy
import pickle

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import frontmatter as fmx

_LINES = st.lists(st.sampled_from(["name: x", "type: fact", "tags:", "  - a", "- b", "# note", "", "desc: >-",
                                   "  folded", "key: 'q'", "  nested: 1", "other: [a, b]", "  - command: x",
                                   "    sha: 1f", "-", "x:y: z", "\"q k\": 1"]), min_size=1, max_size=8)


@settings(max_examples=600, deadline=None)
@given(_LINES)
def test_compact_chunks_are_the_chunks_the_lines_give(lines):
    text = "---\n" + "\n".join(lines) + "\n---\nbody\n"
    try:
        fm, body = fmx.split(text, "x.md")
    except Exception:  # noqa: BLE001 - YAML the loader refuses: not this test's business
        return
    expected = fmx._chunks(lines)
    if {c.key for c in expected if c.key is not None} != set(fm.values):
        assert fm.chunks is None
        return
    # Verified by cutting the block at "\r\n" in Frontmatter.chunks: the chunks then differ.
    assert fm.chunks == expected
    keys = [c.key for c in expected if c.key is not None]
    if len(keys) == len(set(keys)):  # a key written twice is written once (YAML lets the last win)
        assert fmx.patch(fm, fm.values, fmx.render_block) == "---\n" + "\n".join(lines) + "\n---\n"


def test_a_read_block_holds_its_text_not_its_chunks():
    fm, _ = fmx.split("---\nname: x\ntags:\n  - a\n---\nbody\n", "x.md")
    assert fm._held is None and fm._block == "name: x\ntags:\n  - a", "one string, no chunk objects held"
    assert [(c.key, c.lines) for c in fm.chunks] == [("name", ["name: x"]), ("tags", ["tags:", "  - a"])]
    again = pickle.loads(pickle.dumps(fm))
    assert again == fm and copy.deepcopy(fm) == fm and copy.copy(fm) == fm
    fm.chunks = [fmx.Chunk("name", ["name: y"])]  # a writer may set chunks of its own
    assert fm._block is None and fm.chunks[0].lines == ["name: y"] and fm != again


def _cut_by_lines(text: str) -> tuple[list[str], str, bool, str, str]:
    """The block's lines, the closing line, whether a newline follows it, the gap and the body, as the text cut
    into all of its lines gives them (how ``split`` cut a file before it cut the body from the text once)."""
    lines = text[text.find("\n") + 1:].split("\n")
    i = next(i for i, line in enumerate(lines) if fmx._DELIMITER.match(line))
    rest = lines[i + 1:]
    body = "\n".join(rest)
    stripped = body.lstrip("\n")
    return lines[:i], lines[i], bool(rest), body[:len(body) - len(stripped)], stripped


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["name: x", "type: fact", "tags:", ""]), max_size=4),
       st.sampled_from(["---", "--- ", "---\t"]), st.sampled_from(["", "\n"]),
       st.text(st.sampled_from("\n-x \t"), max_size=12))
def test_the_body_is_cut_where_the_text_cut_into_lines_cuts_it(block, close, newline, tail):
    # Verified by taking the gap as the body's first line break only: "\n\nx" then differs.
    text = "---\n" + "".join(line + "\n" for line in block) + close + (newline + tail if newline else "")
    fm, body = fmx.split(text, "x.md")
    lines, close_line, close_newline, gap, stripped = _cut_by_lines(text)
    assert (fm.close_line, fm.close_newline, fm.gap, body) == (close_line, close_newline, gap, stripped)
    assert fm.values == (yaml.safe_load("\n".join(lines)) or {})
    assert fm.chunks is None or fm.chunks == fmx._chunks(lines)
