"""A MEMORY.md line whose memory changed on one side only since the last import takes that side's line.

The golden memoir store converted into a Claude folder, imported once, then the ``description:`` of one entry
edited in IN: the memory file was IN's (the import record said only IN changed it), but the index merge knew
nothing of that, so the two lines for it, IN's new words and the words the last import wrote, were two lines with
nothing to order them: both kept, exit 6, though nobody edited EXISTING. Now a line the last import wrote for a
memory the other side changed gives way to that side's line; a line a person edited, or a memory changed on both
sides, is a conflict as before.
"""

from __future__ import annotations

from pathlib import Path

from .import_into import files_of, golden_imported_once, run

ENTRY = Path("memory") / "preference_commit-style.md"
MEMORY = "user_commit-style.md"
OLD = "Imperative mood, no trailers, reference the issue number"
NEW = "Imperative mood, no trailers, cite the issue"
LINE = "- [Commit message style](user_commit-style.md) — {}"


def _imported(tmp_path: Path) -> tuple[Path, Path]:
    return golden_imported_once(tmp_path)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_index_line_of_a_memory_edited_in_in_only_is_in_s_line(tmp_path):
    src, existing = _imported(tmp_path)
    _edit(src / ENTRY, f"description: {OLD}", f"description: {NEW}")
    # Watched fail before the fix: exit 6, both lines kept in MEMORY.md.
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    fresh = tmp_path / "fresh"
    assert run("memoir-to-claude", "-q", str(src), str(fresh)) == 0
    assert (existing / "MEMORY.md").read_bytes() == (fresh / "MEMORY.md").read_bytes()
    assert (existing / MEMORY).read_bytes() == (fresh / MEMORY).read_bytes()
    settled = files_of(existing)
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert files_of(existing) == settled


def test_an_index_line_edited_in_existing_stays_beside_in_s_new_line(tmp_path):
    src, existing = _imported(tmp_path)
    _edit(existing / "MEMORY.md", LINE.format(OLD), LINE.format("my own words"))
    _edit(src / ENTRY, f"description: {OLD}", f"description: {NEW}")
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 6
    index = (existing / "MEMORY.md").read_text(encoding="utf-8")
    assert LINE.format("my own words") in index and LINE.format(NEW) in index
    assert LINE.format(OLD) not in index


def test_a_memory_changed_on_both_sides_keeps_both_lines(tmp_path):
    src, existing = _imported(tmp_path)
    _edit(existing / MEMORY, f"description: {OLD}", "description: mine")
    _edit(existing / "MEMORY.md", LINE.format(OLD), LINE.format("mine"))
    _edit(src / ENTRY, f"description: {OLD}", f"description: {NEW}")
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 6
    index = (existing / "MEMORY.md").read_text(encoding="utf-8")
    assert LINE.format("mine") in index and LINE.format(NEW) in index


def test_a_memory_and_its_line_edited_in_existing_only_stay_as_existing_holds_them(tmp_path):
    src, existing = _imported(tmp_path)
    _edit(existing / MEMORY, f"description: {OLD}", "description: mine")
    _edit(existing / "MEMORY.md", LINE.format(OLD), LINE.format("mine"))
    mine = files_of(existing)
    assert run("memoir-to-claude", "-q", str(src), "--into", str(existing)) == 0
    assert files_of(existing) == mine
