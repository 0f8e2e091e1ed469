"""The disk side of ``memconv upgrade``: find the memory folder, plan, back up, swap in place.

The decisions live in :mod:`memconv.converters.claude_upgrade` (model in,
model out) and the files are made by the memoir writer; this module only
reads IN, says what would be written, and, for ``--in-place``, copies every
original into a timestamped backup folder beside IN before replacing IN in
one rename, so a killed run leaves either the old folder or the new one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .converters import claude_upgrade
from .dialects import claude, memoir
from . import dialects
from .errors import OutputError, StoreError, WrongDialect
from .fs import SKIPPED_DIRS, list_files, stage
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


def plan(in_path: Path, report: Report, layout: str = "nested") -> Planned:
    """The memoir store IN upgrades to, as files, and the report of what happened to each."""
    if not in_path.is_dir():
        raise StoreError(f"{in_path}: no such folder", hint="give the path of a Claude Code memory folder")
    _refuse_other_stores(in_path)
    nested_in = (in_path / ENTRY_DIR).is_dir()
    memory_root = in_path / ENTRY_DIR if nested_in else in_path
    if nested_in:
        layout = "nested"
    source = claude.read(memory_root)
    if not source.records and not source.indexes and not nested_in:
        raise StoreError(f"{in_path}: no memory files and no MEMORY.md here",
                         hint="give the Claude Code memory folder (~/.claude/projects/<slug>/memory)")
    result = claude_upgrade.upgrade(source, layout)
    if nested_in:  # files beside memory/ (session.json…) are carried as they are
        for path in list_files(in_path):
            if not path.startswith(ENTRY_DIR + "/"):
                result.store.foreign.append(ForeignFile(path, (in_path / path).read_bytes()))
                result.files.append(FileReport(source=path, target=path, status="foreign"))
    files = memoir.write(result.store)
    report.source_dialect, report.target_dialect = "claude", "memoir"
    report.files.extend(result.files)
    report.warnings.extend(result.warnings)
    report.migrations.append(f"legacy Claude Code memory → {claude_upgrade.TARGET} (memoir spec Appendix A)")
    if any(f.status == "quarantined" for f in result.files):
        report.exit_code = EXIT_QUARANTINED
    on_disk = set(list_files(in_path))
    changes_in = on_disk != set(files) or any((in_path / p).read_bytes() != b for p, b in files.items())
    return Planned(files, report, changes_in)


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


def backup(in_path: Path, now: datetime | None = None) -> Path:
    """Copy IN, whole, to ``<IN>.memconv-backup-<UTC time>`` beside it, and check the copy."""
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
    target = in_path.parent / f"{in_path.name}.memconv-backup-{stamp}"
    n = 2
    while target.exists():
        target = in_path.parent / f"{in_path.name}.memconv-backup-{stamp}-{n}"
        n += 1
    shutil.copytree(in_path, target, symlinks=True)
    for path in list_files(in_path):
        if (target / path).read_bytes() != (in_path / path).read_bytes():
            raise OutputError(f"backup of {path} in {target} does not match the original",
                              hint="nothing was changed in IN; check the disk and try again")
    return target


def replace_in_place(files: dict[str, bytes], in_path: Path) -> None:
    """Make IN hold exactly ``files`` (plus its VCS folders), in one rename.

    The new folder is built beside IN first; IN is swapped for it only when
    every byte is written, so a killed run never leaves a half-written file.
    """
    in_path = in_path.absolute()
    tmp = stage(files, in_path)
    try:
        for name in SKIPPED_DIRS:  # a .git inside the memory folder stays with it
            if (in_path / name).is_dir():
                shutil.copytree(in_path / name, tmp / name, symlinks=True)
        shutil.copymode(in_path, tmp)
        old = Path(tempfile.mkdtemp(prefix=f".{in_path.name}.memconv-old-", dir=in_path.parent))
        os.rename(in_path, old / "old")
        os.rename(tmp, in_path)
        shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
