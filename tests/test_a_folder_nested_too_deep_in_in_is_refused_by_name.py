"""A folder of IN nested deeper than ``fs.MAX_FOLDER_DEPTH`` is refused by name, as any entry memconv does not read.

IN is untrusted: a chain of 1,100 folders (``a/a/…/x.md``, 2,200 bytes of path, which Linux allows) made the
listing recurse past Python's limit, and every command stopped, exit 4, "input nested too deeply to read … please
report it", naming no file: the store was not converted at all.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import shutil
import tempfile

import pytest

from memconv import fs
from memconv.cli import main

from .conftest import GOLDEN


def _chain(root: Path, depth: int, name: str = "deep.md") -> None:
    """``depth`` folders, each named ``a``, one inside the other under ``root``, the last holding ``name``."""
    folder = os.fspath(root)
    for _ in range(depth):  # one at a time: os.makedirs recurses once a level
        folder = os.path.join(folder, "a")
        os.mkdir(folder)
    with open(os.path.join(folder, name), "w") as handle:
        handle.write("deep\n")


def _unchain(root: Path) -> None:
    """Remove everything under ``root``, deepest first (``shutil.rmtree``, pytest's cleanup too, recurses once a
    level before Python 3.12, and the chain is deeper than that goes)."""
    todo, folders = [os.fspath(root)], []
    while todo:
        folder = todo.pop()
        folders.append(folder)
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    todo.append(entry.path)
                else:
                    os.unlink(entry.path)
    for folder in reversed(folders):
        os.rmdir(folder)


@pytest.fixture
def tmp():
    """A folder of its own, not under pytest's ``tmp_path``: pytest removes old ones with ``shutil.rmtree``, which
    a chain this deep stops, in this run or in a later one."""
    folder = Path(tempfile.mkdtemp(prefix="memconv-deep-"))
    try:
        yield folder
    finally:
        _unchain(folder)


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``, walked with a stack (``os.walk`` recurses once a level before Python 3.12)."""
    seen, todo = {}, [os.fspath(root)]
    while todo:
        with os.scandir(todo.pop()) as entries:
            for entry in entries:
                st = entry.stat(follow_symlinks=False)
                seen[entry.path] = (st.st_mode, st.st_size, st.st_mtime_ns)
                if entry.is_dir(follow_symlinks=False):
                    todo.append(entry.path)
    return seen


@pytest.mark.parametrize("command", [["convert", "--to", "claude"], ["migrate"], ["check"], ["detect"]])
def test_a_folder_chain_deeper_than_python_recurses_is_refused_by_name(runner, tmp, command):
    store = tmp / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", store)
    # Verified by listing without the bound (fs._scan): every command exits 4, "please report it".
    _chain(store / "memory", 1100)
    before = _snapshot(store)
    writes = command[0] in ("convert", "migrate")
    out = tmp / "out"
    result = runner.invoke(main, [*command, "--json", str(store), *([str(out)] if writes else [])])
    assert "report it" not in result.output + result.stderr and result.exit_code in (0, 1, 3), result.output
    report = json.loads(result.stdout)
    refused = {r["path"]: r["reason"] for r in report["refused"]}
    too_deep = "memory/" + "/".join(["a"] * fs.MAX_FOLDER_DEPTH)
    assert "nested deeper than" in refused.get(too_deep, ""), refused
    assert report["exit_status"] == {"convert": "quarantined", "migrate": "quarantined", "check": "differences",
                                     "detect": "ok"}[command[0]]
    assert _snapshot(store) == before
    if writes:  # the rest of the store was converted
        assert any(out.rglob("*.md"))


def test_a_file_at_the_bound_is_read_and_one_folder_deeper_is_refused(tmp_path):
    # Verified by an off-by-one in the bound (>= for >): the file at the bound is refused.
    root = tmp_path / "in"
    (root / "x").mkdir(parents=True)
    _chain(root / "x", fs.MAX_FOLDER_DEPTH - 1, "kept.md")
    _chain(root, fs.MAX_FOLDER_DEPTH + 1, "lost.md")
    with fs.noting_refusals() as refused:
        listed = fs.list_files(root)
    assert listed == ["x/" + "a/" * (fs.MAX_FOLDER_DEPTH - 1) + "kept.md"]
    shown = fs.refused_under(root, refused)
    assert [path for path, _ in shown] == ["/".join(["a"] * (fs.MAX_FOLDER_DEPTH + 1))]
    assert "nested deeper than" in shown[0][1]
