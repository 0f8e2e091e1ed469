"""The moved-project rescue: an old and a new Claude Code memory folder merged into one.

Claude Code keys memory by the project's path, so a moved project leaves its old
memory beside a new one. Both are built from the golden claude stores, overlap,
and each has edits of its own: the merge holds every record once, keeps the
conflicts as copies linked from MEMORY.md, stays within Claude Code's limits, and
`memoir validate` accepts the folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from memconv.cli import main
from memconv.dialects import claude
from memconv.dialects.claude.index import LINK_LINE
from memconv.merge.claude import LINKS_PER_PAGE

from .conftest import GOLDEN, tree, write_files

MIXED = GOLDEN / "claude" / "mixed-project" / "input"
CANONICAL = GOLDEN / "claude" / "canonical" / "input"


def _folders(tmp_path, notes: int = 0):
    old = tree(MIXED)
    new = tree(CANONICAL)
    # The new folder: Claude Code kept working after the move.
    new["feedback_new-habit.md"] = (b"---\nname: Review before merge\ndescription: ask for a review on every PR\n"
                                    b"type: feedback\n---\nAlways ask for a review.\n")
    new["MEMORY.md"] += b"- [Review before merge](feedback_new-habit.md) \xe2\x80\x94 ask for a review on every PR\n"
    # The old folder, edited in place before the move was noticed; a dated memory edited on both sides.
    for side, when, text in ((old, "2026-03-01", b"old words"), (new, "2026-04-01", b"new words")):
        side["dated.md"] = (b"---\nname: Dated\ndescription: d\ntype: reference\nupdated: " + when.encode()
                            + b"\n---\n" + text + b"\n")
    old["MEMORY.md"] += b"- [Dated](dated.md) \xe2\x80\x94 d\n"
    new["MEMORY.md"] = new["MEMORY.md"].replace(b"## Reference\n", b"## Reference\n- [Dated](dated.md) \xe2\x80\x94 d\n")
    for n in range(notes):  # a long index of inline notes: the merge must page it, not cut it
        old["MEMORY.md"] += f"- old note number {n} about the build cache and its quirks\n".encode()
    write_files(tmp_path / "old", old)
    write_files(tmp_path / "new", new)
    return tmp_path / "old", tmp_path / "new"


def _linked(out: dict[str, bytes]) -> list[str]:
    targets = []
    for path, raw in out.items():
        if claude.index.is_index_path(path):
            for line in raw.decode().splitlines():
                if m := LINK_LINE.match(line):
                    targets.append(m.group("target"))
    return targets


@pytest.mark.parametrize("notes", [0, 400])
def test_moved_project_memory_merges_into_one_folder(runner, tmp_path, notes):
    old, new = _folders(tmp_path, notes)
    result = runner.invoke(main, ["merge", str(old), str(new), str(tmp_path / "out")])
    assert result.exit_code == 6, result.output  # the golden stores disagree on three shared files
    out = tree(tmp_path / "out")
    entries = sorted(p for p in out if claude.is_entry_path(p))
    # Every record once: each stem of either folder is there, once; conflicts kept as copies.
    stems = {p[:-3] for p in tree(old) | tree(new) if claude.is_entry_path(p)}
    assert stems <= {p[:-3] for p in entries}
    copies = [p for p in entries if ".conflict-" in p]
    assert sorted(c.split(".conflict-")[0] for c in copies) == ["project_wire", "reference_grafana", "user_role"]
    assert out["dated.md"].endswith(b"new words\n")  # newer updated wins, no copy
    assert not any(p.startswith("dated.conflict-") for p in out)
    # MEMORY.md (and its pages) link every kept file, once, but the three whose lines the two indexes word
    # differently: both lines are kept (a person's hook is never dropped); within Claude Code's limits.
    linked = sorted(t for t in _linked(out) if claude.is_entry_path(t))
    assert sorted(set(linked)) == entries
    assert sorted({t for t in linked if linked.count(t) > 1}) == ["project_wire.md", "reference_grafana.md",
                                                                  "user_role.md"]
    for path, raw in out.items():
        if claude.index.is_index_path(path):
            assert len(raw.decode().splitlines()) <= 200 and len(raw) <= 25_000, path
    assert "## Conflicts" in out["MEMORY.md"].decode()
    # Hand-written inline bullets of both sides kept.
    text = b"".join(raw for p, raw in out.items() if claude.index.is_index_path(p)).decode()
    assert "User prefers Tailwind CSS" in text
    for n in range(notes):
        assert f"old note number {n} about" in text
    if notes:
        assert "MEMORY-2.md" in out and "split into" in result.output
    # Merging again with either folder changes nothing.
    for side in (old, new):
        again = runner.invoke(main, ["merge", str(tmp_path / "out"), str(side), str(tmp_path / f"again-{side.name}")])
        assert again.exit_code == 0, again.output
        assert tree(tmp_path / f"again-{side.name}") == out
    # And the other way round gives the same bytes.
    runner.invoke(main, ["merge", str(new), str(old), str(tmp_path / "flipped")])
    assert tree(tmp_path / "flipped") == out


@pytest.mark.skipif(not os.environ.get("MEMOIR_CLI") or not shutil.which("node"),
                    reason="memoir-cli not available (source /tmp/reftools.env)")
def test_memoir_validate_accepts_the_rescued_folder(runner, tmp_path):
    (tmp_path / "home").mkdir()  # HOME for the tool, removed with the test
    old, new = _folders(tmp_path, 400)
    runner.invoke(main, ["merge", str(old), str(new), str(tmp_path / "out")])
    env = dict(os.environ, HOME=str(tmp_path / "home"), DO_NOT_TRACK="1", MEMOIR_TELEMETRY="off")
    done = subprocess.run(["node", os.environ["MEMOIR_CLI"], "validate", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"all passed", done.stdout)


def test_a_huge_index_is_paged_within_the_limits_and_every_page_is_reachable():
    from memconv.merge.claude import _pages

    bullets = {("inline", f"note {i}", 0): [f"- note {i} " + "x" * (i % 90)] for i in range(20_000)}
    warnings: list[str] = []
    files = _pages("# Memory Index", [(None, None, {("text", "", 0): [""]}), ("notes", "## Notes", bullets)], warnings)
    assert len(files) > LINKS_PER_PAGE + 2 and warnings  # more pages than one page can link
    text = ""
    for path, raw in files.items():
        assert len(raw.decode().splitlines()) <= 200 and len(raw) <= 25_000, path
        text += raw.decode()
    assert all(f"- note {i} " in text for i in range(20_000))
    reachable, todo = set(), ["MEMORY.md"]
    while todo:
        page = todo.pop()
        reachable.add(page)
        for line in files[page].decode().splitlines():
            if (m := LINK_LINE.match(line)) and m.group("target") in files and m.group("target") not in reachable:
                todo.append(m.group("target"))
    assert reachable == set(files)
