"""``--diff`` printed whole is a patch that ``git apply`` and ``patch`` turn OUT into what the run writes.

docs/cli.md: ``--diff`` shows a file that would move as a rename in git's form (``rename from``/``rename
to``), "so ``git apply`` and review tools read it". A rename with the same bytes has no ``---``/``+++`` lines
of its own; the next file's diff began with ``--- a/…``, which git reads as more of the rename's header:
``git apply`` refused the whole patch ("inconsistent old filename") and GNU ``patch`` applied the next file's
hunk and left the moved file where it was. An empty file added (memspec's ``archive/.gitkeep``) was skipped by
``git apply``. Each entry now opens with git's ``diff --git`` line (``new file mode``/``deleted file mode``
for a file added or deleted), as git's own diffs do.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memconv import preview

from .patch_apply import applied, whole_tree

ROOT = Path(__file__).resolve().parents[1]
_ENTRY = "---\ntype: fact\nname: {name}\ndescription: {name} in short\ncreated: 2026-04-02\n---\n\n{name} body.\n"


def _memconv(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memconv", *map(str, args)], capture_output=True, cwd=ROOT,
                          timeout=120)


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    for name in ("Alpha", "Beta"):
        (store / "memory" / f"fact_{name.lower()}.md").write_text(_ENTRY.format(name=name))
    return store


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_a_moved_file_followed_by_an_edited_one_is_applied_as_the_run_writes(tmp_path, tool):
    if shutil.which(tool) is None:
        pytest.skip(f"no {tool} here")
    store, out = _store(tmp_path), tmp_path / "out"
    assert _memconv("memoir-to-claude", "-q", store, out).returncode == 0
    (out / "reference_alpha.md").rename(out / "aaa.md")  # moved, the same bytes: sorts before what it moves to
    with open(out / "reference_beta.md", "a") as edited:  # and an edit of the file that sorts after it
        edited.write("stray\n")
    diff = _memconv("memoir-to-claude", "--diff", "-q", store, out)
    assert diff.returncode == 0 and b"rename from aaa.md\nrename to reference_alpha.md\n" in diff.stdout
    fresh = tmp_path / "fresh"
    assert _memconv("memoir-to-claude", "-q", store, fresh).returncode == 0
    assert applied(tool, out, diff.stdout, tmp_path) == whole_tree(fresh)


def test_an_empty_file_added_is_applied_too(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("no git here")
    store, out = _store(tmp_path), tmp_path / "out"
    diff = _memconv("memoir-to-memspec", "--diff", "-q", store, out)
    assert diff.returncode == 0 and not out.exists()
    fresh = tmp_path / "fresh"
    assert _memconv("memoir-to-memspec", "-q", store, fresh).returncode == 0
    assert "archive/.gitkeep" in " ".join(whole_tree(fresh))
    assert applied("git", out, diff.stdout, tmp_path) == whole_tree(fresh)


def test_every_entry_opens_with_gits_own_line():
    before = {"gone.md": b"x\n", "a.md": b"same\n", "b.md": b"one\n", "empty.md": b""}
    after = {"z.md": b"same\n", "b.md": b"two\n", "new.md": b"y\n", "blank.md": b""}
    for entry in preview.changes(before, after):
        old = entry.get("from", entry["path"])
        assert entry["diff"].startswith(f"diff --git a/{old} b/{entry['path']}\n"), entry
        if entry["change"] == "added":
            assert "\nnew file mode 100644\n--- /dev/null\n" in entry["diff"]
        if entry["change"] == "deleted":
            assert "\ndeleted file mode 100644\n--- a/" in entry["diff"]
