"""A title holding ``[`` or ``]`` is link text in ``MEMORY.md``: escaped as CommonMark says, read back as written.

``- [Use [x) arrays a)b](reference_arrays.md)`` was what a memoir entry named ``Use [x] arrays a]b``
became (the generated link turned ``]`` into ``)``); a hand-written ``\\]`` was not read as a link.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memconv import dialects
from memconv import upgrade as upgrading
from memconv.cli import main
from memconv.dialects.claude import index as claude_index
from memconv.model import IndexLink
from memconv.report import Report

from .claude_support import write

TITLE = "Use [x] arrays a]b"
LINE = b"- [Use \\[x\\] arrays a\\]b](reference_arrays.md) \xe2\x80\x94 Arrays\n"


def _convert(source, target: str, out):
    result = CliRunner().invoke(main, ["convert", "--to", target, str(source), str(out)])
    assert result.exit_code == 0, result.output
    return out


def _titles(root) -> list[str]:
    store = dialects.get("claude").read(root)
    return [link.title for idx in store.indexes for section in idx.sections for link in section.links]


def test_a_title_with_brackets_reaches_memory_md_escaped_and_comes_back_exact(tmp_path):
    # Watched fail before the fix: the line was `- [Use [x) arrays a)b](reference_arrays.md) — Arrays`.
    write({"memory/fact_arrays.md": f"---\ntype: fact\nname: {TITLE}\ndescription: Arrays\n---\n\nBody.\n".encode()},
          tmp_path / "in")
    claude = _convert(tmp_path / "in", "claude", tmp_path / "claude")
    assert LINE in (claude / "MEMORY.md").read_bytes()
    assert _titles(claude) == [TITLE]
    # Through memfmt and back: the index Claude Code reads says the same.
    again = _convert(_convert(claude, "memfmt", tmp_path / "mf"), "claude", tmp_path / "claude2")
    assert LINE in (again / "MEMORY.md").read_bytes()
    assert _titles(again) == [TITLE]


def test_a_hand_written_escaped_link_is_a_link_and_is_kept_byte_for_byte():
    raw = b"# Memory Index\n\n## Reference\n" + LINE
    index = claude_index.read_index(raw, "MEMORY.md", {"reference_arrays.md"})
    [link] = [link for section in index.sections for link in section.links]
    assert (link.title, link.target, link.hook) == (TITLE, "reference_arrays.md", "Arrays")
    assert claude_index.write_index(index) == raw
    link.hook = "Arrays, edited"
    assert claude_index.write_index(index) == raw.replace(b"Arrays\n", b"Arrays, edited\n")


@pytest.mark.parametrize("title", ["a]b", "[", "]]", "Use [x] arrays", "C:\\dir", "ends with \\", "a\\]b", "\\\\",
                                   "a\\*b"])
def test_every_title_is_written_as_link_text_that_reads_back_as_it(title):
    line = claude_index.link_line(IndexLink(title=title, target="f.md", hook="h"))
    [link] = claude_index.read_index((line + "\n").encode(), "MEMORY.md", {"f.md"}).sections[0].links
    assert link.title == title


def test_upgrade_links_an_inline_bullet_with_brackets_by_its_own_words(tmp_path):
    # Watched fail before the fix: the link said `(x) arrays`.
    write({"MEMORY.md": b"# Memory Index\n\n- [x] arrays are typed\n",
           "feedback_a.md": b"---\nname: A\ntype: feedback\n---\nBody.\n"}, tmp_path / "in")
    files = upgrading.plan(tmp_path / "in", Report(command="upgrade", input="in")).files
    assert b"- [\\[x\\] arrays are typed](fact_x-arrays-are-typed.md)" in files["memory/MEMORY.md"]
    index = claude_index.read_index(files["memory/MEMORY.md"], "MEMORY.md", set())
    titles = [link.title for section in index.sections for link in section.links]
    assert "[x] arrays are typed" in titles
