"""``--check`` and ``--diff`` compare a stream of files with a folder holding only the files that differ, and say
what comparing every file held whole says: the same changes, renames included (found among the files that
differ, since a file the same at its path is neither gone nor new)."""

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import fs, preview

_PATHS = st.sampled_from(["a.md", "b.md", "memory/c.md", "memory/d.md", "e.md"])
_BYTES = st.sampled_from([b"one\n", b"two\n", b"three\n", b""])


def _whole(folder: Path, manifest: bool) -> dict[str, bytes]:
    """Every file of ``folder`` read, with its manifest if asked: what ``--check`` compared before it streamed."""
    files = {path: fs.read_bytes(folder, path) for path in fs.list_files(folder)} if folder.is_dir() else {}
    held = fs.read_if_safe(folder, fs.MANIFEST) if manifest and folder.is_dir() else None
    return files if held is None else {**files, fs.MANIFEST: held}


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_PATHS, _BYTES, max_size=5), st.dictionaries(_PATHS, _BYTES, max_size=5), st.booleans(),
       st.booleans())
def test_a_stream_compared_says_what_the_whole_folder_compared_says(on_disk, files, manifest, written_by_memconv):
    # Verified by taking as deleted what the folder holds and neither side of a difference holds (not what the
    # stream wrote): every file written the same is then reported deleted.
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as tmp:
        folder = Path(tmp) / "out"
        for path, data in on_disk.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(data)
        if written_by_memconv:
            (folder / fs.MANIFEST).parent.mkdir(parents=True, exist_ok=True)
            (folder / fs.MANIFEST).write_bytes(fs.manifest(on_disk))
        whole = preview.changes(_whole(folder, manifest), {**files, fs.MANIFEST: fs.manifest(files)} if manifest
                                else files)
        assert preview.changes_in(folder, iter(files.items()), manifest=manifest) == whole
