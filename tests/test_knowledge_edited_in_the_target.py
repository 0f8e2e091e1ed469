"""A memfmt entity's knowledge, edited or deleted where another dialect shows it, is edited or deleted at home.

memfmt's ``## Knowledge`` has no place in memoir, Claude or memspec: ``show`` writes it into the body, a line an
entry (``- **[snippet] deploy command** — how the service ships``) and an artifact in a fence under its line. Edited
there, the old knowledge came home from the carry and the edited lines beside it, as facts of dashes
(``- - **[quote] on tests** …``, a fence's lines run together); deleted there, it came home from the carry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import GOLDEN
from .convert_helpers import convert_dir

SRC = GOLDEN / "memfmt" / "full" / "input"
ALI = "memory/entities/Ali.md"
BLOCK = ("- **[snippet] deploy command** — how the service ships\n\n```\nrailway up --detach\nrailway logs\n```\n\n"
         "- **[quote] on tests** — \"a test that cannot fail is a defect\"\n- **[note] title only**\n")
KNOWLEDGE = ("**[snippet] deploy command** — how the service ships\n\n```\nrailway up --detach\nrailway logs\n```\n"
             "**[quote] on tests** — \"a test that cannot fail is a defect\"\n**[note] title only**\n")


def _home(tmp_path: Path, via: str, old: str, new: str) -> str:
    out = convert_dir(SRC, via, tmp_path / via)
    [shown] = [p for p in out.rglob("*.md") if BLOCK in p.read_text()]
    text = shown.read_text()
    assert text.count(old) == 1
    shown.write_text(text.replace(old, new))
    return (convert_dir(out, "memfmt", tmp_path / "back") / ALI).read_text()


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
def test_an_edited_artifact_line_is_the_knowledge(tmp_path, via):
    back = _home(tmp_path, via, "railway logs\n", "railway logs --tail\n")
    original = (SRC / ALI).read_text()
    assert back == original.replace("railway logs\n", "railway logs --tail\n")  # and no fact of it


@pytest.mark.parametrize("via", ["memoir", "claude"])
def test_an_edited_entry_line_is_the_knowledge(tmp_path, via):
    back = _home(tmp_path, via, "- **[note] title only**\n", "- **[note] title only** — now with words\n")
    original = (SRC / ALI).read_text()
    assert back == original.replace("**[note] title only**", "**[note] title only** — now with words")


@pytest.mark.parametrize("via", ["memoir", "claude"])
def test_the_knowledge_deleted_there_is_deleted_at_home(tmp_path, via):
    back = _home(tmp_path, via, BLOCK + "\n", "")
    original = (SRC / ALI).read_text()
    assert KNOWLEDGE in original and "## Knowledge" not in back and "railway" not in back
    assert back.split("## Relations")[0] == original.split("## Relations")[0]
