"""The golden snapshots' tree listing is byte-exact: it reads back as the very bytes it was made from."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from . import golden
from .snapshot_tree import listing, parse
from .test_golden_outputs import SNAPSHOTS

_PATHS = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), min_size=1, max_size=30)
_BYTES = st.one_of(st.binary(max_size=200),
                   st.text(max_size=200).map(lambda t: t.encode("utf-8")),
                   st.lists(st.sampled_from(["a", "\r\n", "\n", "\r", "=== x (3 bytes) ===\n", "\ufeff", "é"]),
                            max_size=20).map(lambda parts: "".join(parts).encode("utf-8")))


@settings(deadline=None)
@given(st.dictionaries(_PATHS, _BYTES, max_size=8))
def test_a_listing_reads_back_as_the_same_bytes(files):
    # Verified by parsing text up to the next "\n=== " instead of by the header's byte count: fails
    # (hypothesis finds a file holding "\n=== ").
    assert parse(listing(files)) == files


@settings(deadline=None)
@given(st.dictionaries(_PATHS, _BYTES, max_size=4), st.dictionaries(_PATHS, _BYTES, max_size=4))
def test_two_trees_have_the_same_listing_only_if_they_are_the_same(a, b):
    assert (listing(a) == listing(b)) == (a == b)


def test_crlf_bom_missing_newline_and_binary_are_kept_and_flagged():
    files = {"crlf.md": b"a\r\nb\r\n", "bom.md": b"\xef\xbb\xbfx\n", "end.md": b"no newline",
             "img.png": b"\x89PNG\r\n\x1a\n\x00", "latin1.txt": "caf\xe9".encode("latin-1"), "empty": b""}
    raw = listing(files)
    assert b"=== crlf.md (6 bytes, crlf) ===\na\r\nb\r\n\n" in raw, "text is listed as it is, CRLF and all"
    assert b"=== end.md (10 bytes, no final newline) ===\nno newline\n" in raw
    assert b"(4 bytes, base64)" in raw and b"(9 bytes, base64)" in raw, "bytes that are not UTF-8 text are base64"
    assert b"=== bom.md (5 bytes, bom) ===" in raw and b"=== empty (0 bytes, empty) ===" in raw
    assert parse(raw) == files


@pytest.mark.parametrize("path", sorted(SNAPSHOTS.glob("*.tree")), ids=lambda p: p.name)
def test_each_committed_tree_snapshot_holds_exactly_the_output(path):
    # The file as git checked it out (no newline translation: tests/__snapshots__/.gitattributes) parses to
    # the bytes memconv writes; the harness compares listings, this compares the trees themselves.
    kind, key = path.name.split("[", 1)
    parts = key.split("].", 1)[0]
    stores = {f"{d}-{n}": (d, n) for d, n in golden.STORES}
    if kind == "test_convert":
        source, target = parts.rsplit("-to-", 1)
        expected = golden.converted(*stores[source], target)
    elif kind == "test_migrate":
        expected = golden.migrated(*stores[parts])
    else:
        expected = golden.upgraded(parts)
    assert parse(path.read_bytes()) == expected


def test_the_golden_snapshots_hold_the_bytes_that_need_care():
    flags = b"".join(p.read_bytes() for p in SNAPSHOTS.glob("*.tree"))
    for flag in (b", crlf", b", no final newline", b", bom", b", base64"):
        assert flag in flags, f"some golden output has a file flagged {flag.decode()[2:]}"
