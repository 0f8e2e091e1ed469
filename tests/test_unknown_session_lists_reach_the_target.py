"""A list under memoir's ``current`` that the spec does not name is shown in the target, and comes home.

memoir-cli accepts unknown ``current.*`` keys (``blockers``…), and people and agents write them. The
working set's rendering showed only the spec's seven lists, so such a list travelled only in the note
holding the exact ``session.json``, which no tool of the target shows or searches (principle 1). It is
now rendered after them, under its key (``## Blockers``): an item its text, or its values.
"""

from __future__ import annotations

import memfmt
import pytest

from memconv import dialects

from .conftest import tree
from .convert_helpers import canonical_memoir_with_session, convert_dir, convert_files
from .native_words import share
from .reference_tools import memspec, needs_memspec

LISTS = {
    "blockers": [{"text": "Waiting on the vendor's quarterly firmware", "since": "2026-03-02"},
                 "Flaky zebra printer", {"owner": "Kenji", "note": "sandbox credentials"},
                 {"text": "A hidden worry", "hidden": True}],
    "pinned_links": ["https://example.com/xylophone"],
}


def _store(tmp_path):
    return canonical_memoir_with_session(tmp_path, lambda document: document["current"].update(LISTS))


@pytest.mark.parametrize("target", ["claude", "memspec", "memfmt"])
def test_every_word_of_an_unknown_list_is_shown_and_the_way_back_is_exact(tmp_path, target):
    # Watched fail without the unknown lists in working_set_items: 'zebra', 'kenji', 'xylophone'… missing.
    src = _store(tmp_path)
    files, _ = convert_files(dialects.get("memoir").read(src), target)
    found, wanted, missing = share(dialects.get("memoir").read(src), target, files)
    assert not missing, sorted(missing)
    shown = b"".join(b for p, b in files.items() if ".memconv/" not in p)
    assert b"Flaky zebra printer" in shown and b"owner: Kenji; note: sandbox credentials" in shown
    assert b"A hidden worry" not in shown, "a hidden item is not shown, as a hidden decision is not"
    there = convert_dir(src, target, tmp_path / "there")
    back = convert_dir(there, "memoir", tmp_path / "back")
    assert {p: b for p, b in tree(back).items() if not p.startswith(".memconv/")} == tree(src)


def test_the_measure_counts_an_unknown_list():
    # The measure (tests/native_words.py) would have caught this: it counts every text of such a list.
    from memconv.model import Store, WorkingSet

    from .native_words import source_words

    store = Store(dialect="memoir", working_set=WorkingSet(document={"current": LISTS}))
    assert {"zebra", "kenji", "sandbox", "firmware", "xylophone"} <= source_words(store, "memspec")
    assert "worry" not in source_words(store, "memspec")


def test_memfmt_reads_the_list(tmp_path):
    there = convert_dir(_store(tmp_path), "memfmt", tmp_path / "there")
    entities = {e.name: e for e in memfmt.load(there / "memory").entities}
    assert "Blockers: Flaky zebra printer" in entities["Working set"].facts


@needs_memspec
def test_memspec_finds_the_list(tmp_path):
    there = convert_dir(_store(tmp_path), "memspec", tmp_path / "there")
    found = memspec(there, "search", "zebra")
    assert found.returncode == 0, found.stderr
    assert "Working set" in found.stdout
