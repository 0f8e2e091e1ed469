"""A memory kept whole at home, edited in another dialect, comes home without the lines that dialect showed of it.

A Claude ``project`` memory is kept whole by memconv (its frontmatter is its own). In memspec and memfmt it is a
record of their kinds, and its ``aliases`` are shown there as an ``**Also known as:**`` line, so that the target's tools
show and search them. When any other line of it was edited there, the Also known as line came home as text of the
Claude body, beside the ``aliases`` key that says it already: once more on every round trip (docs/conversion.md).
"""

from __future__ import annotations

import pytest

from .conftest import GOLDEN
from .convert_helpers import convert_dir

STORE = GOLDEN / "claude" / "mixed-project" / "input"
ORIGINAL = (STORE / "project_wire.md").read_text()
EDIT = ("\n- Videos preload one ahead.\n", "\n- Videos preload two ahead.\n")


@pytest.mark.parametrize("target", ["memspec", "memfmt"])
def test_an_edit_of_a_kept_whole_memory_brings_home_no_also_known_as_line(tmp_path, target):
    out = convert_dir(STORE, target, tmp_path / target)
    [shown] = [p for p in out.rglob("*.md") if "**Also known as:** tiktok, reels, /tape" in p.read_text()
               and "wire_feed" in p.read_text()]
    text = shown.read_text()
    assert EDIT[0] in text
    shown.write_text(text.replace(*EDIT))  # the line of the file, not the carry's copy (a JSON string: no line break)
    back = convert_dir(out, "claude", tmp_path / "back")
    home = (back / "project_wire.md").read_text()
    # Watched fail before the fix, in both targets: the line came home at the end of the body.
    assert "Also known as" not in home
    assert "Videos preload two ahead." in home
    assert home.split("\n---\n", 1)[0] == ORIGINAL.split("\n---\n", 1)[0]  # the frontmatter, aliases and all


def test_the_edit_lands_where_it_was_in_memspec(tmp_path):
    out = convert_dir(STORE, "memspec", tmp_path / "memspec")
    [shown] = [p for p in out.rglob("*.md") if "wire_feed" in p.read_text() and "# The Wire" in p.read_text()]
    shown.write_text(shown.read_text().replace(*EDIT))
    back = convert_dir(out, "claude", tmp_path / "back")
    assert (back / "project_wire.md").read_text() == ORIGINAL.replace("Videos preload one ahead.",
                                                                        "Videos preload two ahead.")
