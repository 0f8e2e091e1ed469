"""A frontmatter key written twice in IN (YAML lets the last win) comes home as IN wrote it.

The rebuilt file of a record coming home unedited is IN's own; the rule that refuses a rebuilt file writing a key
twice is for a file rebuilt after an edit, where the patch landed beside the line it was to replace
(docs/conversion.md, "One formatting mechanism"). It refused IN's own file too, and the first value was lost.

Its way home says nothing dropped (forty-sixth session): the read-back wrote the record in IN's layout, which kept
the first ``type`` line (``user``, a preference) for the value read, the last (``reference``, a fact), so ``kind``
was counted dropped and ``--fail-on-loss`` exited 5, the file home byte for byte.
"""

from __future__ import annotations

import json

import pytest

from .conftest import round_trip, tree

_STORES = {
    "claude": {
        "MEMORY.md": b"# Memory Index\n\n- [Dup keys](user_dup.md) \xe2\x80\x94 second description\n",
        "user_dup.md": b"---\nname: Dup keys\ndescription: first description\ntype: user\n"
                       b"description: second description\n---\n\nBody of dup.\n",
        "tabs.md": b"---\nname: Tabs please\ndescription: The user prefers tabs\ntype: user\ntype: reference\n---\n\n"
                   b"The user prefers tabs over spaces.\n",
    },
    "memoir": {
        "memory/fact_dup.md": b"---\ntype: fact\nname: Dup\ndescription: first\ncreated: 2026-05-02\n"
                              b"description: second\n---\n\nBody.\n",
        "memory/fact_twice.md": b"---\ntype: preference\nname: Twice\ndescription: typed twice\ntype: fact\n---\n\n"
                                b"Typed twice.\n",
    },
}


@pytest.mark.parametrize("home, away", [(home, away) for home in sorted(_STORES)
                                        for away in ("claude", "memoir", "memspec", "memfmt") if away != home])
def test_a_key_written_twice_comes_home_as_written(runner, tmp_path, home, away):
    # Verified by asking one_line_per_key of the exact rebuild too (restore._restore_sources): the second
    # description alone comes home. (A round trip goes through another dialect: no pair of one dialect.)
    _, back = round_trip(runner, tmp_path, _STORES[home], home, away)
    assert tree(tmp_path / "back") == tree(tmp_path / "in")
    dropped = {f["source"]: f["dropped"] for f in json.loads(back.stdout)["files"] if f["dropped"]}
    assert dropped == {}, "a file home byte for byte drops nothing, whichever line of a key written twice is read"
