"""A description memconv fills in (the target's tools require one) starts with the body's first words.

memoir and Claude Code want every entry to have a description; when a record has none, memconv
takes the body's first block of words as markdown reads it, without the Markdown that starts a line (a
heading's ``#``, a quote's ``>``); a list is one block, its items without their markers. It used to
strip every leading ``#``, ``>``, ``-``, ``*``, digit, dot and space, so "2FA must be on" was described
as "FA must be on" and "2024 was the year" as "was the year" (found by reading memconv's memoir output
with memoir-cli's own parser).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memconv.cli import main

CASES = [
    ("2FA must be enabled for admins.", "2FA must be enabled for admins."),
    ("2024 was the year we moved.", "2024 was the year we moved."),
    ("#123 is the root-cause ticket.", "#123 is the root-cause ticket."),
    (".env files stay local.", ".env files stay local."),
    ("3rd-party keys rotate monthly.", "3rd-party keys rotate monthly."),
    ("10x slower on CI than locally.", "10x slower on CI than locally."),
    ("*.pyc files are ignored.", "*.pyc files are ignored."),
    ("**Why:** the cache was cold.", "**Why:** the cache was cold."),
    ("# Deploy checklist\n\nTag first.", "Deploy checklist"),
    # A list is one block: every item without its marker. Before, blank lines made the paragraphs, and only the
    # first marker of a list went ("first item - second item", "Check the logs 2. Restart it").
    ("- first item\n- second item", "first item; second item"),
    ("1. Check the logs.\n2. Restart it.\n3. Verify.", "Check the logs. Restart it. Verify."),
    ("1. **Check** the logs\n   carefully\n2. restart", "**Check** the logs carefully; restart"),
    ("- one\n- two\n\nAfter the list.", "one; two"),
    ("Steps:\n1. build\n2. ship", "Steps:"),
    ("```\nmake all\n```\n\nThe build.", "The build."),
    ("1. build the wheel", "build the wheel"),
    ("> quoted words here", "quoted words here"),
    ("---\n\nAfter a rule.", "After a rule."),
]


@pytest.mark.parametrize("body, described", CASES, ids=[c[0][:12] for c in CASES])
def test_a_filled_description_keeps_the_first_words(tmp_path, body, described):
    # Verified with the old lstrip("#>-*0123456789. ") back in transforms._first_line: "FA must be…",
    # "was the year…", "is the root-cause…", "env files…", "rd-party…", "x slower…", "pyc files…", "Why:**…".
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "MEMORY.md").write_text("# Memory Index\n\n- [Note](reference_note.md)\n")
    (tmp_path / "in" / "reference_note.md").write_text(f"---\nname: Note\ntype: reference\n---\n\n{body}\n")
    result = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", "memoir",
                                       str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    [entry] = (tmp_path / "out" / "memory").glob("*.md")
    from memconv import frontmatter

    values, _ = frontmatter.split(entry.read_text(), str(entry))
    assert values.values["description"] == described
