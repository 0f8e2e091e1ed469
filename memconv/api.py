"""memconv's public Python API: the CLI's commands as functions (docs/api.md).

Every function takes a path as ``str`` or :class:`~pathlib.Path`, returns a
value that says what happened (a :class:`~memconv.model.Store`, a
:class:`Converted`, a :class:`~memconv.report.Report`, a :class:`Detected`
or a merge result), and raises a :class:`~memconv.errors.MemconvError`
subclass (with ``message`` and ``hint``) when it cannot do what was asked. A
file memconv cannot read is never an exception: it is quarantined, and the
report says so.

These are thin wrappers over :mod:`memconv.pipeline` (read, plan, check) and
:mod:`memconv.fs` (the guarded, atomic writer the CLI uses), so the API and
the CLI cannot disagree.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import dialects, fs, pipeline
from .errors import MemconvError, UsageError
from .report import Report

if TYPE_CHECKING:
    from .merge import MergeResult
    from .model import Store

#: What every function accepts as a path.
PathLike = str | os.PathLike[str]


@dataclass
class Converted:
    """A store converted in memory: the files the target dialect would write, and the report.

    Nothing is on disk yet: give it to :func:`write_store`.
    """

    #: The target dialect.
    dialect: str
    #: Relative path → bytes, exactly what ``memconv convert`` would write (less its manifest).
    files: dict[str, bytes]
    #: What became of every file: ``report.files``, ``warnings``, ``quarantined``, ``exit_code``.
    report: Report


@dataclass
class Detected:
    """What :func:`detect` found in a folder."""

    path: str
    #: ``nothing``, ``one store`` or ``several stores``.
    finding: str
    #: The surest dialect, or None when nothing was found.
    dialect: str | None
    version: str | int | None
    confidence: float
    #: What was seen, in words: ``memory/ with 12 entries, session.json v1``.
    evidence: str
    hint: str | None = None
    #: Every dialect's opinion, surest first: ``(dialect, version, confidence, evidence)``.
    candidates: list[tuple[str, str | int | None, float, str]] = field(default_factory=list)


def _path(path: PathLike, what: str) -> Path:
    """``path`` as a Path; a clear error for anything else (an empty string, None, bytes, a number)."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"{what} must be a path (str or pathlib.Path), not {type(path).__name__}",
                         hint="pass the folder, e.g. Path('./store')")
    if os.fspath(path) == "":  # Path("") would silently mean the current folder
        raise UsageError(f"{what} is empty", hint="pass the folder to use")
    return Path(path)


def _folder(path: PathLike) -> Path:
    """``path`` as a Path to an existing folder, else :class:`StoreError` (exit status 4 in the CLI)."""
    root = _path(path, "path")
    return fs.store_folder(root, hint="give the folder that holds the memory store")


def _confined(root: Path):
    """Listings inside the block stay inside ``root`` (as the CLI's are)."""
    return fs.noting_refusals(root)


def _dialect(name: str | None) -> str | None:
    if name is not None:
        dialects.get(name)  # StoreError naming the dialects there are
    return name


def detect(path: PathLike) -> Detected:
    """Which dialect and version the folder ``path`` is, as ``memconv detect`` says it.

    Never raises for a folder that is not a store: ``finding`` is ``nothing``
    and ``evidence`` says what was seen. Raises :class:`StoreError` for a path
    that is not a folder.
    """
    root = _folder(path)
    with _confined(root):
        survey = dialects.survey(root)
    candidates = [(d.dialect, d.version, round(d.confidence, 3), d.evidence) for d in survey.found]
    if not survey.found:
        return Detected(str(root), survey.finding, None, None, 0.0, survey.describe(),
                        "name the folder that holds the store", candidates)
    best = survey.found[0]
    hint = best.hint
    if survey.finding == "several stores":
        hint = "several stores here: name the one to read with dialect=" + " or ".join(
            repr(d.dialect) for d in survey.stores)
    return Detected(str(root), survey.finding, best.dialect, best.version, round(best.confidence, 3),
                    best.evidence if survey.finding != "several stores" else survey.describe(), hint, candidates)


def read_store(path: PathLike, dialect: str | None = None) -> Store:
    """The store at ``path`` read into memconv's model (docs/model.md).

    ``dialect`` is detected when not given (as the CLI does without
    ``--from``); a folder holding several stores, or a store inside a
    Claude Code project folder, raises :class:`WrongDialect` saying which to
    name. Files that cannot be read are in ``store.quarantined`` and
    ``store.refused``, never an exception.
    """
    root = _folder(path)
    with _confined(root):
        trusted = pipeline.confirm_dialect(root, _dialect(dialect), _instead) if dialect is not None else []
        name = pipeline.resolve_dialect(root, dialect)
        store = pipeline.read(root, name)
    store.warnings.extend(trusted)
    return store


def _instead(dialect: str, folder: Path) -> str:
    return f"memconv.read_store({str(folder)!r}, dialect={dialect!r})"


def convert(store: Store, to: str, *, lossy: bool = False, date: str | None = None) -> Converted:
    """``store`` as the dialect ``to`` writes it, in memory: its files and the report.

    ``lossy=True`` writes clean files with no memconv carry and lists what
    was dropped in ``report.files[i].dropped``. ``date`` (``YYYY-MM-DD``) is
    the day stamped where the target needs a date the store lacks (memfmt's ``generated:``,
    memspec's undated records).
    ``to`` may be the store's own dialect (a migration to its current version).
    """
    from .model import Store as _Store

    if not isinstance(store, _Store):
        raise UsageError(f"convert takes a store read by read_store, not {type(store).__name__}",
                         hint="store = memconv.read_store(path); memconv.convert(store, to=...)")
    _dialect(to)
    if date is not None:
        import datetime

        try:
            datetime.date.fromisoformat(date)
        except (TypeError, ValueError):
            raise UsageError(f"date {date!r} is not a date", hint="give it as YYYY-MM-DD") from None
    report = Report(command="convert", input=f"a {store.dialect} store")
    planned = pipeline.plan(store, to, report, lossy=lossy, date=date)
    return Converted(to, planned.files, planned.report)


def write_store(store: Store | Converted, path: PathLike, *, to: str | None = None, force: bool = False,
                dry_run: bool = False, lossy: bool = False, date: str | None = None) -> Report:
    """Write ``store`` as the folder ``path``, all or nothing, as ``memconv convert`` does.

    ``store`` is a :class:`Converted` (written as it is) or a store (converted
    first to ``to``, default its own dialect). The folder is built beside
    ``path`` and renamed into place, with ``.memconv/manifest.json``: it is
    never half-written. ``path`` must be new or empty; ``force=True`` replaces
    only a folder memconv wrote and that is unchanged since (its manifest says
    so), else :class:`OutputError`. ``dry_run=True`` checks all that and
    writes nothing. Returns the report, ``report.written`` saying whether
    the folder was written.
    """
    out = _path(path, "path")
    if isinstance(store, Converted):
        if to is not None and to != store.dialect:
            raise UsageError(f"this store was converted to {store.dialect}, not {to}",
                             hint="convert the store read by read_store to the dialect wanted")
        converted = store
    else:
        converted = convert(store, to or store.dialect, lossy=lossy, date=date)
    report = copy.copy(converted.report)  # one Converted may be written twice: each write has its own report
    report.output = str(out)
    if dry_run:
        report.dry_run = True
        fs.check_out(out, force)
        return report
    fs.write_tree(converted.files, out, force=force)
    report.written = True
    return report


def check(path: PathLike, via: str | None = None, *, dialect: str | None = None) -> Report:
    """Would a round trip change anything? ``memconv check`` as a function.

    Reads ``path``, writes it back in memory (through the dialect ``via`` and
    back, when given) and compares with the disk. ``report.exit_code`` is 0
    when the round trip is byte-identical, 1 when something would change
    (each in ``report.differences`` with its diff, a git patch) or a file was
    quarantined. Writes nothing.
    """
    root = _folder(path)
    _dialect(via)
    report = Report(command="check", input=str(root))
    with _confined(root):
        if dialect is not None:
            report.warnings += pipeline.confirm_dialect(root, _dialect(dialect), _instead)
        name = pipeline.resolve_dialect(root, dialect)
        if via and via != name:
            pipeline.check_via(root, name, via, report)
        else:
            pipeline.check(root, name, report)
    return report


def merge(a: Store | PathLike, b: Store | PathLike) -> MergeResult:
    """The merge of two stores of one dialect (docs/merge.md), as files in memory.

    ``a`` and ``b`` are stores read by :func:`read_store`, or their folders.
    The result's ``files`` are what ``memconv merge`` would write;
    ``outcomes`` say what became of every record (``added``, ``updated``,
    ``unchanged``, ``conflict``). Raises ``MergeRefused`` for stores of
    different dialects. Write the files with :func:`write_files`.
    """
    from . import merge as merging
    from .model import Store as _Store

    stores = [side if isinstance(side, _Store) else read_store(side) for side in (a, b)]
    return merging.merge(*stores)


def write_files(files: dict[str, bytes], path: PathLike, *, force: bool = False) -> None:
    """Write ``files`` (relative path → bytes, e.g. a merge's) as the folder ``path``, as :func:`write_store` does."""
    out = _path(path, "path")
    fs.write_tree(files, out, force=force)


__all__ = ["Converted", "Detected", "MemconvError", "check", "convert", "detect", "merge", "read_store",
           "write_files", "write_store"]
