"""A Claude index line that links `./x.md` says what the same line linking `x.md` says: a merge keeps it once.

A link's `./` is how the destination is spelled, not words a person wrote: the claude reader takes `./x.md` and
`x.md` for one target. A merge of two indexes linking one memory, one side as `(./user_role.md)`, the other as
`(user_role.md)`, with the same title and hook, kept both lines (the memory twice in MEMORY.md) and reported a
conflict, "the two indexes link it with different words", exit 6, where the words are the same.
"""

from __future__ import annotations

import json
from pathlib import Path

from memconv.cli import main

ENTRY = "---\nname: Role\ndescription: the user's role\ntype: user\n---\n\nThe user is a data scientist.\n"


def _store(root: Path, target: str) -> Path:
    root.mkdir()
    (root / "user_role.md").write_text(ENTRY)
    (root / "MEMORY.md").write_text(f"# Memory Index\n\n## User\n- [Role]({target}) — the user's role\n")
    return root


def _merge(runner, a: Path, b: Path, out: Path):
    result = runner.invoke(main, ["merge", "--json", "--from", "claude", str(a), str(b), str(out)])
    return result, json.loads(result.stdout)


def test_a_line_linking_dot_slash_and_one_linking_the_name_are_one_line(runner, tmp_path):
    a = _store(tmp_path / "a", "user_role.md")
    b = _store(tmp_path / "b", "./user_role.md")
    result, report = _merge(runner, a, b, tmp_path / "out")
    assert result.exit_code == 0, "the same words linking the same memory are no conflict"
    assert not [r for r in report["records"] if r["status"] == "conflict"]
    index = (tmp_path / "out" / "MEMORY.md").read_text()
    assert index.count("user_role.md)") == 1, f"the memory is linked once:\n{index}"
    again, _ = _merge(runner, b, a, tmp_path / "out-ba")
    assert again.exit_code == 0 and (tmp_path / "out-ba" / "MEMORY.md").read_text() == index
    for n, side in enumerate((a, b)):  # merging the result again with either side changes nothing
        result, _ = _merge(runner, tmp_path / "out", side, tmp_path / f"again-{n}")
        assert result.exit_code == 0 and (tmp_path / f"again-{n}" / "MEMORY.md").read_text() == index
