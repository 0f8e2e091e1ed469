"""``--diff`` and ``--check``: what a writing command would change in a folder, file by file.

:func:`changes` compares the files a command would write with the files a
folder holds, and returns one entry per file that differs: ``added``,
``deleted``, ``modified`` or ``renamed`` (a file that would vanish at one path
and appear, with the same bytes or the same name, at another). Each entry
holds a diff in git's dialect (a git patch): each opens with git's ``diff --git`` line (a file added or deleted
says ``new file mode``/``deleted file mode``, a rename ``rename from``/``rename to``), so that ``git apply``,
``patch`` and review tools read the entries printed one after the other. Nothing is written.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Iterable

from . import fs
from .errors import MemconvError, StoreError


#: What stands in for an entry of the folder that is not a file memconv could read (a FIFO, a link out…):
#: never equal to what a command writes, so ``--check`` calls such a folder stale.
class Unreadable(bytes):
    reason: str = ""


class EmptyFolder(Unreadable):
    """A folder of the folder compared that holds no file: the run refuses an OUT holding one it did not write
    (``--force`` too), so ``--check`` calls it stale and names it (docs/cli.md). A diff cannot hold a folder."""
    reason = "an empty folder"


def changes_in(folder: Path, files: Iterable[tuple[str, bytes]], *, manifest: bool) -> list[dict[str, str]]:
    """:func:`changes` between ``folder`` as any input is read (with memconv's manifest, ``manifest``) and
    ``files``, a stream, holding only the files that differ: a file the same at its path is read, compared and
    let go. Renames are found among the files that differ, as :func:`changes` finds them among all (a file the
    same at its path is neither gone nor new). ``--check`` of a fresh OUT of 30,000 files held OUT whole and the
    whole output beside it (docs/performance.md, "(seventeenth)")."""
    listed = _listed(folder, manifest)
    before: dict[str, bytes] = {}
    after: dict[str, bytes] = {}
    hashes: dict[str, str] = {}  # every path written, with its hash for the manifest
    for path, data in files:
        hashes[path] = fs.manifest_hash(data) if manifest else ""
        _compared(folder, listed, path, data, before, after)
    if manifest:
        _compared(folder, listed, fs.MANIFEST, fs.manifest_of(hashes), before, after)
        hashes[fs.MANIFEST] = ""
    for path, old in listed.items():  # what the folder holds and the command would not write
        if path not in hashes:
            before[path] = old if old is not None else fs.read_bytes(folder, path)
    return changes(before, after)


def _listed(folder: Path, manifest: bool) -> dict[str, bytes | None]:
    """The files of ``folder`` (none if it does not exist), unread (None), or :class:`Unreadable` where the listing
    refused them (a FIFO, a link out, a file over the size limit); memconv's manifest too (``manifest``), read, and
    :class:`EmptyFolder` for each empty folder (``manifest``: OUT, which the run refuses with one it did not write)."""
    if not os.path.isdir(folder):
        return {}
    with fs.noting_refusals(folder) as refused, fs.noting_empty_folders() as empty:
        try:
            listed: dict[str, bytes | None] = dict.fromkeys(fs.list_files(folder))
        except StoreError:
            return {}
        if manifest:
            held = fs.read_if_safe(folder, fs.MANIFEST)
            if held is not None:
                listed[fs.MANIFEST] = held
    for path, reason in fs.refused_under(folder, refused):
        odd = Unreadable(b"")
        odd.reason = reason
        listed[path] = odd
    for path in empty if manifest else ():  # IN (``migrate --diff``): an empty memory/ is no change to say
        listed[path + "/"] = EmptyFolder(b"")  # its name is safe: the listing refuses any other
    return listed


def _compared(folder: Path, listed: dict[str, bytes | None], path: str, data: bytes, before: dict[str, bytes],
              after: dict[str, bytes]) -> None:
    """``path``'s bytes to be written (``data``) and as the folder holds them, kept in ``after`` and ``before``
    when they differ (or the folder's cannot be read); forgotten when they are the same."""
    if path not in listed:
        after[path] = data
        return
    old = listed[path]
    if old is None:
        old = fs.read_bytes(folder, path)
    if old == data and not isinstance(old, Unreadable):
        return
    if isinstance(old, Unreadable) and _same_file(folder, path, data):
        return
    before[path], after[path] = old, data


def _same_file(folder: Path, path: str, data: bytes) -> bool:
    """Whether ``folder/path``, which the listing refused, is a file holding ``data``: its hash taken a megabyte at a
    time through the guard every read passes. A file memconv wrote may be over the size limit of what it reads (a
    long memory carried whole beside its text), and ``--check`` of a fresh OUT called it stale; a FIFO, a link out
    or an unreadable file stays refused (docs/limits.md)."""
    try:
        return fs.written_hash(folder, path) == fs.manifest_hash(data)
    except (OSError, MemconvError):
        return False


def changes(before: dict[str, bytes], after: dict[str, bytes]) -> list[dict[str, str]]:
    """Every file that differs between ``before`` and ``after``: ``{path, change, diff}`` (renames: ``from`` too)."""
    from .pipeline import file_diff, git_diff, git_line

    gone = sorted(p for p in before if p not in after)
    new = sorted(p for p in after if p not in before)
    renamed: dict[str, str] = {}  # new path → old path
    by_bytes: dict[bytes, list[str]] = {}
    for path in gone:
        if not isinstance(before[path], Unreadable):
            by_bytes.setdefault(before[path], []).append(path)
    for path in new:
        olds = by_bytes.get(after[path])
        if olds:
            renamed[path] = olds.pop(0)
    left_gone = [p for p in gone if p not in renamed.values() and not isinstance(before[p], Unreadable)]
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
            head = f"{git_line(old, path)}rename from {old}\nrename to {path}\n"
            body = file_diff(path, before[old], after[path], old=old) \
                if before[old] != after[path] else ""
            out.append({"path": path, "change": "renamed", "from": old, "diff": head + body})
        elif isinstance(before.get(path), Unreadable):
            # No patch holds it (a folder; a FIFO, a link out, a file over the size limit, whose bytes memconv does
            # not read): no diff, and ``why``, said on stderr, so the rest stays a patch git applies (docs/cli.md).
            out.append({"path": path, "change": "deleted" if path not in after else "modified", "diff": "",
                        "why": before[path].reason})
        elif path not in after:
            out.append({"path": path, "change": "deleted", "diff": git_diff(path, before[path], None)})
        elif path not in before:
            out.append({"path": path, "change": "added", "diff": git_diff(path, None, after[path])})
        elif before[path] != after[path]:
            out.append({"path": path, "change": "modified", "diff": git_diff(path, before[path], after[path])})
    return out
