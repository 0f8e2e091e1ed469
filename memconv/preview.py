"""``--diff`` and ``--check``: what a writing command would change in a folder, file by file.

:func:`changes` compares the files a command would write with the files a
folder holds, and returns one entry per file that differs: ``added``,
``deleted``, ``modified`` or ``renamed`` (a file that would vanish at one path
and appear, with the same bytes or the same name, at another). Each entry
holds a unified diff, in git's dialect for renames (``rename from``/``rename
to``), so ``git apply`` and review tools read it. Nothing is written.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from . import fs
from .errors import StoreError


def on_disk(folder: Path, *, with_manifest: bool) -> dict[str, bytes]:
    """The files of ``folder`` (``{}`` if it does not exist), read as any input is; memconv's manifest too if asked."""
    if not os.path.isdir(folder):
        return {}
    token = fs.confine(folder)
    try:
        try:
            paths = fs.list_files(folder)
        except StoreError:
            return {}
        files = {path: fs.read_bytes(folder, path) for path in paths}
        if with_manifest:
            manifest = fs.read_if_safe(folder, fs.MANIFEST)
            if manifest is not None:
                files[fs.MANIFEST] = manifest
        return files
    finally:
        fs.release(token)


def with_manifest(files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` as OUT holds them once written: with memconv's manifest."""
    return {**files, fs.MANIFEST: fs.manifest(files)}


def changes(before: dict[str, bytes], after: dict[str, bytes]) -> list[dict[str, str]]:
    """Every file that differs between ``before`` and ``after``: ``{path, change, diff}`` (renames: ``from`` too)."""
    from .pipeline import _diff

    gone = sorted(p for p in before if p not in after)
    new = sorted(p for p in after if p not in before)
    renamed: dict[str, str] = {}  # new path → old path
    by_bytes: dict[bytes, list[str]] = {}
    for path in gone:
        by_bytes.setdefault(before[path], []).append(path)
    for path in new:
        olds = by_bytes.get(after[path])
        if olds:
            renamed[path] = olds.pop(0)
    left_gone = [p for p in gone if p not in renamed.values()]
    by_name: dict[str, list[str]] = {}
    for path in left_gone:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    for path in new:
        if path in renamed:
            continue
        olds = by_name.get(posixpath.basename(path))
        if olds and len(olds) == 1:  # one file of that name left, one came: moved, and edited
            renamed[path] = olds.pop()
    moved_from = set(renamed.values())
    out: list[dict[str, str]] = []
    for path in sorted(set(before) | set(after)):
        if path in moved_from:
            continue
        if path in renamed:
            old = renamed[path]
            head = f"diff --git a/{old} b/{path}\nrename from {old}\nrename to {path}\n"
            body = _diff(path, before[old], after[path]).replace(f"--- a/{path}\n", f"--- a/{old}\n", 1) \
                if before[old] != after[path] else ""
            out.append({"path": path, "change": "renamed", "from": old, "diff": head + body})
        elif path not in after:
            out.append({"path": path, "change": "deleted", "diff": _diff(path, before[path], None)})
        elif path not in before:
            out.append({"path": path, "change": "added", "diff": _diff(path, None, after[path])})
        elif before[path] != after[path]:
            out.append({"path": path, "change": "modified", "diff": _diff(path, before[path], after[path])})
    return out
