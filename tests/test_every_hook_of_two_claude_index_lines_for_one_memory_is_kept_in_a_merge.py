"""Every hook of two Claude index lines linking one memory is kept in a merge.

`memconv merge A B OUT` of two Claude Code folders regenerates MEMORY.md from both indexes (docs/merge.md). Two
lines linking one memory file — A's and B's, each with its own hook text, or two lines of one index — were one
line: the one that sorted last was kept, and the other's words (a person's hook) were dropped, exit 0 and no word.
Now every line with words of its own is kept, beside the other: lines from the two sides that neither holds all of
are a conflict (nothing orders them, no date is on an index line), exit 6, and merging the result again with
either side is exit 0, no new conflict. A store merged with itself is given back byte for byte, duplicate lines
and all. The same line on both sides (or moved to another section) is still kept once.
"""

from __future__ import annotations

import json
from pathlib import Path

from memconv.cli import main

ENTRY = "---\nname: Role\ndescription: the user's role\ntype: user\n---\n\nThe user is a data scientist.\n"
HOOK_A = "data scientist, focus on observability"
HOOK_B = "prefers terse answers about Python"


def _store(root: Path, index: str) -> Path:
    root.mkdir()
    (root / "user_role.md").write_text(ENTRY)
    (root / "MEMORY.md").write_text(index)
    return root


def _files(root: Path) -> dict[str, bytes]:
    """The store's files, without memconv's own manifest of what it wrote."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.relative_to(root).as_posix().startswith(".memconv/")}


def _merge(runner, a: Path, b: Path, out: Path):
    result = runner.invoke(main, ["merge", "--json", "--from", "claude", str(a), str(b), str(out)])
    return result, json.loads(result.stdout)


def _line(hook: str, title: str = "Role") -> str:
    return f"- [{title}](user_role.md) — {hook}\n"


def test_each_sides_hook_for_one_memory_is_kept_and_reported(runner, tmp_path):
    a = _store(tmp_path / "a", f"# Memory Index\n\n## User\n{_line(HOOK_A)}")
    b = _store(tmp_path / "b", f"# Memory Index\n\n## User\n{_line(HOOK_B)}")
    result, report = _merge(runner, a, b, tmp_path / "out")
    assert result.exit_code == 6, result.output
    index = (tmp_path / "out" / "MEMORY.md").read_text()
    assert _line(HOOK_A) + _line(HOOK_B) in index  # both, one beside the other
    assert index.count("(user_role.md)") == 2
    [conflict] = [r for r in report["records"] if r["kind"] == "index" and r["status"] == "conflict"]
    assert conflict["identity"] == "user_role.md" and not conflict["already_kept"]
    # merge(B, A) is the same bytes
    result, _ = _merge(runner, b, a, tmp_path / "out-ba")
    assert result.exit_code == 6 and _files(tmp_path / "out-ba") == _files(tmp_path / "out")
    # merging the result again with either side, or with itself, changes nothing and says no new conflict
    for n, side in enumerate((a, b, tmp_path / "out")):
        again = tmp_path / f"again-{n}"
        result, report = _merge(runner, tmp_path / "out", side, again)
        assert result.exit_code == 0, result.output
        assert _files(again) == _files(tmp_path / "out")
        assert not [r for r in report["records"] if r["status"] == "conflict" and not r["already_kept"]]


def test_one_index_with_two_lines_for_one_memory_merged_with_itself_is_the_same_bytes(runner, tmp_path):
    index = (f"# Memory Index\n\n## User\n{_line('first hook')}{_line('second hook')}\n"
             f"## Feedback\n{_line('third hook, in another section', 'Role again')}")
    c = _store(tmp_path / "c", index)
    result, report = _merge(runner, c, c, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert _files(tmp_path / "out") == _files(c)
    assert not [r for r in report["records"] if r["status"] == "conflict"]
    # with a store that has one of them: every hook still there, no conflict (one side holds them all)
    one = _store(tmp_path / "one", f"# Memory Index\n\n## User\n{_line('second hook')}")
    result, _ = _merge(runner, c, one, tmp_path / "out2")
    assert result.exit_code == 0, result.output
    assert _files(tmp_path / "out2") == _files(c)


def test_the_same_line_on_both_sides_or_moved_to_another_section_is_kept_once(runner, tmp_path):
    a = _store(tmp_path / "a", f"# Memory Index\n\n## User\n{_line(HOOK_A)}\n## Feedback\n- none yet\n")
    b = _store(tmp_path / "b", f"# Memory Index\n\n## User\n\n## Feedback\n- none yet\n{_line(HOOK_A)}")
    result, _ = _merge(runner, a, b, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "MEMORY.md").read_text().count("(user_role.md)") == 1
