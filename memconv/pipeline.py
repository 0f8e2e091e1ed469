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


def convert(store: Store, target: str) -> Store:
    """The store as the ``target`` dialect should see it."""
    if target == store.dialect:
        return store
    from . import converters

    return converters.convert(store, target)


@dataclass
class Plan:
    """The files a run would write, and what it reports about them."""

    files: dict[str, bytes]
    report: Report


def plan(store: Store, target: str, report: Report) -> Plan:
    """Convert and write in memory; fill ``report``. Writes nothing to disk."""
    out_store = convert(store, target)
    files = dialects.get(target).write(out_store)
    report.source_dialect = store.dialect
    report.target_dialect = target
    report.migrations.extend(store.migrations)
    report.warnings.extend(store.warnings)
    if out_store is not store:
        report.warnings.extend(w for w in out_store.warnings if w not in store.warnings)
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
    for q in store.quarantined:
        files[f"{QUARANTINE_DIR}/{q.path}"] = q.raw
        report.quarantined.append({"path": q.path, "line": q.line, "reason": q.reason,
                                   "kept_at": f"{QUARANTINE_DIR}/{q.path}"})
        report.files.append(FileReport(source=q.path, target=f"{QUARANTINE_DIR}/{q.path}", status="quarantined"))
    if store.quarantined:
        report.exit_code = EXIT_QUARANTINED
    return Plan(files, report)


def check(root: Path, dialect: str, report: Report) -> Report:
    """Read ``root``, write it back in memory, and diff against the disk."""
    store = read(root, dialect)
    result = plan(store, dialect, report)
    on_disk = set(list_files(root))
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
