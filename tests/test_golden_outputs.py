"""Every golden output is exactly its committed snapshot, byte for byte: the one golden harness.

The inputs are ``golden/<dialect>/<store>/input/``; what memconv writes from
them (``tests/golden.py``) is compared with syrupy snapshots in
``tests/__snapshots__/test_golden_outputs/``: a ``.tree`` listing per output
store (``tests/snapshot_tree.py``), a ``.txt`` or ``.json`` per report.

A deliberate change to a writer or to the mapping is regenerated with one
command, over the whole suite, and reviewed as a diff (docs/golden.md)::

    .venv/bin/python -m pytest --snapshot-update && git diff tests/__snapshots__/

A missing snapshot fails (syrupy, without ``--snapshot-update``), and so does a
snapshot no case uses; ``test_every_case_has_its_snapshot_and_no_other`` checks
the set as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import golden
from .conftest import GOLDEN
from .convert_helpers import convert_files
from .golden import CONVERSIONS, STORES
from .snapshot_tree import JSONTextSnapshot, TextSnapshot, TreeSnapshot

SNAPSHOTS = Path(__file__).resolve().parent / "__snapshots__" / "test_golden_outputs"
CLAUDE = [n for d, n in STORES if d == "claude"]
MEMFMT = [n for d, n in STORES if d == "memfmt"]


@pytest.fixture
def tree_snapshot(snapshot):
    return snapshot.use_extension(TreeSnapshot)


@pytest.fixture
def text_snapshot(snapshot):
    return snapshot.use_extension(TextSnapshot)


@pytest.mark.parametrize(("dialect", "name", "target"), CONVERSIONS, ids=[f"{d}-{n}-to-{t}" for d, n, t in CONVERSIONS])
def test_convert(dialect, name, target, tree_snapshot):
    assert golden.converted(dialect, name, target) == tree_snapshot


@pytest.mark.parametrize(("dialect", "name", "target"), CONVERSIONS, ids=[f"{d}-{n}-to-{t}" for d, n, t in CONVERSIONS])
def test_converting_twice_gives_the_same_files(dialect, name, target):
    # Two fresh reads and conversions: a snapshot of a run that depends on anything else would be flaky.
    first = convert_files(golden.read(dialect, name), target)[0]
    assert first == convert_files(golden.read(dialect, name), target)[0], "conversion is deterministic"


@pytest.mark.parametrize(("dialect", "name"), STORES, ids=[f"{d}-{n}" for d, n in STORES])
def test_migrate(dialect, name, tree_snapshot):
    assert golden.migrated(dialect, name) == tree_snapshot


@pytest.mark.parametrize(("dialect", "name"), STORES, ids=[f"{d}-{n}" for d, n in STORES])
def test_migrate_report(dialect, name, text_snapshot):
    assert golden.migrate_summary(dialect, name) == text_snapshot


@pytest.mark.parametrize("name", CLAUDE)
def test_upgrade(name, tree_snapshot):
    assert golden.upgraded(name) == tree_snapshot


@pytest.mark.parametrize("name", CLAUDE)
def test_upgrade_report(name, snapshot):
    assert golden.upgrade_report(name) == snapshot.use_extension(JSONTextSnapshot)


@pytest.mark.parametrize("name", MEMFMT)
def test_memfmt_model(name, snapshot):
    assert golden.model_json(golden.read("memfmt", name)) == snapshot.use_extension(JSONTextSnapshot)


def expected_snapshots() -> set[str]:
    """The file name of every case's snapshot, as syrupy names them."""
    names = {f"test_convert[{d}-{n}-to-{t}].tree" for d, n, t in CONVERSIONS}
    names |= {f"test_migrate[{d}-{n}].tree" for d, n in STORES}
    names |= {f"test_migrate_report[{d}-{n}].txt" for d, n in STORES}
    names |= {f"test_upgrade[{n}].tree" for n in CLAUDE} | {f"test_upgrade_report[{n}].json" for n in CLAUDE}
    names |= {f"test_memfmt_model[{n}].json" for n in MEMFMT}
    return names


def test_every_case_has_its_snapshot_and_no_other(request):
    # Runs after the cases above (pytest keeps file order), so under --snapshot-update they exist.
    # Verified by deleting one .tree file: this test and its case fail (syrupy: "snapshot does not exist").
    found = {p.name for p in SNAPSHOTS.iterdir() if p.is_file()}
    missing = expected_snapshots() - found
    assert not missing, f"every golden store × every output has a committed snapshot; missing: {sorted(missing)}"
    if not request.config.getoption("update_snapshots"):
        # (Under --snapshot-update syrupy deletes the unused ones itself, after the last test.)
        assert found == expected_snapshots(), f"snapshots no case uses: {sorted(found - expected_snapshots())}"
    assert len(CONVERSIONS) >= 36 and len(STORES) >= 14, "every golden store is a case"


def test_golden_holds_input_stores_only():
    # An expected-output folder left under golden/ (say by a branch regenerated the old way) would be
    # checked by nothing: the expectations are the snapshots. Verified by restoring one convert-to-memoir/.
    stray = sorted(p.relative_to(GOLDEN).as_posix() for p in GOLDEN.glob("*/*/*")
                   if p.name != "input" or not p.is_dir())
    assert stray == [], "golden/<dialect>/<store>/ holds input/ and nothing else (docs/golden.md)"
    assert sorted(p.name for p in GOLDEN.glob("*/*") if p.is_file()) == [".gitattributes"]
