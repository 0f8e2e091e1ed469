"""A memfmt record's own frontmatter keys and an episode's participants are where the target's user reads them.

memfmt keeps a record's unknown keys (``source: mengram export``) and an episode's ``participants`` in its
frontmatter. memoir and Claude Code keep unknown keys as their own frontmatter keys; memspec keeps them under
``ext.memconv.fields`` (its rewrites keep ``ext`` and drop any other key), which ``memspec status`` and
``search`` neither show nor search; and no target had a place for the participants: they sat in the carry
alone. ``readable.show`` now writes them into the record's text, labelled (``**Participants:** …``; in memspec
``**source:** …``, a line per key), and takes them out again on the way home. docs/conversion.md.
"""

from __future__ import annotations

import pytest

from memconv import dialects

from .convert_helpers import convert_files, read_files
from .native_words import share
from .reference_tools import memspec, needs_memspec

#: Words found nowhere else in the store, so that the measure sees where each went.
STORE = {
    "memory/entities/Ali.md": (
        "---\nmemfmt_type: entity\nentity_type: quokkaperson\nsource: quillfeather export\nnote: zebrine quarterly\n"
        "aliases:\n  - Alastor\n---\n\n# Ali\n\n## Facts\n\n- based in Tokyo\n"),
    "memory/episodes/2026-07-30-deploy failed.md": (
        "---\nmemfmt_type: episode\nhappened: 2026-07-30\noutcome: rolled back\nvalence: grimnegative\nimportance: 7\nparticipants:\n  - Wilhelmina\n"
        "  - Thaddeus\nticket: OPSZORB\n---\n\n# deploy failed\n\nThe pooler refused the fourth client.\n\n"
        "**Outcome** — rolled back\n"),
}
TARGETS = ["memoir", "claude", "memspec"]


def _store():
    return read_files({p: t.encode() for p, t in STORE.items()}, "memfmt")


def test_the_store_is_as_memfmt_writes_it():
    import memfmt

    written = memfmt.serialise(memfmt.parse(dict(STORE)))
    assert {p: written[p] for p in STORE} == STORE


@pytest.mark.parametrize("target", TARGETS)
def test_every_word_of_the_keys_and_the_participants_is_shown(target):
    # Verified by dropping the participants line from readable._blocks: Wilhelmina and Thaddeus are missing in
    # every target; by dropping the entity type and valence lines: quokkaperson and grimnegative are; and by
    # declaring UNKNOWN_KEYS_HIDDEN False in memspec: quillfeather, zebrine, opszorb… are.
    from .native_words import source_words

    unique = {"wilhelmina", "thaddeus", "quillfeather", "zebrine", "opszorb", "alastor", "quokkaperson",
              "grimnegative"}
    assert unique <= source_words(_store(), target), "the measure counts them"
    files, _ = convert_files(_store(), target)
    found, wanted, missing = share(_store(), target, files)
    assert found + len(missing) == wanted > 10
    assert not missing, missing


@pytest.mark.parametrize("target", TARGETS)
def test_they_come_home_byte_for_byte(target):
    files, _ = convert_files(_store(), target)
    back, _ = convert_files(read_files(files, target), "memfmt")
    assert {p: back[p].decode() for p in STORE} == STORE


def test_memspec_body_edited_comes_home_without_the_shown_lines():
    files, _ = convert_files(_store(), "memspec")
    path = next(p for p, b in files.items() if b"Wilhelmina" in b and not p.startswith(".memspec/.memconv"))
    text = files[path].decode()
    assert "**Participants:** Wilhelmina, Thaddeus" in text and "**ticket:** OPSZORB" in text
    files[path] = (text.rstrip("\n") + "\n\nThe pool is fine now.\n").encode()
    back, _ = convert_files(read_files(files, "memspec"), "memfmt")
    home = back["memory/episodes/2026-07-30-deploy failed.md"].decode()
    # Verified by leaving the keys out of unshow's _blocks: the ticket line came home into the episode's context.
    assert "The pool is fine now." in home and "**" not in home.replace("**Outcome**", "")
    assert "participants:\n  - Wilhelmina\n  - Thaddeus\nticket: OPSZORB\n" in home


def test_a_mapping_or_a_flag_is_structure_and_is_not_written_out():
    store = _store()
    ali = next(r for r in store.records if r.title == "Ali")
    ali.extra["metadata"] = {"node_type": "memory"}
    ali.extra["hidden"] = False  # a memoir decision's flag, say
    files, _ = convert_files(store, "memspec")
    shown = next(b.decode() for p, b in files.items() if b"# Ali" in b)
    assert "**source:** quillfeather export" in shown and "**aliases:** Alastor" in shown
    assert "**metadata:**" not in shown and "**hidden:**" not in shown


@needs_memspec
def test_memspec_search_finds_a_record_by_its_own_keys(tmp_path):
    files, _ = convert_files(_store(), "memspec")
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    done = memspec(tmp_path, "search", "quillfeather")
    assert done.returncode == 0, done.stderr
    assert "Ali" in done.stdout, done.stdout
    assert dialects.get("memspec").read(tmp_path).records


def test_a_keys_line_edited_in_memspec_is_the_keys_new_value():
    files, _ = convert_files(_store(), "memspec")
    path = next(p for p, b in files.items() if b"**ticket:** OPSZORB" in b)
    files[path] = files[path].replace(b"**ticket:** OPSZORB", b"**ticket:** OPSQUUX")
    back, report = convert_files(read_files(files, "memspec"), "memfmt")
    home = back["memory/episodes/2026-07-30-deploy failed.md"].decode()
    # Verified by leaving unknown keys out of unshow's labelled lines: the old key came home, and the edited line
    # beside it in the episode's context.
    assert home == STORE["memory/episodes/2026-07-30-deploy failed.md"].replace("OPSZORB", "OPSQUUX")


@pytest.mark.parametrize("target", TARGETS)
def test_an_entity_type_a_valence_and_an_importance_are_shown_labelled(target):
    files, _ = convert_files(_store(), target)
    shown = "\n".join(b.decode() for p, b in files.items() if ".memconv" not in p)
    for line in ("**Entity type:** quokkaperson", "**Valence:** grimnegative", "**Importance:** 7"):
        assert line in shown


EPISODE = "memory/episodes/2026-07-30-deploy failed.md"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("before", "after", "home"), [
    (b"**Participants:** Wilhelmina, Thaddeus", b"**Participants:** Wilhelmina, Thaddeus, Ora",
     "participants:\n  - Wilhelmina\n  - Thaddeus\n  - Ora\n"),
    (b"**Valence:** grimnegative", b"**Valence:** positive", "valence: positive\n"),
    (b"**Importance:** 7", b"**Importance:** 9", "importance: 9\n"),
], ids=["participants", "valence", "importance"])
def test_a_fields_line_edited_in_the_target_is_the_fields_new_value(target, before, after, home):
    """Before, the edited line came home as a paragraph of the episode's text, beside the field's old value."""
    files, _ = convert_files(_store(), target)
    [path] = [p for p, b in files.items() if before in b and ".memconv" not in p]
    files[path] = files[path].replace(before, after)
    back, report = convert_files(read_files(files, target), "memfmt")
    text = back[EPISODE].decode()
    assert home in text, text
    assert after.decode() not in text, "not also a paragraph of its text"


def test_an_importance_that_is_no_number_stays_text():
    files, _ = convert_files(_store(), "memspec")
    [path] = [p for p, b in files.items() if b"**Importance:** 7" in b and ".memconv" not in p]
    files[path] = files[path].replace(b"**Importance:** 7", b"**Importance:** very high")
    back, _ = convert_files(read_files(files, "memspec"), "memfmt")
    text = back[EPISODE].decode()
    assert "importance: 7\n" in text and "**Importance:** very high" in text
