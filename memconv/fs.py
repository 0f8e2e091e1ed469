"""The disk: listing a store's files, and writing an output tree atomically.

Readers never write; the only writer of files is :func:`write_tree`, which
builds the whole output in a temporary folder beside OUT and renames it into
place, so a run that fails or is killed leaves no half-written store.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath

from .errors import OutputError, StoreError

#: Folders that are never part of any store: version control, not memory.
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn"})

#: Where quarantined originals go inside OUT.
QUARANTINE_DIR = ".memconv/quarantine"


def list_files(root: Path) -> list[str]:
    """Every file under ``root`` as a sorted POSIX relative path, VCS folders skipped."""
    if not root.is_dir():
        raise StoreError(f"{root}: no such folder", hint="give the path of a store folder")
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        rel = Path(dirpath).relative_to(root)
        for name in filenames:
            found.append((rel / name).as_posix())
    found.sort()
    return found


def safe_relpath(path: str) -> str:
    """``path`` if it stays inside OUT once joined to it; an :class:`OutputError` otherwise."""
    p = PurePosixPath(path)
    if p.is_absolute() or not p.parts or any(part in ("..", "", ".") for part in p.parts) or "\\" in path \
            or "\x00" in path:
        raise OutputError(f"refusing to write {path!r}: it would land outside the output folder",
                          hint="this is a bug in a writer or a hostile name in the input; nothing was written")
    return p.as_posix()


def check_out(out: Path, force: bool) -> None:
    """OUT must not exist or must be empty, unless ``force``."""
    if out.exists():
        if not out.is_dir():
            raise OutputError(f"{out}: exists and is not a folder", hint="choose another output path")
        if any(out.iterdir()) and not force:
            raise OutputError(f"{out}: folder is not empty", hint="choose an empty or new folder, or pass --force")


def stage(files: dict[str, bytes], beside: Path) -> Path:
    """A new temporary folder next to ``beside`` holding ``files``; removed again if writing fails.

    Built on the same file system as its destination, so that a rename can put
    it in place whole.
    """
    for path in files:
        safe_relpath(path)
    beside.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{beside.name}.memconv-", dir=beside.parent))
    try:
        for path, data in files.items():
            target = tmp / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


def write_tree(files: dict[str, bytes], out: Path, force: bool = False) -> None:
    """Write ``files`` (relative path → bytes) as the folder ``out``, all or nothing."""
    check_out(out, force)
    out = out.absolute()
    tmp = stage(files, out)
    try:
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.memconv-old-", dir=out.parent))
            os.rename(out, old / "old")
            os.rename(tmp, out)
            shutil.rmtree(old)
        else:
            os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
