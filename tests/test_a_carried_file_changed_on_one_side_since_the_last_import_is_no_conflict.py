"""A file an import carries (a working-set note, a foreign file) changed on one side only since the last import of
the same IN is taken from that side, as a record is (docs/merge.md, "The import record").

The import record held records only. A memoir store converted from a Claude folder, its session.json then edited
by memoir-cli (``memoir done``, ``note``, ``ask``: every one rewrites it), imported back ``--into`` that folder:
the working set's rendering was updated, but its note (``.memconv/notes/working-set.markdown``, the exact JSON the
way home reads) was a conflict, exit 6, with a conflict copy beside it, at every such import; the copy kept was the
one whose bytes sort last, whichever side changed. A foreign file edited in IN only was the same.
"""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN, tree

NOTE = ".memconv/notes/working-set.markdown"
#: Where a Claude folder carries IN's foreign file ``ideas.txt`` (docs/conversion.md).
IDEAS = ".memconv/files/memoir/ideas.txt"


def _import(src, existing) -> int:
    return CliRunner().invoke(main, ["memoir-to-claude", "-q", str(src), "--into", str(existing)]).exit_code


def _imported_once(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", src)
    (src / "ideas.txt").write_text("first idea\n")
    existing.mkdir()
    (existing / "MEMORY.md").write_text("# Memory Index\n")
    assert _import(src, existing) == 0
    assert _import(src, existing) == 0
    return src, existing


def _ask(src, question: str) -> None:
    """What ``memoir ask QUESTION`` does to session.json: a question added, ``updated_at`` moved on."""
    path = src / "session.json"
    state = json.loads(path.read_text())
    state["updated_at"] = "2026-12-07T23:50:06.644Z"
    state["current"]["open_questions"].append({"text": question, "asked": "2026-12-07T23:50:06.644Z"})
    path.write_text(json.dumps(state, indent=2))


def _conflict_copies(existing) -> list[str]:
    return [p for p in tree(existing) if ".conflict-" in p]


def test_a_working_set_edited_in_in_only_is_imported_without_a_conflict(tmp_path):
    src, existing = _imported_once(tmp_path)
    _ask(src, "Do we ship on Fridays?")
    # Watched fail before the fix: exit 6, the note a conflict, working-set.conflict-<digest>.markdown beside it.
    assert _import(src, existing) == 0
    assert _conflict_copies(existing) == []
    assert "Do we ship on Fridays?" in (existing / NOTE).read_text()
    home = tmp_path / "home"
    assert CliRunner().invoke(main, ["claude-to-memoir", "-q", str(existing), str(home)]).exit_code == 0
    assert (home / "session.json").read_bytes() == (src / "session.json").read_bytes()
    before = tree(existing)
    assert _import(src, existing) == 0 and tree(existing) == before, "nothing new: nothing written"


def test_a_foreign_file_changed_on_one_side_keeps_that_sides_copy(tmp_path):
    src, existing = _imported_once(tmp_path)
    (src / "ideas.txt").write_text("first idea\nsecond idea, in IN\n")
    assert _import(src, existing) == 0, "changed in IN only: IN's copy"
    assert (existing / IDEAS).read_text() == "first idea\nsecond idea, in IN\n"
    (existing / IDEAS).write_text("first idea\nsecond idea, in IN\nthird, in EXISTING\n")
    assert _import(src, existing) == 0, "changed in EXISTING only: EXISTING's copy stays"
    assert (existing / IDEAS).read_text().endswith("third, in EXISTING\n")
    assert _conflict_copies(existing) == []


def test_a_file_changed_on_both_sides_is_still_a_conflict(tmp_path):
    src, existing = _imported_once(tmp_path)
    (src / "ideas.txt").write_text("first idea\nedited in IN\n")
    (existing / IDEAS).write_text("first idea\nedited in EXISTING\n")
    assert _import(src, existing) == 6
    [copy] = _conflict_copies(existing)
    assert {(existing / IDEAS).read_text(), (existing / copy).read_text()} == {
        "first idea\nedited in IN\n", "first idea\nedited in EXISTING\n"}
