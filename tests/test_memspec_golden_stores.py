"""Golden memspec stores: read + write as memspec, compared byte for byte with what is committed.

Each store under ``golden/memspec/<name>/`` has ``input/`` and beside it
``expected-migrate/`` (the files ``memconv migrate`` writes: for a current store
that is its round trip, for a v0.2 store the migrated store, quarantine
included) and ``expected-report.txt`` (migrations, warnings and quarantines,
one per line).

Regenerate after a deliberate change, then review the diff:

    MEMCONV_REGEN=1 PYTHONPATH=$PWD /work/venv/bin/python -m pytest tests/test_memspec_golden_stores.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from memconv.dialects import memspec
from memconv.fs import list_files
from memconv.pipeline import plan
from memconv.report import Report
from .memspec_schema_rules import problems

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memspec"
STORES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())
CURRENT = ("current-every-field", "newer-scope-probes")
REGEN = os.environ.get("MEMCONV_REGEN") == "1"


def run(root: Path) -> tuple[dict[str, bytes], str]:
    store = memspec.read(root)
    result = plan(store, "memspec", Report(command="migrate", input=str(root)))
    lines = [f"migration: {m}" for m in store.migrations] + [f"warning: {w}" for w in store.warnings]
    lines += [f"quarantined: {q.path}" + (f":{q.line}" if q.line else "") + f": {q.reason}" for q in store.quarantined]
    return result.files, "".join(line + "\n" for line in lines)


def tree(root: Path) -> dict[str, bytes]:
    return {p: (root / p).read_bytes() for p in list_files(root)}


@pytest.mark.parametrize("name", STORES)
def test_golden_store_writes_expected_files_and_report(name):
    files, report = run(GOLDEN / name / "input")
    expected_dir = GOLDEN / name / "expected-migrate"
    if REGEN:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for path, data in files.items():
            (expected_dir / path).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / path).write_bytes(data)
        (GOLDEN / name / "expected-report.txt").write_text(report, encoding="utf-8")
    assert files == tree(expected_dir), f"{name}: output differs from the committed expected-migrate/"
    assert report == (GOLDEN / name / "expected-report.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CURRENT)
def test_current_store_round_trip_is_byte_identical(name):
    # Independent of the committed expectations, so regenerating cannot bless a broken writer.
    # Verified by making write_record always render the whole block anew (no raw fast path, no
    # per-key patch): fails on current-every-field (hand-written flow lists, comment, CRLF).
    root = GOLDEN / name / "input"
    files, _ = run(root)
    prefix = memspec._prefix(root)
    original = {p: b for p, b in tree(root).items()
                if p.startswith(prefix) and not memspec.CACHE.match(p[len(prefix):])}
    added = {p for p in files if p not in original}
    assert all(memspec.is_keep_file(p, files[p]) for p in added), "only archive/ and observations/ are added"
    files = {p: b for p, b in files.items() if p not in added}
    assert files == original, "a current memspec store read and written back is byte-identical (caches left out)"


@pytest.mark.parametrize("name", STORES)
def test_migrated_output_is_a_current_store_that_round_trips(name):
    out = GOLDEN / name / "expected-migrate"
    store = memspec.read(out)
    assert store.migrations == [], "migrated output needs no further migration"
    assert store.quarantined == [], "quarantined originals live outside .memspec/ and are carried, not re-read"
    files, _ = run(out)
    prefix = memspec._prefix(out)
    # Only .memspec/ is the store; the quarantine folder beside it is memconv's, not memspec's.
    assert files == {p: b for p, b in tree(out).items() if p.startswith(prefix)}, "migrating twice changes nothing"


@pytest.mark.parametrize("name", STORES)
def test_migrated_output_satisfies_memspec_schema_rules(name):
    # Verified by making v04_to_current keep the old path (no relocation) and regenerating:
    # fails on v02-dated-observations ("in memory/decisions/, but ... memory/operator/decisions/").
    out = GOLDEN / name / "expected-migrate"
    prefix = memspec._prefix(out)
    found = []
    for path in list_files(out):
        rel = path[len(prefix):] if path.startswith(prefix) else None
        if rel and rel.startswith(memspec.RECORD_DIRS) and rel.endswith(".md"):
            found += problems(rel, (out / path).read_text(encoding="utf-8").replace("\r\n", "\n"))
    assert found == []


def test_v02_store_every_record_accounted_for():
    root = GOLDEN / "v02-dated-observations" / "input"
    store = memspec.read(root)
    record_files = [p for p in list_files(root) if p.startswith(".memspec/") and p.endswith(".md")]
    seen = [r.source.path for r in store.records] + [q.path for q in store.quarantined]
    assert sorted(seen) == sorted(record_files), "every record file is either converted or quarantined"
    files, _ = run(root)
    for q in store.quarantined:
        assert files[f".memconv/quarantine/{q.path}"] == (root / q.path).read_bytes(), \
            "a quarantined file is kept byte for byte, never rewritten"


#: Records in the golden inputs that were written by js-yaml 3.14.2 exactly as memspec writes them.
MEMSPEC_WRITTEN = [
    "current-every-field/input/.memspec/memory/facts/ms_01KN49FJ20XS6Y1EYPJ9ZTW94H.md",
    "current-every-field/input/.memspec/memory/operator/procedures/ms_01KN9E9020GFWGMEAJVSM4XVEK.md",
    "current-every-field/input/.memspec/observations/ms_01KNC0NQ20VJS2K0BMGVWSBS87.md",
    "current-every-field/input/.memspec/archive/ms_01KNEK2E20K04CYB1EYW0J0B6X.md",
    "current-every-field/input/.memspec/archive/ms_01KNH5F520795G44J2YZX6ZWCR.md",
    "newer-scope-probes/input/memory/facts/ms_01KNRWNA20VCD395V3FZBW4Z1W.md",
    "newer-scope-probes/input/memory/decisions/ms_01KN49FJ2028KAX7EADGMGE1FN.md",
    "newer-scope-probes/input/memory/operator/facts/ms_01KN6VW92007FGJ3K7XW52AH0T.md",
]


@pytest.mark.parametrize("path", MEMSPEC_WRITTEN)
def test_rendering_from_the_model_alone_gives_what_memspec_writes(path):
    # The model, with its source forgotten, rendered in canonical form: the same bytes memspec wrote.
    # Verified by setting jsyaml.WIDTH to 100: the folded supersede_reason no longer matches.
    from memconv.dialects.memspec.records import WriteContext, read_record, write_record

    raw = (GOLDEN / path).read_bytes()
    rel = path.split("/input/", 1)[1]
    prefix = ".memspec/" if rel.startswith(".memspec/") else ""
    record, _ = read_record(raw, rel, prefix)
    record.source = None
    out_path, data = write_record(record, WriteContext(ids={}, prefix=prefix))
    assert (out_path, data.decode()) == (rel, raw.decode())
