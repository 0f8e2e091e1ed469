"""A line of a file that holds a form feed, a lone carriage return or a Unicode line separator is one line of
``--diff`` (and of ``check``'s diff): the diff printed whole is still a patch that ``git apply`` and ``patch``
turn OUT into what the run writes.

The diff split each file with Python's ``str.splitlines``, which also breaks a line at ``\\r``, ``\\x0b``,
``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029. Such a piece has no ``\\n`` of its own, so the next
line of the hunk was printed on the same line of the patch: one memory holding a form feed (or a paragraph
pasted with U+2028) made ``git apply`` refuse the whole patch ("corrupt patch at line …"). A line ends at
``\\n`` only, as git and ``patch`` read it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memconv import pipeline

from .patch_apply import applied, whole_tree

ROOT = Path(__file__).resolve().parents[1]
_ODD = "form\x0cfeed, old\rmac, tab\x0bstop, next\x85line, split\u2028here, para\u2029graph, group\x1csep"
_ENTRY = "---\ntype: fact\nname: {name}\ndescription: {name} in short\ncreated: 2026-04-02\n---\n\n{body}\n"


def _memconv(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", *map(str, args)], capture_output=True, cwd=ROOT,
                          timeout=120)


def _store(tmp_path: Path, body: str) -> Path:
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True, exist_ok=True)
    for name in ("Alpha", "Beta"):
        (store / "memory" / f"fact_{name.lower()}.md").write_text(_ENTRY.format(name=name, body=body),
                                                                   newline="")
    return store


def test_each_line_of_a_file_diff_ends_at_a_newline_only():
    before = f"one\n{_ODD}\nthree\n".encode()
    after = f"one\n{_ODD} edited\nthree\n".encode()
    diff = pipeline.git_diff("x.md", before, after)
    assert f"-{_ODD}\n+{_ODD} edited\n" in diff
    for line in diff.split("\n")[:-1]:
        assert line[:1] in {"d", "-", "+", "@", " "}, repr(line)


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_a_new_out_of_memories_holding_odd_line_breaks_is_applied_as_the_run_writes(tmp_path, tool):
    if shutil.which(tool) is None:
        pytest.skip(f"no {tool} here")
    store, out = _store(tmp_path, _ODD), tmp_path / "out"
    diff = _memconv("memoir-to-claude", "--diff", "-q", store, out)
    assert diff.returncode == 0 and not out.exists()
    assert _memconv("memoir-to-claude", "-q", store, out).returncode == 0
    assert applied(tool, tmp_path / "nothing", diff.stdout, tmp_path) == whole_tree(out)


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_an_edit_beside_odd_line_breaks_is_applied_as_the_run_writes(tmp_path, tool):
    if shutil.which(tool) is None:
        pytest.skip(f"no {tool} here")
    store, out = _store(tmp_path, _ODD + "\nsecond line"), tmp_path / "out"
    assert _memconv("memoir-to-claude", "-q", store, out).returncode == 0
    _store(tmp_path, _ODD + "\nsecond line, edited")
    diff = _memconv("memoir-to-claude", "--diff", "-q", store, out)
    assert diff.returncode == 0 and b"+second line, edited" in diff.stdout
    fresh = tmp_path / "fresh"
    assert _memconv("memoir-to-claude", "-q", store, fresh).returncode == 0
    assert applied(tool, out, diff.stdout, tmp_path) == whole_tree(fresh)
