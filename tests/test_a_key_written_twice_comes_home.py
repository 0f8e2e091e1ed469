"""A frontmatter key written twice in IN (YAML lets the last win) comes home as IN wrote it.

The rebuilt file of a record coming home unedited is IN's own; the rule that refuses a rebuilt file writing a key
twice is for a file rebuilt after an edit, where the patch landed beside the line it was to replace
(docs/conversion.md, "One formatting mechanism"). It refused IN's own file too, and the first value was lost.
"""

from __future__ import annotations

import pytest

from .conftest import round_trip, tree

_STORES = {
    "claude": {
        "MEMORY.md": b"# Memory Index\n\n- [Dup keys](user_dup.md) \xe2\x80\x94 second description\n",
        "user_dup.md": b"---\nname: Dup keys\ndescription: first description\ntype: user\n"
                       b"description: second description\n---\n\nBody of dup.\n",
    },
    "memoir": {
        "memory/fact_dup.md": b"---\ntype: fact\nname: Dup\ndescription: first\ncreated: 2026-05-02\n"
                              b"description: second\n---\n\nBody.\n",
    },
}


@pytest.mark.parametrize("home", sorted(_STORES))
@pytest.mark.parametrize("away", ["claude", "memoir", "memspec", "memfmt"])
def test_a_key_written_twice_comes_home_as_written(runner, tmp_path, home, away):
    # Verified by asking one_line_per_key of the exact rebuild too (restore._restore_sources): the second
    # description alone comes home.
    if away == home:
        pytest.skip("a round trip goes through another dialect")
    round_trip(runner, tmp_path, _STORES[home], home, away)
    assert tree(tmp_path / "back") == tree(tmp_path / "in")
