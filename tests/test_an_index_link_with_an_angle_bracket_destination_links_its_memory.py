"""A `MEMORY.md` line linking a memory through an angle-bracket destination, `- [T](<a b.md>) — hook` (CommonMark's
form for a file name with a space), is a link to that memory, as Claude Code follows it.

The index's link rule (`index.LINK_LINE`) took only a bare destination, so each such line was read as an inline
bullet, a memory kept only in the index: converted, the store gained a fact saying the link line again beside the
memory itself. And memconv wrote `- [T](a b.md)` for a memory whose file name has a space, which is no link at all
(CommonMark's bare destination holds no space): read again, an inline bullet too.
"""

from __future__ import annotations

from memconv.dialects.claude import index as claude_index
from memconv.model import IndexLink

from .claude_support import assert_upgrade_links, memoir_entries_and_home

T = b"---\nname: T\ndescription: first\ntype: user\n---\nBody of T.\n"
U = b"---\nname: U\ndescription: second\ntype: feedback\n---\nBody of U.\n"
V = (b"---\nname: V\ndescription: third\ntype: feedback\n---\nBody of V.\n\n## why\n\nBecause.\n\n"
     b"**How to apply:** always.\n")
INDEX = ("# Memory Index\n\n- [T](<a b.md>) — first\n- [U](<c.md>) — second\n"
         "- [V](<./d e.md#why> \"V, why\") — third\n- [W](<gone one.md>) — not in the folder\n").encode()
STORE = {"MEMORY.md": INDEX, "a b.md": T, "c.md": U, "d e.md": V}


def test_the_lines_are_links_to_their_files():
    index = claude_index.read_index(INDEX, "MEMORY.md", {"a b.md", "c.md", "d e.md"})
    links = [(link.title, link.target, link.hook, link.resolved) for s in index.sections for link in s.links]
    assert links == [("T", "a b.md", "first", True), ("U", "c.md", "second", True), ("V", "d e.md", "third", True),
                     ("W", "gone one.md", "not in the folder", False)]
    assert not any(s.inline for s in index.sections), "no line is a memory kept only in the index"


def test_converted_no_fact_says_a_link_line_again_and_the_index_comes_home_as_written(tmp_path):
    entries, output = memoir_entries_and_home(STORE, tmp_path)
    # (The line to a file not in the folder is the index's own words, as a plain link to nothing is.)
    assert entries == ["memory/fact_memory-words.md", "memory/lesson_c.md", "memory/lesson_v.md",
                       "memory/preference_t.md"], entries
    assert "MEMORY.md:6: links to gone one.md, which is not in the folder" in output, output


def test_a_line_written_anew_puts_a_name_with_a_space_in_angle_brackets_and_reads_again_as_a_link():
    assert claude_index.link_line(IndexLink(title="U", target="c.md", hook="second")) == "- [U](c.md) — second"
    line = claude_index.link_line(IndexLink(title="T", target="a b.md", hook="first"))
    assert line == "- [T](<a b.md>) — first"
    index = claude_index.read_index(f"# Memory Index\n\n{line}\n".encode(), "MEMORY.md", {"a b.md"})
    assert [(link.target, link.resolved) for link in index.sections[0].links] == [("a b.md", True)]


def test_a_link_renamed_to_a_name_with_a_space_is_put_in_angle_brackets_with_its_part():
    index = claude_index.read_index(b"- [T](./t.md#why \"t\") \xe2\x80\x94 first\n", "MEMORY.md", {"t.md"})
    index.sections[0].links[0].target = "a b.md"
    assert claude_index.write_index(index) == "- [T](<./a b.md#why> \"t\") — first\n".encode()


def test_an_upgrade_keeps_linking_each_memory(tmp_path):
    assert_upgrade_links(STORE, tmp_path / "in", "- [T](<preference_a-b.md>) — first\n",
                         "- [V](<./lesson_d-e.md#why> \"V, why\") — third\n")
