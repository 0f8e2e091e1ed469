"""Golden memspec stores: what ``memconv migrate`` writes from them is a current store that round trips.

What memconv writes from each ``golden/memspec/<name>/input/`` (for a current
store its round trip, for a v0.2 store the migrated store, quarantine
included) and the report's summary are pinned byte for byte by the snapshots
of ``tests/test_golden_outputs.py`` (docs/golden.md). Here that output is
checked for what it must be: a current store, needing no migration, that
satisfies memspec's schema rules and comes back unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.dialects import memspec
from memconv.fs import list_files
from memconv.pipeline import plan
from memconv.report import Report

from . import golden
from .memspec_schema_rules import problems

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memspec"
STORES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())
CURRENT = ("current-every-field", "newer-scope-probes")


def run(root: Path) -> dict[str, bytes]:
    store = memspec.read(root)
    return plan(store, "memspec", Report(command="migrate", input=str(root))).files


def tree(root: Path) -> dict[str, bytes]:
    return {p: (root / p).read_bytes() for p in list_files(root)}


@pytest.mark.parametrize("name", CURRENT)
def test_current_store_round_trip_is_byte_identical(name):
    # Independent of the committed expectations, so regenerating cannot bless a broken writer.
    # Verified by making write_record always render the whole block anew (no raw fast path, no
    # per-key patch): fails on current-every-field (hand-written flow lists, comment, CRLF).
    root = GOLDEN / name / "input"
    files = run(root)
    prefix = memspec._prefix(root)
    original = {p: b for p, b in tree(root).items()
                if p.startswith(prefix) and not memspec.CACHE.match(p[len(prefix):])}
    added = {p for p in files if p not in original}
    assert all(memspec.is_keep_file(p, files[p]) for p in added), "only archive/ and observations/ are added"
    files = {p: b for p, b in files.items() if p not in added}
    assert files == original, "a current memspec store read and written back is byte-identical (caches left out)"


@pytest.mark.parametrize("name", STORES)
def test_migrated_output_is_a_current_store_that_round_trips(name):
    out = golden.migrated_folder("memspec", name)
    store = memspec.read(out)
    assert store.migrations == [], "migrated output needs no further migration"
    assert store.quarantined == [], "quarantined originals live outside .memspec/ and are carried, not re-read"
    files = run(out)
    prefix = memspec._prefix(out)
    # Only .memspec/ is the store; the quarantine folder beside it is memconv's, not memspec's.
    assert files == {p: b for p, b in tree(out).items() if p.startswith(prefix)}, "migrating twice changes nothing"


@pytest.mark.parametrize("name", STORES)
def test_migrated_output_satisfies_memspec_schema_rules(name):
    # Verified by making v04_to_current keep the old path (no relocation):
    # fails on v02-dated-observations ("in memory/decisions/, but ... memory/operator/decisions/").
    out = golden.migrated_folder("memspec", name)
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
    files = run(root)
    for q in store.quarantined:
        assert files[f".memspec/.memconv/quarantine/{q.path}.kept"] == (root / q.path).read_bytes(), \
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
