"""--lossy writes the working set's rendering alone: what of session.json it does not show is listed dropped,
and --fail-on-loss fails on it."""

from __future__ import annotations

import json

import pytest

from memconv.cli import main

from .conftest import GOLDEN

SRC = GOLDEN / "memoir" / "legacy-session" / "input"  # one fact, and a session.json whose history row has a machine


@pytest.mark.parametrize("target", ["claude", "memspec", "memfmt"])
def test_the_working_sets_unshown_structure_is_listed_dropped(runner, tmp_path, target):
    out = tmp_path / "out"
    result = runner.invoke(main, ["convert", "--to", target, "--lossy", "--json", str(SRC), str(out)])
    assert result.exit_code == 0, result.stderr
    entry = next(f for f in json.loads(result.stdout)["files"] if f["source"] == "session.json")
    assert "history.machine_id" in entry["dropped"] and "updated_at" in entry["dropped"]
    assert not any(b"m1" in p.read_bytes() for p in out.rglob("*") if p.is_file()), "the machine is in no file"


def test_fail_on_loss_refuses_a_lossy_conversion_that_drops_only_the_working_sets_structure(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(main, ["convert", "--to", "claude", "--lossy", "--fail-on-loss", str(SRC), str(out)])
    assert result.exit_code == 5, result.stderr
    assert not out.exists()


def test_without_lossy_the_working_set_drops_nothing(runner, tmp_path):
    args = ["convert", "--to", "claude", "--fail-on-loss", "--json", str(SRC), str(tmp_path / "o")]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.stderr
    assert all(f["dropped"] == [] for f in json.loads(result.stdout)["files"])
