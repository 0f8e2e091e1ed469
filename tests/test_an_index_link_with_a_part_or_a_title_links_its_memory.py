"""A `MEMORY.md` line linking a memory with a `#part` or a title, `- [Tests](feedback_tests.md#why) — hook` or
`- [Tabs](user_tabs.md "Tabs") — hook`, is a link to that memory, as Claude Code (CommonMark) follows it.

The index's link rule (`index.LINK_LINE`) wanted `.md)` right after the file name, so each such line was read
as an inline bullet, a memory kept only in the index: converted, the store gained a fact saying the link line
again beside the memory itself; a link to a file not in the folder was not said; and an upgrade replaced the
line by a link to that new fact, so MEMORY.md no longer linked the memory at all.
"""

from __future__ import annotations

from memconv.dialects.claude import index as claude_index

from .claude_support import assert_upgrade_links, memoir_entries_and_home

TABS = b"---\nname: Tabs\ndescription: uses tabs\ntype: user\n---\nTabs, not spaces.\n"
TESTS = (b"---\nname: Tests\ndescription: when testing\ntype: feedback\n---\nA real db.\n\n## why\n\nMocks lied.\n\n"
         b"**How to apply:** always.\n")
INDEX = ("# Memory Index\n\n## User\n- [Tabs](user_tabs.md \"Tabs, a preference\") — uses tabs\n\n"
         "## Feedback\n- [Tests](./feedback_tests.md#why) — when testing\n"
         "- [Gone](feedback_gone.md#x) — not in the folder\n").encode()
STORE = {"MEMORY.md": INDEX, "user_tabs.md": TABS, "feedback_tests.md": TESTS}


def test_the_lines_are_links_to_their_files():
    index = claude_index.read_index(INDEX, "MEMORY.md", {"user_tabs.md", "feedback_tests.md"})
    links = [(link.target, link.hook, link.resolved) for s in index.sections for link in s.links]
    assert links == [("user_tabs.md", "uses tabs", True), ("feedback_tests.md", "when testing", True),
                     ("feedback_gone.md", "not in the folder", False)]
    assert not any(s.inline for s in index.sections), "no line is a memory kept only in the index"


def test_converted_no_fact_says_a_link_line_again_and_the_missing_file_is_said(tmp_path):
    entries, output = memoir_entries_and_home(STORE, tmp_path)
    # (The line to a file not in the folder is the index's own words, as a plain link to nothing is.)
    assert entries == ["memory/fact_memory-words.md", "memory/lesson_tests.md", "memory/preference_tabs.md"], entries
    assert "MEMORY.md:8: links to feedback_gone.md, which is not in the folder" in output, output


def test_an_upgrade_keeps_linking_the_memory_with_its_part_and_title(tmp_path):
    assert_upgrade_links(STORE, tmp_path / "in", "- [Tabs](preference_tabs.md \"Tabs, a preference\") — uses tabs\n",
                         "- [Tests](./lesson_tests.md#why) — when testing\n")
