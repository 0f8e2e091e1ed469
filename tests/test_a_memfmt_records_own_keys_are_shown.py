"""A memfmt episode's participants are where the target's user reads them.

memfmt keeps an episode's ``participants`` in its frontmatter; no other target had a place for them: they sat in
the carry alone. ``readable.show`` now writes them into the record's text, ``**Participants:** …``, and takes
them out again on the way home. docs/conversion.md.
"""

from __future__ import annotations

import pytest

from .convert_helpers import convert_files, read_files
from .native_words import share, source_words

#: Words found nowhere else in the store, so that the measure sees where each went.
STORE = {
    "memory/entities/Ali.md": (
        "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ali\n\n## Facts\n\n- based in Tokyo\n"),
    "memory/episodes/2026-07-30-deploy failed.md": (
        "---\nmemfmt_type: episode\nhappened: 2026-07-30\noutcome: rolled back\nparticipants:\n  - Wilhelmina\n"
        "  - Thaddeus\n---\n\n# deploy failed\n\nThe pooler refused the fourth client.\n\n"
        "**Outcome** — rolled back\n"),
}
TARGETS = ["memoir", "claude", "memspec"]
UNIQUE = {"wilhelmina", "thaddeus"}


def _store():
    return read_files({p: t.encode() for p, t in STORE.items()}, "memfmt")


def test_the_store_is_as_memfmt_writes_it():
    import memfmt

    written = memfmt.serialise(memfmt.parse(dict(STORE)))
    assert {p: written[p] for p in STORE} == STORE


@pytest.mark.parametrize("target", TARGETS)
def test_every_word_is_shown(target):
    # Verified by dropping the participants line from readable._blocks: Wilhelmina and Thaddeus are missing in
    # every target.
    assert UNIQUE <= source_words(_store(), target), "the measure counts them"
    files, _ = convert_files(_store(), target)
    found, wanted, missing = share(_store(), target, files)
    assert not missing, missing


@pytest.mark.parametrize("target", TARGETS)
def test_they_come_home_byte_for_byte(target):
    files, _ = convert_files(_store(), target)
    back, _ = convert_files(read_files(files, target), "memfmt")
    assert {p: back[p].decode() for p in STORE} == STORE


def test_a_memspec_body_edited_comes_home_without_the_shown_lines():
    files, _ = convert_files(_store(), "memspec")
    path = next(p for p, b in files.items() if b"Wilhelmina" in b and not p.startswith(".memspec/.memconv"))
    text = files[path].decode()
    assert "**Participants:** Wilhelmina, Thaddeus" in text
    files[path] = (text.rstrip("\n") + "\n\nThe pool is fine now.\n").encode()
    back, _ = convert_files(read_files(files, "memspec"), "memfmt")
    home = back["memory/episodes/2026-07-30-deploy failed.md"].decode()
    assert "The pool is fine now." in home and "**" not in home.replace("**Outcome**", "")
    assert "participants:\n  - Wilhelmina\n  - Thaddeus\n" in home
