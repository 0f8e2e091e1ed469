"""Golden memfmt stores: what memconv reads from them and writes back, byte for byte.

Each ``golden/memfmt/<store>/`` holds ``input/`` and what memconv makes of it:

- ``expected-model.json`` — the model the reader gives (pandoc's "native");
- ``expected-memfmt/`` — ``memconv migrate`` output (memfmt → memfmt);
- ``expected-report.txt`` — the report's human summary.

Regenerate after a deliberate change, then review the diff::

    MEMCONV_REGEN=1 PYTHONPATH=$PWD python -m pytest tests/test_memfmt_golden_stores.py
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path

import memfmt
import pytest

from memconv import pipeline
from memconv.fs import list_files, write_tree
from memconv.report import Report

from .memfmt_oracle import to_library, validate

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memfmt"
STORES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())
REGEN = os.environ.get("MEMCONV_REGEN") == "1"


def _model(store) -> str:
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


def _run(name: str):
    root = GOLDEN / name / "input"
    store = pipeline.read(root, "memfmt")
    model = _model(store)  # before writing: the writer may add warnings
    report = Report(command="migrate", input=f"golden/memfmt/{name}/input")
    plan = pipeline.plan(store, "memfmt", report)
    return store, model, plan.files, report.summary(verbose=True) + "\n"


def _tree(root: Path) -> dict[str, bytes]:
    return {p: (root / p).read_bytes() for p in list_files(root)} if root.is_dir() else {}


@pytest.mark.parametrize("name", STORES)
def test_golden_store_reads_and_writes_as_expected(name):
    # Verified by swapping 'id' and 'entity_type' in render_entity's frontmatter: fails with
    # "the reader's model is the golden one" (new "memfmt would rewrite" warnings), as does the
    # serialiser test.
    store, model, files, summary = _run(name)
    here = GOLDEN / name
    if REGEN:
        (here / "expected-model.json").write_text(model, encoding="utf-8")
        (here / "expected-report.txt").write_text(summary, encoding="utf-8")
        shutil.rmtree(here / "expected-memfmt", ignore_errors=True)
        write_tree(files, here / "expected-memfmt")
    assert model == (here / "expected-model.json").read_text(encoding="utf-8"), "the reader's model is the golden one"
    assert summary == (here / "expected-report.txt").read_text(encoding="utf-8"), "the report is the golden one"
    assert files == _tree(here / "expected-memfmt"), "memfmt → memfmt output is the golden one, byte for byte"


@pytest.mark.parametrize("name", STORES)
def test_golden_output_passes_memfmt_validate(name):
    out = GOLDEN / name / "expected-memfmt"
    written = pipeline.read(out, "memfmt")
    profiles = [r.updated for r in written.records if r.kind == "profile"]
    status, said = validate(out, today=profiles[0] if profiles else None)
    assert status == 0, f"memfmt validate accepts what memconv wrote for {name}:\n{said}"


@pytest.mark.parametrize("name", STORES)
def test_golden_output_loads_in_memfmt_as_the_input_does(name):
    here = GOLDEN / name
    assert memfmt.canonical(memfmt.load(here / "expected-memfmt")) == memfmt.canonical(memfmt.load(here / "input")), \
        "memfmt.load of memconv's output equals memfmt.load of the input"
    assert memfmt.canonical(to_library(pipeline.read(here / "input", "memfmt"))) == \
        memfmt.canonical(memfmt.load(here / "input")), "memconv reads the golden input as memfmt.load does"


def test_full_store_comes_back_byte_identical():
    here = GOLDEN / "full"
    assert _run("full")[2] == _tree(here / "input"), "a store read from memfmt and written as memfmt is unchanged"


def test_vault_notes_are_carried_untouched_and_listed():
    store, _, files, summary = _run("vault")
    inputs = _tree(GOLDEN / "vault" / "input")
    for note in ("README.md", "Daily/2026-08-01.md", "memory/entities/Ali.md", "memory/scratch.md", "BOM note.md",
                 ".obsidian/app.json", "attachments/diagram.png"):
        assert files[note] == inputs[note], f"{note} is carried byte for byte"
    assert "warning: memory/entities/Ali.md: markdown without memfmt_type" in summary, \
        "every note of someone's own is listed in the report"
    assert not any(r.source.path == "memory/entities/Ali.md" for r in store.records), "a vault note is never converted"
