"""Listing IN keeps the names of a folder, not its ``os.DirEntry`` objects and the ``stat`` each keeps once asked:
for a flat folder of 100,000 memories (memoir's ``entries/``, a Claude folder) those took 85 MB at the start of
every command, twice what `migrate` then needed for the rest of its run (docs/performance.md, "(thirty-sixth)")."""

from __future__ import annotations

import tracemalloc

from memconv import fs


def test_listing_a_flat_folder_holds_little_beside_the_paths(tmp_path):
    folder = tmp_path / "entries"
    folder.mkdir()
    count = 3000
    for n in range(count):
        (folder / f"memory-{n:05}.md").write_bytes(b"x\n")
    tracemalloc.start()
    try:
        found = fs.list_files(tmp_path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found == [f"entries/memory-{n:05}.md" for n in range(count)]
    # The paths found and the folder's names: about 150 bytes a file. With the entries and their stats held
    # to the folder's end it was over 850.
    assert peak / count < 400, f"{peak / count:.0f} bytes a file at the listing's peak"
