"""The store note's readable lines are links that read as the index's: a title's ``[``, ``]`` and ``\\`` escaped.

``.memconv/notes/store.md`` shows a Claude ``MEMORY.md`` line by line; a title was written into its
``- [title](file.md)`` as it was, so ``a ] b`` or ``ends in \\`` made a line that is no link. It is
escaped now by the one rule ``MEMORY.md`` is written with (:func:`memconv.markdown.escape_link_text`).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from memconv import markdown
from memconv.cli import main
from memconv.dialects.claude import index as claude_index

from .claude_support import write

TITLES = {"reference_arrays.md": "Use [x] arrays", "reference_b.md": "a ] b", "reference_c.md": "ends in \\",
          "reference_d.md": "[open"}
MEMORY = ("# Memory Index\n\n## Reference\n"
          + "".join(f"- [{claude_index.escape_link_text(t)}]({f}) — hook\n" for f, t in TITLES.items())
          + "- User prefers tabs\n")
NOTE = {"memfmt": ".memconv/notes/store.md", "memoir": ".memconv/notes/store.md",
        "memspec": ".memspec/.memconv/notes/store.md"}


def _links(body: str) -> list[tuple[str, str]]:
    """(link text, href) of every link CommonMark reads in ``body``."""
    found = []
    for token in MarkdownIt("commonmark").parse(body):
        kids = token.children or []
        for i, kid in enumerate(kids):
            if kid.type == "link_open":
                text = []
                for inner in kids[i + 1:]:
                    if inner.type == "link_close":
                        break
                    text.append(inner.content)
                found.append(("".join(text), kid.attrs["href"]))
    return found


@pytest.mark.parametrize("target", sorted(NOTE))
def test_every_index_title_is_a_link_in_the_store_note(tmp_path, target):
    # Watched fail before the fix: 'a ] b', 'ends in \' and '[open' were no links (the first was).
    files = {"MEMORY.md": MEMORY.encode()}
    for name in TITLES:
        files[name] = f"---\nname: {name[:-3]}\ndescription: about it\ntype: reference\n---\n\nText.\n".encode()
    write(files, tmp_path / "in")
    result = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", target, str(tmp_path / "in"),
                                       str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    body = (tmp_path / "out" / NOTE[target]).read_text(encoding="utf-8").split("\n---\n", 1)[1]
    assert sorted(_links(body)) == sorted((t, f) for f, t in TITLES.items())
    assert "\n- [a \\] b](reference_b.md)\n" in body
    back = CliRunner().invoke(main, ["convert", "--to", "claude", str(tmp_path / "out"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert (tmp_path / "back" / "MEMORY.md").read_bytes() == MEMORY.encode()


def test_one_rule_in_one_place():
    assert claude_index.escape_link_text is markdown.escape_link_text
    assert claude_index.link_text is markdown.link_text
