"""The golden cases: what memconv writes from each golden store, computed from ``golden/*/*/input/``.

``tests/test_golden_outputs.py`` compares every one of these with its syrupy
snapshot (``tests/__snapshots__/test_golden_outputs/``), byte for byte; the
other tests that judge outputs (the targets' own tools, schemas, round trips)
take them from here, as files or as a folder, so they judge what memconv
writes now, which the snapshots pin. Each output is computed once per run.

The cases, for every golden store ``golden/<dialect>/<store>/input/``:

- ``convert``: converted into every other dialect (``memconv convert``;
  quarantined originals and the manifest left out);
- ``migrate``: written back in its own dialect (``memconv migrate``), with the
  report's summary;
- ``upgrade`` (claude stores): ``memconv upgrade``'s memoir store, with the
  report as JSON;
- ``model`` (memfmt stores): the model the reader gives, as JSON.

See docs/golden.md.
"""

from __future__ import annotations

import atexit
import inspect
import json
import shutil
import tempfile
from dataclasses import asdict
from functools import cache
from pathlib import Path

from memconv import dialects, pipeline
from memconv import upgrade as upgrading
from memconv.model import Store
from memconv.report import Report

from .conftest import GOLDEN, write_files
from .convert_helpers import DIALECTS, convert_files, golden_inputs

#: (dialect, store) of every golden store.
STORES: list[tuple[str, str]] = golden_inputs()
#: (dialect, store, target) of every conversion into another dialect.
CONVERSIONS: list[tuple[str, str, str]] = [(d, n, t) for d, n in STORES for t in DIALECTS if t != d]


def read(dialect: str, name: str) -> Store:
    """The golden store as its dialect's reader gives it (a fresh one each time: callers may change it)."""
    return dialects.get(dialect).read(GOLDEN / dialect / name / "input")


@cache
def _converted(dialect: str, name: str, target: str) -> dict[str, bytes]:
    return convert_files(read(dialect, name), target, release=True)[0]  # handed over, as the CLI does


def converted(dialect: str, name: str, target: str) -> dict[str, bytes]:
    """The files ``memconv convert`` writes from the golden store into ``target``."""
    return dict(_converted(dialect, name, target))


@cache
def _migrated(dialect: str, name: str) -> tuple[dict[str, bytes], str]:
    store = read(dialect, name)
    report = Report(command="migrate", input=f"golden/{dialect}/{name}/input")
    files = pipeline.plan(store, dialect, report).files
    return {p: b for p, b in files.items() if not p.startswith(".memconv/manifest")}, _summary(report) + "\n"


def _summary(report: Report) -> str:
    """The summary with every warning, quarantined and refused file on its own line.

    (Where ``Report.summary`` groups warnings unless asked for ``verbose``, ask; before that, it listed all.)
    """
    if "verbose" in inspect.signature(report.summary).parameters:
        return report.summary(verbose=True)
    return report.summary()


def migrated(dialect: str, name: str) -> dict[str, bytes]:
    """The files ``memconv migrate`` writes from the golden store (its own dialect), quarantine included."""
    return dict(_migrated(dialect, name)[0])


def migrate_summary(dialect: str, name: str) -> str:
    """The report's summary of that migration: migrations, warnings, quarantines, one per line."""
    return _migrated(dialect, name)[1]


@cache
def _upgraded(name: str) -> tuple[dict[str, bytes], str]:
    report = Report(command="upgrade", input="input")
    files = upgrading.plan(GOLDEN / "claude" / name / "input", report).files
    doc = {"files": [asdict(f) for f in report.files], "warnings": report.warnings, "exit_code": report.exit_code}
    return files, json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def upgraded(name: str) -> dict[str, bytes]:
    """The memoir store ``memconv upgrade`` writes from the golden claude folder."""
    return dict(_upgraded(name)[0])


def upgrade_report(name: str) -> str:
    """The upgrade's per-file report, as JSON."""
    return _upgraded(name)[1]


def model_json(store: Store) -> str:
    """The model a reader gives (pandoc's "native"), as JSON: records, indexes, foreign files, quarantine."""
    def record(r):
        d = asdict(r)
        d["source"] = {"path": r.source.path, "version": r.source.version} if r.source else None
        return d

    doc = {
        "dialect": store.dialect,
        "meta": store.meta,
        "records": [record(r) for r in store.records],
        "indexes": [{**asdict(i), "source": {"path": i.source.path, "version": i.source.version}}
                    for i in store.indexes],
        "foreign": [{"path": f.path, "why": f.why, "bytes": len(f.raw)} for f in store.foreign],
        "quarantined": [{"path": q.path, "reason": q.reason, "line": q.line} for q in store.quarantined],
        "migrations": store.migrations,
        "warnings": store.warnings,
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


_FOLDERS: list[Path] = []


def _root() -> Path:
    if not _FOLDERS:
        _FOLDERS.append(Path(tempfile.mkdtemp(prefix="memconv-golden-")))
        atexit.register(shutil.rmtree, _FOLDERS[0], True)
    return _FOLDERS[0]


@cache
def _folder(*key: str) -> Path:
    files = {"convert": lambda d, n, t: _converted(d, n, t), "migrate": lambda d, n: _migrated(d, n)[0],
             "upgrade": lambda n: _upgraded(n)[0]}[key[0]](*key[1:])
    root = _root().joinpath(*key)
    write_files(root, files)
    return root


def converted_folder(dialect: str, name: str, target: str) -> Path:
    """The conversion written to a folder (made once per run; do not change it, copy it)."""
    return _folder("convert", dialect, name, target)


def migrated_folder(dialect: str, name: str) -> Path:
    """The migration written to a folder (made once per run; do not change it, copy it)."""
    return _folder("migrate", dialect, name)


def upgraded_folder(name: str) -> Path:
    """The upgrade written to a folder (made once per run; do not change it, copy it)."""
    return _folder("upgrade", name)
