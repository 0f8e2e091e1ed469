"""A memoir store read and written back as memoir is the same bytes, file for file."""

from __future__ import annotations

import pytest

from memconv.dialects import memoir
from memconv.model import Store

from .conftest import GOLDEN, tree

STORES = sorted(p.name for p in (GOLDEN / "memoir").iterdir() if (p / "input").is_dir())


@pytest.mark.parametrize("name", [n for n in STORES if n != "legacy-session"])
def test_golden_store_writes_back_as_expected(name):
    # legacy-session climbs the session ladder: its output is a snapshot (tests/test_golden_outputs.py).
    base = GOLDEN / "memoir" / name
    files = memoir.write(memoir.read(base / "input"))
    assert files == tree(base / "input"), "an up-to-date store comes back byte for byte"


@pytest.mark.parametrize("name", ["canonical", "messy"])
def test_check_exits_zero_on_a_store_that_round_trips(runner, name):
    result = runner.invoke(memoir_cli(), ["check", str(GOLDEN / "memoir" / name / "input")])
    assert result.exit_code == 0, result.output
    assert "byte-identical" in result.stderr


def test_convert_memoir_to_memoir_reproduces_every_file(runner, tmp_path):
    src = GOLDEN / "memoir" / "messy" / "input"
    out = tmp_path / "out"
    result = runner.invoke(memoir_cli(), ["convert", "--from", "memoir", "--to", "memoir", str(src), str(out)])
    assert result.exit_code == 0, result.output
    assert tree(out) == tree(src), "convert memoir→memoir writes the store back byte for byte"


def test_canonical_golden_is_what_the_writer_makes_from_the_model():
    """The canonical golden store is a fixed point: forget every source, write, same bytes."""
    src = GOLDEN / "memoir" / "canonical" / "input"
    store = memoir.read(src)
    for record in store.records:
        record.source = None
    store.working_set.source = None
    fresh = Store(dialect="converted", records=store.records, working_set=store.working_set)
    assert memoir.write(fresh) == tree(src), "canonical memoir is exactly what the writer renders from the model"


def test_check_shows_a_diff_and_exits_one_when_a_file_would_change(runner, tmp_path):
    src = tmp_path / "store"
    (src / "memory").mkdir(parents=True)
    (src / "session.json").write_text('{\n  "current": {}\n}')
    result = runner.invoke(memoir_cli(), ["check", str(src)])
    assert result.exit_code == 1, "a store that would change fails the check"
    assert '+  "version": 1,' in result.stdout, "the diff names the added version"


def memoir_cli():
    from memconv.cli import main

    return main
