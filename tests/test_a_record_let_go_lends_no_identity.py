"""The way back's tables (owners, the fields edited, the states changed) know each restored record by its id(). A
restored record the conversion does not keep (a rendering of an index bullet its index says again, a carry claiming
an owner that cannot hold it) is held to the conversion's end (``Conversion.identities``): let go, its identity went
to a record made after it. So a memory written by hand in the target, linking a restored memory (so that the way back
made a copy of it, its link named home), came home with the owner of an inline bullet's rendering: taken for the
target's own, it kept its memoir name in a Claude folder (``fact_new-by-hand.md``) and was not linked as new."""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.cli import _for_conversion

from .conftest import GOLDEN
from .convert_helpers import planned, write_files

BY_HAND = b"---\ntype: fact\nname: New by hand\ndescription: Written here\ncreated: 2026-05-02\n---\n\nSee [[{link}]].\n"


def _files(root: Path, source: str, target: str, *, packed: bool) -> dict[str, bytes]:
    return planned(root, source, target, _for_conversion(source, target) if packed else {})[0]


@pytest.mark.parametrize("packed", [True, False])
def test_a_memory_written_by_hand_comes_home_as_new_beside_inline_bullets(tmp_path, packed):
    # Watched fail (packed=False) with the renderings let go instead of held: fact_new-by-hand.md, not linked.
    away = tmp_path / "memoir"
    write_files(_files(GOLDEN / "claude" / "mixed-project" / "input", "claude", "memoir", packed=True), away)
    (away / "memory" / "fact_new-by-hand.md").write_bytes(BY_HAND.replace(b"{link}", b"decision_local-db"))
    home = _files(away, "memoir", "claude", packed=packed)
    assert "reference_new-by-hand.md" in home and "fact_new-by-hand.md" not in home
    assert home["reference_new-by-hand.md"].endswith(b"See [[decision_local-db]].\n"), "the memory it links, by name"
    assert "decision_local-db.md" in home
    assert b"(reference_new-by-hand.md)" in home["MEMORY.md"], "linked from the folder's index, as new to it"
