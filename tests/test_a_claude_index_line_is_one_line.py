"""A generated MEMORY.md line says a memory's name and description on one line of text, whatever they hold."""

from __future__ import annotations

import pytest

from .conftest import round_trip, tree


@pytest.mark.parametrize("odd", ["\\0", "\\r", "\\x1b", "\\u2028", "\\x85", "\\t"])
def test_a_control_character_in_a_description_never_breaks_the_index(runner, tmp_path, odd):
    # Verified by taking _one_line out of claude's generated_link: a NUL made MEMORY.md a binary file, quarantined
    # on the way back (exit 3), and a CR or U+2028 split the link's line in two.
    entry = f'---\nname: "Odd{odd}name"\ndescription: "a{odd}b"\ntype: fact\n---\nbody text\n'.encode()
    round_trip(runner, tmp_path, {"memory/fact_odd.md": entry}, "memoir", "claude")
    index = (tmp_path / "away" / "MEMORY.md").read_bytes().decode("utf-8")
    line = next(line for line in index.split("\n") if "](reference_odd.md)" in line)
    assert line == "- [Odd name](reference_odd.md) — a b"
    assert len(index.splitlines()) == len(index.split("\n")) - 1, "no line break but the file's own"
    assert tree(tmp_path / "back") == {"memory/fact_odd.md": entry}, "the memory's file holds the text as it was"
