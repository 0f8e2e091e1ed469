"""Shortcuts on the per-record path say what the long way said (issue 12: speed, never other bytes)."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import pipeline
from memconv.converters import carry
from memconv.model import Edge, Lifecycle, Record
from memconv.text import SLUG_LIMIT, UNTITLED, _SLUG_JUNK, short_digest, slug

from .conftest import GOLDEN


def _records():
    for dialect, folder in (("memoir", "memoir/canonical"), ("claude", "claude/canonical"),
                            ("memspec", "memspec/canonical"), ("memfmt", "memfmt/full")):
        yield from pipeline.read(GOLDEN / folder / "input", dialect).records
    yield Record(kind="fact", link="x", title="", body="", tags=[], fired_count=0, pinned=False, stale=True,
                 importance=0.0, edges=[Edge(type="t", target="y")], lifecycle=Lifecycle(state="retired"),
                 extra={"z": None, "memconv": "carry", "a": []})


def test_said_lists_what_flat_lists_as_saying_something():
    # Verified by testing `value is not None` alone in carry.said: fails on a golden memoir decision.
    for record in _records():
        assert carry.said(record) == [n for n, v in carry.flat(record).items() if v not in (None, [], False)], \
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

