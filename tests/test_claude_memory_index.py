"""MEMORY.md is an index: header, sections, link lines, broken links, and inline memory."""

from __future__ import annotations

from memconv.dialects import claude
from memconv.dialects.claude import index
from memconv.model import Record, Store

from .claude_support import GOLDEN, write


def test_index_lines_become_sections_links_and_inline_bullets():
    store = claude.read(GOLDEN / "mixed-project" / "input")
    idx = store.indexes[0]
    assert idx.title == "Memory Index"
    assert [s.heading for s in idx.sections] == ["User", "Feedback", "Project", "Reference", "Loose notes"]
    first = idx.sections[0].links[0]
    assert (first.title, first.target, first.hook, first.resolved) == (
        "Role and background", "user_role.md", "senior backend engineer, new to the frontend", True)
    assert idx.sections[4].inline == ["User prefers Tailwind CSS over hand-written CSS",
                                      "The CI runner is slow on Mondays (shared pool)\n"
                                      "because the nightly batch jobs overrun"]


def test_links_to_missing_files_are_kept_and_reported_with_their_line():
    store = claude.read(GOLDEN / "broken-links" / "input")
    links = [link for s in store.indexes[0].sections for link in s.links]
    assert [(link.target, link.resolved) for link in links if not link.resolved] == [
        ("deleted_note.md", False), ("project_missing.md", False)]
    assert "MEMORY.md:3: links to deleted_note.md, which is not in the folder (kept as written)" in store.warnings


def test_inline_only_index_keeps_every_bullet_and_ignores_fenced_lines():
    idx = claude.read(GOLDEN / "inline-only" / "input").indexes[0]
    inline = [text for s in idx.sections for text in s.inline]
    assert len(inline) == 7
    assert "Commit subjects in imperative mood,\nunder 60 characters" in inline
    assert not any(s.links for s in idx.sections), "a link line inside a code fence is text, not a link"


def test_edited_index_keeps_its_other_lines():
    root = GOLDEN / "mixed-project" / "input"
    store = claude.read(root)
    store.indexes[0].sections[0].links[0].target = "preference_role.md"
    after = claude.write(store)["MEMORY.md"].decode()
    before = (root / "MEMORY.md").read_text()
    assert after == before.replace("(user_role.md)", "(preference_role.md)"), "only the changed link moves"


def _records(n: int) -> Store:
    kinds = ["preference", "lesson", "fact", "decision"]
    records = [Record(kind=kinds[i % 4], link=f"entry-{i:05d}", title=f"Entry {i}", description=f"hook {i}",
                      trigger="t", how_to_apply="h") for i in range(n)]
    return Store(dialect="memoir", records=records)


def test_generated_index_links_every_entry_grouped_by_type_with_description_as_hook():
    files = claude.write(_records(8))
    text = files["MEMORY.md"].decode()
    assert [line for line in text.split("\n") if line.startswith("## ")] == [
        "## User", "## Feedback", "## Project", "## Reference"]
    assert "- [Entry 1](entry-00001.md) — hook 1" in text
    assert text.count("\n- [") == 8


def test_a_large_index_is_split_into_linked_pages_each_under_the_loaded_limit(tmp_path):
    # Verified by setting PAGE_LINES = 250: fails with "MEMORY-2.md must stay under 200 lines".
    store = _records(1000)
    files = claude.write(store)
    pages = sorted(p for p in files if index.is_index_path(p))
    assert len(pages) > 1
    linked = set()
    for page in pages:
        lines = files[page].decode().split("\n")
        assert len(lines) - 1 < index.LOADED_LINES, f"{page} must stay under {index.LOADED_LINES} lines"
        linked.update(m.group("target") for line in lines if (m := index.LINK_LINE.match(line)))
    assert {f"{r.link}.md" for r in store.records} <= linked, "every entry is linked from some page"
    main_links = {m.group("target") for line in files["MEMORY.md"].decode().split("\n")
                  if (m := index.LINK_LINE.match(line))}
    assert set(pages) - {"MEMORY.md"} <= main_links, "every page is linked from MEMORY.md"
    assert any("split into" in w for w in store.warnings), "the split is reported"
    # And the pages read back as indexes, not as entries, and write back unchanged.
    write(files, tmp_path)
    again = claude.read(tmp_path)
    assert len(again.indexes) == len(pages) and len(again.records) == 1000
    assert claude.write(again) == files
