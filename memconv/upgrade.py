"""The disk side of ``memconv upgrade``: find the memory folder, plan, back up, swap in place.

The decisions live in :mod:`memconv.upgrade_claude` (model in,
model out) and the files are made by the memoir writer; this module only
reads IN, says what would be written, and, for ``--in-place``, copies every
original into a timestamped backup folder beside IN (:func:`backup_folder`) before
replacing IN in one rename, so a killed run leaves either the old folder or the new one.

In place, the new folder keeps everything of IN the upgrade did not read:
symbolic links (as links, not read: one to a file the upgrade renames follows
it, :func:`_links`), empty folders, nested ``.git`` folders, and the modes of
files and folders (a renamed file's from the file it came from). A symbolic
link to IN stays a link: the folder it points to is the one replaced. The CLI
holds :func:`memconv.lock.held` around the whole read, backup and swap.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from . import dialects, fs
from . import upgrade_claude
from .dialects import claude, memoir
from .errors import OutputError, StoreError, WrongDialect
from .fs import list_files, read_bytes, stage
from .model import ForeignFile
from .report import EXIT_QUARANTINED, FileReport, Report

#: The memoir store's entry folder: when IN has one, IN is an (upgraded) memoir store.
ENTRY_DIR = "memory"


@dataclass
class Planned:
    files: dict[str, bytes]
    report: Report
    #: Whether the files differ from what IN holds now (in-place: nothing to do if not).
    changes_in: bool
    #: The files of IN the upgrade read (in place, everything else of IN is kept as it is).
    read: set[str] = field(default_factory=set)
    #: File of IN → the file it is written as, for every file the upgrade renames (in place, the new name keeps
    #: the old one's mode).
    moved: dict[str, str] = field(default_factory=dict)
    #: Symbolic link of IN → the text it is given, for every link that follows its file to a new name (in place).
    links: dict[str, str] = field(default_factory=dict)


def plan(in_path: Path, report: Report, shape: str = "nested", *, in_place: bool = False) -> Planned:
    """The memoir store IN upgrades to, as files, and the report of what happened to each.

    ``in_place``: the files are to replace IN's, whose symbolic links are kept (:func:`_links`).
    """
    fs.store_folder(in_path, hint="give the path of a Claude Code memory folder")
    _refuse_other_stores(in_path)
    with fs.noting_refusals(in_path) as found:
        planned = _plan(in_path, report, shape, in_place)
    refused = fs.refused_under(in_path, found)
    for path, reason in refused:
        report.refused.append({"path": path, "reason": reason})
        report.files.append(FileReport(source=path, status="refused"))
    if refused:
        report.exit_code = EXIT_QUARANTINED
    return planned


def _plan(in_path: Path, report: Report, shape: str, in_place: bool) -> Planned:
    nested_in = (in_path / ENTRY_DIR).is_dir()
    memory_root = in_path / ENTRY_DIR if nested_in else in_path
    base = ENTRY_DIR + "/" if nested_in else ""  # the reader's paths are under the folder it read
    if nested_in:
        shape = "nested"
    source = claude.read(memory_root)
    on_disk = list_files(in_path)
    named = _links(in_path, on_disk) if in_place else {}
    if named:  # a second name for a file is not a second file (one rule: _links)
        source.records = [r for r in source.records if base + r.source.path not in named]
        source.indexes = [i for i in source.indexes if base + i.path not in named]
        source.foreign = [f for f in source.foreign if base + f.path not in named]
        source.quarantined = [q for q in source.quarantined if base + q.path not in named]
        on_disk = [p for p in on_disk if p not in named]
    if not source.records and not source.indexes and not nested_in:
        raise StoreError(f"{fs.display(str(in_path))}: no memory files and no MEMORY.md here",
                         hint="give the Claude Code memory folder (~/.claude/projects/<slug>/memory)")
    kept = [path[len(base):-3] for path in named if path.startswith(base) and path.endswith(".md")]
    result = upgrade_claude.upgrade(source, shape, kept)
    moved = {base + f.source: f.target for f in result.files if f.target and base + f.source != f.target}
    if nested_in:  # files beside memory/ (session.json…) are carried as they are
        for path in on_disk:
            if not path.startswith(ENTRY_DIR + "/"):
                result.store.foreign.append(ForeignFile(path, read_bytes(in_path, path)))
                result.files.append(FileReport(source=path, target=path, status="foreign"))
    from . import jobs

    files = dict(memoir.iter_write(result.store, jobs.renderer(None)))  # rendered in --jobs processes
    read = set(on_disk)
    moved = {old: new for old, new in moved.items() if old in read and new in files}
    links = _followed(in_path, named, moved, result.files)
    report.source_dialect, report.target_dialect = "claude", "memoir"
    report.files.extend(result.files)
    report.warnings.extend(result.warnings)
    report.migrations.append(f"legacy Claude Code memory → {upgrade_claude.TARGET} (memoir spec Appendix A)")
    if any(f.status == "quarantined" for f in result.files):
        report.exit_code = EXIT_QUARANTINED
    changes_in = bool(links) or read != set(files) or any(read_bytes(in_path, p) != b for p, b in files.items())
    return Planned(files, report, changes_in, read, moved, links)


def _links(in_path: Path, listed: list[str]) -> dict[str, str]:
    """The symbolic links among the files ``listed`` in IN, each with the path of what it names in IN.

    In place, a symbolic link to a file is a second name for that file, not a second file: it is not read (the
    file is read once, under its own name), and it is kept as a link. Where the upgrade renames the file it names,
    the link follows it (:func:`_followed`); it is never left to dangle, nor written as a copy. The listing holds
    only links to files inside IN (``fs.list_files``), so what each names is a path in IN; a link to a link names
    that link, which follows its own file.
    """
    real = os.path.realpath(in_path)
    named = {}
    for path in listed:
        full = os.path.join(real, path)
        if os.path.islink(full):
            where = os.path.join(os.path.dirname(full), os.readlink(full))
            folder = os.path.realpath(os.path.dirname(where))
            named[path] = os.path.relpath(os.path.join(folder, os.path.basename(where)), real)
    return named


def _followed(in_path: Path, named: dict[str, str], moved: dict[str, str], said: list[FileReport]) -> dict[str, str]:
    """The new text of each link of ``named`` whose file the upgrade renames (``moved``), in the link's own
    style (relative or absolute); each link is said in ``said``, kept, with the change."""
    links = {}
    for path, file in sorted(named.items()):
        report = FileReport(source=path, source_kind="link", target=path, target_kind="link", status="kept")
        if file in moved:
            text = os.readlink(os.path.join(os.path.realpath(in_path), path))
            new = moved[file]
            links[path] = os.path.join(os.path.dirname(text), os.path.relpath(new, os.path.dirname(file) or "."))
            report.changes = [f"symbolic link to {file} → to {new}, the name its file is written under"]
        said.append(report)
    return links


def _refuse_other_stores(in_path: Path) -> None:
    """IN must be a Claude Code memory folder (or the memoir store an upgrade made): say what it is otherwise."""
    survey = dialects.survey(in_path)
    own = [d for d in survey.found if d.dialect in (claude.NAME, memoir.NAME)]
    if not survey.found:
        raise WrongDialect(f"{in_path}: not a Claude Code memory folder: {survey.describe()}",
                           hint="give the Claude Code memory folder (~/.claude/projects/<slug>/memory), "
                                "which holds MEMORY.md")
    if survey.finding == "several stores" or not own:
        runs = " or ".join(f"memconv {d.dialect}-to-memoir {in_path} OUT" for d in survey.stores or survey.found[:1])
        raise WrongDialect(f"{in_path}: not a Claude Code memory folder: {survey.describe()}",
                           hint=f"upgrade reads only Claude Code memory; to convert, run: {runs}")
    if own[0].elsewhere(in_path):
        memory = own[0].root
        raise WrongDialect(f"{in_path}: {own[0].evidence}", hint=f"run: memconv upgrade {memory} OUT (or --in-place {memory})")


#: The folder memoir-cli's ``recall`` and ``push`` walk for Claude Code memory, below HOME: every ``.md`` file
#: under it, hidden folders too (../shared/reference-tools/README.md), so a backup there is read as memories.
SCANNED = (".claude", "projects")
#: Where the backup of a folder under :data:`SCANNED` goes instead, below HOME, at the same path: a folder of
#: ``~/.claude`` that no tool reads.
BACKUPS = (".claude", "memconv-backups")


def backup_folder(in_path: Path) -> Path:
    """The folder IN's backup is made in: beside IN, or, where that is under ``~/.claude/projects`` (memoir-cli
    would recall the backup as memories), the same place under ``~/.claude/memconv-backups`` (docs/claude.md)."""
    here = Path(os.path.abspath(in_path))
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # no HOME and no password entry: no ~/.claude either
        return here.parent
    scanned = Path(os.path.realpath(home.joinpath(*SCANNED)))
    parent = Path(os.path.realpath(here.parent))
    if parent != scanned and scanned not in parent.parents:
        return here.parent
    return home.joinpath(*BACKUPS, parent.relative_to(scanned))


def beside(in_path: Path) -> set[Path]:
    """The folders a run changing IN in place makes its temporary folders in, so the next run sweeps
    (:func:`memconv.fs.sweep_stale`): IN's folder, as given and resolved, and :func:`backup_folder`."""
    return {Path(os.path.abspath(in_path)).parent, Path(os.path.realpath(in_path)).parent, backup_folder(in_path)}


def backup(in_path: Path, now: datetime | None = None,
           clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)) -> Path:
    """Copy IN, whole, to ``<IN>.memconv-backup-<UTC time>`` in :func:`backup_folder`, verified; its path.

    The copy is made under a temporary name (``.<IN>.memconv-backup-<pid>-…``),
    checked file by file against IN (sha256, link targets, modes), and only
    then renamed to its final name: a folder under a backup's name is always
    complete. The time (``now``, else ``clock()``) names the folder only.
    """
    stamp = (now or clock()).strftime("%Y%m%dT%H%M%SZ")
    real = Path(os.path.realpath(in_path))
    name = Path(os.path.abspath(in_path)).name  # IN given as ".": the folder's own name, not ""
    parent = backup_folder(in_path)
    parent.mkdir(parents=True, exist_ok=True)
    work = fs.make_temporary(f".{name}.memconv-backup-{os.getpid()}-", parent)
    try:
        copy = work / "copy"
        shutil.copytree(real, copy, symlinks=True, copy_function=_copy_file)
        if _signature(copy) != _signature(real):
            raise OutputError(f"the backup of {fs.display(str(in_path))} does not match the original",
                              hint="nothing was changed in IN; check the disk and try again")
        target = parent / f"{name}.memconv-backup-{stamp}"
        n = 2
        while os.path.lexists(target):
            target = parent / f"{name}.memconv-backup-{stamp}-{n}"
            n += 1
        with fs.signals_deferred():
            os.rename(copy, target)
            os.rmdir(work)
            fs.settle(work)
    except BaseException:
        fs.remove_tree(work)
        raise
    return target


def backed_up_and_replaced(files: dict[str, bytes], in_path: Path, read: set[str], said: list[str],
                           what: str = "originals", moved: dict[str, str] | None = None,
                           links: dict[str, str] | None = None) -> Path:
    """The one in-place write (``upgrade --in-place``, ``--into``): :func:`backup`, said in ``said`` as
    "<what> backed up to <path>", then :func:`replace_in_place`; the backup's path.

    If the replacement fails, IN is as it was (the swap never happened, or was undone), and so the backup is
    removed again, with its line, when IN is still exactly what it holds: a failed run leaves no trace. When IN
    differs from it, or cannot be compared, the backup is the only sure copy of the originals, and stays.
    """
    with fs.parents_made(backup_folder(in_path) / "backup"):  # a failed run leaves no folder made for it
        kept = backup(in_path)
        line = f"{what} backed up to {kept}"
        said.append(line)
        try:
            replace_in_place(files, in_path, read, moved, links)
        except BaseException:
            if _unneeded(kept, in_path):
                said.remove(line)
            raise
    return kept


def _unneeded(kept: Path, in_path: Path) -> bool:
    """Remove the backup ``kept`` if IN is still exactly what it holds; whether it was removed."""
    try:
        unchanged = _signature(kept) == _signature(Path(os.path.realpath(in_path)))
    except OSError:
        return False
    if unchanged:
        fs.remove_tree(kept)
    return unchanged


#: What to do when a folder cannot be changed in place, in words that fit both commands that change one
#: (``upgrade --in-place`` and ``convert … --into``): this said "memconv upgrade IN OUT" to an import too.
_INSTEAD = "give OUT to write a new folder instead of changing this one in place"


def _refuse_special(path: str, mode: int) -> None:
    raise OutputError(f"{fs.display(path)}: {fs.file_kind(mode)} inside the folder; it cannot be backed up or kept",
                      hint=f"move it away and run again, or {_INSTEAD}; nothing was changed")


def _copy_file(src: str, dst: str) -> None:
    """Copy one regular file with its mode and times; refuse anything else without opening it."""
    mode = os.lstat(src).st_mode
    if not stat.S_ISREG(mode):
        _refuse_special(src, mode)
    shutil.copy2(src, dst, follow_symlinks=False)


def _signature(root: Path) -> dict[str, tuple]:
    """Every entry under ``root`` (not following links): kind, mode, and sha256 or link target."""
    sig: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                sig[rel] = ("link", os.readlink(full))
            elif stat.S_ISDIR(st.st_mode):
                sig[rel] = ("dir", stat.S_IMODE(st.st_mode))
            elif stat.S_ISREG(st.st_mode):
                digest = hashlib.sha256()
                with open(full, "rb") as handle:
                    for chunk in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(chunk)
                sig[rel] = ("file", stat.S_IMODE(st.st_mode), digest.hexdigest())
            else:
                sig[rel] = ("other", st.st_mode)
    return sig


def replace_in_place(files: dict[str, bytes], in_path: Path, read: set[str] | None = None,
                     moved: dict[str, str] | None = None, links: dict[str, str] | None = None) -> None:
    """Make IN hold ``files`` in place of the files the upgrade ``read``, keeping everything else, in one rename.

    The new folder is built beside IN first; IN is swapped for it only when
    every byte is written, so a killed run never leaves a half-written file.
    Symbolic links, empty folders, ``.git`` folders and files the upgrade did
    not read are copied over; files keep their modes, folders too, and a file
    written under a new name (``moved``: old path → new path) the mode of the
    file it came from; a symbolic link named in ``links`` is given its new text there (it follows its file).
    """
    real = Path(os.path.realpath(in_path))
    if read is None:
        read = set(list_files(real))
    tmp = stage(files, real)
    try:
        _carry_over(str(real), str(tmp), "", read, files, moved or {}, links or {})
        os.chmod(tmp, stat.S_IMODE(os.stat(real).st_mode))
        with fs.signals_deferred():
            fs.swap(tmp, real)
            fs.settle(tmp)
    except BaseException:
        fs.remove_tree(tmp)
        raise


def _carry_over(src: str, dst: str, rel: str, read: set[str], files: dict[str, bytes],
                moved: dict[str, str], links: dict[str, str]) -> None:
    """Copy into ``dst`` what of ``src`` the upgrade did not read, and the modes of what it did: a file written at
    its own path keeps its mode, and so does one written under a new name (``moved``) where IN has no file of
    that name (whose own mode it keeps)."""
    here = os.path.join(src, rel) if rel else src
    try:
        names = fs.names_in(here)
    except OSError as exc:
        raise OutputError(f"{fs.display(here)}: could not be read ({exc.strerror})",
                          hint=f"changing the folder in place would lose it; fix its permissions, or {_INSTEAD}") \
            from None
    for name in names:
        path = f"{rel}/{name}" if rel else name
        full = os.path.join(here, name)
        st = os.lstat(full)
        target = os.path.join(dst, path)
        if stat.S_ISLNK(st.st_mode):
            if os.path.lexists(target):
                os.unlink(target)  # the link stays a link; what it points at is upgraded at its own path
            os.symlink(links.get(path) or os.readlink(full), target)
        elif stat.S_ISDIR(st.st_mode):
            os.makedirs(target, exist_ok=True)
            _carry_over(src, dst, path, read, files, moved, links)
            os.chmod(target, stat.S_IMODE(st.st_mode))
        elif stat.S_ISREG(st.st_mode):
            if path in files:
                os.chmod(target, stat.S_IMODE(st.st_mode))
            elif path not in read:
                shutil.copy2(full, target, follow_symlinks=False)
            elif (new := moved.get(path)) in files and not os.path.lexists(os.path.join(src, new)):
                os.chmod(os.path.join(dst, new), stat.S_IMODE(st.st_mode))
        else:
            _refuse_special(full, st.st_mode)
