"""The warning that a store's index travels in the store note is of that note, and of a kind of its own.

"1 index file(s) carried in .memconv/notes/store.md" named the note after its count: ``notices`` had it as kind
``other``, ``path`` null, though it names the one file that holds the index. It now opens with the note's path, as
every warning of a file does, and is of kind ``index-carried``.
"""

from __future__ import annotations

import shutil

import pytest

from .conftest import GOLDEN, run_json

NOTE = "\n## Notes\n\nAli prefers mornings; ask Kenji before deploys.\n"


@pytest.mark.parametrize("target", ["memoir", "claude", "memspec"])
def test_the_carried_index_notice_names_the_store_note(tmp_path, target):
    # Watched fail before: {"kind": "other", "path": null, "message": "1 index file(s) carried in …"}.
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", src)
    index = src / "memory" / "MEMORY.md"
    index.write_bytes(index.read_bytes() + NOTE.encode())
    doc = run_json("convert", "--to", target, str(src), str(tmp_path / "out"))
    [said] = [n for n in doc["notices"] if "index file(s) carried" in n["message"]]
    assert said["kind"] == "index-carried", said
    assert said["path"] is not None and ".memconv/notes/store." in said["path"], said
    assert (tmp_path / "out" / said["path"]).is_file(), "the notice names the note the index is carried in"
    assert NOTE.strip().split("\n")[-1].encode() in (tmp_path / "out" / said["path"]).read_bytes()
