"""The one-way flow: files → reader (→ ladder) → model → converter → writer → files.

The CLI is a thin shell over these functions; tests call them directly.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import dialects, fs
from .errors import StoreError, WrongDialect
from .fs import QUARANTINE_DIR, list_files
from .model import Store, fingerprint
from .report import EXIT_DIFFERENCES, EXIT_QUARANTINED, FileReport, Report


def resolve_dialect(root: Path, name: str | None) -> str:
    """``name`` if given, else the dialect ``detect`` is surest of.

    Refuses (exit 2) when the folder holds several stores, or when the store
    detect found is a folder inside IN (a Claude project's ``memory/``).
    """
    if name:
        dialects.get(name)
        return name
    survey = dialects.survey(root)
    if not survey.found:
        raise StoreError(f"{root}: not a memory store memconv recognises: {survey.describe()}",
                         hint="run `memconv detect` on it, or name the dialect with --from")
    if survey.finding == "several stores":
        raise WrongDialect(f"{root}: {survey.describe()}",
                           hint="name the one to read with --from " + " or --from ".join(d.dialect for d in survey.stores))
    best = survey.found[0]
    if best.elsewhere(root):
        raise WrongDialect(f"{root}: {best.evidence}", hint=best.hint)
    return best.dialect


def confirm_dialect(root: Path, name: str | None, suggest: Callable[[str, Path], str]) -> list[str]:
    """Refuse (exit 2) a ``--from name`` that IN is not, with detect's finding and the command to run instead.

    ``suggest(dialect, folder)`` is the same command line for another dialect
    or folder. IN is refused when it is empty; when the store is a folder
    inside it; when no evidence of ``name`` is found but a store of another
    dialect is, or a confident one outweighs a weak ``name`` on the same files;
    and when nothing is detected and reading it as ``name`` finds no record,
    only other files. ``--from`` given on purpose is otherwise trusted (a folder
    of bare legacy Claude entries has no mark, yet is a claude store), and the
    warnings returned say it was read on trust.
    """
    if not name or not root.is_dir():
        return []  # no --from to check, or no folder: the reader says "no such folder" (exit 4)
    dialects.get(name)
    survey = dialects.survey(root)
    if not survey.files:
        raise WrongDialect(f"{root}: the folder is empty: there is no {name} store to read",
                           hint="give the folder that holds the store")
    mine = next((d for d in survey.found if d.dialect == name), None)
    if mine is not None and mine.elsewhere(root):
        raise WrongDialect(f"{root}: {mine.evidence}", hint=f"run: {suggest(name, mine.root)}")
    others = [d for d in survey.stores or survey.found[:1] if d.dialect != name]
    outweighed = mine is not None and any(d.confidence >= dialects.CONFIDENT and d.where == mine.where
                                          for d in others) and mine.confidence < dialects.STRONG
    if others and (mine is None or outweighed):
        runs = " or ".join(suggest(d.dialect, d.root or root) for d in others)
        raise WrongDialect(f"{root}: not a {name} store: {survey.describe()}", hint=f"run: {runs}")
    if not survey.found:
        store = read(root, name)
        if not store.records and store.working_set is None and not store.indexes:
            raise WrongDialect(f"{root}: no {name} record here, only other files: {survey.describe()}",
                               hint="give the folder that holds the store; `memconv detect` says what a folder is")
        return [f"{root}: no mark of {name} found ({survey.describe()}); read as {name} because --from says so"]
    return []


def read(root: Path, dialect: str) -> Store:
    """The store at ``root`` as ``dialect`` reads it, with what the listing refused to read (``store.refused``)."""
    with fs.noting_refusals(root) as found:
        store = dialects.get(dialect).read(root)
    store.refused.extend(fs.refused_under(root, found))
    return store


def convert(store: Store, target: str, *, lossy: bool = False):
    """The store as the ``target`` dialect should see it, and the per-record report (None within a dialect)."""
    if target == store.dialect:
        return store, None
    from . import converters

    conversion = converters.run(store, target, lossy=lossy)
    return conversion.store, conversion


@dataclass
class Plan:
    """The files a run would write, and what it reports about them."""

    files: dict[str, bytes]
    report: Report


def plan(store: Store, target: str, report: Report, *, lossy: bool = False, date: str | None = None) -> Plan:
    """Convert and write in memory; fill ``report``. Writes nothing to disk.

    ``date`` is stamped on indexes the target regenerates (memfmt's ``generated:``).
    """
    out_store, conversion = convert(store, target, lossy=lossy)
    if date is not None:
        out_store.meta["date"] = date
    files = dialects.get(target).write(out_store)
    report.source_dialect = store.dialect
    report.target_dialect = target
    report.migrations.extend(store.migrations)
    report.warnings.extend(store.warnings)
    if out_store is not store:
        report.warnings.extend(w for w in out_store.warnings if w not in store.warnings)
    if conversion is not None:
        report.files.extend(conversion.records)
        report.warnings.extend(w for w in conversion.warnings if w not in report.warnings)
        _quarantine(store, files, report)
        return Plan(files, report)
    for record in store.records:
        src = record.source
        unchanged = src is not None and src.dialect == target and src.fingerprint == fingerprint(record)
        status = "opaque" if record.opaque else "kept" if unchanged else "converted"
        report.files.append(FileReport(source=src.path if src else None, source_kind=record.kind,
                                       target_kind=record.kind if target == store.dialect else None,
                                       target=src.path if src and target == store.dialect else None,
                                       status=status))
    ws = store.working_set
    if ws is not None and ws.source is not None:
        status = "migrated" if ws.source.version != ws.version else "kept"
        report.files.append(FileReport(source=ws.source.path, source_kind="working_set",
                                       target=ws.source.path if target == store.dialect else None,
                                       status=status))
    for foreign in store.foreign:
        report.files.append(FileReport(source=foreign.path, target=foreign.path, status="foreign",
                                       warnings=[] if foreign.why == "not a file of this dialect" else [foreign.why]))
    _quarantine(store, files, report)
    return Plan(files, report)


def _quarantine(store: Store, files: dict[str, bytes], report: Report) -> None:
    """Copy each quarantined original to ``.memconv/quarantine/<path>`` (never over another file); list the refused."""
    for q in store.quarantined:
        kept = _quarantine_path(q.path, files)
        if kept is not None:
            files[kept] = q.raw
        reason = q.reason if kept is not None else q.reason + "; its name is not safe to write, so no copy was kept"
        report.quarantined.append({"path": fs.display(q.path), "line": q.line, "reason": reason, "kept_at": kept})
        report.files.append(FileReport(source=fs.display(q.path), target=kept, status="quarantined"))
    for path, reason in store.refused:
        report.refused.append({"path": path, "reason": reason})
        report.files.append(FileReport(source=path, status="refused"))
    if store.quarantined or store.refused:
        report.exit_code = EXIT_QUARANTINED


def _quarantine_path(path: str, files: dict[str, bytes]) -> str | None:
    """Where the quarantined ``path`` is kept in OUT: a free, safe name (``x (2).md`` when ``x.md`` is taken)."""
    wanted = f"{QUARANTINE_DIR}/{path}"
    if fs.path_problem(wanted) is not None:
        return None
    folder, _, name = wanted.rpartition("/")
    stem, dot, ext = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    n = 2
    while wanted in files:
        wanted = f"{folder}/{stem} ({n}){dot}{ext}"
        n += 1
    return wanted


def _problems(store: Store) -> list[str]:
    """Every quarantined file, one line each, for ``check`` (refused ones are in ``Report.refused``)."""
    return [f"{fs.display(q.path)}" + (f":{q.line}" if q.line else "") + f": {q.reason}" for q in store.quarantined]


def check(root: Path, dialect: str, report: Report) -> Report:
    """Read ``root``, write it back in memory, and diff against the disk."""
    store = read(root, dialect)
    result = plan(store, dialect, report)
    on_disk = _store_files(root, store)
    written = {p: b for p, b in result.files.items() if not p.startswith(QUARANTINE_DIR + "/")}
    for path in sorted(on_disk | set(written)):
        before = fs.read_bytes(root, path) if path in on_disk else None
        after = written.get(path)
        if before == after or (before is None and after == b"" and (root / path).parent.is_dir()):
            continue  # an empty file that only holds a folder (memspec's archive/) adds nothing the disk lacks
        report.differences.append({"path": path, "diff": _diff(path, before, after)})
    report.errors.extend(_problems(store))
    if report.differences or store.quarantined or store.refused:
        report.exit_code = EXIT_DIFFERENCES
    return report


def check_via(root: Path, dialect: str, via: str, report: Report) -> Report:
    """Round-trip ``root`` through dialect ``via`` and back, in memory, and diff against the disk."""
    store = read(root, dialect)
    there = plan(store, via, Report(command="check", input=str(root)))
    with fs.scratch_folder("via") as tmp_root:
        fs.write_files(tmp_root, {p: b for p, b in there.files.items() if not p.startswith(QUARANTINE_DIR + "/")})
        back_store = read(tmp_root, via)
    back = plan(back_store, dialect, report)
    report.source_dialect, report.target_dialect = dialect, via
    report.warnings.extend(w for w in there.report.warnings if w not in report.warnings)
    on_disk = _store_files(root, store)
    written = {p: b for p, b in back.files.items() if not p.startswith(QUARANTINE_DIR + "/")}
    for path in sorted(on_disk | set(written)):
        before = fs.read_bytes(root, path) if path in on_disk else None
        after = written.get(path)
        if before != after:
            report.differences.append({"path": path, "diff": _diff(path, before, after)})
    report.errors.extend(_problems(store))
    report.refused.extend({"path": path, "reason": reason} for path, reason in store.refused)
    report.exit_code = EXIT_DIFFERENCES if report.differences or store.quarantined or store.refused else 0
    return report


def _store_files(root: Path, store: Store) -> set[str]:
    """The files on disk that belong to the store: under its prefix, less what it leaves out on purpose."""
    prefix = store.meta.get("prefix") or ""
    left_out = set(store.meta.get("left_out", ()))
    return {p for p in list_files(root) if p.startswith(prefix) and p not in left_out}


def _diff(path: str, before: bytes | None, after: bytes | None) -> str:
    def lines(data: bytes | None) -> list[str]:
        if data is None:
            return []
        return data.decode("utf-8", "backslashreplace").splitlines(keepends=True)

    a, b = lines(before), lines(after)
    for side in (a, b):
        if side and not side[-1].endswith("\n"):
            side[-1] += "\n\\ No newline at end of file\n"
    diff = "".join(difflib.unified_diff(a, b, f"a/{path}" if before is not None else "/dev/null",
                                        f"b/{path}" if after is not None else "/dev/null"))
    if not diff and before != after:
        diff = f"--- a/{path}\n+++ b/{path}\n@@ bytes differ (line endings, BOM or final newline) @@\n"
    return diff
