"""An inline bullet of a Claude index becomes a fact of its own, linked by the file name Claude Code would give it
(``reference_<slug>``), numbered past every link of the store in any case: a link is a file name, and on a folder that
folds case two of one name are one file. Only the links that begin with the type word are held to be asked
(docs/performance.md, "(thirty-third)")."""

from __future__ import annotations

import pytest

from memconv import dialects
from memconv.converters import native


def _made(tmp_path, entry: str) -> list[str]:
    (tmp_path / "MEMORY.md").write_text(f"# Memory Index\n\n- [Foo bar]({entry}.md) — the real one\n- Foo bar\n\n"
                                        "Some words of the index's own.\n")
    (tmp_path / f"{entry}.md").write_text("---\nname: Foo bar\ndescription: the real one\ntype: reference\n---\n\n"
                                          "Real body.\n")
    store = dialects.get("claude").read(tmp_path)
    assert [record.link for record in store.records] == [entry]
    return [record.link for record, _ in native.inline_records(store.indexes, store.records)]


@pytest.mark.parametrize("entry", ["reference_foo-bar", "Reference_Foo-Bar", "REFERENCE_FOO-BAR"])
def test_a_bullet_is_numbered_past_a_link_of_its_name_in_any_case(tmp_path, entry):
    # Broken once (the type word's prefix matched without folding): "Reference_Foo-Bar" left the bullet its name.
    assert _made(tmp_path, entry) == ["reference_foo-bar-2", "reference_memory-words"]


@pytest.mark.parametrize("entry", ["reference_memory-words", "Reference_Memory-Words"])
def test_the_index_words_are_numbered_past_a_link_of_their_name(tmp_path, entry):
    assert _made(tmp_path, entry) == ["reference_foo-bar", "reference_memory-words-2"]


def test_a_link_of_another_type_word_leaves_the_bullet_its_name(tmp_path):
    assert _made(tmp_path, "user_foo-bar") == ["reference_foo-bar", "reference_memory-words"]
