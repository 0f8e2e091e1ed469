"""The disk: the one path guard, listing and reading a store safely, and writing OUT atomically.

IN is untrusted. :func:`list_files` never follows a symbolic link out of the
folder it lists, never opens a FIFO, socket or device, and reports (rather
than skips in silence) every entry it will not read. :func:`read_bytes` opens
one file with ``O_NOFOLLOW|O_NONBLOCK`` and never reads more than the size
limit. Every path memconv writes passes :func:`safe_relpath`, and the only
functions that write files are :func:`write_files` (into a folder memconv has
just made) and :func:`write_tree`, which builds the whole output in a
temporary folder beside OUT and renames it into place, so a run that fails or
is killed leaves no half-written store. ``--force`` only ever replaces an OUT
that is empty or that memconv wrote (its manifest says so).
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import errno
import functools
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Tuple, Union

from . import progress
from .errors import OutputError, ReadError, StoreError
from .model import Pieces, in_chunks
from .text import short_hash
from .limits import DEFAULT_MAX_FILE_SIZE, Limits, limits, reset_limits, set_limits  # noqa: F401 (one place)

#: Folders that are never part of any store: version control, not memory.
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn"})

#: memconv's own folder in OUT.
MEMCONV_DIR = ".memconv"
#: Where quarantined originals go inside OUT.
QUARANTINE_DIR = ".memconv/quarantine"
#: What memconv wrote into OUT, path → sha256: the mark that lets ``--force`` replace it.
MANIFEST = ".memconv/manifest.json"
#: Where a file the source store did not own is set aside in a target of another dialect (under the target's
#: notes root: ``converters.notes.carried_file``).
FILES_DIR = f"{MEMCONV_DIR}/files"
#: Where memconv keeps files as IN had them, in OUT: passed through from a store of another dialect, and
#: quarantined originals.
KEPT_DIRS = (f"{FILES_DIR}/", f"{QUARANTINE_DIR}/")


def _kept(path: str) -> bool:
    """Whether ``path`` is under :data:`KEPT_DIRS`, at OUT's top or in the hidden folder a store is read from (memspec's
    ``.memspec/``, where memconv keeps its files so that a later run reads them)."""
    return path.startswith(KEPT_DIRS) or (path.startswith(".") and path.partition("/")[2].startswith(KEPT_DIRS))


def kept_name(path: str, suffix: str) -> str:
    """The name a file kept as IN had it (under :data:`KEPT_DIRS`) is written with in a store whose tools read
    every Markdown file, hidden folders too (its dialect's ``KEPT_SUFFIX``; "" for none): one named ``.md``,
    in any case, gains ``suffix``, and so does one already ending in it, so that :func:`kept_path` gives every
    name back as it was (``a.md`` → ``a.md.kept``, ``a.kept`` → ``a.kept.kept``; ``a.png`` stays)."""
    if suffix and _kept(path) and (path.lower().endswith(".md") or path.endswith(suffix)):
        return path + suffix
    return path


def kept_too_long(path: str, suffix: str) -> str | None:
    """Why ``path``, a name a disk took, cannot be written as :func:`kept_name` names it, or None: over
    :data:`MAX_NAME_BYTES` with ``suffix`` (a 251-255-byte ``.md`` name of IN, given ``.kept``). Such a file is set
    aside, at the place :func:`quarantine_path` gives, not refused with the whole run (docs/limits.md)."""
    named = kept_name(path, suffix)
    if named != path and path_problem(named) is not None and path_problem(path) is None:
        return f"its name with {suffix} would be longer than {MAX_NAME_BYTES} bytes"
    return None


def kept_path(name: str, suffix: str) -> str:
    """The path of the kept file written as ``name`` (the inverse of :func:`kept_name`). A name :func:`kept_name`
    does not write (``x.kept``, or ``a.md``: an output written before the suffix was) is the file's own."""
    if suffix and _kept(name) and name.endswith(suffix):
        own = name[:-len(suffix)]
        if own.lower().endswith(".md") or own.endswith(suffix):
            return own
    return name


def kept_own(path: str, present: set[str] | frozenset[str], suffix: str) -> str:
    """The name a file read at ``path`` is kept under: :func:`kept_path`'s, unless a file of the folder read
    (``present``) is read under that name too (crafted, or from an earlier output): then its own, so neither is lost."""
    own = kept_path(path, suffix)
    return path if own != path and own in present and kept_path(own, suffix) == own else own


def kept_present(rels: list[str], suffix: str, prefix: str = "") -> set[str]:
    """The paths of a folder read (``prefix`` + each of ``rels``) that :func:`kept_own` asks about: all of them where
    one is named with ``suffix``, else none, as no name is then given back (a set of every path, memspec's made anew
    with its prefix, was held through every read, about 100 bytes a file, for the few kept copies a store may hold)."""
    return {prefix + rel for rel in rels} if suffix and any(rel.endswith(suffix) for rel in rels) else set()


#: Longest file or folder name most file systems accept, in UTF-8 bytes.
MAX_NAME_BYTES = 255

#: Deepest folder of IN that is listed, in folders below IN: a deeper one is refused by name, unread. Every walk of a
#: folder (the listing, ``os.makedirs`` writing OUT, a backup's copy) recurses once a level, and a chain of 1,100
#: folders, which Linux allows, stopped every command at Python's recursion limit (docs/cli.md).
MAX_FOLDER_DEPTH = 100


# --- the path guard ----------------------------------------------------------------------

_DRIVE = re.compile(r"^[A-Za-z]:")


def _is_control(ch: str) -> bool:
    """C0, DEL and C1 control characters: escaped whenever a name is shown."""
    o = ord(ch)
    return o < 0x20 or 0x7F <= o <= 0x9F


#: C0 control characters (NUL, newline, escape…) are refused in names: Windows forbids them and
#: they break lines of reports. DEL and C1 are allowed (memfmt itself writes them) but escaped when shown.
_C0 = re.compile(r"[\x00-\x1f]")


def name_problem(name: str, *, backslash: bool = True) -> str | None:
    """Why one file or folder name cannot be read or written safely, or None.

    ``backslash=False`` when listing IN: a ``\\`` is an ordinary character on
    POSIX, so such a file is listed and its reader decides (memoir, claude and
    memspec quarantine it with a copy; memfmt, whose library writes such names,
    reads it and writes it under another name; docs/limits.md). No written name
    ever holds one.
    """
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return "its name is not valid UTF-8"
    if _C0.search(name):
        return "its name holds a control character"
    if backslash and "\\" in name:
        return "its name holds a backslash, a folder separator on Windows"
    if size > MAX_NAME_BYTES:
        return f"its name is longer than {MAX_NAME_BYTES} bytes"
    return None


def fitting(stem: str, tail: str) -> str:
    """``stem`` cut, at a whole character, so that ``stem + tail`` is a name of at most :data:`MAX_NAME_BYTES` of
    UTF-8: the name of a copy beside a file whose own name was already near the limit (merge's conflict copies)."""
    room = MAX_NAME_BYTES - len(tail.encode("utf-8"))
    data = stem.encode("utf-8", "surrogatepass")
    if len(data) <= room:
        return stem
    return data[:max(room, 0)].decode("utf-8", "ignore")


def path_problem(path: object) -> str | None:
    """Why ``path`` is not a safe relative path inside a folder, or None. The one rule."""
    if not isinstance(path, str) or not path:
        return "it is empty or not text"
    if path.startswith("/") or _DRIVE.match(path):
        return "it is an absolute path"
    parts = path.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            return "it has an empty, '.' or '..' part"
        problem = name_problem(part)
        if problem:
            return problem.replace("its name", "a name in it")
    return None


def safe_relpath(path: str, root: str | os.PathLike | None = None) -> str:
    """``path`` if it is a safe relative path (and, given ``root``, resolves inside it); else :class:`OutputError`.

    Relative, no ``..``, no absolute or drive path, no NUL or control
    character, no ``\\``, every part at most 255 bytes of UTF-8.
    """
    problem = path_problem(path)
    if problem is None and root is not None and not _within(os.path.realpath(root),
                                                               os.path.realpath(os.path.join(root, path))):
        problem = "it resolves outside the folder"
    if problem:
        raise OutputError(f"refusing to write {display(str(path))!r}: {problem}",
                          hint="a hostile or broken name in the input, or a bug in a writer; "
                               "that path was not written")
    return path  # already normal: no empty, '.' or '..' part, not absolute (PurePosixPath gives it back as it is)


def _within(base: str, real: str) -> bool:
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


#: A lone surrogate no byte of a name gives (those are U+DC80–U+DCFF): JSON's ``"\\ud800"`` can.
_LONE_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def spelled(surrogate: str) -> str:
    """A lone surrogate in words, as every message and the JSON report write it: what a byte of a name that is
    not UTF-8 gives as the byte (``\\udcff`` is ``\\xff``), any other as its escape (``\\ud800``)."""
    code = ord(surrogate)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def display(path: str) -> str:
    """``path`` (or any name) printable: undecodable bytes, other lone surrogates and control characters escaped
    (:func:`spelled`)."""
    try:
        text = path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate no file name holds (a JSON key's ``\\ud800``): its escape
        text = _LONE_SURROGATE.sub(lambda m: spelled(m[0]), path)
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(f"\\x{ord(c):02x}" if _is_control(c) else c for c in text)


# --- listing -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Refusal:
    """An entry of IN that is not read, and why (by absolute path; see :func:`noting_refusals`)."""

    path: str
    reason: str


_refusals: contextvars.ContextVar[dict[str, Refusal] | None] = contextvars.ContextVar("memconv_refusals",
                                                                                       default=None)


#: The store being read (its real path): no listing leaves it, even through a linked sub-folder.
_confined: contextvars.ContextVar[str | None] = contextvars.ContextVar("memconv_confined", default=None)


def confine(root: str | os.PathLike) -> contextvars.Token:
    """From now on (until :func:`release`), :func:`list_files` lists nothing outside ``root``."""
    return _confined.set(os.path.realpath(root))


def unconfine() -> contextvars.Token:
    """From now on (until :func:`release`), :func:`list_files` lists anywhere (a new command starts)."""
    return _confined.set(None)


def release(token: contextvars.Token) -> None:
    _confined.reset(token)


@contextlib.contextmanager
def noting_refusals(root: str | os.PathLike | None = None):
    """Collect what every :func:`list_files` call inside the block refused: absolute path → :class:`Refusal`.

    Given ``root``, listings inside the block are also confined to it (:func:`confine`).
    """
    found: dict[str, Refusal] = {}
    token = _refusals.set(found)
    confined = confine(root) if root is not None else None
    try:
        yield found
    finally:
        if confined is not None:
            release(confined)
        _refusals.reset(token)


def refused_under(root: Path, found: dict[str, Refusal]) -> list[tuple[str, str]]:
    """``found`` as (path relative to ``root``, printable; reason), sorted."""
    base = os.path.abspath(root)
    out = []
    for refusal in found.values():
        rel = os.path.relpath(refusal.path, base)
        out.append((display(rel.replace(os.sep, "/")), refusal.reason))
    return sorted(out)


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def file_kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


#: Where :func:`noting_empty_folders` collects the folders a listing found holding no file at all.
_empty_folders: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("memconv_empty_folders",
                                                                                  default=None)


@contextlib.contextmanager
def noting_empty_folders():
    """Collect the folders every :func:`list_files` call inside the block found empty (relative paths, the outermost
    of a nest): what ``--check`` says of an OUT the run would refuse (docs/cli.md). Noted as the listing walks."""
    found: list[str] = []
    token = _empty_folders.set(found)
    try:
        yield found
    finally:
        _empty_folders.reset(token)


#: Listings kept inside :func:`listings_kept`: (real path of the folder, size limit) → (files, refused).
_kept_listings: contextvars.ContextVar[dict | None] = contextvars.ContextVar("memconv_kept_listings", default=None)


@contextlib.contextmanager
def listings_kept():
    """Inside the block, a folder is scanned once: what the detection of IN listed, its reader lists
    again without a second ``stat`` and ``access`` of every file (2% of a conversion at 10,000 files).

    For a block that changes no folder it lists (a command's detection and read of IN); what one
    listing refused is noted again for each :func:`noting_refusals` that asks.
    """
    outer = _kept_listings.get()
    token = _kept_listings.set({} if outer is None else outer)  # a block inside another keeps its listings
    try:
        yield
    finally:
        _kept_listings.reset(token)


def list_files(root: Path) -> list[str]:
    """Every readable regular file under ``root``, as sorted POSIX relative paths.

    VCS folders and memconv's own manifest are left out. Everything else that
    is not read is *refused* and noted (see :func:`noting_refusals`): folders
    that cannot be read, symbolic links to folders, out of ``root``, dangling
    or looping, FIFOs, sockets and devices (never opened), files over the size
    limit, and names that are not safe (not UTF-8, control characters, ``\\``).
    A symbolic link to a file inside ``root`` is listed: it is read as that file.
    """
    store_folder(root)
    top = os.path.realpath(root)
    found: list[str] = []
    refused: list[tuple[str, str]] = []
    empty: list[str] = []
    base = _confined.get()
    if base is not None and not _within(base, top):
        refused.append((".", "a symbolic link to a folder outside the store; not followed"))
    else:
        limit = limits().max_file_size
        kept = _kept_listings.get()
        listed = kept.get((top, limit)) if kept is not None else None
        if listed is None:
            _scan(top, "", found, refused, limit, empty)
            found.sort()
            if kept is not None:
                kept[(top, limit)] = (tuple(found), tuple(refused), tuple(empty))
        else:
            found, refused, empty = list(listed[0]), list(listed[1]), list(listed[2])
    progress.expect(len(found))  # the bar of a read under way learns how many files there are
    if (empties := _empty_folders.get()) is not None:
        empties.extend(empty)
    collector = _refusals.get()
    if collector is not None:
        for rel, reason in refused:
            absolute = os.path.normpath(os.path.join(os.path.abspath(root), rel))
            collector.setdefault(absolute, Refusal(absolute, reason))
    return found


def is_folder(root: str | os.PathLike, rel: str) -> bool:
    """Whether ``rel`` is a folder of its own under ``root``, reached through no symbolic link: what a store's
    listing goes into (:func:`list_files` follows no link to a folder), and so all a dialect's detection may count.
    ``Path.is_dir`` follows links, out of IN too (docs/cli.md, "What is never read")."""
    base = os.path.realpath(root)
    path = os.path.normpath(os.path.join(base, rel))
    return os.path.realpath(path) == path and os.path.isdir(path)


def no_folder(root: Path) -> str | None:
    """Why ``root`` is no folder to read a store from (``no such folder``, ``not a folder``, or a symbolic link that
    leads nowhere, in :func:`_broken_link`'s words), or None: what every command says of a path given where a store
    folder is asked (exit 4, docs/cli.md; ``--into``'s EXISTING, exit 2)."""
    if root.is_dir():
        return None
    if root.exists():
        return "not a folder"
    return _broken_link(root) if root.is_symlink() else "no such folder"


def store_folder(root: Path, hint: str = "give the path of a store folder") -> Path:
    """``root``, or :class:`StoreError` saying why it is no folder (:func:`no_folder`)."""
    why = no_folder(root)
    if why is not None:
        raise StoreError(f"{display(str(root))}: {why}", hint=hint)
    return root


def is_file(root: str | os.PathLike, rel: str) -> bool:
    """Whether ``rel`` is a file the listing of ``root`` would read: a file in a folder of its own (reached through no
    symbolic link), or a link to a file inside ``root`` (:func:`_link_problem`). For files a detection or a reader
    looks up by name (``session.json``, ``config.yaml``): ``Path.is_file`` follows links, out of IN too."""
    base = os.path.realpath(root)
    path = os.path.normpath(os.path.join(base, rel))
    folder = os.path.dirname(path)
    real = os.path.realpath(path)
    return os.path.realpath(folder) == folder and _within(base, real) and os.path.isfile(real)


def names_in(folder: str) -> list[str]:
    """The names in ``folder``, sorted (``OSError`` when it cannot be listed). Only the names are kept for going
    through a folder: a ``DirEntry`` keeps the ``stat`` it was asked for, and the sorted entries of a folder of
    100,000 files held with theirs took 85 MB (docs/performance.md, "(thirty-sixth)")."""
    with os.scandir(folder) as it:
        return sorted(entry.name for entry in it)


def _scan(top: str, rel: str, found: list[str], refused: list[tuple[str, str]], limit: int, empty: list[str]) -> None:
    folder = os.path.join(top, rel) if rel else top
    try:
        names = names_in(folder)
    except OSError as exc:
        refused.append((rel or ".", f"folder could not be read ({exc.strerror}); nothing in it was read"))
        return
    for name in names:
        path = f"{rel}/{name}" if rel else name
        full = os.path.join(folder, name)
        try:
            st = os.lstat(full)
        except OSError as exc:
            refused.append((path, f"could not be examined ({exc.strerror})"))
            continue
        mode = st.st_mode
        problem = name_problem(name, backslash=False) or (None if rel or not _DRIVE.match(name) else
                                                          "its name starts like a Windows drive")
        if path == MANIFEST or (path == MEMCONV_DIR and not stat.S_ISDIR(mode)):
            if not stat.S_ISREG(mode) or path != MANIFEST:
                refused.append((path, f"not read: memconv writes its own {path} in OUT, so this one "
                                      "cannot be carried"))
            continue  # memconv's own record of an earlier output, never part of a store
        if stat.S_ISDIR(mode):
            if name in SKIPPED_DIRS:
                continue
            if problem:
                refused.append((path, f"folder not read: {problem}"))
            elif path.count("/") >= MAX_FOLDER_DEPTH:
                refused.append((path, f"folder not read: nested deeper than {MAX_FOLDER_DEPTH} folders; nothing in "
                                      "it was read"))
            elif not os.access(full, os.R_OK | os.X_OK):
                refused.append((path, "folder could not be read (permission denied); nothing in it was read"))
            else:
                mark = len(found), len(refused), len(empty)
                _scan(top, path, found, refused, limit, empty)
                if (len(found), len(refused)) == mark[:2] and path != MEMCONV_DIR:  # no file under it at all
                    del empty[mark[2]:]  # a folder inside it, empty too, is said as this one
                    empty.append(path)
        elif stat.S_ISREG(mode):
            if problem:
                refused.append((path, f"not read: {problem}"))
            elif st.st_size > limit:
                refused.append((path, f"not read: {st.st_size} bytes, over the size limit of {limit} "
                                      "(--max-file-size)"))
            elif not os.access(full, os.R_OK):
                refused.append((path, "could not be read (permission denied)"))
            else:
                found.append(path)
        elif stat.S_ISLNK(mode):
            why = problem and f"not read: {problem}" or _link_problem(top, full, limit)
            if why:
                refused.append((path, why))
            else:
                found.append(path)
        else:
            refused.append((path, f"{file_kind(mode)}, not a file: not opened"))


def _link_problem(top: str, link: str, limit: int) -> str | None:
    """Why the symbolic link ``link`` is not read as a file, or None when it is a file inside ``top``."""
    try:
        target = os.readlink(link)
    except OSError as exc:
        return f"a symbolic link that could not be read ({exc.strerror}); not followed"
    try:
        st = os.stat(link)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"a symbolic link loop ({display(target)}); not followed"
        if exc.errno == errno.ENOENT:
            return f"a dangling symbolic link (to {display(target)}); not followed"
        return f"a symbolic link that could not be followed ({exc.strerror})"
    if not _within(top, os.path.realpath(link)):
        return f"a symbolic link to {display(target)}, outside the store; not followed"
    if stat.S_ISDIR(st.st_mode):
        return f"a symbolic link to a folder ({display(target)}); not followed"
    if not stat.S_ISREG(st.st_mode):
        return f"a symbolic link to {file_kind(st.st_mode)}; not opened"
    if st.st_size > limit:
        return f"not read: {st.st_size} bytes, over the size limit of {limit} (--max-file-size)"
    return None


# --- reading -----------------------------------------------------------------------------

_OPEN_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)

#: The last file :func:`read_bytes` opened: named in messages about failures no reader caught.
last_read: contextvars.ContextVar[str | None] = contextvars.ContextVar("memconv_last_read", default=None)


def read_bytes(root: str | os.PathLike, path: str, *, head: int | None = None) -> bytes:
    """The bytes of ``root/path`` (at most ``head`` of them), read safely.

    Never follows a symbolic link out of ``root``, never opens anything but a
    regular file, never reads past the size limit. Refusals are a
    :class:`ReadError` naming ``path``; faults are the ``OSError``, with its
    file name set.
    """
    limit = limits().max_file_size
    want = head if head is not None else limit + 1
    chunks, got = [], 0
    fd, st = _open(root, path)
    try:
        while got < want:
            # As much as the file holds (and one byte more, to see its end): a 1 MB buffer for every
            # small file cost more time in allocation than the reading did (docs/performance.md).
            chunk = os.read(fd, min(want - got, max(st.st_size + 1 - got, 1 << 16)))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise _named(exc, root, path) from None
    finally:
        os.close(fd)
    if head is None and got > limit:
        raise ReadError(display(path), f"larger than the size limit of {limit} bytes (--max-file-size); not read")
    if head is None:
        progress.advance()
    return b"".join(chunks)


def written_hash(root: str | os.PathLike, path: str) -> str:
    """The manifest's hash (:func:`manifest_hash`) of ``root/path``, opened as :func:`read_bytes` opens a file but
    read a megabyte at a time, whatever its size: a file memconv wrote may be larger than the size limit of what it
    reads (a 50 MB memory carried whole beside its text is a 100 MB file), and was then taken for one changed since
    (docs/performance.md, "(seventeenth)")."""
    digest = hashlib.sha256()
    for chunk in _chunks(root, path):
        digest.update(chunk)
    return digest.hexdigest()


def _chunks(root: str | os.PathLike, path: str, size: int = 1 << 20) -> Iterator[bytes]:
    """The bytes of ``root/path``, opened as :func:`read_bytes` opens a file, ``size`` at a time, whatever its size;
    a fault is the ``OSError``, with its file name set."""
    fd, _ = _open(root, path)
    try:
        while chunk := os.read(fd, size):
            yield chunk
    except OSError as exc:
        raise _named(exc, root, path) from None
    finally:
        os.close(fd)


def _open(root: str | os.PathLike, path: str) -> tuple[int, os.stat_result]:
    """``root/path`` open for reading, and its status: never through a symbolic link out of ``root``, never
    anything but a regular file (:func:`read_bytes`'s guard, the one every read of a file passes). The caller
    closes it."""
    full = os.path.join(root, path)
    last_read.set(path)  # shown with display() where it is named
    try:
        st = os.lstat(full)
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(full)
            if not _within(os.path.realpath(root), real):
                raise ReadError(display(path), "a symbolic link out of the store; not followed")
            full, st = real, os.lstat(real)
        if not stat.S_ISREG(st.st_mode):
            raise ReadError(display(path), f"{file_kind(st.st_mode)}, not a file: not opened")
        fd = os.open(full, _OPEN_READ)
    except OSError as exc:
        raise _named(exc, root, path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ReadError(display(path), f"{file_kind(st.st_mode)}, not a file: not read")
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def _named(exc: OSError, root: str | os.PathLike, path: str) -> OSError:
    """``exc``, with the file's name set if it has none."""
    if exc.filename is None:
        exc.filename = os.path.join(root, path)
    return exc


def read_if_safe(root: str | os.PathLike, path: str) -> bytes | None:
    """:func:`read_bytes`, or None when ``path`` is missing or refused (a link out, a FIFO, too big…).

    For files a reader looks up by name (``session.json``, ``config.yaml``): the
    listing names the refusal in the report, so the run goes on without them.
    """
    try:
        return read_bytes(root, path)
    except ReadError:
        return None
    except FileNotFoundError:
        return None


#: The largest file :class:`OnDisk` remembers once read again (bytes): any entry, not a whole store's index.
_REMEMBERED = 1 << 20


class OnDisk:
    """The bytes of one input file, read again through :func:`read_bytes` when asked for.

    What a :class:`~memconv.model.Source` keeps instead of the bytes once the
    store is read (``Source.keep_on_disk``): the folder, the path, and the
    file's size and digest, so that a file changed since it was read is an
    error naming it, never other bytes written in silence. The last file read
    is remembered, so a writer that asks twice reads once.

    The size and the digest are held as one 24-byte value (:func:`_check`): every
    record read holds one to the end of its conversion, and an int and a string
    of hex digits took 111 bytes (docs/performance.md, "(thirty-fifth)").
    """

    __slots__ = ("root", "path", "check")

    _last: tuple["OnDisk", bytes] | None = None

    def __init__(self, root: str, path: str, data: bytes):
        self.root, self.path, self.check = root, path, _check(data)

    @property
    def size(self) -> int:
        """The file's size in bytes as read."""
        return int.from_bytes(self.check[:8], "little")

    def __call__(self) -> bytes:
        last = OnDisk._last
        if last is not None and last[0] is self:
            return last[1]
        try:
            data = read_bytes(self.root, self.path)
        except (OSError, ReadError) as exc:
            raise self._unreadable(exc) from None
        if _check(data) != self.check:
            raise self._changed()
        # A large file (a 100,000-link MEMORY.md read for its store note) is not kept for a second ask: it
        # would be held to the end of the run (docs/performance.md).
        OnDisk._last = (self, data) if len(data) <= _REMEMBERED else None
        return data

    def pieces(self, size: int = 1 << 20) -> Iterator[bytes]:
        """The file's bytes read again ``size`` at a time, never whole (a 100,000-link MEMORY.md, 11 MB, carried in
        its store note). A file changed since it was read is the error a read whole raises, said once its end is
        reached: what was given of it is then part of a write that fails, and nothing is written."""
        digest, got, expected = short_hash(), 0, self.size
        chunks = _chunks(self.root, self.path, size)
        try:
            while got <= expected and (chunk := next(chunks, None)) is not None:
                got += len(chunk)
                digest.update(chunk)
                yield chunk
        except (OSError, ReadError) as exc:
            raise self._unreadable(exc) from None
        finally:
            chunks.close()
        if _check_of(got, digest) != self.check:
            raise self._changed()

    def _unreadable(self, exc: Exception) -> StoreError:
        return StoreError(f"{display(self.path)}: could not be read again ({exc}): it changed since memconv read "
                          "it", hint=_CHANGED_HINT)

    def _changed(self) -> StoreError:
        return StoreError(f"{display(self.path)}: changed since memconv read it", hint=_CHANGED_HINT)

    def holds(self, data: bytes) -> bool:
        """Whether ``data`` are this file's bytes as read (their size and digest), without reading it again."""
        return _check(data) == self.check

    def __getstate__(self):
        return (self.root, self.path, self.check)

    def __setstate__(self, state):
        self.root, self.path, self.check = state


_CHANGED_HINT = "nothing was written; run again when nothing else is writing to the store"


def _check(data: bytes) -> bytes:
    """What :class:`OnDisk` knows ``data`` by: its size and the first 16 bytes of its digest (:func:`short_hash`, the
    32 hex digits of :func:`~memconv.text.short_digest`), in one value."""
    return _check_of(len(data), short_hash(data))


def _check_of(size: int, digest) -> bytes:
    return size.to_bytes(8, "little") + digest.digest()[:16]


def manifest_hash(data: bytes) -> str:
    """A written file's hash in ``.memconv/manifest.json``: the whole SHA-256, the manifest's own format
    (outputs written by earlier versions keep being recognised), not memconv's short digest."""
    return hashlib.sha256(data).hexdigest()


def keep_on_disk(root: str | os.PathLike, store) -> None:
    """Let every source of ``store`` read from ``root`` forget its bytes (:class:`OnDisk` reads them again)."""
    base = os.fspath(root)
    for source in _sources(store):
        _on_disk(base, source)


def keep_record_on_disk(root: str | os.PathLike, record) -> None:
    """:func:`keep_on_disk` for one record (or index: anything with a ``source``) just read from ``root``."""
    if record.source is not None:
        _on_disk(os.fspath(root), record.source)


def _on_disk(base: str, source) -> None:
    data = source.raw_in_memory
    if data is not None:
        source.keep_on_disk(OnDisk(base, source.path, data))


def _sources(store):
    for record in store.records:
        if record.source is not None:
            yield record.source
    for index in store.indexes:
        if index.source is not None:
            yield index.source
    if store.working_set is not None and store.working_set.source is not None:
        yield store.working_set.source


# --- signals -----------------------------------------------------------------------------

class Terminated(BaseException):
    """SIGTERM arrived: unwind like Ctrl-C, cleaning up on the way."""


#: The signals that stop a run: Ctrl-C, SIGTERM, and SIGALRM, by which the CLI raises again a stop that
#: landed in a callback (cli._handle_signals).
STOPPING_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name)}


@contextlib.contextmanager
def signals_deferred():
    """Hold SIGINT and SIGTERM (and SIGALRM, which may bring one again) until the block is done (a rename
    pair, a cleanup)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def remove_tree(path: str | os.PathLike) -> None:
    with signals_deferred():
        shutil.rmtree(path, ignore_errors=True)
        _made.pop(os.fspath(path), None)


# --- temporary folders: made, owned, and removed whatever happens -----------------------

#: The temporary folders this process made and has neither removed nor renamed into place, each with
#: the process and thread that made it (a forked worker inherits the table and must not act on it,
#: nor one run on another thread's folders). A signal can land between a folder's making and the
#: ``try`` whose cleanup removes it, or between two such ``try`` blocks; :func:`remove_leftovers`,
#: run as the CLI ends, removes what such a signal left.
_made: dict[str, tuple[int, int]] = {}


def make_temporary(prefix: str, where: str | os.PathLike | None = None) -> Path:
    """A new private folder (:func:`tempfile.mkdtemp`), owned from the moment it exists.

    It is made and entered in :data:`_made` with signals held, so no signal
    lands in between: until :func:`settle` or :func:`remove_tree`, a run that
    unwinds for any reason removes it (:func:`remove_leftovers`).
    """
    with signals_deferred():
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=where))
        _made[os.fspath(path)] = (os.getpid(), threading.get_ident())
    return path


def settle(path: str | os.PathLike) -> None:
    """``path`` was renamed into place (call it with signals held, beside the rename): no longer temporary."""
    _made.pop(os.fspath(path), None)


def remove_leftovers(*, every_thread: bool = False) -> list[str]:
    """Remove the temporary folders this thread (or, at exit, this process) made and still owns.

    Returns their paths. Never those of another process: a forked worker's table is a copy of its parent's.
    """
    me = (os.getpid(), threading.get_ident())
    with signals_deferred():
        mine = sorted(path for path, (pid, thread) in list(_made.items())
                      if pid == me[0] and (every_thread or thread == me[1]))
        for path in mine:
            shutil.rmtree(path, ignore_errors=True)
            _made.pop(path, None)
    return mine


atexit.register(remove_leftovers, every_thread=True)  # the library's callers too, short of a kill


# --- temporary folders, and those of killed runs ----------------------------------------

#: ``.OUT.memconv-new-<pid>-…``, ``.OUT.memconv-old-<pid>-…``, ``.IN.memconv-backup-<pid>-…`` beside OUT or IN.
_BESIDE = re.compile(r"^\.(?P<name>.+)\.memconv-(?P<kind>new|old|backup)-(?P<pid>\d+)-[A-Za-z0-9_]+$")
#: ``memconv-readback-<pid>-…``, ``memconv-via-<pid>-…``, ``memconv-into-<pid>-…`` in the scratch folders.
_SCRATCH = re.compile(r"^memconv-(?:readback|via|into)-(?P<pid>\d+)-[A-Za-z0-9_]+$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _stale(folder: str, entry: os.DirEntry, pattern: re.Pattern):
    match = pattern.match(entry.name)
    if not match or _alive(int(match["pid"])):
        return None
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        return None
    return match


def sweep_stale(folder: str | os.PathLike) -> list[str]:
    """Remove the temporary folders killed runs left in ``folder`` (their pid is dead); return their names.

    A ``-old-`` folder of a run killed mid-swap holds the previous OUT (or IN,
    for ``upgrade --in-place``): when nothing stands at its place, it is put
    back there rather than removed.
    """
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _stale(str(folder), entry, _BESIDE) or _stale(str(folder), entry, _SCRATCH)
        if match is None:
            continue
        if "kind" in match.groupdict() and match["kind"] == "old":
            home, kept = os.path.join(folder, match["name"]), os.path.join(entry.path, "old")
            if os.path.lexists(kept) and not os.path.lexists(home):
                with signals_deferred():
                    os.rename(kept, home)
        remove_tree(entry.path)
        removed.append(entry.name)
    return removed


def scratch_dirs() -> list[str]:
    """Where scratch folders go: the memory-backed ``/dev/shm`` where there is one, and the temp folder."""
    dirs = [tempfile.gettempdir()]
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        dirs.insert(0, "/dev/shm")
    return dirs


@contextlib.contextmanager
def scratch_folder(kind: str, where: str | None = None):
    """A private temporary folder named with this process's pid (so a later run can clear it if killed)."""
    path = make_temporary(f"memconv-{kind}-{os.getpid()}-", where)
    token = confine(path)  # what is read back from it is confined to it
    try:
        yield path
    finally:
        release(token)
        remove_tree(path)


# --- writing -----------------------------------------------------------------------------

_OPEN_WRITE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _write_one(full: str, data: bytes | Pieces) -> None:
    fd = os.open(full, _OPEN_WRITE, 0o666)
    with os.fdopen(fd, "wb") as handle:
        if data.__class__ is Pieces:  # written as it is made, never held whole
            for piece in data:
                handle.write(piece)
        else:
            handle.write(data)


#: Relative path → bytes; in a stream, a file's bytes may be :class:`~memconv.model.Pieces` (a store note, the
#: manifest), written as they are made (``model.written_in_pieces``).
Files = Union[Mapping[str, bytes], Iterable[Tuple[str, Union[bytes, Pieces]]]]


def _pairs(files: Files) -> Iterable[tuple[str, bytes]]:
    return files.items() if isinstance(files, Mapping) else files


def write_files(folder: str | os.PathLike, files: Files) -> None:
    """Write ``files`` (relative path → bytes, or a stream of such pairs) into ``folder``, a folder memconv
    made and nothing else writes.

    Every path passes :func:`safe_relpath` and must resolve inside ``folder``;
    no file is overwritten and no symbolic link is followed. Modes follow the umask.
    """
    base = os.path.realpath(folder)
    checked: set[str] = set()
    for path, data in _pairs(files):
        rel = safe_relpath(path)
        parent = rel.rpartition("/")[0]
        try:
            if parent and parent not in checked:
                os.makedirs(os.path.join(base, parent), exist_ok=True)
                if not _within(base, os.path.realpath(os.path.join(base, parent))):
                    raise OutputError(f"refusing to write {display(rel)!r}: it resolves outside the folder")
                checked.add(parent)
            _write_one(os.path.join(base, rel), data)
            progress.advance()
        except (FileExistsError, NotADirectoryError, IsADirectoryError):
            raise OutputError(f"two outputs collide at {display(rel)!r}",
                              hint="a file and a folder, or two files, got the same name; nothing was written") \
                from None


def manifest(files: dict[str, bytes]) -> bytes:
    """The manifest of ``files``: every path with its sha256, sorted; no dates, so the same any day."""
    return manifest_of({path: manifest_hash(data) for path, data in files.items()})


_MANIFEST_HEAD = {"manifest": 1, "note": "what memconv wrote here; --force replaces only this"}


def manifest_of(hashes: dict[str, str]) -> bytes:
    """The manifest of files already written, from their sha256 (path → hex digest).

    The bytes of ``json.dumps({"memconv": …, "files": …}, indent=2, ensure_ascii=False) + "\n"``, made a
    line at a time into one buffer: with an indent, ``json`` encodes in Python and joins a piece per token,
    which held a 100,000-file manifest about five times over at the end of a write (docs/performance.md).
    """
    return bytes(Pieces(functools.partial(_manifest_pieces, hashes)))


def _manifest_pieces(hashes: "dict[str, str] | _Written") -> Iterator[bytes]:
    """:func:`manifest_of`'s bytes, in pieces (:func:`~memconv.model.in_chunks`): written as they are made
    (:func:`_and_manifest`), the manifest of 100,000 files (11 MB) is never held whole."""
    return in_chunks(_manifest_lines(hashes))


def _manifest_lines(hashes: "dict[str, str] | _Written") -> Iterator[bytes]:
    head = json.dumps({"memconv": _MANIFEST_HEAD}, indent=2, ensure_ascii=False)
    yield head[:-2].encode("utf-8")  # up to the memconv object's closing brace, without the last "\n}"
    if not len(hashes):
        yield b',\n  "files": {}\n}\n'
        return
    yield b',\n  "files": {'
    sep = "\n    "
    for path, digest in hashes.items() if hashes.__class__ is _Written else sorted(hashes.items()):
        yield f"{sep}{json.dumps(path, ensure_ascii=False)}: {json.dumps(digest)}".encode("utf-8")
        sep = ",\n    "
    yield b"\n  }\n}\n"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def stage(files: Files, beside: Path) -> Path:
    """A new temporary folder next to ``beside`` holding ``files``; removed again if writing fails.

    ``files`` may be a stream: each file is written as it comes and not kept.
    Built on the same file system as its destination, so that a rename can put
    it in place whole. Its name holds this process's pid, so that a later run
    clears it if this one is killed (:func:`sweep_stale`).
    """
    if isinstance(files, Mapping):
        for path in files:
            safe_relpath(path)
    beside.parent.mkdir(parents=True, exist_ok=True)
    tmp = make_temporary(f".{beside.name}.memconv-new-{os.getpid()}-", beside.parent)
    try:
        write_files(tmp, files)
    except BaseException:
        remove_tree(tmp)
        raise
    return tmp


def _broken_link(path: str | os.PathLike) -> str:
    """What a symbolic link that leads to no file is, in words: "a symbolic link loop" when following it comes back
    to itself (``ELOOP``), "a symbolic link to nothing" when what it names is not there."""
    try:
        os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "a symbolic link loop"
    return "a symbolic link to nothing"


def destination(out: Path) -> Path:
    """Where OUT really is: a symbolic link to a folder is kept, and its folder is written."""
    out = Path(os.path.abspath(out))
    if out.is_symlink():
        if not out.exists():
            raise OutputError(f"{display(str(out))}: {_broken_link(out)}", hint="choose another output path")
        return Path(os.path.realpath(out))
    return out


def unexpected_in(folder: Path) -> list[str]:
    """What in ``folder`` memconv did not write (by its manifest), or changed since: paths, sorted.

    An empty folder has nothing unexpected. A folder with no readable manifest
    has everything unexpected.
    """
    expected = _manifest_files(folder)
    dirs = {MEMCONV_DIR}
    for path in expected or ():
        parts = path.split("/")
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))
    odd: list[str] = []
    _compare(str(folder), "", expected, dirs, odd)
    return sorted(odd)


def _manifest_files(folder: Path) -> dict[str, str] | None:
    """What ``folder``'s manifest says memconv wrote there (path → hash), its paths that are not safe left out;
    None when it has no readable manifest. The manifest's bytes and text are let go on return, before the folder
    is compared with it: 30,000 files' manifest held them beside the conversion's peak (docs/performance.md)."""
    try:
        doc = json.loads(read_bytes(folder, MANIFEST).decode("utf-8"))
    except (OSError, ReadError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return None
    for unsafe in [p for p in files if path_problem(p) is not None]:
        del files[unsafe]
    return files


def _compare(top: str, rel: str, expected: dict[str, str] | None, dirs: set[str], odd: list[str]) -> None:
    """What under ``rel`` memconv did not write, or changed since, into ``odd`` (unsorted: its caller sorts it). The
    entries are taken as the folder lists them: a folder of 30,000 files is not held as a sorted list."""
    try:
        with os.scandir(os.path.join(top, rel) if rel else top) as entries:
            for entry in entries:
                _compare_entry(top, rel, entry, expected, dirs, odd)
    except OSError:  # the folder's listing failed (an entry's own errors are its line in ``odd``)
        odd.append(display(rel or ".") + "/ (could not be read)")


def _compare_entry(top: str, rel: str, entry: os.DirEntry, expected: dict[str, str] | None, dirs: set[str],
                   odd: list[str]) -> None:
    path = f"{rel}/{entry.name}" if rel else entry.name
    shown = display(path)
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        odd.append(shown)
        return
    if expected is None:
        odd.append(shown + ("/" if stat.S_ISDIR(mode) else ""))
    elif stat.S_ISDIR(mode):
        if path in dirs:
            _compare(top, path, expected, dirs, odd)
        else:
            odd.append(shown + "/")
    elif not stat.S_ISREG(mode):
        odd.append(shown)
    elif path == MANIFEST:
        return
    elif path not in expected:
        odd.append(shown)
    else:
        try:
            same = written_hash(top, path) == expected[path]
        except (OSError, ReadError):
            same = False
        if not same:
            odd.append(shown + " (changed since memconv wrote it)")


def _not_ours_message(out: Path, odd: list[str]) -> str:
    shown = ", ".join(odd[:5]) + (f" and {len(odd) - 5} more" if len(odd) > 5 else "")
    return f"{display(str(out))}: holds what memconv did not write: {shown}"


_FORCE_HINT = ("--force replaces only an empty folder or one memconv wrote (see its .memconv/manifest.json); "
               "move those away or choose another OUT. Nothing was changed")


def _in_the_way(out: Path) -> str | None:
    """What stops the folders above a missing OUT from being made: the nearest path above it that is there, when
    that is no folder (a file, a symbolic link to nothing or a loop); None when it is a folder or a link to one.

    The run makes those folders as it stages OUT (:func:`parents_made`), and failed there ("File exists", exit 4)
    after a ``--dry-run`` had said all was well: :func:`check_out` asks this first, for both."""
    above = out.parent
    while not os.path.lexists(above) and above != above.parent:
        above = above.parent
    if os.path.isdir(above):
        return None
    what = _broken_link(above) if os.path.islink(above) else "not a folder"
    return f"{display(str(out))}: cannot be made: {display(str(above))} is {what}"


def check_out(out: Path, force: bool) -> None:
    """OUT must not exist (and the folders above it be makeable) or must be empty; with ``force`` it may also be a
    folder memconv wrote, unchanged."""
    out = Path(os.path.abspath(out))
    if not os.path.lexists(out):
        problem = _in_the_way(out)
        if problem:
            raise OutputError(problem, hint="choose another output path")
        return
    real = destination(out)
    if not real.is_dir():
        raise OutputError(f"{display(str(out))}: exists and is not a folder", hint="choose another output path")
    try:
        empty = not any(os.scandir(real))
    except OSError as exc:
        raise OutputError(f"{display(str(out))}: cannot be read ({exc.strerror})", hint="choose another output path") \
            from None
    if empty:
        return
    if not force:
        raise OutputError(f"{display(str(out))}: folder is not empty",
                          hint="choose an empty or new folder, or pass --force to replace a folder memconv wrote")
    odd = unexpected_in(real)
    if odd:
        raise OutputError(_not_ours_message(out, odd), hint=_FORCE_HINT)


def write_tree(files: Files, out: Path, force: bool = False, *, with_manifest: bool = True) -> None:
    """Write ``files`` (relative path → bytes, or a stream of pairs) as the folder ``out``, all or nothing.

    A stream is written file by file into the staging folder as it comes, so
    the whole output is never held in memory; a failure while it is produced
    removes the staging folder and leaves OUT as it was.
    Adds ``.memconv/manifest.json``. A new OUT honours the umask; a replaced
    one keeps its mode. The old OUT is checked again once moved aside, and put
    back if anything goes wrong before the new one is in place.
    """
    check_out(out, force)
    dest = destination(out)
    if dest.parent.is_dir():
        sweep_stale(dest.parent)
    if with_manifest and isinstance(files, Mapping) and MANIFEST in files:
        raise OutputError(f"refusing to write {MANIFEST}: memconv's own manifest cannot come from the input")
    mode = stat.S_IMODE(os.stat(dest).st_mode) if dest.is_dir() else 0o777 & ~_umask()
    with parents_made(dest):
        tmp = stage(_and_manifest(files) if with_manifest else files, dest)
        try:
            os.chmod(tmp, mode)
            with signals_deferred():
                if os.path.lexists(dest):
                    _swap(tmp, dest, force)
                else:
                    os.rename(tmp, dest)
                settle(tmp)
        except BaseException:
            remove_tree(tmp)
            raise


@contextlib.contextmanager
def parents_made(folder: Path) -> Iterator[None]:
    """Make the folders above ``folder`` that are missing (an OUT deep in new folders); if the block fails,
    remove again those it made, deepest first, as long as they are still empty: a failed run leaves the disk
    as it found it, not a trail of empty folders."""
    made: list[Path] = []
    above = folder.parent
    while not os.path.lexists(above) and above != above.parent:
        made.append(above)
        above = above.parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        for path in made:
            try:
                os.rmdir(path)
            except OSError:  # something else was put there meanwhile: it is not memconv's to remove
                break
        raise


def _and_manifest(files: Files) -> Iterator[tuple[str, bytes | Pieces]]:
    """``files``, then the manifest of them, written a few hundred lines at a time: each file's sha256 is taken as it
    passes (of one in :class:`~memconv.model.Pieces`, as it is written: known when the next file is asked for), none
    is kept."""
    written = _Written()
    for path, data in _pairs(files):
        if path == MANIFEST:
            raise OutputError(f"refusing to write {MANIFEST}: memconv's own manifest cannot come from the input")
        if data.__class__ is Pieces:
            yield path, data
            if data.sha256 is None:
                raise StoreError(f"{path}: asked for the next file before this one was written",
                                 hint="this is a bug in memconv; please report it")
            written.add(path, bytes.fromhex(data.sha256))
            continue
        written.add(path, hashlib.sha256(data).digest())
        yield path, data
    yield MANIFEST, Pieces(functools.partial(_manifest_pieces, written))


class _Written:
    """The paths a write gave, in its order, each with its file's sha256, for the manifest written after them.

    The digests are held in one buffer, 32 bytes each: a dict of path → hex digest held 135 bytes a file more, to
    the end of every write (docs/performance.md, "(thirty-fifth)"). Each path is given once: a second file at a
    path fails the write (:func:`write_files`) before the manifest is made."""

    __slots__ = ("paths", "digests")

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.digests = bytearray()

    def add(self, path: str, digest: bytes) -> None:
        self.paths.append(path)
        self.digests += digest

    def __len__(self) -> int:
        return len(self.paths)

    def items(self) -> Iterator[tuple[str, str]]:
        """(path, hex digest) of every file, sorted by path, as the manifest lists them."""
        paths, digests = self.paths, self.digests
        for i in sorted(range(len(paths)), key=paths.__getitem__):
            yield paths[i], digests[32 * i:32 * i + 32].hex()


def _swap(tmp: Path, dest: Path, force: bool) -> None:
    """Put ``tmp`` at ``dest``, whose old content is checked again once moved aside and put back on failure."""
    def still_ours(aside: Path) -> None:
        odd = [p.name for p in aside.iterdir()] if not force else unexpected_in(aside)
        if odd:
            raise OutputError(_not_ours_message(dest, odd) + " (it changed while memconv was working)",
                              hint=_FORCE_HINT)

    swap(tmp, dest, check=still_ours)


def swap(tmp: Path, dest: Path, check: Callable[[Path], None] | None = None) -> None:
    """Put the folder ``tmp`` at ``dest`` in one rename: the one swap of every replacing command.

    ``dest``'s old content is moved aside first; ``check`` may look at it there
    and raise. On any failure the old content is put back, and ``tmp`` is left
    to the caller. Call it with signals deferred (:func:`signals_deferred`).
    """
    old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.memconv-old-{os.getpid()}-", dir=dest.parent))
    aside = old / "old"
    os.rename(dest, aside)
    try:
        if check is not None:
            check(aside)
        os.rename(tmp, dest)
    except BaseException:
        try:
            os.rename(aside, dest)
            os.rmdir(old)
        except OSError as exc:
            raise OutputError(f"{display(str(dest))}: could not be put back ({exc.strerror}); "
                              f"the old folder is at {display(str(aside))}") from exc
        raise
    shutil.rmtree(old)


def quarantine_path(path: str, files: dict[str, bytes], folder: str = QUARANTINE_DIR, suffix: str = "",
                    same: bytes | None = None) -> str | None:
    """Where in OUT the quarantined file ``path`` is kept: never over a file already there, under a name a disk takes.

    ``<folder>/<path>`` (``folder``: the target's, :func:`memconv.dialects.quarantine_folder`;
    ``.memconv/quarantine/`` by default), with a ``\\`` (refused in any written
    name) spelled ``%5C``; when that is taken (IN held a quarantine of its own),
    ``<stem>-2<ext>``, ``-3``… as for any other name that is taken. The stem is cut (:func:`fitting`) so that the
    name written, :func:`kept_name` of the place with ``suffix`` (the target's ``KEPT_SUFFIX``), is at most
    :data:`MAX_NAME_BYTES`: a name of IN near the limit, numbered or given ``.kept``, was kept nowhere or stopped
    the run (docs/limits.md). The place is what :func:`kept_path` gives back. None when even that name is not safe
    to write (the report then says no copy was kept). ``same``: the copy's bytes, when a place already holding them
    (``files[place]``) is where it is (an earlier run's copy, read back), not a place taken: else each run kept one
    more copy.
    """
    base = f"{folder}/{path.replace(chr(92), '%5C')}"
    folder, _, name = base.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    ext = "." + ext if ext else ""
    grows = suffix if kept_name(base, suffix) != base else ""  # (.md, or a name ending in suffix: it gains one)
    target, n = f"{folder}/{fitting(stem, ext + grows)}{ext}", 1
    while target in files and (same is None or files[target] != same):
        n += 1
        target = f"{folder}/{fitting(stem, f'-{n}{ext}{grows}')}-{n}{ext}"
    return target if path_problem(kept_name(target, suffix)) is None else None
