"""The one-way flow: files → reader (→ ladder) → model → converter → writer → files.

The CLI is a thin shell over these functions; tests call them directly.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from . import dialects
from .errors import StoreError
from .fs import QUARANTINE_DIR, list_files
from .model import Store, fingerprint
from .report import EXIT_DIFFERENCES, EXIT_QUARANTINED, FileReport, Report


def resolve_dialect(root: Path, name: str | None) -> str:
    """``name`` if given, else the dialect ``detect`` is surest of."""
    if name:
        dialects.get(name)
        return name
    found = dialects.detect_all(root)
    if not found:
        raise StoreError(f"{root}: not a memory store memconv recognises",
                         hint="run `memconv detect` on it, or name the dialect with --from")
    return found[0].dialect


def read(root: Path, dialect: str) -> Store:
    return dialects.get(dialect).read(root)


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
        _quarantine(out_store, files, report)  # the source's, and any the conversion set aside
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


def quarantine_path(path: str, files: dict[str, bytes]) -> str:
    """Where in OUT the quarantined file ``path`` is kept: never over a file already there.

    ``.memconv/quarantine/<path>``, with a ``\\`` (refused in any written
    name) spelled ``%5C``; when that is taken (IN held a quarantine of its own),
    ``<stem>-2<ext>``, ``-3``… as for any other name that is taken.
    """
    base = f"{QUARANTINE_DIR}/{path.replace(chr(92), '%5C')}"
    folder, _, name = base.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    target, n = base, 1
    while target in files:
        n += 1
        target = f"{folder}/{stem}-{n}{'.' + ext if ext else ''}"
    return target


def _quarantine(store: Store, files: dict[str, bytes], report: Report) -> None:
    for q in store.quarantined:
        kept_at = quarantine_path(q.path, files)
        files[kept_at] = q.raw
        report.quarantined.append({"path": q.path, "line": q.line, "reason": q.reason, "kept_at": kept_at})
        report.files.append(FileReport(source=q.path, target=kept_at, status="quarantined"))
    if store.quarantined:
        report.exit_code = EXIT_QUARANTINED


def check(root: Path, dialect: str, report: Report) -> Report:
    """Read ``root``, write it back in memory, and diff against the disk."""
    store = read(root, dialect)
    result = plan(store, dialect, report)
    on_disk = _store_files(root, store)
    written = {p: b for p, b in result.files.items() if not p.startswith(QUARANTINE_DIR + "/")}
    for path in sorted(on_disk | set(written)):
        before = (root / path).read_bytes() if path in on_disk else None
        after = written.get(path)
        if before == after:
            continue
        report.differences.append({"path": path, "diff": _diff(path, before, after)})
    for q in store.quarantined:
        report.errors.append(f"{q.path}" + (f":{q.line}" if q.line else "") + f": {q.reason}")
    if report.differences or store.quarantined:
        report.exit_code = EXIT_DIFFERENCES
    return report


def check_via(root: Path, dialect: str, via: str, report: Report) -> Report:
    """Round-trip ``root`` through dialect ``via`` and back, in memory, and diff against the disk."""
    import tempfile

    store = read(root, dialect)
    there = plan(store, via, Report(command="check", input=str(root)))
    with tempfile.TemporaryDirectory(prefix="memconv-via-") as tmp:
        tmp_root = Path(tmp)
        for path, data in there.files.items():
            if path.startswith(QUARANTINE_DIR + "/"):
                continue
            target = tmp_root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        back_store = read(tmp_root, via)
    back = plan(back_store, dialect, report)
    report.source_dialect, report.target_dialect = dialect, via
    report.warnings.extend(w for w in there.report.warnings if w not in report.warnings)
    on_disk = _store_files(root, store)
    written = {p: b for p, b in back.files.items() if not p.startswith(QUARANTINE_DIR + "/")}
    for path in sorted(on_disk | set(written)):
        before = (root / path).read_bytes() if path in on_disk else None
        after = written.get(path)
        if before != after:
            report.differences.append({"path": path, "diff": _diff(path, before, after)})
    for q in store.quarantined:
        report.errors.append(f"{q.path}" + (f":{q.line}" if q.line else "") + f": {q.reason}")
    report.exit_code = EXIT_DIFFERENCES if report.differences or store.quarantined else 0
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
