"""Shortcuts on the per-record path say what the long way said (issue 12: speed, never other bytes)."""

from __future__ import annotations

import json
import unicodedata

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv import frontmatter as fmx
from memconv import pipeline
from memconv.converters import carry, codec, notes
from memconv.model import Edge, IndexFile, IndexLink, IndexSection, Lifecycle, Record
from memconv.text import SLUG_LIMIT, UNTITLED, _SLUG_JUNK, short_digest, slug

from .conftest import GOLDEN


@pytest.fixture
def monkeypatch_piece(monkeypatch):
    """json_pieces slices every text over 3 characters, and encodes list items of one piece two at a time, so
    short examples reach the slicing and the runs."""
    monkeypatch.setattr(codec, "_PIECE", 3)
    monkeypatch.setattr(codec, "_RUN", 2)


def _records():
    for dialect, folder in (("memoir", "memoir/canonical"), ("claude", "claude/canonical"),
                            ("memspec", "memspec/canonical"), ("memfmt", "memfmt/full")):
        yield from pipeline.read(GOLDEN / folder / "input", dialect).records
    yield Record(kind="fact", link="x", title="", body="", tags=[], fired_count=0, pinned=False, stale=True,
                 importance=0.0, edges=[Edge(type="t", target="y")], lifecycle=Lifecycle(state="retired"),
                 extra={"z": None, "memconv": "carry", "a": []})


def test_said_lists_what_parts_lists_as_saying_something():
    # Verified by testing `value is not None` alone in carry.said: fails on a golden memoir decision.
    for record in _records():
        assert carry.said(record) == [n for n, v in carry.parts(record).items() if v not in (None, [], False)], \
            record.link


@settings(max_examples=300)
@given(st.one_of(st.none(), st.text(max_size=80), st.lists(st.text(max_size=5), max_size=3), st.integers(),
                 st.booleans(), st.dates().map(str)))
def test_a_field_digest_is_the_digest_of_the_values_repr(value):
    # Asked twice: the second answer may come from the cache of short reprs.
    assert carry.field_digest(value) == carry.field_digest(value) == short_digest(repr(value))


def _slug_the_long_way(text: str) -> str:
    kept: list[str] = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch) and kept and kept[-1].isascii():
            continue
        kept.append(ch)
    folded = unicodedata.normalize("NFC", "".join(kept)).lower()
    return _SLUG_JUNK.sub("-", folded).strip("-")[:SLUG_LIMIT].strip("-") or UNTITLED


@settings(max_examples=500)
@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_an_ascii_title_slugs_as_the_unicode_folding_slugs_it(text):
    # Verified by dropping .lower() from the ASCII shortcut in text.slug: fails on "A".
    assert slug(text) == _slug_the_long_way(text)



_json_leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12))
_index_links = st.builds(IndexLink, title=st.text(max_size=8), target=st.text(max_size=8),
                         hook=st.none() | st.text(max_size=4), resolved=st.booleans())
_json_values = st.recursive(_json_leaves | _index_links,
                            lambda inner: st.lists(inner, max_size=4)
                            | st.dictionaries(st.text(max_size=4), inner, max_size=4)
                            | st.builds(IndexSection, heading=st.none() | st.text(max_size=6),
                                        links=st.lists(_index_links, max_size=3),
                                        inline=st.lists(st.text(max_size=6), max_size=2)),
                            max_leaves=20)


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixture is constant
@given(value=_json_values)
def test_json_pieces_join_to_the_whole_text_and_quote_as_it(value, monkeypatch_piece):
    # Verified by giving a mapping's first key with a "," before it: the joined text then differs; and by giving
    # a run of list items no comma after the item before it.
    # A long text is sliced: here every text over 3 characters (monkeypatch_piece).
    pieces = list(codec.json_pieces(value))
    assert "".join(pieces) == codec.compact_json(value) == json.dumps(codec.as_json(value), ensure_ascii=False,
                                                                      separators=(",", ":"))
    assert '"' + "".join(fmx.double_quoted(p)[1:-1] for p in pieces) + '"' == fmx.double_quoted("".join(pieces))


def test_a_store_note_is_the_line_the_frontmatter_renderer_gives(monkeypatch_piece):
    # The note's carry line is built piece by piece (notes._render): it must be render_block's line.
    index = IndexFile(path="MEMORY.md", title="Memory", sections=[
        IndexSection(heading="Facts — \u2028 \"quoted\"", links=[IndexLink("A \\ b", "a.md", hook="é\x85")],
                     inline=["an inline bullet"])])
    payload = {"from": "claude", "indexes": [index], "raw": {"MEMORY.md": "# Memory\n" * 3}}
    asked = []
    note = notes.store_note(lambda: asked.append(1) or payload, "memfmt", "claude", lossy=False, shown=[index])
    assert asked == []  # the store's facts are asked for when the note is written, not held till then
    raw = note.raw.decode("utf-8")
    assert asked == [1]
    document = {"v": carry.VERSION, "from": "claude", "store": {**payload, "indexes": [codec.as_json(index)]}}
    line = fmx.render_block(carry.KEY, json.dumps(document, ensure_ascii=False, separators=(",", ":")))
    assert "\n".join(line) + "\n" in raw
    # The readable body, line by line into the note's buffer: what the lines joined give.
    assert raw.endswith("---\n\nStore-level facts of the source store, kept by memconv.\n\n## MEMORY.md\n"
                        "### Facts — \u2028 \"quoted\"\n- [A \\ b](a.md)\n- an inline bullet\n")
