"""A memfmt store that has no ``MEMORY.md`` comes home from another dialect without one.

memfmt's writer wrote none for such a store read and written as memfmt, but wrote one on the way home: the absence
was known only to a store read as memfmt. It is now a store fact (``index: false``, memfmt's ``STORE_FACTS``),
carried in the store note like the others (docs/memfmt.md).
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import round_trip, tree, write_files

_STORE = {"memory/entities/Ali.md": b"---\nmemfmt_type: entity\n---\n\n# Ali\n\n## Facts\n\n- Works on the swipe feed\n"}


@pytest.mark.parametrize("away", ["claude", "memoir", "memspec"])
def test_a_memfmt_store_without_its_index_comes_home_without_one(runner, tmp_path, away):
    # Verified by leaving out the store fact in memfmt's _read_whole: memory/MEMORY.md comes home.
    round_trip(runner, tmp_path, _STORE, "memfmt", away)
    assert tree(tmp_path / "back") == tree(tmp_path / "in")


def test_a_store_converted_into_memfmt_gets_its_index(runner, tmp_path):
    inp = tmp_path / "in"
    write_files(inp, {"user_a.md": b"---\nname: A\ndescription: d\ntype: user\n---\n\nBody.\n"})
    assert runner.invoke(main, ["claude-to-memfmt", str(inp), str(tmp_path / "out")]).exit_code == 0
    assert (tmp_path / "out" / "memory" / "MEMORY.md").is_file()
