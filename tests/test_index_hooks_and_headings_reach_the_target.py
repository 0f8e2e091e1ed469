"""A Claude index's title, its headings and a link's hook its memory does not say reach the target's tools.

``- [The Wire](project_wire.md) — vertical swipe feed at /tape`` says something the memory's description
("The Wire as a vertical swipe feed at /tape — shipped behind a flag") does not; ``# Project memory`` and
``## Loose notes`` are someone's words too (not ``# Memory Index`` nor ``## User``, which every index may have). They travelled only in the store note under ``.memconv/notes/``,
which memoir, memspec and memfmt neither show nor search (principle 1). They are now in the record "Written
in MEMORY.md" (``native.index_words``), a rendering the way back drops, the index coming home byte for byte.
"""

from __future__ import annotations

import shutil

import memfmt
import pytest

from memconv import pipeline

from .conftest import GOLDEN, run_json, tree
from .reference_tools import memspec, needs_memspec

MIXED = GOLDEN / "claude" / "mixed-project" / "input"
HOOK = "mocked DB tests hid a broken migration"


def _shown(folder) -> bytes:
    return b"\n".join(b for p, b in tree(folder).items() if ".memconv/" not in "/" + p)


def _own(folder) -> dict[str, bytes]:
    return {p: b for p, b in tree(folder).items() if not p.startswith(".memconv/")}


@pytest.mark.parametrize("target", ["memoir", "memspec", "memfmt"])
def test_the_target_shows_them_and_the_way_back_is_exact(tmp_path, target):
    run_json("convert", "--from", "claude", "--to", target, str(MIXED), str(tmp_path / "there"))
    shown = _shown(tmp_path / "there").decode()
    assert f"No mocks for the DB layer — {HOOK}" in shown
    assert "## Loose notes" in shown
    run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert _own(tmp_path / "back") == tree(MIXED)


def test_memfmt_reads_them(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memfmt", str(MIXED), str(tmp_path / "there"))
    entities = {e.name: e for e in memfmt.load(tmp_path / "there" / "memory").entities}
    assert f"No mocks for the DB layer — {HOOK}" in entities["MEMORY.md's own words"].facts


@needs_memspec
def test_memspec_finds_a_hook(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memspec", str(MIXED), str(tmp_path / "there"))
    found = memspec(tmp_path / "there", "search", "hid")
    assert found.returncode == 0, found.stderr
    assert "MEMORY.md's own words" in found.stdout


def _store(tmp_path, index: str):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(MIXED / "user_role.md", src / "user_role.md")
    (src / "MEMORY.md").write_text(index)
    return src


def test_a_hook_its_memory_says_is_not_said_twice(tmp_path):
    # The description is shown as the memory's own; the index says nothing more.
    src = _store(tmp_path, "- [Role and background](user_role.md) — Senior backend engineer, new to the frontend "
                           "of this codebase\n- a bullet\n")
    run_json("convert", "--from", "claude", "--to", "memoir", str(src), str(tmp_path / "there"))
    assert not [r for r in pipeline.read(tmp_path / "there", "memoir").records if r.title == "MEMORY.md's own words"]


def test_a_rendering_of_a_hook_alone_deleted_in_the_target_is_told(tmp_path):
    # Watched fail with _deleted_renderings asking IndexFile.words alone (empty here): no word of the deletion.
    src = _store(tmp_path, "- [Role and background](user_role.md) — backend, and learning the frontend\n- a bullet\n")
    run_json("convert", "--from", "claude", "--to", "memoir", str(src), str(tmp_path / "there"))
    [words] = [p for p in (tmp_path / "there" / "memory").glob("*.md") if b"MEMORY.md's own words" in p.read_bytes()]
    assert b"- Role and background \xe2\x80\x94 backend, and learning the frontend" in words.read_bytes()
    unedited = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "same"))
    assert not [w for w in unedited["warnings"] if "any more" in w], unedited["warnings"]
    words.unlink()
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert [w for w in back["warnings"] if "the words written in it is not in memoir any more" in w], back["warnings"]
    assert _own(tmp_path / "back") == tree(src)


def test_a_link_named_otherwise_than_its_memory_is_shown(tmp_path):
    # Its hook is the description, but the index calls the memory something else. Watched fail without the
    # title's test in native.index_words.
    src = _store(tmp_path, "- [Who I am](user_role.md) — Senior backend engineer, new to the frontend "
                           "of this codebase\n- a bullet\n")
    run_json("convert", "--from", "claude", "--to", "memspec", str(src), str(tmp_path / "there"))
    assert "- Who I am — Senior backend engineer" in _shown(tmp_path / "there").decode()
    run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert _own(tmp_path / "back") == tree(src)
