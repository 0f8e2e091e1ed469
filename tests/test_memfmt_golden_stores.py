"""Golden memfmt stores: what memconv writes back from them, judged by the memfmt library.

What ``memconv migrate`` writes from each ``golden/memfmt/<store>/input/`` (its
files, its report, and the model the reader gives) is pinned byte for byte by
the snapshots of ``tests/test_golden_outputs.py`` (docs/golden.md); here the
memfmt library judges that output, and two stores are checked for what they prove.
"""

from __future__ import annotations

from pathlib import Path

import memfmt
import pytest

from memconv import pipeline
from memconv.fs import list_files

from . import golden
from .memfmt_oracle import to_library, validate

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memfmt"
STORES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())


def _tree(root: Path) -> dict[str, bytes]:
    return {p: (root / p).read_bytes() for p in list_files(root)} if root.is_dir() else {}


@pytest.mark.parametrize("name", STORES)
def test_golden_output_passes_memfmt_validate(name):
    out = golden.migrated_folder("memfmt", name)
    written = pipeline.read(out, "memfmt")
    profiles = [r.updated for r in written.records if r.kind == "profile"]
    status, said = validate(out, today=profiles[0] if profiles else None)
    assert status == 0, f"memfmt validate accepts what memconv wrote for {name}:\n{said}"


@pytest.mark.parametrize("name", STORES)
def test_golden_output_loads_in_memfmt_as_the_input_does(name):
    here = GOLDEN / name
    out = golden.migrated_folder("memfmt", name)
    assert memfmt.canonical(memfmt.load(out)) == memfmt.canonical(memfmt.load(here / "input")), \
        "memfmt.load of memconv's output equals memfmt.load of the input"
    assert memfmt.canonical(to_library(pipeline.read(here / "input", "memfmt"))) == \
        memfmt.canonical(memfmt.load(here / "input")), "memconv reads the golden input as memfmt.load does"


def test_full_store_comes_back_byte_identical():
    here = GOLDEN / "full"
    assert golden.migrated("memfmt", "full") == _tree(here / "input"), \
        "a store read from memfmt and written as memfmt is unchanged"


def test_vault_notes_are_carried_untouched_and_listed():
    store, files, summary = golden.read("memfmt", "vault"), golden.migrated("memfmt", "vault"), \
        golden.migrate_summary("memfmt", "vault")
    inputs = _tree(GOLDEN / "vault" / "input")
    for note in ("README.md", "Daily/2026-08-01.md", "memory/entities/Ali.md", "memory/scratch.md", "BOM note.md",
                 ".obsidian/app.json", "attachments/diagram.png"):
        assert files[note] == inputs[note], f"{note} is carried byte for byte"
    assert "warning: memory/entities/Ali.md: markdown without memfmt_type" in summary, \
        "every note of someone's own is listed in the report"
    assert not any(r.source.path == "memory/entities/Ali.md" for r in store.records), "a vault note is never converted"
