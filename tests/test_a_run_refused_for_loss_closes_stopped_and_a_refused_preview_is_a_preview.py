"""A run ``--fail-on-loss`` refuses closes "stopped", and a refused preview is reported as a preview.

Before (forty-fifth session, found by a hunt): a conversion refused for what it would drop (exit 5, "nothing was
written") closed with "memconv convert: done …", as a run that wrote OUT does; and under ``--dry-run``, ``--diff``
or ``--check`` its JSON said ``"dry_run": false``, so a script reading the report took a preview for a real run.
"""
import json
import shutil

import pytest

from memconv.cli import main

from .conftest import GOLDEN

PREVIEWS = {"run": [], "--dry-run": ["--dry-run"], "--diff": ["--diff"], "--check": ["--check"]}


def _memoir_store(tmp_path):
    store = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "messy" / "input", store)
    return store


def _report(result):
    return json.loads(result.stdout[result.stdout.index("{"):])


@pytest.mark.parametrize("flags", PREVIEWS.values(), ids=PREVIEWS.keys())
def test_a_conversion_refused_for_loss(runner, tmp_path, flags):
    store, out = _memoir_store(tmp_path), tmp_path / "out"
    argv = ["convert", "--to", "claude", "--lossy", "--fail-on-loss", str(store), str(out), *flags]
    said = runner.invoke(main, argv)
    assert said.exit_code == 5, said.output
    closing = said.stderr.strip().splitlines()[-1]
    assert closing.startswith("memconv convert: stopped"), closing
    report = _report(runner.invoke(main, [*argv, "--json"]))
    assert report["exit_code"] == 5
    assert report["dry_run"] is bool(flags)
    assert report["written"] is False
    assert not out.exists()


@pytest.mark.parametrize("flags", PREVIEWS.values(), ids=PREVIEWS.keys())
def test_an_import_refused_for_loss(runner, tmp_path, flags):
    store, existing = _memoir_store(tmp_path), tmp_path / "existing"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", existing)
    before = sorted((p.relative_to(existing), p.read_bytes()) for p in existing.rglob("*") if p.is_file())
    argv = ["convert", "--to", "claude", "--lossy", "--fail-on-loss", str(store), "--into", str(existing), *flags]
    said = runner.invoke(main, argv)
    assert said.exit_code == 5, said.output
    assert said.stderr.strip().splitlines()[-1].startswith("memconv convert: stopped")
    report = _report(runner.invoke(main, [*argv, "--json"]))
    assert report["dry_run"] is bool(flags)
    assert sorted((p.relative_to(existing), p.read_bytes()) for p in existing.rglob("*") if p.is_file()) == before
