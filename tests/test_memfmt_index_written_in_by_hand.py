"""A memfmt ``MEMORY.md`` someone wrote in travels to another dialect and comes home byte for byte.

memfmt regenerates its index from the records, so memconv carried none: a paragraph written into
it was lost on memfmt→memspec→memfmt, and the report said "0 dropped". An index whose bytes are
not what memfmt's writer regenerates for the store as read is now carried in the store note, with
the digest of the text regenerated then; home again with the same records, its bytes are kept.
"""

from __future__ import annotations

import shutil

import pytest


from .conftest import GOLDEN, run_json, tree

NOTE = "\n## Notes\n\nAli prefers mornings; ask Kenji before deploys.\n"
OTHERS = ["memoir", "claude", "memspec"]


def _store(tmp_path, name: str = "full", note: str = NOTE):
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memfmt" / name / "input", src)
    index = src / "memory" / "MEMORY.md"
    index.write_bytes(index.read_bytes() + note.encode())
    return src


@pytest.mark.parametrize("target", OTHERS)
def test_an_index_written_in_comes_home_byte_for_byte(tmp_path, target):
    # Watched fail without the carry: MEMORY.md came home without its "## Notes" section.
    src = _store(tmp_path)
    there = run_json("convert", "--to", target, str(src), str(tmp_path / "there"))
    assert any("index file(s) carried" in w for w in there["warnings"]), there["warnings"]
    holding = [p for p, data in tree(tmp_path / "there").items() if b"Ali prefers mornings" in data]
    # Carried in the store note, and shown to the target's user in a record of its own.
    assert any("/.memconv/notes/" in "/" + p for p in holding) and any("/.memconv/" not in "/" + p for p in holding)
    run_json("convert", "--to", "memfmt", str(tmp_path / "there"), str(tmp_path / "back"))
    back = {p: b for p, b in tree(tmp_path / "back").items() if not p.startswith(".memconv/")}
    assert back == tree(src)


@pytest.mark.parametrize("name", ["full", "legacy", "vault"])
@pytest.mark.parametrize("target", OTHERS)
def test_an_index_nobody_wrote_in_is_not_carried(tmp_path, name, target):
    # Watched fail with every index carried: the golden stores' conversions gained a store note.
    out = run_json("convert", "--from", "memfmt", "--to", target, str(GOLDEN / "memfmt" / name / "input"),
               str(tmp_path / "out"))
    assert not any("index file(s) carried" in w for w in out["warnings"]), out["warnings"]


def test_home_with_other_records_the_index_is_regenerated(tmp_path):
    # The records changed in memspec: memfmt regenerates its index, as memfmt's own writer does.
    src = _store(tmp_path)
    run_json("convert", "--to", "memspec", str(src), str(tmp_path / "there"))
    [ali] = [p for p in (tmp_path / "there" / ".memspec").rglob("*.md") if "\n# Ali\n" in p.read_text()]
    ali.unlink()  # an entity: the index's counts and links change
    run_json("convert", "--to", "memfmt", str(tmp_path / "there"), str(tmp_path / "back"))
    index = (tmp_path / "back" / "memory" / "MEMORY.md").read_text()
    assert "Ali prefers mornings" not in index and "- 3 entities" in index and "[[Ali]]" not in index


def test_a_crafted_index_in_a_store_note_is_refused_with_a_warning(tmp_path):
    # Watched fail without the guard: a ReadError from read_index ended the run with exit 70.
    src = _store(tmp_path)
    run_json("convert", "--to", "memspec", str(src), str(tmp_path / "there"))
    [note] = [p for p in (tmp_path / "there").rglob("store.md")]
    text = note.read_text()
    assert "memfmt_type: index" in text
    note.write_text(text.replace("memfmt_type: index", "memfmt_type: entity"))
    back = run_json("convert", "--to", "memfmt", str(tmp_path / "there"), str(tmp_path / "back"))
    # The note holds the index's text alone (its model is not carried where memfmt reads the text again): none
    # is kept, and memfmt's writer makes the index anew.
    assert any("is not one memfmt reads" in w and "ignored: memfmt's writer makes it anew" in w
               for w in back["warnings"]), back["warnings"]
    assert "Ali prefers mornings" not in (tmp_path / "back" / "memory" / "MEMORY.md").read_text()
